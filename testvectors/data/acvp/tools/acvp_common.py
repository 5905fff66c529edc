"""What the ACVP set generators of this folder (make_primitive_sets.py, make_issue32_sets.py)
share: a Miller-Rabin test, the hex form of ACVP fields, and writing a set's prompt.json and
expectedResults.json in the shape of NIST's ACVP server samples. Python integers only."""
import json
import os

# testvectors/data/acvp: the sets are folders here.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47)


def is_probable_prime(n, rng, rounds=40, small_primes=SMALL_PRIMES):
    """Trial division by `small_primes`, then `rounds` Miller-Rabin rounds with bases from
    `rng` (a random.Random: the generators are deterministic, so the draws are part of their
    output)."""
    if n < 2:
        return False
    for p in small_primes:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(rounds):
        a = rng.randrange(2, n - 1)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def hx(x, length=None):
    """`x` as upper-case hex of `length` bytes (default: its own length, at least one)."""
    if length is None:
        length = max(1, (x.bit_length() + 7) // 8)
    return x.to_bytes(length, "big").hex().upper()


def header(mode, revision):
    """The fields a set's two files start with."""
    return {"vsId": 0, "algorithm": "RSA", "mode": mode, "revision": revision, "isSample": True}


def write(folder, head, prompt_groups, expected_groups):
    """Writes prompt.json and expectedResults.json into HERE/`folder`."""
    folder = os.path.join(HERE, folder)
    os.makedirs(folder, exist_ok=True)
    for name, groups in (("prompt.json", prompt_groups), ("expectedResults.json", expected_groups)):
        with open(os.path.join(folder, name), "w") as f:
            json.dump(dict(head, testGroups=groups), f, indent=2)
            f.write("\n")
