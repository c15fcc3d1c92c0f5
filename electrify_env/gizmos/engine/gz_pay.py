"""Paying for a build with marbles and converters (G11, G12).

A payment is a multiset ``M`` of stored marbles and a set ``O`` of converter options.  It is
*feasible* when the marbles, sent through the options (each at most once, chained in any order:
an option's output may feed another option), yield at least the cost in the card's colour (any
mix for a card of colour "any").  The payments offered are the *minimal* feasible ones: no marble
and no option can be left out (a payment that spends a subset of another's marbles with a subset
of its options dominates it).  Feasibility only grows with ``M`` and ``O``, so a payment is
minimal exactly when it is feasible and every single removal is infeasible.

The payment is chosen step by step (G23): marbles in colour order, then options in list order,
then confirm.  A step is legal only if some minimal payment extends the choices so far, so every
minimal payment has exactly one path and no path ends elsewhere.

The mask of a payment decision comes from its *payment list*: every minimal payment of the
decision (stored marbles, option list, colour and cost; none of them changes while the payment is
chosen), enumerated once and kept in ``W`` until a different decision is asked about.  Each
minimal payment has one path of steps, so one pass over the list marks the next step of every
payment that extends the choices so far.  A decision with more than ``PAY_LIST_OPTS`` options
or more than ``PAY_LIST_MAX`` minimal payments is answered step by step by :func:`completable`.

The searches keep their scratch in a work buffer ``W`` (layout ``W_*``, one per game or playout,
see :func:`new_work`): nothing is allocated per call.  The converter search remembers the yield
of each (marble pool, options left) position it has finished in a memo keyed by a generation
(:func:`memo_reset`), valid while the options, the target and the cost stay the same.
"""
import numpy as np
from numba import njit

from .gz_layout import (
    A_CONFIRM, A_CONVERT, A_SPEND, PAY_LIST_MAX, PAY_LIST_OPTS, W_PL, W_PL_KEY, W_YC, YC_SLOTS,
    YC_WIDTH,
    W_PL_N, CV_ANY, CV_DOUBLE, CV_WILD, CV_WILD2, MAX_OPTS, MEMO_COUNT_BITS, MEMO_MIN_OPTS, MEMO_PROBES,
    MEMO_SLOTS, MEMO_WIDTH,
    N_COLOURS, N_TARGETS, P_BUILT, P_BUILT_N, P_OPT_USED, P_STORE, S_OPT_K, S_OPT_MACH, S_OPT_N,
    S_PAY_COST, S_PAY_LASTC, S_PAY_LASTO, S_PAY_M, S_PAY_OPTS, S_PAY_CARD, T_COLOUR, T_CV_COL,
    T_CV_KIND, T_CV_N, T_TYPE, TY_CONVERTER, W_A, W_C, W_COLS, W_GEN, W_KINDS, W_M,
    W_MEMO, W_OPT_N, W_REACH, W_REACH_NEED, W_SIZE,
    W_STORE, W_TOP, W_PF, PF_BOX_MAX, PF_WORDS,
)


def new_work():
    """A work buffer for ``fill_mask`` / ``step_checked`` (int64, length W_SIZE)."""
    return np.zeros(W_SIZE, dtype=np.int64)


@njit(cache=True)
def memo_reset(W):
    """Forget every remembered search position (a new generation)."""
    W[W_GEN] += 1


@njit(cache=True)
def _memo_key(c, avail):
    """The memo key of pool ``c`` with options ``avail`` left, or -1 when a count does not fit."""
    key = avail
    lim = 1 << MEMO_COUNT_BITS
    for x in range(N_COLOURS):
        if c[x] >= lim:
            return -1
        key = (key << MEMO_COUNT_BITS) | c[x]
    return key


@njit(cache=True)
def _at_least(bits, k):
    """``bits`` has at least ``k`` bits set."""
    for _ in range(k - 1):
        bits &= bits - 1
    return bits != 0


@njit(cache=True)
def _memo_slot(key):
    """The first slot probed for ``key``."""
    h = (key * 0x5851F42D4C957F2D) >> 20
    return h & (MEMO_SLOTS - 1)


