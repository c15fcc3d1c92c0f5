"""The converter search of Gizmos payments (G11, G12) against an exhaustive reference.

The engine answers affordability once per colour per mask (the best yield of storage and unused
converter options, exact below the largest cost asked) and remembers finished search positions
in a memo.  The reference below is the plain exhaustive search with no memo: over many random
marble pools and option lists, every affordability answer and every payment step must agree.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.engine import gz_pay as P
from electrify_env.gizmos.engine.gz_energy import pbase

CV_ANY, CV_DOUBLE, CV_WILD, CV_WILD2, N_COLOURS = L.CV_ANY, L.CV_DOUBLE, L.CV_WILD, L.CV_WILD2, L.N_COLOURS


# ---- reference: the exhaustive search, one call per question, no memo ------------------------
@njit
def ref_value(c, target):
    if target < N_COLOURS:
        return c[target]
    return c[0] + c[1] + c[2] + c[3]


@njit
def ref_useful(kinds, cols, n_opts, avail, target):
    """Bit mask of colours worth turning a marble into: the target and every colour some unused
    colour-bound option takes."""
    u = 0
    if target < N_COLOURS:
        u |= 1 << target
    for o in range(n_opts):
        if (avail >> o) & 1 and kinds[o] != CV_ANY:
            u |= 1 << cols[o]
    return u


@njit
def ref_best_yield(c, kinds, cols, n_opts, avail, target, need):
    """The largest yield (marbles of ``target``, or all marbles for COL_ANY) of the marble pool
    ``c`` (counts per colour, changed and restored) through the options in bit mask ``avail``;
    stops early once ``need`` is reached."""
    v = ref_value(c, target)
    if v >= need or avail == 0:
        return v
    u = ref_useful(kinds, cols, n_opts, avail, target)
    for o in range(n_opts):
        if (avail >> o) & 1 == 0:
            continue
        rest = avail & ~(1 << o)
        k = kinds[o]
        x = cols[o]
        if k == CV_DOUBLE:
            if c[x] > 0:
                c[x] += 1
                r = ref_best_yield(c, kinds, cols, n_opts, rest, target, need)
                c[x] -= 1
                if r > v:
                    v = r
        elif k == CV_WILD or k == CV_WILD2:
            if c[x] > 0:
                for y in range(N_COLOURS):
                    if y == x or (u >> y) & 1 == 0:
                        continue
                    c[x] -= 1
                    c[y] += 1
                    r = ref_best_yield(c, kinds, cols, n_opts, rest, target, need)
                    c[y] -= 1
                    c[x] += 1
                    if r > v:
                        v = r
            if k == CV_WILD2 and c[x] > 1:
                for y1 in range(N_COLOURS):
                    if y1 == x or (u >> y1) & 1 == 0:
                        continue
                    for y2 in range(y1, N_COLOURS):
                        if y2 == x or (u >> y2) & 1 == 0:
                            continue
                        c[x] -= 2
                        c[y1] += 1
                        c[y2] += 1
                        r = ref_best_yield(c, kinds, cols, n_opts, rest, target, need)
                        c[y2] -= 1
                        c[y1] -= 1
                        c[x] += 2
                        if r > v:
                            v = r
        elif k == CV_ANY:
            for z in range(N_COLOURS):
                if c[z] == 0:
                    continue
                for y in range(N_COLOURS):
                    if y == z or (u >> y) & 1 == 0:
                        continue
                    c[z] -= 1
                    c[y] += 1
                    r = ref_best_yield(c, kinds, cols, n_opts, rest, target, need)
                    c[y] -= 1
                    c[z] += 1
                    if r > v:
                        v = r
        if v >= need:
            return v
    return v


@njit
def ref_feasible(m, kinds, cols, n_opts, opts, target, need):
    """The marbles ``m`` with the options in ``opts`` can pay ``need`` of ``target``."""
    if need <= 0:
        return True
    c = m.copy()
    return ref_best_yield(c, kinds, cols, n_opts, opts, target, need) >= need


@njit
def ref_minimal(m, kinds, cols, n_opts, opts, target, need):
    """``(m, opts)`` is a legal, undominated payment (G11)."""
    if not ref_feasible(m, kinds, cols, n_opts, opts, target, need):
        return False
    for x in range(N_COLOURS):
        if m[x] > 0:
            m[x] -= 1
            f = ref_feasible(m, kinds, cols, n_opts, opts, target, need)
            m[x] += 1
            if f:
                return False
    for o in range(n_opts):
        if (opts >> o) & 1 and ref_feasible(m, kinds, cols, n_opts, opts & ~(1 << o), target, need):
            return False
    return True


@njit
def ref_extend_opts(m, kinds, cols, n_opts, opts, lasto, target, need):
    """Some set of options after ``lasto`` added to ``opts`` makes ``(m, opts')`` minimal."""
    elig = 0
    for o in range(lasto + 1, n_opts):
        if (opts >> o) & 1 == 0:
            elig |= 1 << o
    if not ref_feasible(m, kinds, cols, n_opts, opts | elig, target, need):
        return False
    sub = elig
    while True:                       # every subset of elig, elig itself first
        if ref_minimal(m, kinds, cols, n_opts, opts | sub, target, need):
            return True
        if sub == 0:
            return False
        sub = (sub - 1) & elig


@njit
def ref_completable(m, store, kinds, cols, n_opts, opts, lastc, lasto, target, need):
    """Some minimal payment extends the choices so far: marbles ``m`` (more only of colours
    ``>= lastc`` while no option is applied, ``lasto < 0``) and options ``opts`` (more only
    after ``lasto``), within the stored marbles ``store``."""
    if ref_feasible(m, kinds, cols, n_opts, opts, target, need):
        return ref_minimal(m, kinds, cols, n_opts, opts, target, need)
    if lasto >= 0:
        return ref_extend_opts(m, kinds, cols, n_opts, opts, lasto, target, need)
    spent = m[0] + m[1] + m[2] + m[3]
    room = need - spent              # a minimal payment spends at most ``need`` marbles
    top = store.copy()
    for x in range(N_COLOURS):
        top[x] = store[x] if x >= lastc else m[x]
        if top[x] - m[x] > room:
            top[x] = m[x] + room
    all_opts = opts
    for o in range(n_opts):
        all_opts |= 1 << o
    if not ref_feasible(top, kinds, cols, n_opts, all_opts, target, need):
        return False
    a = m.copy()
    while True:                      # every marble extension a with m <= a <= top, |a| <= need
        if a[0] + a[1] + a[2] + a[3] <= need:
            if ref_extend_opts(a, kinds, cols, n_opts, opts, -1, target, need):
                return True
        x = 0
        while x < N_COLOURS:
            if a[x] < top[x]:
                a[x] += 1
                break
            a[x] = m[x]
            x += 1
        if x == N_COLOURS:
            return False


# ---- random positions --------------------------------------------------------------------------
def _options(rng, n):
    kinds = np.zeros(L.MAX_OPTS, np.int64)
    cols = np.zeros(L.MAX_OPTS, np.int64)
    kinds[:n] = rng.integers(L.CV_DOUBLE, L.CV_ANY + 1, n)
    cols[:n] = rng.integers(0, N_COLOURS, n)
    return kinds, cols


def _load(W, kinds, cols, n):
    W[L.W_KINDS:L.W_KINDS + L.MAX_OPTS] = kinds
    W[L.W_COLS:L.W_COLS + L.MAX_OPTS] = cols
    W[L.W_OPT_N] = n


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_affordability_per_colour_matches_the_exhaustive_search(seed):
    rng = np.random.default_rng(seed)
    W = P.new_work()
    S = np.zeros(L.S_SIZE, np.int64)
    pb = pbase(0)
    checked = 0
    for _ in range(400):
        n = int(rng.integers(0, 7))
        kinds, cols = _options(rng, n)
        store = rng.integers(0, 5, N_COLOURS).astype(np.int64)
        S[pb + L.P_STORE:pb + L.P_STORE + N_COLOURS] = store
        for t in range(L.N_TARGETS):
            W[L.W_REACH_NEED:L.W_REACH_NEED + L.N_TARGETS] = 0
            _load(W, kinds, cols, n)
            top = int(rng.integers(1, 12))
            P.reach_want(W, t, top)
            P.reach_solve(S, pb, W)
            for need in range(0, top + 1):
                want = ref_feasible(store.copy(), kinds, cols, n, (1 << n) - 1, t, need)
                assert P.reach_ok(W, t, need) == want, (store, kinds[:n], cols[:n], t, need, top)
                checked += 1
    assert checked > 10000


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_payment_steps_match_the_exhaustive_search(seed):
    rng = np.random.default_rng(100 + seed)
    W = P.new_work()
    agree = [0, 0]
    for _ in range(250):
        n = int(rng.integers(0, 6))
        kinds, cols = _options(rng, n)
        store = rng.integers(0, 4, N_COLOURS).astype(np.int64)
        target = int(rng.integers(0, L.N_TARGETS))
        need = int(rng.integers(1, 7))
        _load(W, kinds, cols, n)
        P.memo_reset(W)                        # one payment decision: the questions share the memo
        for _ in range(12):
            m = np.array([rng.integers(0, s + 1) for s in store], np.int64)
            opts = int(rng.integers(0, 1 << n)) if n and rng.random() < 0.5 else 0
            lasto = -1
            if opts:
                lasto = int(rng.choice([o for o in range(n) if (opts >> o) & 1]))
            lastc = int(rng.integers(0, N_COLOURS))
            got = P.minimal(m.copy(), kinds, cols, n, opts, target, need, W)
            want = ref_minimal(m.copy(), kinds, cols, n, opts, target, need)
            assert got == want, ("minimal", m, opts, store, kinds[:n], cols[:n], target, need)
            got = P.completable(m.copy(), store, kinds, cols, n, opts, lastc, lasto, target, need, W)
            want = ref_completable(m.copy(), store.copy(), kinds, cols, n, opts, lastc, lasto, target, need)
            assert got == want, ("completable", m, opts, lastc, lasto, store, kinds[:n], cols[:n], target, need)
            agree[int(want)] += 1
    assert min(agree) > 50                      # both answers occur often
