"""Engine levers on and off, on the same deals, in one process.

    python -m benchmarks.levers --games belote --deals 30 - endgame_tricks=0 cautious_smear=0

Each argument after the options is one setting of the engine's levers
(`solver.compile.ENGINE_OPTIONS`, comma-separated `name=value`; `-` for the
defaults).  Deal by deal, every setting analyses the deal from an emptied table,
in turn (the order reversed on every other deal, so a setting is not always the
first to run); the values must agree.  Printed per set and setting: mean and
median nodes, median and total CPU time, and the median over the deals of the
time ratio to the first setting.  CPU time (`time.process_time`), so that another
job on the machine disturbs the comparison less.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterable
from typing import Any

from .arguments import lever_setting, megabytes, positive
from .deals import DEAL_SETS, deals, table_megabytes


def compare(
    key: str, positions: Iterable[Any], settings: list[dict[str, int]], tt_megabytes: int | None = None
) -> list[dict[str, Any]]:
    """Every setting analyses each position (a deal or a Position) from an emptied
    table, in turn; one row per setting, with how many positions' values differ.
    The table is `tt_megabytes`, or the library's default for the first position."""
    from solver import Engine
    from solver.analysis import analyse

    positions = list(positions)
    engine = Engine(table_megabytes(positions[0], tt_megabytes))
    times: list[list[float]] = [[] for _ in settings]
    nodes: list[list[int]] = [[] for _ in settings]
    differ = 0
    for d, deal in enumerate(positions):
        order = list(range(len(settings)))
        if d % 2:
            order.reverse()
        values = {}
        for j in order:
            engine.clear()
            started = time.process_time()
            result = analyse(deal, engine=engine, engine_options=settings[j])
            times[j].append(time.process_time() - started)
            nodes[j].append(result.nodes)
            values[j] = [(m.move, m.value) for m in result.moves]
        if any(v != values[0] for v in values.values()):
            differ += 1
    rows = []
    for j, setting in enumerate(settings):
        rows.append(
            {
                "set": key,
                "setting": setting,
                "mean_nodes": statistics.fmean(nodes[j]),
                "median_nodes": statistics.median(nodes[j]),
                "median_ms": statistics.median(times[j]) * 1000.0,
                "total_s": sum(times[j]),
                "ratio": statistics.median(t / t0 for t, t0 in zip(times[j], times[0])),
                "differ": differ,
                "positions": len(nodes[0]),
            }
        )
    return rows


HEAD = f"{'set':21} {'setting':34} {'mean nodes':>11} {'median nodes':>12} {'median ms':>9} {'total s':>8} {'ratio':>6}"


def print_row(row: dict[str, Any]) -> None:
    name = ",".join(f"{k}={v}" for k, v in row["setting"].items()) or "defaults"
    print(
        f"{row['set']:21} {name:34} {row['mean_nodes'] / 1e3:10.0f}k {row['median_nodes'] / 1e3:11.0f}k "
        f"{row['median_ms']:9.1f} {row['total_s']:8.2f} {row['ratio']:6.3f}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.levers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=["belote"])
    parser.add_argument("--deals", type=positive, default=20, help="deals per set (default 20)")
    parser.add_argument("--tt-megabytes", type=megabytes, help="table size (default: the library's, 8 or 64 MB by the deal)")
    parser.add_argument(
        "settings", nargs="+", type=lever_setting,
        help="one setting per argument, side by side: comma-separated name=value, or - for the defaults; e.g. - endgame_tricks=0",
    )
    args = parser.parse_args(argv)
    settings = args.settings
    print(HEAD)
    differ = 0
    for key in args.games:
        for row in compare(key, deals(key, args.deals), settings, args.tt_megabytes):
            print_row(row)
            differ = max(differ, row["differ"])
        if differ:
            print(f"{key}: values differ between the settings on {differ} deals", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
