#!/usr/bin/env python3
"""Makes the two primitive vector sets under testvectors/data/acvp/ (ours, not NIST's):
RSA-SignaturePrimitive-2.0-local and RSA-DecryptionPrimitive-Sp800-56Br2-local, each a
prompt.json and an expectedResults.json in the shape of NIST's ACVP server samples
(usnistgov/ACVP-Server gen-val/json-files/RSA-SignaturePrimitive-2.0 and
RSA-DecryptionPrimitive-Sp800-56Br2). Keys, inputs and expected outputs come from Python
integers only (random.Random(seed), Miller-Rabin, pow): nothing from rsatool.

Usage: python3 make_primitive_sets.py  (writes next to this tools/ folder; deterministic)
"""
import random
import sys

# No __pycache__ under data/: tests/vectors/parse.rs checks every file there against SOURCES.md.
sys.dont_write_bytecode = True
from acvp_common import SMALL_PRIMES, header, hx, is_probable_prime, write

R = random.Random(20261201)
# This set was made with trial division up to 37 only: the Miller-Rabin draws, and so the
# keys, depend on it.
TRIAL_PRIMES = SMALL_PRIMES[:12]


def prime(bits, e):
    while True:
        c = R.getrandbits(bits) | (1 << (bits - 1)) | (1 << (bits - 2)) | 1
        if (c - 1) % e != 0 and is_probable_prime(c, R, small_primes=TRIAL_PRIMES):
            return c


def key(bits):
    e = R.choice([65537, 3, 0x10001 + 2 * R.getrandbits(20)]) | 1
    while True:
        p, q = prime(bits // 2, e), prime(bits // 2, e)
        n = p * q
        lam = (p - 1) * (q - 1) // __import__("math").gcd(p - 1, q - 1)
        if p != q and n.bit_length() == bits and __import__("math").gcd(e, lam) == 1:
            d = pow(e, -1, lam)
            return dict(n=n, e=e, p=p, q=q, d=d, dmp1=d % (p - 1), dmq1=d % (q - 1),
                        iqmp=pow(q, -1, p))


def case_key(k, mode):
    out = {"n": hx(k["n"]), "e": hx(k["e"]), "p": hx(k["p"]), "q": hx(k["q"])}
    if mode == "crt":
        out.update(d="", dmp1=hx(k["dmp1"]), dmq1=hx(k["dmq1"]), iqmp=hx(k["iqmp"]))
    else:
        out.update(d=hx(k["d"]), dmp1="", dmq1="", iqmp="")
    return out


def make(mode_name, revision, field, out_field, bad_inputs, folder):
    prompt_groups, expected_groups = [], []
    tc = 0
    for tg, (bits, key_mode) in enumerate([(2048, "standard"), (2048, "crt"), (3072, "crt")], 1):
        tests, results = [], []
        for i in range(5):
            tc += 1
            k = key(bits)
            n = k["n"]
            size = (n.bit_length() + 7) // 8
            if i < len(bad_inputs):
                x = bad_inputs[i](n)
            else:
                x = R.randrange(2, n - 2)
            t = {"tcId": tc, field: hx(x, size)}
            t.update(case_key(k, key_mode))
            tests.append(t)
            lo_ok = x < n if field == "message" else 1 < x < n - 1
            if lo_ok:
                results.append({"tcId": tc, "testPassed": True, out_field: hx(pow(x, k["d"], n), size)})
            else:
                results.append({"tcId": tc, "testPassed": False})
        prompt_groups.append({"tgId": tg, "modulo": bits, "testType": "AFT", "keyMode": key_mode,
                              "tests": tests})
        expected_groups.append({"tgId": tg, "tests": results})
    write(folder, header(mode_name, revision), prompt_groups, expected_groups)


# RSASP1 (RFC 8017 5.2.1): m must be below n; m = n and m = n + 1 (one byte longer is not
# possible at k bytes, so n itself and the largest k-byte value) fail.
make("signaturePrimitive", "2.0", "message", "signature",
     [lambda n: n, lambda n: (1 << (8 * ((n.bit_length() + 7) // 8))) - 1, lambda n: 0,
      lambda n: n - 1],
     "RSA-SignaturePrimitive-2.0-local")
# RSADP (SP 800-56B Rev. 2, 7.1.2): 1 < c < n - 1, so 0, 1, n - 1 and n fail.
make("decryptionPrimitive", "Sp800-56Br2", "ct", "pt",
     [lambda n: n - 1, lambda n: 1, lambda n: 0, lambda n: n],
     "RSA-DecryptionPrimitive-Sp800-56Br2-local")
