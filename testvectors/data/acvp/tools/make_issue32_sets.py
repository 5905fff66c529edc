#!/usr/bin/env python3
"""Makes the vector sets under testvectors/data/acvp/ added for issue #32 (ours, not NIST's),
each a prompt.json and an expectedResults.json in the shape of NIST's ACVP server samples
(usnistgov/ACVP-Server gen-val/json-files/<same name without -local>):

  RSA-KeyGen-FIPS186-4-KAT-local         keyGen KAT groups (randPQ B.3.3): primality verdicts
  RSA-KeyGen-FIPS186-5-KAT-local         the same under FIPS 186-5's names (probable)
  RSA-SignaturePrimitive-1.0-local       RSASP1 on the server's keys, 1.0's field names
  RSA-DecryptionPrimitive-1.0-local      RSADP with the implementation's keys
  RSA-SigVer-FIPS186-2-local             PKCS #1 v1.5 and PSS verdicts, 1024/1536/2048 bits

Keys, inputs and expected outputs come from Python integers and hashlib only
(random.Random(seed), Miller-Rabin, pow, EMSA-PKCS1-v1_5 and EMSA-PSS written out from
RFC 8017): nothing from rsatool. When the `cryptography` package is installed, every
signature of the sigVer set is also checked with it (OpenSSL) and the script stops on any
disagreement with the verdict it wrote.

Usage: python3 make_issue32_sets.py  (writes next to this tools/ folder; deterministic)
"""
import hashlib
import math
import random
import sys

# No __pycache__ under data/: tests/vectors/parse.rs checks every file there against SOURCES.md.
sys.dont_write_bytecode = True
from acvp_common import header, hx, is_probable_prime, write

R = random.Random(20261202)


def rand_prime(bits, e, lo=None, hi=None):
    """A prime of `bits` bits with gcd(p - 1, e) = 1, at least sqrt(2)*2^(bits-1)."""
    while True:
        c = R.getrandbits(bits) | (1 << (bits - 1)) | (1 << (bits - 2)) | 1
        if math.gcd(c - 1, e) == 1 and is_probable_prime(c, R):
            return c