@njit(cache=True)
def collect_options(S, T, pb, mach, ks):
    """Write the converter options of the player at ``pb`` not used this turn into ``mach``
    (machine index) and ``ks`` (option on the card), in build order; return how many."""
    n = 0
    for j in range(S[pb + P_BUILT_N]):
        card = S[pb + P_BUILT + j]
        if T[T_TYPE + card] != TY_CONVERTER:
            continue
        for k in range(T[T_CV_N + card]):
            if (S[pb + P_OPT_USED + j] >> k) & 1 == 0 and n < MAX_OPTS:
                mach[n] = j
                ks[n] = k
                n += 1
    return n


@njit(cache=True)
def _value(c, target):
    if target < N_COLOURS:
        return c[target]
    return c[0] + c[1] + c[2] + c[3]


@njit(cache=True)
def _useful(kinds, cols, n_opts, avail, target):
    """Bit mask of colours worth turning a marble into: the target and every colour some unused
    colour-bound option takes."""
    u = 0
    if target < N_COLOURS:
        u |= 1 << target
    for o in range(n_opts):
        if (avail >> o) & 1 and kinds[o] != CV_ANY:
            u |= 1 << cols[o]
    return u


@njit(cache=True)
def _gain(kind, col, target):
    """The most one application of an option can raise the value of a pool: +1 for a DOUBLE of
    the target colour, a WILD or ANY turning a marble into it, +2 for a WILD2; 0 for an option
    that cannot make a marble of the target (for COL_ANY only a DOUBLE adds a marble)."""
    if target >= N_COLOURS:
        return 1 if kind == CV_DOUBLE else 0
    if kind == CV_DOUBLE:
        return 1 if col == target else 0
    if kind == CV_ANY:
        return 1
    if col == target:
        return 0
    return 2 if kind == CV_WILD2 else 1


@njit(cache=True)
def yield_bounds(c, kinds, cols, n_opts, avail, target, W):
    """``(lo, hi)``: a yield that one order of the options in ``avail`` reaches from the pool
    ``c`` (so the best yield is at least ``lo``) and a bound the best yield cannot pass.

    ``lo`` applies, once each: every DOUBLE of a colour present that another option takes, every
    WILD2 and WILD on marbles of its colour into the target, every ANY on a marble of another
    colour, then every DOUBLE of the target (COL_ANY: every DOUBLE of a colour present).  ``hi``
    is the value plus each option's :func:`_gain`, less what an option of colour ``x`` cannot
    gain when ``x`` is missing and no option makes ``x`` (only a WILD, WILD2 or ANY of another
    colour turns a marble into ``x``; a DOUBLE of ``x`` needs an ``x``)."""
    p = W[W_TOP:W_TOP + N_COLOURS]           # the pool after the order tried
    for x in range(N_COLOURS):
        p[x] = c[x]
    fed = 0                                  # colours some WILD, WILD2 or ANY takes (ANY: all)
    makes = 0                                # colours some option can turn a marble into
    doubles = 0                              # colours with a DOUBLE
    for o in range(n_opts):
        if (avail >> o) & 1 == 0:
            continue
        k = kinds[o]
        if k == CV_ANY:
            fed = (1 << N_COLOURS) - 1
            makes = (1 << N_COLOURS) - 1
        elif k == CV_DOUBLE:
            doubles |= 1 << cols[o]
        else:
            fed |= 1 << cols[o]
            makes |= ((1 << N_COLOURS) - 1) & ~(1 << cols[o])
    hi = _value(c, target)
    for o in range(n_opts):
        if (avail >> o) & 1 == 0:
            continue
        k = kinds[o]
        x = cols[o]
        g = _gain(k, x, target)
        if k != CV_ANY and c[x] == 0 and (makes >> x) & 1 == 0:
            g = 0
        elif k == CV_WILD2 and g == 2 and c[x] == 1 and (makes >> x) & 1 == 0 and (doubles >> x) & 1 == 0:
            g = 1
        hi += g
        if k == CV_DOUBLE and p[x] > 0 and (target >= N_COLOURS or (x != target and (fed >> x) & 1)):
            p[x] += 1
    if target < N_COLOURS:
        for o in range(n_opts):
            if (avail >> o) & 1 and kinds[o] == CV_WILD2 and cols[o] != target:
                x = cols[o]
                k = p[x] if p[x] < 2 else 2
                p[x] -= k
                p[target] += k
        for o in range(n_opts):
            if (avail >> o) & 1 and kinds[o] == CV_WILD and cols[o] != target and p[cols[o]] > 0:
                p[cols[o]] -= 1
                p[target] += 1
        for o in range(n_opts):
            if (avail >> o) & 1 and kinds[o] == CV_ANY:
                z = -1
                for y in range(N_COLOURS):
                    if y != target and p[y] > 0 and (z < 0 or p[y] > p[z]):
                        z = y
                if z >= 0:
                    p[z] -= 1
                    p[target] += 1
        for o in range(n_opts):
            if (avail >> o) & 1 and kinds[o] == CV_DOUBLE and cols[o] == target and p[target] > 0:
                p[target] += 1
    return _value(p, target), hi


