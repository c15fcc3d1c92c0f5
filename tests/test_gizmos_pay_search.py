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


# ---- the payment list: the mask of a payment decision ------------------------------------------
@njit
def ref_pay_steps(m, store, kinds, cols, n, opts, lastc, lasto, target, need, out):
    """The legal payment steps by the exhaustive search: ``out[c]`` spend colour c, ``out[4 + o]``
    apply option o, ``out[4 + n]`` confirm (G11, G23)."""
    for c in range(N_COLOURS):
        ok = lasto < 0 and c >= lastc and m[c] < store[c] and m[0] + m[1] + m[2] + m[3] < need
        if ok:
            m[c] += 1
            ok = ref_completable(m.copy(), store, kinds, cols, n, opts, c, lasto, target, need)
            m[c] -= 1
        out[c] = ok
    for o in range(n):
        out[N_COLOURS + o] = o > lasto and (opts >> o) & 1 == 0 and \
            ref_completable(m.copy(), store, kinds, cols, n, opts | (1 << o), lastc, o, target, need)
    out[N_COLOURS + n] = ref_minimal(m.copy(), kinds, cols, n, opts, target, need)


def _pay_mask_and_ref(game, W):
    """The pay part of the engine's mask of ``game`` (a payment decision) and the reference's."""
    from electrify_env.gizmos.engine.gz_masks import fill_mask

    S, T = game.state, game.cards.table
    mask = np.zeros(L.N_ACTIONS, np.uint8)
    fill_mask(S, T, mask, W)
    pb = pbase(int(S[L.S_CUR]))
    n = int(S[L.S_OPT_N])
    kinds = W[L.W_KINDS:L.W_KINDS + L.MAX_OPTS].copy()
    cols = W[L.W_COLS:L.W_COLS + L.MAX_OPTS].copy()
    out = np.zeros(N_COLOURS + n + 1, np.int64)
    ref_pay_steps(S[L.S_PAY_M:L.S_PAY_M + N_COLOURS].copy(), S[pb + L.P_STORE:pb + L.P_STORE + N_COLOURS].copy(),
                  kinds, cols, n, int(S[L.S_PAY_OPTS]), int(S[L.S_PAY_LASTC]), int(S[L.S_PAY_LASTO]),
                  int(T[L.T_COLOUR + S[L.S_PAY_CARD]]), int(S[L.S_PAY_COST]), out)
    got = np.concatenate([mask[L.A_SPEND:L.A_SPEND + N_COLOURS], mask[L.A_CONVERT:L.A_CONVERT + n],
                          mask[L.A_CONFIRM:L.A_CONFIRM + 1]]).astype(np.int64)
    return got, out


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_payment_list_masks_match_the_exhaustive_search(n_players):
    """Every payment decision of random games, and the same decisions with the stored marbles
    redrawn at random (before the first step), walked step by step to the confirm: the mask of a
    freshly listed decision, of the list kept in ``W`` and of the step search (forced with
    ``W_PL_N = -1``) all equal the exhaustive search's steps."""
    from electrify_env.gizmos import Game

    rng = np.random.default_rng(n_players)
    W = P.new_work()
    checked = with_options = 0
    for seed in range(6):
        game = Game(n_players=n_players, seed=500 + seed)
        while not game.done:
            if game.phase == "pay" and game.state[L.S_PAY_LASTO] < 0 and not game.state[L.S_PAY_M:L.S_PAY_M + 4].any():
                for variant in range(3):
                    g = game.copy()
                    if variant:
                        pb = pbase(g.current_player)
                        g.state[pb + L.P_STORE:pb + L.P_STORE + N_COLOURS] = rng.integers(0, 5, N_COLOURS)
                    while g.phase == "pay":
                        W[L.W_PL_KEY] = 0    # list this decision afresh
                        got, want = _pay_mask_and_ref(g, W)
                        if not want.any():
                            break            # a redrawn store that cannot pay: nothing to walk
                        assert got.tolist() == want.tolist(), (seed, variant, got, want)
                        again, _ = _pay_mask_and_ref(g, W)      # the list kept in W
                        assert again.tolist() == want.tolist()
                        W[L.W_PL_N] = -1     # the same decision answered by the step search
                        again, _ = _pay_mask_and_ref(g, W)
                        assert again.tolist() == want.tolist()
                        checked += 1
                        with_options += int(g.state[L.S_OPT_N] > 0)
                        g.step(int(rng.choice(g.legal_actions())))
            game.step(int(rng.choice(game.legal_actions())))
    assert checked > 300 and with_options > 100, (checked, with_options)


def test_affordability_table_answers_repeated_pools_like_the_exhaustive_search():
    """The same marble pool and options asked again with larger and smaller costs: answers read
    from the affordability table (a yield known exactly, or one that reached an earlier cost)
    and answers searched again agree with the reference every time."""
    rng = np.random.default_rng(7)
    W = P.new_work()
    S = np.zeros(L.S_SIZE, np.int64)
    pb = pbase(0)
    pools = []
    for _ in range(40):
        n = int(rng.integers(1, 6))
        kinds, cols = _options(rng, n)
        pools.append((n, kinds, cols, rng.integers(0, 5, N_COLOURS).astype(np.int64)))
    checked = 0
    for _ in range(1500):
        n, kinds, cols, store = pools[int(rng.integers(len(pools)))]
        S[pb + L.P_STORE:pb + L.P_STORE + N_COLOURS] = store
        _load(W, kinds, cols, n)
        W[L.W_REACH_NEED:L.W_REACH_NEED + L.N_TARGETS] = 0
        asked = {int(t): int(rng.integers(1, 12)) for t in rng.choice(L.N_TARGETS, 2, replace=False)}
        for t, need in asked.items():
            P.reach_want(W, t, need)
        P.reach_solve(S, pb, W)
        for t, top in asked.items():
            for need in range(1, top + 1):
                want = ref_feasible(store.copy(), kinds, cols, n, (1 << n) - 1, t, need)
                assert P.reach_ok(W, t, need) == want, (store, kinds[:n], cols[:n], t, need, top)
                checked += 1
    assert checked > 10000
