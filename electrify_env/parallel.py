"""One way to run many independent jobs (arena games, balance games, teacher games) in parallel:
:func:`parallel_map` maps a picklable top-level function over a list of tasks and returns the
results in task order, with a tqdm progress bar, on one of two backends:

* ``"local"`` (the default): ``jobs == 1`` plays in this process; ``jobs > 1`` uses a pool of
  spawned processes (chunked ``imap_unordered``).
* ``"ray"``: Ray tasks (``pip install -e ".[ray]"``), chunked to amortise the per-task overhead,
  with progress read through ``ray.wait``.  ``address=None`` starts a local Ray with ``jobs``
  CPUs and shuts it down at the end; an ``address`` (``HOST:6379`` or ``"auto"``) joins that
  cluster (``ray.init(address=...)``) and disconnects at the end; a Ray already initialised in
  this process (a test fixture, the user's own ``ray.init``) is used as it is and left running.

Every worker (a pool process or a Ray task) plays with one thread: ``OMP_NUM_THREADS=1`` and
one torch thread (small networks and numba code gain nothing from more, and several workers
share the cores).  A pool process imports torch to set it (:func:`worker_init`); a Ray worker
starts with ``OMP_NUM_THREADS=1`` in its environment (a task runtime environment), which torch
reads when an agent imports it, and a torch already imported is set to one thread.

The results do not depend on the backend, ``jobs`` or the order in which workers finish: the
caller's tasks carry their own seeds and the results are put back in task order.

>>> from electrify_env.parallel import parallel_map
>>> parallel_map(abs, [-1, -2, 3], progress=False)
[1, 2, 3]

This module imports neither Ray nor torch unless a run asks for them.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import sys
from typing import Callable, Sequence, TypeVar

from .validation import InvalidArgumentError, check_count

BACKENDS = ("local", "ray")
"""The backends :func:`parallel_map` knows."""
RAY_INSTALL = 'pip install -e ".[ray]"'
"""How to install Ray for this project (named in the error for a missing ``ray`` package)."""
RAY_WORKER_ENV = {"env_vars": {"OMP_NUM_THREADS": "1"}}
"""The runtime environment of the Ray tasks: one OpenMP (and so one torch) thread per worker."""
MAX_CHUNK = 8
"""Most tasks sent to a worker at once (chunks amortise the per-task overhead; small chunks keep
the workers busy to the end)."""

T = TypeVar("T")
R = TypeVar("R")


def check_backend(backend: str, address: str | None = None) -> str:
    """Check a backend choice before any work starts: ``backend`` is one of :data:`BACKENDS`, an
    ``address`` is given only with ``"ray"`` (a non-empty string), and the ``ray`` package
    imports where it is asked for.  Returns the backend; raises InvalidArgumentError naming the
    field."""
    if backend not in BACKENDS:
        raise InvalidArgumentError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if address is not None:
        if backend != "ray":
            raise InvalidArgumentError(f"address: only the ray backend joins a cluster (got address "
                                       f"{address!r} with backend {backend!r}); add backend 'ray'")
        if not isinstance(address, str) or not address.strip():
            raise InvalidArgumentError(f"address must be a Ray address (HOST:PORT or 'auto'), got {address!r}")
    if backend == "ray":
        import_ray()
    return backend


def import_ray():
    """The ``ray`` module, or InvalidArgumentError with the install command if it is missing."""
    try:
        import ray
    except ImportError:
        raise InvalidArgumentError(f"backend: the ray backend needs the ray package, which is not "
                                   f"installed; install it with: {RAY_INSTALL}") from None
    return ray


def worker_init() -> None:
    """Run once in each worker before it plays: one OpenMP and one torch thread per worker."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:  # pragma: no cover - torch is optional for the engine and the arena
        pass


