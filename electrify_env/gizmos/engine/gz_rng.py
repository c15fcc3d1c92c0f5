"""The game's random generator, stored inside the state (G24).

xorshift128 (Marsaglia) on four 32-bit words in ``S[S_RNG:S_RNG+4]``; all arithmetic stays in
int64 below 2**63, so jitted and ``NUMBA_DISABLE_JIT=1`` runs give the same numbers everywhere.
"""
from numba import njit

from .gz_layout import S_RNG

M32 = 0xFFFFFFFF


@njit(cache=True)
def gz_mix32(x):
    """A bijective 32-bit finaliser that spreads a seed over the generator words."""
    x = x & M32
    x ^= x >> 16
    x = (x * 0x45D9F3B) & M32
    x ^= x >> 16
    x = (x * 0x45D9F3B) & M32
    x ^= x >> 16
    return x


@njit(cache=True)
def gz_seed(S, seed):
    """Seed the generator of ``S`` from a non-negative int64 ``seed``."""
    lo = seed & M32
    hi = (seed >> 32) & M32
    S[S_RNG] = gz_mix32(lo ^ 0x243F6A88)
    S[S_RNG + 1] = gz_mix32(hi ^ 0x85A308D3)
    S[S_RNG + 2] = gz_mix32((lo + 0x13198A2E) & M32)
    S[S_RNG + 3] = gz_mix32((hi + 0x03707344) & M32)
    if S[S_RNG] == 0 and S[S_RNG + 1] == 0 and S[S_RNG + 2] == 0 and S[S_RNG + 3] == 0:
        S[S_RNG + 3] = 1


@njit(cache=True)
def gz_next(S):
    """Advance the generator; a uniform integer in [0, 2**32)."""
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
def gz_below(S, n):
    """A uniform integer in [0, n) for 0 < n < 2**31."""
    return (gz_next(S) * n) >> 32


@njit(cache=True)
def gz_shuffle(S, off, n):
    """Fisher-Yates shuffle of ``S[off:off+n]`` with the state's generator."""
    for i in range(n - 1, 0, -1):
        j = gz_below(S, i + 1)
        tmp = S[off + i]
        S[off + i] = S[off + j]
        S[off + j] = tmp
