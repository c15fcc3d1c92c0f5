"""The random generator that a game keeps inside its state array (Electrify R25, Gizmos G24).

xorshift128 (Marsaglia) on four 32-bit words kept at ``S[g:g+4]``: every function takes ``g``,
the offset of the game's generator words (its layout's ``S_RNG``), and a game seeds its words with
its own four 32-bit salts (its layout's ``RNG_SALTS``), so two games seeded alike draw different
sequences.  All arithmetic stays below 2**63 in int64, so the jitted and the
``NUMBA_DISABLE_JIT=1`` runs give the same numbers on any machine.
"""
from numba import njit

M32 = 0xFFFFFFFF
#: the largest game seed :func:`next_seed` draws (seeds are 0 .. 2**62 - 1)
MAX_SEED = (1 << 62) - 1


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
def rng_seed(S, g, seed, salts):
    """Seed the generator words ``S[g:g+4]`` from a non-negative int64 ``seed`` and the game's
    four 32-bit ``salts``."""
    lo = seed & M32
    hi = (seed >> 32) & M32
    S[g] = mix32(lo ^ salts[0])
    S[g + 1] = mix32(hi ^ salts[1])
    S[g + 2] = mix32((lo + salts[2]) & M32)
    S[g + 3] = mix32((hi + salts[3]) & M32)
    if S[g] == 0 and S[g + 1] == 0 and S[g + 2] == 0 and S[g + 3] == 0:
        S[g + 3] = 1


@njit(cache=True)
def rng_next(S, g):
    """Advance the generator at ``S[g:g+4]``; return a uniform integer in [0, 2**32)."""
    x = S[g]
    t = (x ^ ((x << 11) & M32)) & M32
    S[g] = S[g + 1]
    S[g + 1] = S[g + 2]
    S[g + 2] = S[g + 3]
    w = S[g + 3]
    w = (w ^ (w >> 19)) ^ (t ^ (t >> 8))
    S[g + 3] = w
    return w


@njit(cache=True)
def rng_below(S, g, n):
    """A uniform integer in [0, n) for 0 < n < 2**31, from the generator at ``S[g:g+4]``."""
    return (rng_next(S, g) * n) >> 32


@njit(cache=True)
def shuffle_range(S, g, off, n):
    """Fisher-Yates shuffle of ``S[off:off+n]`` with the generator at ``S[g:g+4]``."""
    for i in range(n - 1, 0, -1):
        j = rng_below(S, g, i + 1)
        tmp = S[off + i]
        S[off + i] = S[off + j]
        S[off + j] = tmp


@njit(cache=True)
def pick_index(seed, salt, n):
    """A number in [0, n) drawn from ``seed`` and ``salt`` alone (no generator is advanced): an
    episode's seat or scenario."""
    lo = seed & M32
    hi = (seed >> 32) & M32
    return mix32(mix32(lo ^ salt) ^ hi) % n


@njit(cache=True)
def next_seed(S, g):
    """A fresh game seed in [0, 2**62) drawn from the generator at ``S[g:g+4]`` (a finished game's,
    for the next episode)."""
    hi = rng_next(S, g)
    lo = rng_next(S, g)
    return ((hi << 30) ^ lo) & MAX_SEED
