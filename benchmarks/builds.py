"""Two builds of the engine side by side, on the same deals, in one process.

    python -m benchmarks.builds ../old-checkout --games belote putz --deals 50

The other checkout must have its engine built in place (`python setup.py
build_ext --inplace`).  Its `solver/_engine` module is loaded beside this one's,
and each deal is analysed by both from an emptied table, in turn (the order
reversed on every other deal), so that a machine whose speed drifts from run to
run still compares the two fairly.  Both builds get this checkout's `build_spec`,
so only the engine may differ.  Printed per set: total and median CPU time of each
build, their ratios (this build over the other), mean nodes, and how many deals'
values differ (engine values: with a step objective, as Klaberjass's, a bound may
legitimately differ below its step).
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from .arguments import megabytes, positive
from .deals import DEAL_SETS, deals, table_megabytes


def load_engine(checkout: Path) -> ModuleType:
    """The `solver._engine` module built in `checkout`, loaded under its own name."""
    found = glob.glob(str(checkout / "solver" / "_engine.*.so")) + glob.glob(str(checkout / "solver" / "_engine.*.pyd"))
    if not found:
        raise SystemExit(f"{checkout}: no built engine in solver/ (python setup.py build_ext --inplace)")
    spec = importlib.util.spec_from_file_location("solver._engine", found[0])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compare(key: str, n: int, engines: tuple[Any, Any]) -> dict[str, Any]:
    from solver.compile import build_spec
    from solver.position import Position

    times: tuple[list[float], list[float]] = ([], [])
    nodes = [0, 0]
    differ = 0
    for i, deal in enumerate(deals(key, n)):
        spec = build_spec(Position.from_dict(deal))
        spec.pop("_bits")
        values: list[Any] = [None, None]
        for which in (0, 1) if i % 2 == 0 else (1, 0):
            engine = engines[which]
            engine.clear()
            start = time.process_time()
            result = engine.solve(dict(spec), 0.0, 0, True, True)
            times[which].append(time.process_time() - start)
            nodes[which] += result["nodes"]
            values[which] = result["values"]
        differ += values[0] != values[1]
    return {"times": times, "nodes": nodes, "differ": differ, "n": n}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.builds", description=__doc__.split("\n")[0])
    parser.add_argument("other", type=Path, help="another checkout, its engine built in place")
    parser.add_argument("--games", nargs="+", default=["belote"], choices=sorted(DEAL_SETS), metavar="SET")
    parser.add_argument("--deals", type=positive, default=30)
    parser.add_argument("--tt-megabytes", type=megabytes, help="table size (default: the library's, 8 or 64 MB by the deal)")
    args = parser.parse_args(argv)
    if not args.other.is_dir():
        parser.error(f"argument other: no such directory: {args.other}")
    if not any((args.other / "solver").glob("_engine.*.*")):  # a checkout not built: said before any work
        parser.error(f"argument other: {args.other}: no built engine in solver/ (python setup.py build_ext --inplace)")
    import solver._engine

    this: Any = solver._engine
    other = load_engine(args.other.resolve())
    print(
        f"{'set':21} {'other s':>8} {'this s':>8} {'other ms':>9} {'this ms':>8} {'total':>6} {'median':>6} "
        f"{'nodes other':>12} {'nodes this':>11} {'differ':>6}"
    )
    for key in args.games:
        size = table_megabytes(deals(key, 1)[0], args.tt_megabytes)
        engines = (other.Engine(size), this.Engine(size))
        row = compare(key, args.deals, engines)
        (t_other, t_this), n = row["times"], row["n"]
        m_other, m_this = statistics.median(t_other), statistics.median(t_this)
        print(
            f"{key:21} {sum(t_other):8.2f} {sum(t_this):8.2f} {1000 * m_other:9.2f} {1000 * m_this:8.2f} "
            f"{sum(t_this) / sum(t_other):6.3f} {m_this / m_other:6.3f} "
            f"{row['nodes'][0] / n:12.0f} {row['nodes'][1] / n:11.0f} {row['differ']:6}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
