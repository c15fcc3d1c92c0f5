"""The game's random generator, stored inside the state (R25).

xorshift128 (Marsaglia) on four 32-bit words kept in ``S[S_RNG:S_RNG+4]``.  All arithmetic stays
below 2**63 in int64, so the jitted and the ``NUMBA_DISABLE_JIT=1`` runs give the same numbers on
any machine.
"""
from numba import njit

from .layout import S_RNG

M32 = 0xFFFFFFFF


@njit(cache=True)
def mix32(x):
    """A 32-bit integer finaliser (bijective), used to spread a seed over the generator words."""
    x = x & M32
    x ^= x >> 16
    x = (x * 0x45D9F3B) & M32
    x ^= x >> 16
    x = (x * 0x45D9F3B) & M32
    x ^= x >> 16
    return x


@njit(cache=True)
def rng_seed(S, seed):
    """Seed the generator of state ``S`` from a non-negative int64 ``seed``."""
    lo = seed & M32
    hi = (seed >> 32) & M32
    S[S_RNG] = mix32(lo ^ 0x6A09E667)
    S[S_RNG + 1] = mix32(hi ^ 0xBB67AE85)
    S[S_RNG + 2] = mix32((lo + 0x3C6EF372) & M32)
    S[S_RNG + 3] = mix32((hi + 0xA54FF53A) & M32)
    if S[S_RNG] == 0 and S[S_RNG + 1] == 0 and S[S_RNG + 2] == 0 and S[S_RNG + 3] == 0:
        S[S_RNG + 3] = 1


@njit(cache=True)
def rng_next(S):
    """Advance the generator; return a uniform integer in [0, 2**32)."""
    x = S[S_RNG]
    t = (x ^ ((x << 11) & M32)) & M32
    S[S_RNG] = S[S_RNG + 1]
    S[S_RNG + 1] = S[S_RNG + 2]
    S[S_RNG + 2] = S[S_RNG + 3]
    w = S[S_RNG + 3]
    w = (w ^ (w >> 19)) ^ (t ^ (t >> 8))
    S[S_RNG + 3] = w
    return w


@njit(cache=True)
def rng_below(S, n):
    """A uniform integer in [0, n) for 0 < n < 2**31."""
    return (rng_next(S) * n) >> 32


@njit(cache=True)
def shuffle_range(S, off, n):
    """Fisher-Yates shuffle of ``S[off:off+n]`` with the state's generator."""
    for i in range(n - 1, 0, -1):
        j = rng_below(S, i + 1)
        tmp = S[off + i]
        S[off + i] = S[off + j]
        S[off + j] = tmp