def chunk_size(n_tasks: int, workers: int) -> int:
    """Tasks per chunk: about eight chunks per worker, at most :data:`MAX_CHUNK` tasks each."""
    return max(1, min(MAX_CHUNK, n_tasks // (max(1, workers) * 8) or 1))


def _call_indexed(item: tuple[Callable, int, object]) -> tuple[int, object]:
    """Pool side: ``(fn, index, task) -> (index, fn(task))``."""
    fn, index, task = item
    return index, fn(task)


def _run_chunk(fn: Callable, items: list[tuple[int, object]]) -> list[tuple[int, object]]:
    """Ray side: run ``fn`` over one chunk of ``(index, task)`` pairs with one thread (the
    worker's environment sets ``OMP_NUM_THREADS=1``, which torch reads when it is imported; a
    torch imported already is set here, without importing it in workers that never need it)."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    return [(i, fn(task)) for i, task in items]


def _map_here(fn: Callable, tasks: list, results: list, bar) -> None:
    """``jobs == 1``: run the tasks in this process with one torch thread, as a worker would (a
    small network's forward pass on a busy machine took about 20 ms a move with torch's default
    threads against 0.3 ms with one), and give torch its thread count back afterwards.  torch is
    not imported here: once a task has imported it, the next tasks run with one thread."""
    restore: tuple | None = None
    try:
        for i, task in enumerate(tasks):
            torch = sys.modules.get("torch")
            if torch is not None and restore is None:
                restore = (torch, torch.get_num_threads())
                torch.set_num_threads(1)
            results[i] = fn(task)
            bar.update(1)
    finally:
        if restore is not None:
            restore[0].set_num_threads(restore[1])


def parallel_map(fn: Callable[[T], R], tasks: Sequence[T], *, jobs: int = 1, backend: str = "local",
                 address: str | None = None, progress: bool = True, desc: str | None = None,
                 unit: str = "task") -> list[R]:
    """``[fn(t) for t in tasks]``, run on ``backend`` with ``jobs`` workers, in task order.

    Args:
        fn: a picklable top-level function of one task (workers import it by name).
        tasks: picklable tasks; each should carry its own seed, so that the results do not depend
            on which worker runs it.
        jobs: worker processes (local), or the CPUs of the local Ray started when no Ray is
            running and no ``address`` is given; a Ray cluster uses all its CPUs.
        backend: ``"local"`` or ``"ray"`` (:func:`check_backend`).
        address: the Ray cluster to join (``HOST:6379`` or ``"auto"``; ray backend only).
        progress: show a tqdm progress bar (``desc``, ``unit``).

    An exception raised by ``fn`` stops the run and is raised here (from Ray: a ``RayTaskError``
    that is also an instance of the original exception's class).
    """
    from tqdm import tqdm

    check_backend(backend, address)
    jobs = check_count(jobs, "jobs")
    tasks = list(tasks)
    results: list = [None] * len(tasks)
    bar = tqdm(total=len(tasks), desc=desc, unit=unit, disable=not progress, smoothing=0.05)
    try:
        if not tasks:
            return results
        if backend == "ray":
            _ray_map(fn, tasks, results, jobs, address, bar)
        elif jobs == 1:
            _map_here(fn, tasks, results, bar)
        else:
            workers = min(jobs, len(tasks))
            items = [(fn, i, t) for i, t in enumerate(tasks)]
            with mp.get_context("spawn").Pool(processes=workers, initializer=worker_init) as pool:
                for i, res in pool.imap_unordered(_call_indexed, items,
                                                  chunksize=chunk_size(len(tasks), workers)):
                    results[i] = res
                    bar.update(1)
    finally:
        bar.close()
    return results


def _ray_map(fn: Callable, tasks: list, results: list, jobs: int, address: str | None, bar) -> None:
    """The ray backend of :func:`parallel_map`: fills ``results`` in place."""
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        import logging

        quiet = dict(include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
        if address is None:      # "local": a new Ray of our own, even if a cluster runs here
            ray.init(address="local", num_cpus=jobs, **quiet)
        else:
            try:
                ray.init(address=address, **quiet)
            except (ConnectionError, TimeoutError, RuntimeError, ValueError) as err:
                first = (str(err).strip().splitlines() or [err.__class__.__name__])[0]
                raise InvalidArgumentError(f"address: cannot join the Ray cluster at {address!r} "
                                           f"({first})") from None
    pending: list = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", jobs)) or 1
        size = chunk_size(len(tasks), cpus)
        remote = ray.remote(_run_chunk).options(num_cpus=1, runtime_env=RAY_WORKER_ENV)
        fn_ref = ray.put(fn)
        indexed = list(enumerate(tasks))
        pending = [remote.remote(fn_ref, indexed[k:k + size]) for k in range(0, len(indexed), size)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for i, res in ray.get(done[0]):
                results[i] = res
                bar.update(1)
    finally:
        for ref in pending:           # an error (or Ctrl-C) stops the tasks still queued
            ray.cancel(ref)
        if started:
            ray.shutdown()