@njit(cache=True)
def best_yield(c, kinds, cols, n_opts, avail, target, need, W):
    """The largest yield (marbles of ``target``, or all marbles for COL_ANY) of the marble pool
    ``c`` (counts per colour, changed and restored) through the options in bit mask ``avail``;
    stops early once ``need`` is reached: an answer below ``need`` is exact, one at or above it
    only says that ``need`` is reached.  Positions are remembered in the memo of ``W`` (call
    :func:`memo_reset` whenever the options, ``target`` or ``need`` change).

    The search is bounded: the value of a pool rises by at most the summed :func:`_gain` of the
    options left, so a branch that cannot beat the best yield found is not entered, and a
    position stops once its bound is reached."""
    ub = 0
    for o in range(n_opts):
        if (avail >> o) & 1:
            ub += _gain(kinds[o], cols[o], target)
    return _yield(c, kinds, cols, n_opts, avail, target, need, ub, W)


@njit(cache=True)
def _yield(c, kinds, cols, n_opts, avail, target, need, ub, W):
    """:func:`best_yield` with ``ub``, the summed gain of the options in ``avail``."""
    v = _value(c, target)
    if v >= need or avail == 0 or ub == 0:
        return v
    cap = v + ub
    key = _memo_key(c, avail) if _at_least(avail, MEMO_MIN_OPTS) else -1
    slot = -1
    if key >= 0:
        gen = W[W_GEN]
        h = _memo_slot(key)
        for p in range(MEMO_PROBES):
            i = W_MEMO + MEMO_WIDTH * ((h + p) & (MEMO_SLOTS - 1))
            if W[i + 1] != gen:
                slot = i
                break
            if W[i] == key:
                return W[i + 2]
    u = _useful(kinds, cols, n_opts, avail, target)
    for o in range(n_opts):
        if (avail >> o) & 1 == 0:
            continue
        rest = avail & ~(1 << o)
        k = kinds[o]
        x = cols[o]
        ubr = ub - _gain(k, x, target)
        if k == CV_DOUBLE:
            if c[x] > 0:
                c[x] += 1
                r = _yield(c, kinds, cols, n_opts, rest, target, need, ubr, W)
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
                    r = _yield(c, kinds, cols, n_opts, rest, target, need, ubr, W)
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
                        r = _yield(c, kinds, cols, n_opts, rest, target, need, ubr, W)
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
                    r = _yield(c, kinds, cols, n_opts, rest, target, need, ubr, W)
                    c[y] -= 1
                    c[z] += 1
                    if r > v:
                        v = r
        if v >= need or v >= cap:
            break
    if slot >= 0:
        W[slot] = key
        W[slot + 1] = W[W_GEN]
        W[slot + 2] = v
    return v


@njit(cache=True)
def feasible(m, kinds, cols, n_opts, opts, target, need, W):
    """The marbles ``m`` with the options in ``opts`` can pay ``need`` of ``target``."""
    if need <= 0:
        return True
    v = _value(m, target)
    if v >= need:
        return True
    ub = 0
    for o in range(n_opts):
        if (opts >> o) & 1:
            ub += _gain(kinds[o], cols[o], target)
    if v + ub < need:                   # even every option's largest gain falls short
        return False
    c = W[W_C:W_C + N_COLOURS]
    for x in range(N_COLOURS):
        c[x] = m[x]
    return _yield(c, kinds, cols, n_opts, opts, target, need, ub, W) >= need


