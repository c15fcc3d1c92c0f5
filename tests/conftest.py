"""Shared pytest configuration: the Hypothesis settings profiles of the fuzz suite
(``tests/test_fuzz.py``).

* ``ci`` (the default): few examples per property, derandomized so that every run of the
  default suite draws the same inputs, no deadline (the first call of a property may load the
  jitted engine), no example database (nothing is written into the working tree).
* ``long``: selected when ``ELECTRIFY_FUZZ_EXAMPLES`` is set (``benchmarks/fuzz_long.py`` sets
  it); the example counts come from that variable (``test_fuzz.budget``), the draws are random
  and a failure prints the blob that reproduces it.

``HYPOTHESIS_PROFILE=<name>`` overrides the choice.
"""
from __future__ import annotations

import os

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the fuzz suite itself reports the missing package when it is collected
    settings = None

FUZZ_EXAMPLES_ENV = "ELECTRIFY_FUZZ_EXAMPLES"


def register_fuzz_profiles() -> str:
    """Register the ``ci`` and ``long`` profiles, load the one this run asks for and return its
    name."""
    quiet = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
    settings.register_profile("ci", max_examples=20, deadline=None, derandomize=True, database=None,
                              suppress_health_check=quiet, print_blob=False)
    settings.register_profile("long", max_examples=1000, deadline=None, derandomize=False, database=None,
                              suppress_health_check=quiet, print_blob=True)
    name = os.environ.get("HYPOTHESIS_PROFILE") or ("long" if os.environ.get(FUZZ_EXAMPLES_ENV) else "ci")
    settings.load_profile(name)
    return name


if settings is not None:
    register_fuzz_profiles()


# ---- Ray: one local Ray per test session, shared by every Ray test ---------------
RAY_TEST_CPUS = 2
RAY_OBJECT_STORE_BYTES = 200 * 1024 * 1024

try:
    import pytest
except ImportError:  # pragma: no cover
    pytest = None

if pytest is not None:
    @pytest.fixture(scope="session")
    def ray_local():
        """A local Ray with 2 CPUs and a 200 MB object store, started once for the test session
        (skips the test where ``ray`` is not installed: the default venv; ``.ci/run`` runs the Ray
        tests in a second venv with the ``[ray]`` extra) and shut down at its end."""
        ray = pytest.importorskip("ray")
        if ray.is_initialized():
            ray.shutdown()
        ray.init(num_cpus=RAY_TEST_CPUS, object_store_memory=RAY_OBJECT_STORE_BYTES,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            yield ray
        finally:
            ray.shutdown()
