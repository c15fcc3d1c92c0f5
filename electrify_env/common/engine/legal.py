"""Jitted helpers over legal-action masks, for every game's batched play: a mask row holds one
entry per action id, non-zero where the id is legal (``uint8``; a ``bool`` mask viewed as
``uint8``)."""
from numba import njit


@njit(cache=True)
def pick_legal(mask, k):
    """The legal id of rank ``k`` (0-based, ascending) in ``mask``; -1 when there is none."""
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def sample_legal(masks, u, out):
    """For each row, the legal action of rank ``floor(u[i] * n_legal)`` (``u`` uniform in
    [0, 1)): a uniform random legal action per row, for benchmarks and random baselines.
    Rows without a legal action get -1."""
    for i in range(masks.shape[0]):
        n = 0
        for a in range(masks.shape[1]):
            n += masks[i, a]
        if n == 0:
            out[i] = -1
            continue
        k = int(u[i] * n)
        if k >= n:
            k = n - 1
        out[i] = pick_legal(masks[i], k)


@njit(cache=True)
def first_illegal(actions, masks):
    """Index of the first row whose action is out of range (0 .. ``masks.shape[1] - 1``) or not
    legal in ``masks``; -1 if every action is legal."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            return i
    return -1