@njit(cache=True)
def minimal(m, kinds, cols, n_opts, opts, target, need, W):
    """``(m, opts)`` is a legal, undominated payment (G11)."""
    if not feasible(m, kinds, cols, n_opts, opts, target, need, W):
        return False
    for x in range(N_COLOURS):
        if m[x] > 0:
            m[x] -= 1
            f = feasible(m, kinds, cols, n_opts, opts, target, need, W)
            m[x] += 1
            if f:
                return False
    for o in range(n_opts):
        if (opts >> o) & 1 and feasible(m, kinds, cols, n_opts, opts & ~(1 << o), target, need, W):
            return False
    return True


@njit(cache=True)
def _extend_opts(m, kinds, cols, n_opts, opts, lasto, target, need, W):
    """Some set of options after ``lasto`` added to ``opts`` makes ``(m, opts')`` minimal."""
    elig = 0
    for o in range(lasto + 1, n_opts):
        if (opts >> o) & 1 == 0:
            elig |= 1 << o
    if not feasible(m, kinds, cols, n_opts, opts | elig, target, need, W):
        return False
    sub = elig
    while True:                       # every subset of elig, elig itself first
        if minimal(m, kinds, cols, n_opts, opts | sub, target, need, W):
            return True
        if sub == 0:
            return False
        sub = (sub - 1) & elig


@njit(cache=True)
def completable(m, store, kinds, cols, n_opts, opts, lastc, lasto, target, need, W):
    """Some minimal payment extends the choices so far: marbles ``m`` (more only of colours
    ``>= lastc`` while no option is applied, ``lasto < 0``) and options ``opts`` (more only
    after ``lasto``), within the stored marbles ``store``."""
    if feasible(m, kinds, cols, n_opts, opts, target, need, W):
        return minimal(m, kinds, cols, n_opts, opts, target, need, W)
    if lasto >= 0:
        return _extend_opts(m, kinds, cols, n_opts, opts, lasto, target, need, W)
    spent = m[0] + m[1] + m[2] + m[3]
    room = need - spent              # a minimal payment spends at most ``need`` marbles
    top = W[W_TOP:W_TOP + N_COLOURS]
    for x in range(N_COLOURS):
        top[x] = store[x] if x >= lastc else m[x]
        if top[x] - m[x] > room:
            top[x] = m[x] + room
    all_opts = opts
    for o in range(n_opts):
        all_opts |= 1 << o
    if not feasible(top, kinds, cols, n_opts, all_opts, target, need, W):
        return False
    a = W[W_A:W_A + N_COLOURS]
    for x in range(N_COLOURS):
        a[x] = m[x]
    while True:                      # every marble extension a with m <= a <= top, |a| <= need
        if a[0] + a[1] + a[2] + a[3] <= need:
            if _extend_opts(a, kinds, cols, n_opts, opts, -1, target, need, W):
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


@njit(cache=True)
def _target(colour):
    """The search target of a card colour (COL_ANY and above search all marbles alike)."""
    return colour if colour < N_COLOURS else N_TARGETS - 1


@njit(cache=True)
def reach_begin(S, T, pb, W):
    """Start an affordability round for the player at ``pb``: its converter options not used
    this turn go into ``W``, and no cost is asked yet."""
    n = 0                              # as collect_options, straight into kinds and colours
    for j in range(S[pb + P_BUILT_N]):
        card = S[pb + P_BUILT + j]
        if T[T_TYPE + card] != TY_CONVERTER:
            continue
        for k in range(T[T_CV_N + card]):
            if (S[pb + P_OPT_USED + j] >> k) & 1 == 0 and n < MAX_OPTS:
                W[W_KINDS + n] = T[T_CV_KIND + 2 * card + k]
                W[W_COLS + n] = T[T_CV_COL + 2 * card + k]
                n += 1
    W[W_OPT_N] = n
    for t in range(N_TARGETS):
        W[W_REACH_NEED + t] = 0
        W[W_REACH + t] = 0


@njit(cache=True)
def reach_want(W, colour, need):
    """Ask, in this round, whether ``need`` marbles of ``colour`` can be paid."""
    t = _target(colour)
    if need > W[W_REACH_NEED + t]:
        W[W_REACH_NEED + t] = need


