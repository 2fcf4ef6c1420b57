"""Argument types shared by the benchmark commands: a bad value is an argparse error
naming the option (exit status 2), not a traceback after minutes of running.

This module imports the solver only inside the checks that need it (table sizes,
lever settings), so that `benchmarks.deals` stays free of it.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable


def at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least`."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
        return value

    return whole


positive = at_least(1)  # deals, positions, rounds, clients ...


def seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds above 0, got {text}")
    return value


def output_file(text: str) -> str:
    """An argparse type: a file the results can be written to (its directory there and
    writable, itself no directory), checked before the run rather than after it."""
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a directory")
    directory = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(directory):
        raise argparse.ArgumentTypeError(f"no such directory: {directory}")
    if not os.access(directory, os.W_OK) or (os.path.exists(text) and not os.access(text, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}")
    return text


def megabytes(text: str) -> int:
    """An argparse type: a table size in MB, checked as the library checks `tt_megabytes`."""
    from solver.errors import PlisError, table_megabytes

    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of megabytes, got {text!r}") from None
    try:
        return table_megabytes(size)
    except PlisError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def lever_setting(text: str) -> dict[str, int]:
    """An argparse type: one setting of the engine's levers, `-` (the defaults) or
    comma-separated `name=value` (`name` alone: 1), checked as `analyse` checks
    `engine_options` (a misspelt lever would otherwise measure the defaults)."""
    from solver.analysis import check_engine_options
    from solver.errors import PlisError

    if text == "-":
        return {}
    setting: dict[str, int] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        try:
            setting[name] = int(value or "1")
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name}: must be a whole number, got {value!r}") from None
    try:
        return check_engine_options(setting) or {}
    except PlisError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
