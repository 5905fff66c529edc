# Prints the asm lines of `sqr_triangle` in sqr.rs (the body of its `asm!`, between `asm!(`
# and the operands): `python3 sqr_ring.py 8`. Eight copies of the same 8-limb loop differ only
# in labels and entry slot; writing them by hand invites a typo in one copy that only some n
# reach. The tests in ../x86_64.rs check every n from 1 to 80 against portable and num-bigint.
# Not run by the build: the output is pasted into sqr.rs (no build.rs: ARCHITECTURE.md, "Layers").

# Generates the asm lines of the ring triangle with U-limb bodies (U = 8 or 4); row 0 is mul_1.
import sys
U = int(sys.argv[1]) if len(sys.argv) > 1 else 8
BITS = U.bit_length() - 1
L = []
def e(s): L.append(s)
def c(s): L.append("// " + s)
slots = [("h0","l0","c") if j % 2 == 0 else ("c","l1","h0") for j in range(U)]

def dispatch(target):
    # Branch to target(k) for k = len mod U; a binary tree on the low bits of len.
    def tree(bit, k):
        if bit == BITS:
            return
        if bit == BITS - 1:
            e(f'"test {{len:l}}, {1 << bit}",')
            e(f'"jz {target(k)}f",')
            e(f'"jmp {target(k | (1 << bit))}f",')
            return
        lab = "2" if bit == 0 else "8"
        e(f'"test {{len:l}}, {1 << bit}",')
        e(f'"jnz {lab}f",')
        tree(bit + 1, k)
        e(f'"{lab}:",')
        tree(bit + 1, k | (1 << bit))
    tree(0, 0)

c(f"Row 0 (len = n - 1) multiplies onto nothing: mul_1, the CF chain only, entered at slot")
c(f"(-len) mod {U} with both pointers lowered to match (a choice on n only).")
e('"mov rdx, qword ptr [{ai}]",')
e(f'"lea rcx, [{{len}} + {U-1}]",')
e(f'"shr rcx, {BITS}",')
e('"mov {t}, {len}",')
e('"neg {t}",')
e(f'"and {{t}}, {U-1}",')
e('"shl {t}, 3",')
e('"lea {ap}, [{ai} + 8]",')
e('"sub {ap}, {t}",')
e('"mov {rp}, {rs}",')
e('"sub {rp}, {t}",')
e('"xor {c:e}, {c:e}",')
c("`xor` clears CF (and `test` below keeps it clear).")
e('"xor {h0:e}, {h0:e}",')
dispatch(lambda k: f"3{(U - k) % U}")
e('".p2align 4",')
for j,(hi,lo,cin) in enumerate(slots):
    e(f'"3{j}:",')
    d = f" + {8*j}" if j else ""
    e(f'"mulx {{{hi}}}, {{{lo}}}, qword ptr [{{ap}}{d}]",')
    e(f'"adcx {{{lo}}}, {{{cin}}}",')
    e(f'"mov qword ptr [{{rp}}{d}], {{{lo}}}",')
e(f'"lea {{ap}}, [{{ap}} + {8*U}]",')
e(f'"lea {{rp}}, [{{rp}} + {8*U}]",')
e('"lea rcx, [rcx - 1]",')
e('"jrcxz 39f",')
e('"jmp 30b",')
c("r[n] = c + CF (rcx is 0 here); then rows 1 ..= n-2 in the ring, if n > 2.")
e('"39:",')
e('"adcx {c}, rcx",')
e('"mov qword ptr [{rp}], {c}",')
e('"lea {rs}, [{rs} + 16]",')
e('"lea {ai}, [{ai} + 8]",')
e('"dec {len}",')
e('"jz 9f",')
c(f"Enter the ring at the class of row 1, len = n - 2 (mod {U}): a choice on n only.")
dispatch(lambda k: f"4{k}")
for k in reversed(range(U)):
    s = (U-k) % U
    c(f"Row with len ≡ {k} (mod {U}): enter the body at slot {s}, both pointers {s} limbs low.")
    e(f'"4{k}:",')
    e('"mov rdx, qword ptr [{ai}]",')
    off = 8 - 8*s
    if off == 0:
        e('"mov {ap}, {ai}",')
    else:
        e(f'"lea {{ap}}, [{{ai}} {"+" if off>=0 else "-"} {abs(off)}]",')
    if s:
        e(f'"lea {{rp}}, [{{rs}} - {8*s}]",')
    else:
        e('"mov {rp}, {rs}",')
    e(f'"lea rcx, [{{len}} + {U-1}]",')
    e(f'"shr rcx, {BITS}",')
    # The carry into the entry slot is c for an even slot, h0 for an odd one; the other is
    # written by the slot's `mulx` before it is read.
    cin = "h0" if s % 2 else "c"
    c(f"{cin} = 0, and `xor` clears CF and OF: both chains start at zero.")
    e(f'"xor {{{cin}:e}}, {{{cin}:e}}",')
    if s:
        e(f'"jmp 5{k}{s}f",')
    e('".p2align 4",')
    e(f'"6{k}:",')
    for j,(hi,lo,cin) in enumerate(slots):
        if j and j == s:
            e(f'"5{k}{s}:",')
        d = f" + {8*j}" if j else ""
        e(f'"mulx {{{hi}}}, {{{lo}}}, qword ptr [{{ap}}{d}]",')
        e(f'"adcx {{{lo}}}, {{{cin}}}",')
        e(f'"adox {{{lo}}}, qword ptr [{{rp}}{d}]",')
        e(f'"mov qword ptr [{{rp}}{d}], {{{lo}}}",')
    e(f'"lea {{ap}}, [{{ap}} + {8*U}]",')
    e(f'"lea {{rp}}, [{{rp}} + {8*U}]",')
    e('"lea rcx, [rcx - 1]",')
    e(f'"jrcxz 7{k}f",')
    e(f'"jmp 6{k}b",')
    c("High limb of the row, r[n+i] = c + CF + OF (rcx is 0 here); next row.")
    e(f'"7{k}:",')
    e('"adcx {c}, rcx",')
    e('"adox {c}, rcx",')
    e('"mov qword ptr [{rp}], {c}",')
    e('"lea {rs}, [{rs} + 16]",')
    e('"lea {ai}, [{ai} + 8]",')
    e('"dec {len}",')
    e('"jz 9f",')
    if k == 0:
        e(f'"jmp 4{U-1}b",')
e('"9:",')
print("\n".join(L))