@njit(cache=True)
def _yc_slot(S, pb, W):
    """``(slot, k1, k2)``: the affordability-table slot and key words of the player at ``pb``'s
    stored marbles and the options of the round (``W`` after :func:`reach_begin`); slot -1 when
    they do not fit a key (64 marbles of a colour, or 15 like options)."""
    n = W[W_OPT_N]
    k1 = n << (PACK_BITS * N_COLOURS)
    for x in range(N_COLOURS):
        v = S[pb + P_STORE + x]
        if v >= (1 << PACK_BITS):
            return -1, 0, 0
        k1 |= v << (PACK_BITS * x)
    k2 = 0
    for o in range(n):
        kind = W[W_KINDS + o]
        col = 0 if kind == CV_ANY else W[W_COLS + o]
        sh = 4 * ((kind - 1) * N_COLOURS + col)
        if (k2 >> sh) & 15 == 15:
            return -1, 0, 0
        k2 += 1 << sh
    # multiplicative hash; bits 40.. of the product agree jitted (int64 wraps) and unjitted
    h = (k1 * 0x5851F42D4C957F2D + k2 * 0x2545F4914F6CDD1D) >> 40
    return W_YC + YC_WIDTH * (h & (YC_SLOTS - 1)), k1, k2


@njit(cache=True)
def reach_solve(S, pb, W):
    """Answer the round: for every colour asked, the best yield of storage and options, exact
    below the largest cost asked of that colour (so every smaller cost is answered by one
    comparison).  Answers are kept in the affordability table of ``W``, keyed by the stored
    marbles and the options by kind and colour: a later round with the same marbles and options
    reads a yield that is exact, or one that reaches its cost, without searching.  A colour the
    table does not answer is settled by :func:`yield_bounds` when its low bound reaches the cost or
    meets its high bound, and searched by :func:`best_yield` otherwise."""
    n = W[W_OPT_N]
    kinds = W[W_KINDS:W_KINDS + MAX_OPTS]
    cols = W[W_COLS:W_COLS + MAX_OPTS]
    c = W[W_C:W_C + N_COLOURS]
    slot, k1, k2 = _yc_slot(S, pb, W)
    hit = slot >= 0 and W[slot + 2] != 0 and W[slot] == k1 and W[slot + 1] == k2
    if slot >= 0 and not hit:
        W[slot] = k1
        W[slot + 1] = k2
        W[slot + 2] = 0
    for t in range(N_TARGETS):
        need = W[W_REACH_NEED + t]
        if need <= 0:
            continue
        if slot >= 0 and (W[slot + 2] >> t) & 1:
            y = W[slot + 3 + t]
            if need <= y or (W[slot + 2] >> (N_TARGETS + t)) & 1:
                W[W_REACH + t] = y
                continue
        for x in range(N_COLOURS):
            c[x] = S[pb + P_STORE + x]
        y, hi = yield_bounds(c, kinds, cols, n, (1 << n) - 1, t, W)
        if y < need and y < hi:          # the bounds leave the answer open: search
            memo_reset(W)
            y = best_yield(c, kinds, cols, n, (1 << n) - 1, t, need, W)
        W[W_REACH + t] = y
        if slot >= 0:
            W[slot + 3 + t] = y
            W[slot + 2] |= 1 << t
            if y < need:                 # below the cost asked, the yield is exact
                W[slot + 2] |= 1 << (N_TARGETS + t)
            else:
                W[slot + 2] &= ~(1 << (N_TARGETS + t))


@njit(cache=True)
def reach_ok(W, colour, need):
    """After :func:`reach_solve`: ``need`` marbles of ``colour`` (no more than asked) can be paid."""
    return need <= 0 or need <= W[W_REACH + _target(colour)]


@njit(cache=True)
def affordable(S, T, pb, colour, need, W):
    """The player at ``pb`` can pay ``need`` marbles of ``colour`` (COL_ANY: any mix) with storage
    and the converter options not used this turn."""
    if need <= 0:
        return True
    reach_begin(S, T, pb, W)
    reach_want(W, colour, need)
    reach_solve(S, pb, W)
    return reach_ok(W, colour, need)


