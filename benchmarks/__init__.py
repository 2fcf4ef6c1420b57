"""Benchmarks: fixed deal sets, timings, and the comparison with colver (belote)."""