def key(bits, e=65537):
    while True:
        p, q = rand_prime(bits // 2, e), rand_prime(bits // 2, e)
        n = p * q
        lam = (p - 1) * (q - 1) // math.gcd(p - 1, q - 1)
        if p != q and n.bit_length() == bits and math.gcd(e, lam) == 1:
            d = pow(e, -1, lam)
            return dict(n=n, e=e, p=p, q=q, d=d, dmp1=d % (p - 1), dmq1=d % (q - 1),
                        iqmp=pow(q, -1, p))


# ---- keyGen KAT: FIPS 186-4 B.3.3 steps 4-5 (FIPS 186-5 A.1.3) on given candidates ----------

def b33_accepts(nlen, e, p, q):
    """FIPS 186-4 B.3.3: e odd in (2^16, 2^256); p and q each >= sqrt(2)*2^(nlen/2 - 1) (as
    r*r >= 2^(nlen - 1)), below 2^(nlen/2), gcd(r - 1, e) = 1 and prime; |p - q| >
    2^(nlen/2 - 100)."""
    half = nlen // 2
    if e % 2 == 0 or not (2 ** 16 < e < 2 ** 256):
        return False

    def ok(r):
        return (r is not None and r * r >= 2 ** (nlen - 1) and r < 2 ** half
                and math.gcd(r - 1, e) == 1 and is_probable_prime(r, R))

    return ok(p) and ok(q) and abs(p - q) > 2 ** (half - 100)


def next_prime(x, e):
    x |= 1
    while not (math.gcd(x - 1, e) == 1 and is_probable_prime(x, R)):
        x += 2
    return x


def kat_cases(nlen, tc):
    """(e, p, q) candidates, one of each way to fail and some that pass."""
    half = nlen // 2
    low = math.isqrt(2 ** (nlen - 1))  # floor(sqrt(2) * 2^(half - 1))
    cases = []
    e1 = 2 * R.getrandbits(22) + 2 ** 23 + 1  # random odd e of 24 bits, as the server's
    e2 = 2 * R.getrandbits(254) + 2 ** 255 + 1  # the largest size allowed
    good_p, good_q = rand_prime(half, e1), rand_prime(half, e1)
    cases.append((e1, good_p, good_q))  # passes
    cases.append((e2, rand_prime(half, e2), rand_prime(half, e2)))  # passes, large e
    # A product of two primes of half the size, in range and with gcd(comp - 1, e) = 1, so
    # that only its compositeness fails it (the factors are drawn without a condition on e:
    # with one, 3 | e would make every product 1 mod 3).
    while True:
        comp = rand_prime(half // 2, 1) * rand_prime(half - half // 2, 1)
        if comp * comp >= 2 ** (nlen - 1) and math.gcd(comp - 1, e1) == 1:
            break
    cases.append((e1, comp, None))  # p composite (q not given, as the server does)
    small = next_prime(low - 2 ** (half - 8), e1)  # a prime just below the bound
    cases.append((e1, small, None))
    edge = next_prime(low + 1, e1)  # the smallest prime above the bound
    cases.append((e1, edge, good_q))  # passes
    short = rand_prime(half - 1, e1)  # a prime one bit short
    cases.append((e1, short, None))
    # p prime but gcd(p - 1, e) > 1: e = a prime factor of p - 1 (made odd and > 2^16).
    while True:
        f = rand_prime(20, 1) | (1 << 18)
        if not is_probable_prime(f, R):
            continue
        base = R.getrandbits(half) | (1 << (half - 1)) | (1 << (half - 2))
        cand = base - base % (2 * f) + 1  # cand = 1 mod 2f
        if cand.bit_length() == half and is_probable_prime(cand, R):
            break
    e3 = f  # f divides cand - 1
    cases.append((e3, cand, rand_prime(half, e3)))
    cases.append((e1, good_p, comp))  # q composite
    cases.append((e1, good_p, small))  # q below the bound
    near = next_prime(good_p + 2 ** (half - 101), e1)  # |p - q| too small
    cases.append((e1, good_p, near))
    far = next_prime(good_p + 2 ** (half - 99) + 2 ** (half - 100), e1)  # |p - q| just enough
    if far.bit_length() == half:
        cases.append((e1, good_p, far))
    cases.append((e1, good_p, good_p))  # p = q
    big = next_prime(2 ** half + 1, e1)  # one bit too long
    cases.append((e1, good_p, big))
    cases.append((2 ** 16 + 1, good_p, good_q))  # e = 2^16 + 1 passes
    cases.append((2 ** 16 - 1, good_p, good_q))  # e below 2^16 fails
    tests, results = [], []
    for e, p, q in cases:
        tc += 1
        tests.append({"tcId": tc, "e": hx(e), "p": hx(p), "q": "" if q is None else hx(q)})
        results.append({"tcId": tc, "testPassed": b33_accepts(nlen, e, p, q)})
    return tests, results, tc


def make_kat(revision, rand_pq, prime_tests, folder):
    pg, eg, tc = [], [], 0
    for tg, (nlen, pt) in enumerate(zip((2048, 3072), prime_tests), 1):
        tests, results, tc = kat_cases(nlen, tc)
        pg.append({"tgId": tg, "infoGeneratedByServer": False, "modulo": nlen, "testType": "KAT",
                   "keyFormat": "crt", "primeTest": pt, "randPQ": rand_pq, "pubExp": "random",
                   "tests": tests})
        eg.append({"tgId": tg, "tests": results})
    write(folder, header("keyGen", revision), pg, eg)


# ---- signaturePrimitive 1.0: RSASP1 (RFC 8017 5.2.1), m must be below n -------------------

def make_sig_prim_1():
    pg, eg, tc = [], [], 0
    for tg, fmt in enumerate(("standard", "crt"), 1):
        tests, results = [], []
        for i in range(6):
            tc += 1
            k = key(2048, R.choice([65537, 2 * R.getrandbits(40) + 2 ** 40 + 1]))
            n, size = k["n"], 256
            x = [n, 2 ** 2048 - 1, n + 1, 0][i] if i < 4 and i != 3 else (
                n - 1 if i == 3 else R.randrange(2, n))
            t = {"tcId": tc, "message": hx(x, size), "n": hx(k["n"]), "e": hx(k["e"])}
            if fmt == "crt":
                t.update(p=hx(k["p"]), q=hx(k["q"]), dmp1=hx(k["dmp1"]), dmq1=hx(k["dmq1"]),
                         iqmp=hx(k["iqmp"]))
            else:
                t.update(d=hx(k["d"]))
            tests.append(t)
            if x < n:
                results.append({"tcId": tc, "testPassed": True, "signature": hx(pow(x, k["d"], n), size)})
            else:
                results.append({"tcId": tc, "testPassed": False})
        pg.append({"tgId": tg, "modulo": 2048, "keyFormat": fmt, "testType": "AFT", "tests": tests})
        eg.append({"tgId": tg, "tests": results})
    write("RSA-SignaturePrimitive-1.0-local", header("signaturePrimitive", "1.0"), pg, eg)


# ---- decryptionPrimitive 1.0: RSADP (SP 800-56B 7.1.2), 1 < c < n - 1, our keys ----------

def make_dec_prim_1():
    pg, eg, tc = [], [], 0
    total, failing = 6, 2
    tests, results = [], []
    for _ in range(2):
        tc += 1
        cts = [R.randrange(2 ** 2046, 2 ** 2047) for _ in range(total - 3)]
        cts += [R.randrange(2 ** 2047 + 2 ** 2046 + 2 ** 2045, 2 ** 2048) for _ in range(3)]
        R.shuffle(cts)
        # The server's own answer: the `failing` largest ciphertexts get a key whose n is
        # not above c + 1, the others one for which they are in range.
        fail = set(sorted(range(total), key=lambda i: -cts[i])[:failing])
        answers = []
        for i, c in enumerate(cts):
            while True:
                k = key(2048, 2 * R.getrandbits(30) + 2 ** 30 + 1)
                in_range = 1 < c < k["n"] - 1
                if in_range != (i in fail):
                    break
            a = {"e": hx(k["e"]), "n": hx(k["n"])}
            if in_range:
                a["plainText"] = hx(pow(c, k["d"], k["n"]), 256)
            a["testPassed"] = in_range
            answers.append(a)
        tests.append({"tcId": tc, "deferred": False,
                      "resultsArray": [{"cipherText": hx(c, 256)} for c in cts]})
        results.append({"tcId": tc, "resultsArray": answers})
    pg.append({"tgId": 1, "modulo": 2048, "totalTestCases": total, "totalFailingCases": failing,
               "testType": "AFT", "tests": tests})
    eg.append({"tgId": 1, "tests": results})
    write("RSA-DecryptionPrimitive-1.0-local", header("decryptionPrimitive", "1.0"), pg, eg)


# ---- sigVer FIPS186-2: EMSA-PKCS1-v1_5 and EMSA-PSS (RFC 8017 9.2, 9.1.1) -----------------

HASHES = {"SHA-1": "sha1", "SHA2-224": "sha224", "SHA2-256": "sha256", "SHA2-384": "sha384",
          "SHA2-512": "sha512"}
DIGEST_INFO = {  # RFC 8017 9.2 note 1
    "SHA-1": "3021300906052b0e03021a05000414",
    "SHA2-224": "302d300d06096086480165030402040500041c",
    "SHA2-256": "3031300d060960864801650304020105000420",
    "SHA2-384": "3041300d060960864801650304020205000430",
    "SHA2-512": "3051300d060960864801650304020305000440",
}


def h(name, data):
    return hashlib.new(HASHES[name], data).digest()


def mgf1(name, seed, length):
    out = b""
    for counter in range((length + len(h(name, b"")) - 1) // len(h(name, b""))):
        out += h(name, seed + counter.to_bytes(4, "big"))
    return out[:length]


def emsa_pkcs1(name, msg, k):
    t = bytes.fromhex(DIGEST_INFO[name]) + h(name, msg)
    return b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t


def emsa_pss(name, msg, embits, salt):
    mhash = h(name, msg)
    hlen, emlen = len(mhash), (embits + 7) // 8
    hh = h(name, b"\x00" * 8 + mhash + salt)
    db = b"\x00" * (emlen - len(salt) - hlen - 2) + b"\x01" + salt
    masked = bytes(a ^ b for a, b in zip(db, mgf1(name, hh, emlen - hlen - 1)))
    masked = bytes([masked[0] & (0xFF >> (8 * emlen - embits))]) + masked[1:]
    return masked + hh + b"\xbc"


def sign(k, em):
    size = (k["n"].bit_length() + 7) // 8
    return pow(int.from_bytes(em, "big"), k["d"], k["n"]).to_bytes(size, "big")


def make_sig_ver_186_2():
    groups = [("pkcs1v1.5", 1024, "SHA-1", None), ("pkcs1v1.5", 1536, "SHA2-256", None),
              ("pkcs1v1.5", 2048, "SHA2-384", None), ("pss", 1024, "SHA2-512", 62),
              ("pss", 2048, "SHA-1", 20), ("pss", 1536, "SHA2-224", 0)]
    pg, eg, tc = [], [], 0
    checks = []
    for tg, (kind, bits, name, slen) in enumerate(groups, 1):
        k = key(bits, 2 * R.getrandbits(20) + 2 ** 20 + 1)
        other = key(bits)
        size = (bits + 7) // 8
        tests, results = [], []
        for i in range(5):
            tc += 1
            msg = R.randbytes(128)
            if kind == "pss":
                encode = lambda m, s=None: emsa_pss(name, m, bits - 1,
                                                    R.randbytes(slen) if s is None else s)
            else:
                encode = lambda m, s=None: emsa_pkcs1(name, m, size)
            sig, valid = sign(k, encode(msg)), True
            if i == 1:  # another message
                msg, valid = R.randbytes(128), False
            elif i == 2:  # one bit of the signature flipped
                sig, valid = bytes([sig[0] ^ 0x01]) + sig[1:], False
            elif i == 3:  # signed by another key
                sig, valid = sign(other, encode(msg)), False
            elif i == 4 and kind == "pss":  # a salt of another length
                sig, valid = sign(k, encode(msg, R.randbytes(slen + 1))), False
            elif i == 4:  # a signature equal to n (not below n)
                sig, valid = k["n"].to_bytes(size, "big"), False
            tests.append({"tcId": tc, "message": msg.hex().upper(), "signature": sig.hex().upper()})
            results.append({"tcId": tc, "testPassed": valid})
            checks.append((kind, name, slen, k, msg, sig, valid))
        g = {"tgId": tg, "sigType": kind, "modulo": bits, "hashAlg": name, "testType": "GDT",
             "e": hx(k["e"]), "n": hx(k["n"]), "tests": tests}
        if kind == "pss":
            g["saltLen"] = slen
        pg.append(g)
        eg.append({"tgId": tg, "tests": results})
    # An ANSI X9.31 group, which a verifier without X9.31 refuses (its verdicts are left out
    # of the expected results: the set is not about them).
    tc += 1
    k = key(2048)
    pg.append({"tgId": len(groups) + 1, "sigType": "ansx9.31", "modulo": 2048,
               "hashAlg": "SHA2-256", "testType": "GDT", "e": hx(k["e"]), "n": hx(k["n"]),
               "tests": [{"tcId": tc, "message": "00", "signature": "00" * 256}]})
    write("RSA-SigVer-FIPS186-2-local", header("sigVer", "FIPS186-2"), pg, eg)
    cross_check(checks)


def cross_check(checks):
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding, rsa
    except ImportError:
        print("cryptography not installed: sigVer verdicts not cross-checked")
        return
    algs = {"SHA-1": hashes.SHA1, "SHA2-224": hashes.SHA224, "SHA2-256": hashes.SHA256,
            "SHA2-384": hashes.SHA384, "SHA2-512": hashes.SHA512}
    for kind, name, slen, k, msg, sig, valid in checks:
        pub = rsa.RSAPublicNumbers(k["e"], k["n"]).public_key()
        pad = (padding.PSS(mgf=padding.MGF1(algs[name]()), salt_length=slen)
               if kind == "pss" else padding.PKCS1v15())
        try:
            pub.verify(sig, msg, pad, algs[name]())
            ok = True
        except InvalidSignature:
            ok = False
        assert ok == valid, (kind, name, slen, valid)
    print(f"cryptography agrees on all {len(checks)} sigVer verdicts")


make_kat("FIPS186-4", "B.3.3", ("tblC2", "tblC3"), "RSA-KeyGen-FIPS186-4-KAT-local")
make_kat("FIPS186-5", "probable", ("2pow100", "2powSecStr"), "RSA-KeyGen-FIPS186-5-KAT-local")
make_sig_prim_1()
make_dec_prim_1()
make_sig_ver_186_2()