@njit(cache=True)
def pay_begin(S, T, pb, W):
    """Start checking payment steps: the payment's option list goes into ``W`` and the memo is
    cleared (the steps of one decision share the options, the colour and the cost); return the
    number of options."""
    n = S[S_OPT_N]
    for o in range(n):
        card = S[pb + P_BUILT + S[S_OPT_MACH + o]]
        W[W_KINDS + o] = T[T_CV_KIND + 2 * card + S[S_OPT_K + o]]
        W[W_COLS + o] = T[T_CV_COL + 2 * card + S[S_OPT_K + o]]
    W[W_OPT_N] = n
    memo_reset(W)
    return n


@njit(cache=True)
def pay_step_ok(S, T, pb, kind, arg, W):
    """The payment step ``kind`` (0 spend a marble of colour ``arg``, 1 apply option ``arg``,
    2 confirm) is legal now (G11, G23); :func:`pay_begin` has filled ``W`` for this decision."""
    colour = T[T_COLOUR + S[S_PAY_CARD]]
    need = S[S_PAY_COST]
    n = W[W_OPT_N]
    kinds = W[W_KINDS:W_KINDS + MAX_OPTS]
    cols = W[W_COLS:W_COLS + MAX_OPTS]
    m = W[W_M:W_M + N_COLOURS]
    store = W[W_STORE:W_STORE + N_COLOURS]
    for x in range(N_COLOURS):
        m[x] = S[S_PAY_M + x]
        store[x] = S[pb + P_STORE + x]
    opts = S[S_PAY_OPTS]
    lastc = S[S_PAY_LASTC]
    lasto = S[S_PAY_LASTO]
    if kind == 2:
        return minimal(m, kinds, cols, n, opts, colour, need, W)
    if kind == 0:
        if lasto >= 0 or arg < lastc or m[arg] >= store[arg]:
            return False
        if m[0] + m[1] + m[2] + m[3] >= need:
            return False
        m[arg] += 1
        return completable(m, store, kinds, cols, n, opts, arg, lasto, colour, need, W)
    if arg >= n or arg <= lasto or (opts >> arg) & 1:
        return False
    return completable(m, store, kinds, cols, n, opts | (1 << arg), lastc, arg, colour, need, W)


# ---- the payment list ------------------------------------------------------------------------
PACK_BITS = 6                 # bits per colour count in a listed payment
PACK_MARBLES = (1 << (PACK_BITS * N_COLOURS)) - 1
OPT_SHIFT = PACK_BITS * N_COLOURS


@njit(cache=True)
def _count(packed, x):
    return (packed >> (PACK_BITS * x)) & ((1 << PACK_BITS) - 1)


@njit(cache=True)
def _useful_colours(kinds, cols, n, P, target):
    """Bit mask of the colours a payment with option set ``P`` can use: the target, the colours
    its colour-bound options take, every colour once an option takes any marble (COL_ANY: all)."""
    u = (1 << target) if target < N_COLOURS else (1 << N_COLOURS) - 1
    for o in range(n):
        if (P >> o) & 1:
            if kinds[o] == CV_ANY:
                u = (1 << N_COLOURS) - 1
            else:
                u |= 1 << cols[o]
    return u


