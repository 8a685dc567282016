"""Benchmarks: each prints its figures next to a reference measured in the same run."""
