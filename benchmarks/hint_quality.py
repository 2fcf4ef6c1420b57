"""How good a time-limited hint's move is, against every first card's exact value.

    python -m benchmarks.hint_quality --games jass klaverjas-amsterdam --deals 60 --limits 0.02 0.05 0.1

An app that asks for a hint while someone plays gives it a time limit.  Where the
search cannot solve the deal in time, the hint names a move all the same: the best of
the moves it solved, or the favourite of its estimates (`solver.hint`).  For each deal
of a set this values every first card exactly (`analyse`, no limit), then asks for a
hint at each limit, the table emptied before each, and measures the named move's
loss: how much worse its exact value is than the best, for the side to move.

Printed per set and limit: how many hints named a best move, the mean and largest
loss, how many hints were exact, how many named a move by estimates alone, and the
median time of a hint.  The exact analyses take most of the run (Jass: about a
second a deal).  `--nodes` adds hints at node limits (the same on every machine).

With `--analyses`, also a time-limited `analyse` of each deal at each limit: how many
moves it left unsolved, and how far their estimates are from their exact values
(median and mean absolute error), against the midpoint of their bounds.

With `--trumps`, also the trump table of each deal (exact, then at each limit an
entry): how many entries a limit left unsolved, whether each one's bounds hold its
exact value (the run fails if not), the median error of their estimates, and the
mean loss of choosing side 0's trump (where a side declares: side 0 declaring) by
each entry's value, else its estimate (where in the table's objective, else its
lower bound), against choosing by its lower bound.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from typing import Any

from .arguments import positive, seconds
from .deals import DEAL_SETS, deals, table_megabytes


@dataclass(frozen=True)
class Row:
    """One set at one time limit."""

    key: str
    limit: float | int  # seconds, or (an int) nodes
    deals: int
    best: int  # hints that named a best move
    mean_loss: float
    max_loss: int
    exact: int  # hints solved exactly
    by_estimates: int  # hints that solved no move: named by the estimates
    median_ms: float

    def line(self) -> str:
        limit = f"{self.limit:>7.3f} s" if isinstance(self.limit, float) else f"{self.limit:>7} n"
        return (
            f"{self.key:<20} {limit}  best {self.best:>4}/{self.deals:<4} mean loss {self.mean_loss:6.1f}"
            f"  max {self.max_loss:>4}  exact {self.exact:>4}  by estimates {self.by_estimates:>4}"
            f"  median {self.median_ms:7.1f} ms"
        )


@dataclass(frozen=True)
class EstimateRow:
    """A limited analysis's estimates of its unsolved moves, one set at one time limit."""

    key: str
    limit: float
    moves: int  # legal first moves in all
    unsolved: int
    median_error: float
    mean_error: float
    median_midpoint: float  # the same for the midpoint of the bounds
    mean_midpoint: float

    def line(self) -> str:
        return (
            f"{self.key:<20} {self.limit:>7.3f} s  analyse: unsolved {self.unsolved:>4}/{self.moves:<4}"
            f"  estimate error median {self.median_error:5.1f} mean {self.mean_error:5.1f}"
            f"  (bounds' midpoint: {self.median_midpoint:5.1f}, {self.mean_midpoint:5.1f})"
        )


@dataclass(frozen=True)
class TrumpRow:
    """Time-limited trump tables, one set at one time limit an entry."""

    key: str
    limit: float
    entries: int
    unsolved: int
    outside: int  # unsolved entries whose bounds miss the exact value: must be 0
    median_error: float | None  # of the estimates in the table's own objective
    loss_by_estimate: float  # mean, choosing by value, else estimate (in the table's objective)
    loss_by_lower: float  # mean, choosing by value, else lower bound

    def line(self) -> str:
        error = "-" if self.median_error is None else f"{self.median_error:5.1f}"
        return (
            f"{self.key:<20} {self.limit:>7.3f} s  trumps: unsolved {self.unsolved:>4}/{self.entries:<4}"
            f"  outside their bounds {self.outside}  estimate error median {error}"
            f"  choice's mean loss: by estimate {self.loss_by_estimate:5.1f}, by lower bound {self.loss_by_lower:5.1f}"
        )


def _lower(entry: Any) -> int:
    return int(entry.lower)


def _estimate_else_lower(entry: Any) -> int:
    """An unsolved entry's estimate where it is in the table's objective (`pomme` and
    `all_tricks` estimate in `points`: not comparable), else its lower bound."""
    return int(entry.estimate) if entry.estimate is not None and entry.estimate_objective is None else int(entry.lower)