@njit(cache=True)
def enumerate_payments(store, kinds, cols, n, target, need, W, at, cap):
    """Write every minimal payment (G11) of ``need`` marbles of ``target`` from the marbles
    ``store`` with the first ``n`` options into ``W[at:at + cap]`` (marble counts packed by colour,
    the option set from bit ``OPT_SHIFT``); return how many, or -1 when more than ``cap``.

    Feasibility only grows with the marbles and the options, so the option sets are taken in
    increasing order and, within one, the marble multisets ``m`` (at most ``min(store, need)`` of
    a colour, at most ``need`` in all) in increasing order, keeping one feasibility bit per pair
    in ``W_PF``: ``m`` is feasible without a search when ``m`` less one marble is, or when ``m``
    with one option less is (and then it is not minimal); otherwise it is minimal exactly when it
    is feasible, and only then is it searched.  A marble of a colour the option set cannot use
    (:func:`_useful_colours`) adds nothing, so a multiset holding one is feasible only if the
    multiset less that marble is.  An option set with which even the whole usable store is
    infeasible holds no payment.  Decisions whose bits do not fit ``W_PF`` are enumerated by
    :func:`_enumerate_boxes`."""
    top = W[W_TOP:W_TOP + N_COLOURS]
    stride = W[W_A:W_A + N_COLOURS]
    size = 1
    for x in range(N_COLOURS):
        top[x] = min(store[x], need)
        stride[x] = size
        size *= top[x] + 1
    words = (size + 63) >> 6
    if size > PF_BOX_MAX or (words + 1) << n > PF_WORDS:
        return _enumerate_boxes(store, kinds, cols, n, target, need, W, at, cap)
    memo_reset(W)
    c = W[W_M:W_M + N_COLOURS]         # the multiset m (W_M is free while the list is made)
    cnt = 0
    for P in range(1 << n):
        flag = W_PF + P * (words + 1)  # 1 when the whole usable store is feasible with P
        base = flag + 1
        for w in range(words):
            W[base + w] = 0
        u = _useful_colours(kinds, cols, n, P, target)
        whole = False
        for o in range(n):
            if (P >> o) & 1 and W[W_PF + (P & ~(1 << o)) * (words + 1)]:
                whole = True           # feasible with fewer options already
                break
        if not whole:
            for x in range(N_COLOURS):
                c[x] = top[x] if (u >> x) & 1 else 0
            whole = feasible(c, kinds, cols, n, P, target, need, W)
        W[flag] = 1 if whole else 0
        if not whole:
            continue                   # nothing within the store is feasible with P
        for x in range(N_COLOURS):
            c[x] = 0
        spent = 0
        for i in range(size):
            if spent <= need:
                f = False
                for x in range(N_COLOURS):
                    if c[x] > 0:
                        j = i - stride[x]
                        if (W[base + (j >> 6)] >> (j & 63)) & 1:
                            f = True
                            break
                g = False
                if not f:
                    for o in range(n):
                        if (P >> o) & 1:
                            j = W_PF + (P & ~(1 << o)) * (words + 1) + 1 + (i >> 6)
                            if (W[j] >> (i & 63)) & 1:
                                g = True
                                break
                if not f and not g:
                    inside = True
                    for x in range(N_COLOURS):
                        if c[x] > 0 and (u >> x) & 1 == 0:
                            inside = False
                    if inside and feasible(c, kinds, cols, n, P, target, need, W):
                        f = True
                        if cnt >= cap:
                            return -1
                        W[at + cnt] = c[0] | (c[1] << PACK_BITS) | (c[2] << (2 * PACK_BITS)) | \
                            (c[3] << (3 * PACK_BITS)) | (P << OPT_SHIFT)
                        cnt += 1
                if f or g:
                    W[base + (i >> 6)] |= 1 << (i & 63)
            x = 0                      # the next multiset: colour 0 counts fastest
            while x < N_COLOURS:
                if c[x] < top[x]:
                    c[x] += 1
                    spent += 1
                    break
                spent -= c[x]
                c[x] = 0
                x += 1
    return cnt


@njit(cache=True)
def _enumerate_boxes(store, kinds, cols, n, target, need, W, at, cap):
    """:func:`enumerate_payments` by testing every marble multiset of every option set with
    :func:`minimal` (for decisions whose feasibility bits do not fit ``W_PF``)."""
    memo_reset(W)
    m = W[W_A:W_A + N_COLOURS]
    top = W[W_TOP:W_TOP + N_COLOURS]
    cnt = 0
    for P in range(1 << n):
        u = _useful_colours(kinds, cols, n, P, target)
        for x in range(N_COLOURS):
            top[x] = min(store[x], need) if (u >> x) & 1 else 0
        if not feasible(top, kinds, cols, n, P, target, need, W):
            continue
        for x in range(N_COLOURS):
            m[x] = 0
        while True:
            if m[0] + m[1] + m[2] + m[3] <= need and minimal(m, kinds, cols, n, P, target, need, W):
                if cnt >= cap:
                    return -1
                W[at + cnt] = m[0] | (m[1] << PACK_BITS) | (m[2] << (2 * PACK_BITS)) | \
                    (m[3] << (3 * PACK_BITS)) | (P << OPT_SHIFT)
                cnt += 1
            x = 0
            while x < N_COLOURS:
                if m[x] < top[x]:
                    m[x] += 1
                    break
                m[x] = 0
                x += 1
            if x == N_COLOURS:
                break
    return cnt


