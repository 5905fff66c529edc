# Prints the asm lines of the 8-limb off-diagonal triangle in window.rs (the body of the
# `sqr_triangle_8` macro): `python3 tri8.py`. Straight-line code for a fixed size, with a
# register per limb position, is easier to get right from a generator than by hand; the tests
# in bignum/tests/differential/backends.rs check every n against portable and num-bigint.
# Not run by the build: the output is pasted into window.rs (no build.rs: ARCHITECTURE.md,
# "Layers").
#
# In: a[0..8] at rsi, multiplier register rdx. Out: r[0..16] at rdi = Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ
# (r[0] = r[15] = 0). Scratch: r8..r15, rax, rcx.
#
# Row 0 is a mul_1 (positions 1..8 are empty). Row j ≥ 1 adds aⱼ·a[j+1..8] at position 2j+1:
# the low halves into positions 2j+1.. in the OF chain (adox), the high halves into positions
# 2j+2.. in the CF chain (adcx), the last high half becomes position j+8 with both chains'
# carries folded in. Before row j, position j+1 is final (no later row reaches it): stored,
# which frees its register.
POOL = ["r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rax", "rcx"]
free = list(POOL)
pos = {}
out = []


def e(s):
    out.append(s)


def take():
    return free.pop(0)


def give(r):
    free.append(r)


def store(p):
    e(f"mov qword ptr [rdi + {8 * p}], {pos[p]}")
    give(pos.pop(p))


# Row 0: mul_1 of a0 by a[1..8], positions 1..8; plain add/adc (one chain).
e("mov rdx, qword ptr [rsi]")
hi = None
for i in range(7):
    p = 1 + i
    h = take()
    lo = take()
    e(f"mulx {h}, {lo}, qword ptr [rsi + {8 * (1 + i)}]")
    if hi is not None:
        e(f"{'add' if i == 1 else 'adc'} {lo}, {hi}")
        give(hi)
    pos[p] = lo
    hi = h
e(f"adc {hi}, 0")
pos[8] = hi
e("mov qword ptr [rdi], 0")
store(1)
# Rows 1..6.
for j in range(1, 7):
    store(j + 1)
    e(f"mov rdx, qword ptr [rsi + {8 * j}]")
    n = 7 - j
    lo = take()
    # `xor` clears CF and OF: the row's chains start at zero.
    e(f"xor {lo}, {lo}")
    for i in range(n):
        p = 2 * j + 1 + i
        h = take()
        e(f"mulx {h}, {lo}, qword ptr [rsi + {8 * (j + 1 + i)}]")
        e(f"adox {pos[p]}, {lo}")
        if i < n - 1:
            e(f"adcx {pos[p + 1]}, {h}")
            give(h)
        else:
            # The last high half is position j+8; both chains end there.
            e(f"mov {lo}, 0")
            e(f"adcx {h}, {lo}")
            e(f"adox {h}, {lo}")
            pos[j + 8] = h
    give(lo)
for p in range(8, 15):
    store(p)
e("mov qword ptr [rdi + 120], 0")
for line in out:
    print(f'"{line}\\n",')
