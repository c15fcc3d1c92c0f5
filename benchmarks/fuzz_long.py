"""The long fuzz run: every property of ``tests/test_fuzz.py`` with its share of
``--examples`` (default 100,000 in all), each example in a worker subprocess so that a crash of
the interpreter is a failing example, not the end of the run.  Prints, per property, the
examples run, how many met a refusal (a documented error) and how many worked throughout, the
failures and the wall time; then each failure's message.  Exit status 1 if anything failed.

    nice -n 10 python benchmarks/fuzz_long.py --examples 100000 | tee fuzz_long.log
    python benchmarks/fuzz_long.py --examples 2000 --only save_state,cli --seed 7

The same run under pytest (no table): ``ELECTRIFY_FUZZ_EXAMPLES=100000 python -m pytest -q -p
no:xdist -m slow tests/test_fuzz.py``.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _failures(err: BaseException) -> list[BaseException]:
    """The distinct failures in what Hypothesis raised (one, or a group of them)."""
    if isinstance(err, BaseExceptionGroup):
        return [e for sub in err.exceptions for e in _failures(sub)]
    return [err]


def main(argv: list[str] | None = None) -> int:
    """Run the long fuzz and print the figure; 0 when no property failed."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=int, default=100_000, help="examples in all, split by the shares of "
                                                                   "test_fuzz.PROPERTIES (default 100000)")
    ap.add_argument("--only", default=None, help="comma-separated property names (default: all)")
    ap.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: a random one, printed)")
    ap.add_argument("--in-process", action="store_true", help="run the checks in this process (faster; a "
                                                              "crash then ends the run)")
    args = ap.parse_args(argv)
    if args.examples < 1:
        ap.error("--examples must be positive")
    os.environ["ELECTRIFY_FUZZ_EXAMPLES"] = str(args.examples)
    os.environ["ELECTRIFY_FUZZ_ISOLATE"] = "0" if args.in_process else "1"
    _load("conftest", TESTS / "conftest.py")
    fz = _load("test_fuzz", TESTS / "test_fuzz.py")
    from hypothesis import seed as hypothesis_seed

    names = list(fz.PROPERTIES) if not args.only else [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in fz.PROPERTIES]
    if unknown:
        ap.error(f"unknown properties {unknown}; known: {', '.join(fz.PROPERTIES)}")
    run_seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"fuzz_long: {args.examples} examples in all, Hypothesis seed {run_seed}, "
          f"{'in process' if args.in_process else 'one worker subprocess per property run'}; "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs", flush=True)
    header = f"{'property':<16}{'budget':>8}{'run':>9}{'refused':>9}{'worked':>9}{'failures':>10}{'wall s':>9}{'ex/s':>8}"
    print(header)
    print("-" * len(header), flush=True)
    rows, problems = [], []
    t_all = time.perf_counter()
    for name in names:
        test = hypothesis_seed(run_seed)(getattr(fz, f"test_fuzz_{name}"))
        t0 = time.perf_counter()
        failed: list[BaseException] = []
        try:
            test()
        except BaseException as err:  # noqa: BLE001 -- every failure is reported, KeyboardInterrupt too
            if isinstance(err, KeyboardInterrupt):
                raise
            failed = _failures(err)
        wall = time.perf_counter() - t0
        fz.WORKER.close()
        n, refused = fz.COUNTS[name], fz.REFUSED[name]
        rows.append((name, n, len(failed), wall))
        problems += [(name, e) for e in failed]
        print(f"{name:<16}{fz.budget(name):>8}{n:>9}{refused:>9}{n - refused:>9}{len(failed):>10}{wall:>9.1f}"
              f"{n / wall if wall else 0:>8.0f}", flush=True)
    wall_all = time.perf_counter() - t_all
    total = sum(r[1] for r in rows)
    n_failed = sum(r[2] for r in rows)
    print("-" * len(header))
    print(f"{'total':<16}{'':>8}{total:>9}{sum(fz.REFUSED[r[0]] for r in rows):>9}"
          f"{total - sum(fz.REFUSED[r[0]] for r in rows):>9}{n_failed:>10}{wall_all:>9.1f}{total / wall_all:>8.0f}")
    print(f"\n{total} examples (including Hypothesis' shrinking and explicit examples) in {wall_all / 60:.1f} min; "
          f"{n_failed} failure{'s' if n_failed != 1 else ''}.")
    hits = {k: v for k, v in fz.KNOWN_HITS.items() if v}
    if hits:
        print("known findings let through (tests/test_fuzz.py KNOWN, pinned by xfail tests): "
              + ", ".join(f"{k} x{v}" for k, v in hits.items()))
    for name, err in problems:
        notes = "\n".join(getattr(err, "__notes__", ()))   # Hypothesis' falsifying example
        text = str(err).strip()
        print(f"\n=== {name}: {type(err).__name__}\n{notes}\n{text[:4000]}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
