"""Helpers shared by the tests and the benchmarks, owned by neither: the labelled widget corpus and snapshots.

`tests/conftest.py` and each bench script put the repository root on `sys.path`, so both import `testkit.*`, and
the benchmarks never depend on the test suite.
"""
