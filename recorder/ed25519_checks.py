"""Which Ed25519 public keys and signatures gamerec refuses (docs/seals.md "Keys").

A public key is 32 bytes: the point's y coordinate (little-endian, 255 bits) and the sign of
its x in the top bit (RFC 8032 §5.1.2). Some encodings are *weak*:

- **small order**: the 8 points whose order divides 8 (the identity among them). With such a
  key, one fixed 64-byte string passes Ed25519 verification for every message (RFC 8032
  verification tolerates the cofactor), so the key proves nothing;
- **non-canonical**: y written as a number of p = 2^255 - 19 or more (another spelling of
  y - p), or x = 0 with its sign bit set; the same point then has two keys;
- **not a point**: a y for which no x exists.

A signature is refused when its S (the last 32 bytes, little-endian) is L or more (L the
group's order): S + L verifies wherever S does (malleability; RFC 8032 §5.1.7 step 1).

Pure arithmetic on integers, no ``cryptography``: cheap enough for every key that enters.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

#: The field's prime and the group's order (RFC 8032 §5.1).
P: Final = 2**255 - 19
L: Final = 2**252 + 27742317777372353535851937790883648493
_D: Final = -121665 * pow(121666, -1, P) % P
_SQRT_M1: Final = pow(2, (P - 1) // 4, P)
_KEY_BYTES: Final = 32
_SIGNATURE_BYTES: Final = 64

_Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T)


def _x_of(y: int, sign: int) -> int | None:
    """The x of the point with this y and x's sign bit, or None when there is none."""
    u, v = (y * y - 1) % P, (_D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P != 0:
        x = x * _SQRT_M1 % P
    if (v * x * x - u) % P != 0:
        return None
    if x == 0 and sign:
        return None
    return P - x if x & 1 != sign else x


def _double(point: _Point) -> _Point:
    x, y, z, _ = point
    a, b, c = x * x % P, y * y % P, 2 * z * z % P
    h = a + b
    e = (h - (x + y) * (x + y)) % P
    g = (a - b) % P
    f = (c + g) % P
    return e * f % P, g * h % P, f * g % P, e * h % P


#: Keys judged and remembered at most (the same few keys seal a whole archive: its seats' and
#: its host's; judging one costs three modular exponentiations, about 0.3 ms).
KEYS_REMEMBERED: Final = 1024


@lru_cache(maxsize=KEYS_REMEMBERED)
def key_weakness(key: bytes) -> str | None:
    """Why gamerec refuses an Ed25519 public key, or None for a key it takes.

    Keys of another length are not judged here (the callers say so). A pure function of the
    key's bytes, remembered for the last :data:`KEYS_REMEMBERED` keys.
    """
    if len(key) != _KEY_BYTES:
        return None
    number = int.from_bytes(key, "little")
    y, sign = number & ((1 << 255) - 1), number >> 255
    if y >= P:
        return "a non-canonical encoding (y is p or more)"
    x = _x_of(y, sign)
    if x is None:
        if sign and _x_of(y, 0) == 0:
            return "a non-canonical encoding (x is 0 and its sign bit is set)"
        return "not a point of the curve"
    point: _Point = (x, y, 1, x * y % P)
    for _ in range(3):
        point = _double(point)
    if point[0] % P == 0:  # 8 times the point is the identity (x = 0, y = z)
        return "a point of small order (it would accept one fixed signature on everything)"
    return None


def signature_is_canonical(signature: bytes) -> bool:
    """Whether a 64-byte signature's S is below the group's order L (others are refused)."""
    if len(signature) != _SIGNATURE_BYTES:
        return True  # its length is judged elsewhere (Ed25519 refuses it anyway)
    return int.from_bytes(signature[32:], "little") < L