def measure_trumps(key: str, n: int, limits: list[float]) -> list[TrumpRow]:
    """The trump rows of one set: `n` deals, a table at each of `limits` (seconds an
    entry), on an engine emptied before each table."""
    from solver import Engine, trump_table

    chosen = deals(key, n)
    engine = Engine(table_megabytes(chosen[0], None))
    exact = []
    for deal in chosen:
        engine.clear()
        exact.append({(e.trump, e.declaring_side): e.value for e in trump_table(deal, engine=engine).entries})
    rows = []
    for limit in limits:
        entries = unsolved = outside = 0
        errors: list[int] = []
        by_estimate: list[int] = []
        by_lower: list[int] = []
        for deal, values in zip(chosen, exact, strict=True):
            engine.clear()
            table = trump_table(deal, time_limit=limit, engine=engine)
            choices = [e for e in table.entries if e.declaring_side in (None, 0)]
            for entry in table.entries:
                entries += 1
                value = values[entry.trump, entry.declaring_side]
                if entry.value is not None:
                    continue
                unsolved += 1
                assert entry.lower is not None and entry.upper is not None and value is not None
                outside += not entry.lower <= value <= entry.upper
                if entry.estimate is not None and entry.estimate_objective is None:
                    errors.append(abs(entry.estimate - value))
            top = max(int(values[e.trump, e.declaring_side] or 0) for e in choices)
            for losses, guess in ((by_estimate, _estimate_else_lower), (by_lower, _lower)):
                chosen_entry = max(choices, key=lambda e: e.value if e.value is not None else guess(e))
                losses.append(top - int(values[chosen_entry.trump, chosen_entry.declaring_side] or 0))
        rows.append(TrumpRow(key, limit, entries, unsolved, outside, statistics.median(errors) if errors else None,
                             statistics.mean(by_estimate), statistics.mean(by_lower)))
    return rows


def exact_values(key: str, n: int) -> tuple[list[Any], list[dict[str, Any]], Any]:
    """The first `n` deals of a set, every first card's exact value, and the engine."""
    from solver import Engine, analyse

    chosen = deals(key, n)
    engine = Engine(table_megabytes(chosen[0], None))
    exact = []
    for deal in chosen:
        engine.clear()
        result = analyse(deal, engine=engine)
        exact.append({m.move: m.value for m in result.moves})
    return chosen, exact, engine


def measure_analyses(key: str, n: int, limits: list[float], known: Any = None) -> list[EstimateRow]:
    """The estimate rows of one set: `n` deals, an analysis at each of `limits`
    (seconds); `known`: `exact_values(key, n)`, if already found."""
    from solver import analyse

    chosen, exact, engine = known or exact_values(key, n)
    rows = []
    for limit in limits:
        errors: list[float] = []
        midpoints: list[float] = []
        moves = 0
        for deal, values in zip(chosen, exact, strict=True):
            engine.clear()
            result = analyse(deal, time_limit=limit, engine=engine)
            moves += len(result.moves)
            for move in result.moves:
                if move.value is None and move.estimate is not None and not result.estimate_objective:
                    assert move.lower is not None and move.upper is not None  # an unsolved move's bounds
                    errors.append(abs(move.estimate - values[move.move]))
                    midpoints.append(abs((move.lower + move.upper) / 2 - values[move.move]))
        if errors:
            rows.append(EstimateRow(key, limit, moves, len(errors), statistics.median(errors), statistics.mean(errors),
                                    statistics.median(midpoints), statistics.mean(midpoints)))
    return rows


def measure(key: str, n: int, limits: list[float] | list[int], known: Any = None) -> list[Row]:
    """The rows of one set: `n` deals, a hint at each of `limits` (seconds, or, given as
    ints, nodes); `known`: `exact_values(key, n)`, if already found."""
    from solver import hint
    from solver.analysis import as_position, preference

    chosen, exact, engine = known or exact_values(key, n)
    rows = []
    for limit in limits:
        losses, times, solved, guessed = [], [], 0, 0
        for deal, values in zip(chosen, exact):
            position = as_position(deal)
            engine.clear()
            if isinstance(limit, int):
                found = hint(position, node_limit=limit, engine=engine)
            else:
                found = hint(position, time_limit=limit, engine=engine)
            best = max(preference(position, v) for v in values.values() if v is not None)
            named = values[found.best[0]]
            assert named is not None  # an analysis without limits values every move
            losses.append(best - preference(position, named))
            times.append(found.time_ms)
            solved += found.exact
            guessed += found.value is None
        rows.append(
            Row(key, limit, len(chosen), sum(loss == 0 for loss in losses), statistics.mean(losses), max(losses),
                solved, guessed, statistics.median(times))
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hint_quality", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=["jass"])
    parser.add_argument("--deals", type=positive, default=60)
    parser.add_argument("--limits", nargs="+", type=seconds, default=[0.02, 0.05, 0.1], metavar="S")
    parser.add_argument("--nodes", nargs="+", type=positive, default=[], metavar="N", help="also hints at these node limits")
    parser.add_argument("--analyses", action="store_true", help="also the estimates of time-limited analyses")
    parser.add_argument("--trumps", action="store_true", help="also time-limited trump tables (sets with a trump)")
    args = parser.parse_args(argv)
    outside = 0
    for key in args.games:
        known = exact_values(key, args.deals)
        for row in measure(key, args.deals, args.limits, known) + measure(key, args.deals, args.nodes, known):
            print(row.line(), flush=True)
        if args.analyses:
            for estimates in measure_analyses(key, args.deals, args.limits, known):
                print(estimates.line(), flush=True)
        if args.trumps and key not in ("putz", "bassadewitz"):
            for trumps in measure_trumps(key, args.deals, args.limits):
                print(trumps.line(), flush=True)
                outside += trumps.outside
    if outside:
        print(f"{outside} unsolved trump table entries outside their bounds", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