@njit(cache=True)
def pay_list(S, T, pb, W):
    """The payment list of the pending payment decision in ``W``, enumerated unless ``W``
    already lists this decision (same colour, cost, stored marbles and options); return the number
    of minimal payments, or -1 when the decision is searched step by step instead."""
    n = pay_begin(S, T, pb, W)
    colour = T[T_COLOUR + S[S_PAY_CARD]]
    target = _target(colour)
    need = S[S_PAY_COST]
    k = W_PL_KEY
    same = W[k] == 1 and W[k + 1] == target and W[k + 2] == need and W[k + 7] == n
    for x in range(N_COLOURS):
        same = same and W[k + 3 + x] == S[pb + P_STORE + x]
    for o in range(n):
        same = same and W[k + 8 + o] == W[W_KINDS + o] and W[k + 8 + MAX_OPTS + o] == W[W_COLS + o]
    if same:
        return W[W_PL_N]
    W[k] = 1
    W[k + 1] = target
    W[k + 2] = need
    for x in range(N_COLOURS):
        W[k + 3 + x] = S[pb + P_STORE + x]
    W[k + 7] = n
    for o in range(n):
        W[k + 8 + o] = W[W_KINDS + o]
        W[k + 8 + MAX_OPTS + o] = W[W_COLS + o]
    cnt = -1
    big = False
    for x in range(N_COLOURS):
        big = big or S[pb + P_STORE + x] >= (1 << PACK_BITS)
    if n <= PAY_LIST_OPTS and not big:
        store = W[W_STORE:W_STORE + N_COLOURS]
        for x in range(N_COLOURS):
            store[x] = S[pb + P_STORE + x]
        cnt = enumerate_payments(store, W[W_KINDS:W_KINDS + MAX_OPTS], W[W_COLS:W_COLS + MAX_OPTS],
                                 n, colour, need, W, W_PL, PAY_LIST_MAX)
    W[W_PL_N] = cnt
    memo_reset(W)
    return cnt


@njit(cache=True)
def pay_mask(S, T, pb, mask, W):
    """Mark in ``mask`` the legal steps of the pending payment decision (spend a colour, apply an
    option, confirm; G11, G23) and return how many: the next step of every minimal payment that
    extends the choices so far."""
    cnt = pay_list(S, T, pb, W)
    n = W[W_OPT_N]
    if cnt < 0:
        legal = 0
        for c in range(N_COLOURS):
            if pay_step_ok(S, T, pb, 0, c, W):
                mask[A_SPEND + c] = 1
                legal += 1
        for o in range(n):
            if pay_step_ok(S, T, pb, 1, o, W):
                mask[A_CONVERT + o] = 1
                legal += 1
        if pay_step_ok(S, T, pb, 2, 0, W):
            mask[A_CONFIRM] = 1
            legal += 1
        return legal
    mp = 0
    for x in range(N_COLOURS):
        mp |= S[S_PAY_M + x] << (PACK_BITS * x)
    lastc = S[S_PAY_LASTC]
    opts = S[S_PAY_OPTS]
    lasto = S[S_PAY_LASTO]
    low = (1 << (PACK_BITS * lastc)) - 1          # marble counts of colours before lastc
    done = (2 << lasto) - 1 if lasto >= 0 else 0  # options at or before the last applied
    for i in range(cnt):
        e = W[W_PL + i]
        em = e & PACK_MARBLES
        ep = e >> OPT_SHIFT
        if lasto < 0:
            if (em & low) != (mp & low) or _count(em, lastc) < _count(mp, lastc):
                continue
            if em != mp:
                x = lastc
                while _count(em, x) == _count(mp, x):
                    x += 1
                mask[A_SPEND + x] = 1
                continue
        elif em != mp or (ep & done) != opts:
            continue
        rest = ep & ~done
        if rest == 0:
            mask[A_CONFIRM] = 1
        else:
            o = 0
            while (rest >> o) & 1 == 0:
                o += 1
            mask[A_CONVERT + o] = 1
    legal = np.int64(mask[A_CONFIRM])
    for c in range(N_COLOURS):
        legal += np.int64(mask[A_SPEND + c])
    for o in range(n):
        legal += np.int64(mask[A_CONVERT + o])
    return legal
