"""The yield bounds of the Gizmos affordability round (G11) hold the exhaustive search's answer
between them, and the feasibility-table listing of minimal payments equals the box-by-box
listing, over random marble pools and converter options."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.engine import gz_pay as P
from test_gizmos_pay_search import ref_best_yield


def _options(rng, n):
    kinds = np.zeros(L.MAX_OPTS, np.int64)
    cols = np.zeros(L.MAX_OPTS, np.int64)
    kinds[:n] = rng.integers(L.CV_DOUBLE, L.CV_ANY + 1, n)
    cols[:n] = rng.integers(0, L.N_COLOURS, n)
    return kinds, cols


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_yield_bounds_hold_the_best_yield(seed):
    rng = np.random.default_rng(seed)
    W = P.new_work()
    exact = 0
    for _ in range(1500):
        n = int(rng.integers(0, 6))
        kinds, cols = _options(rng, n)
        c = rng.integers(0, 4, L.N_COLOURS).astype(np.int64)
        t = int(rng.integers(0, L.N_TARGETS))
        avail = (1 << n) - 1
        lo, hi = P.yield_bounds(c.copy(), kinds, cols, n, avail, t, W)
        best = ref_best_yield(c.copy(), kinds, cols, n, avail, t, 99)
        assert lo <= best <= hi, (c, kinds[:n], cols[:n], t, lo, best, hi)
        exact += lo == hi
    assert exact > 300                     # the bounds settle many pools by themselves


@pytest.mark.parametrize("seed", [0, 1])
def test_payment_listing_equals_the_box_listing(seed):
    rng = np.random.default_rng(50 + seed)
    W = P.new_work()
    listed = 0
    for _ in range(300):
        n = int(rng.integers(0, 6))
        kinds, cols = _options(rng, n)
        store = rng.integers(0, 5, L.N_COLOURS).astype(np.int64)
        target = int(rng.integers(0, L.N_TARGETS))
        need = int(rng.integers(1, 7))
        a = P.enumerate_payments(store, kinds, cols, n, target, need, W, L.W_PL, L.PAY_LIST_MAX)
        got = sorted(W[L.W_PL:L.W_PL + a].tolist()) if a >= 0 else a
        b = P._enumerate_boxes(store, kinds, cols, n, target, need, W, L.W_PL, L.PAY_LIST_MAX)
        want = sorted(W[L.W_PL:L.W_PL + b].tolist()) if b >= 0 else b
        assert got == want, (store, kinds[:n], cols[:n], target, need)
        listed += a > 0
    assert listed > 100
