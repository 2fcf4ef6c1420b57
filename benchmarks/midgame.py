"""Engine levers on and off on positions a few tricks into a deal, in one process.

    python -m benchmarks.midgame --games jass --deals 14 --tricks 1 - trump_order=0

For sets whose complete deals take too long to compare levers on (Jass): each deal
of the set is played forward `--tricks` tricks by a seeded random choice among the
legal cards, then every setting analyses the position (every first card valued) from
an emptied table, in turn, the order reversed on every other position; the values
must agree.  Printed as by `benchmarks.levers`: mean and median nodes, total CPU
time, and the median over the positions of the time ratio to the first setting.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from .deals import DEAL_SETS, deals
from .levers import parse_setting


def positions(key: str, n: int, tricks: int, seed: int = 7) -> list:
    from solver.position import load_position

    rng = random.Random(seed)
    result = []
    for deal in deals(key, n):
        pos = load_position(deal)
        for _ in range(tricks * pos.rules.n_players):
            pos = pos.play(rng.choice(pos.legal_moves()))
        result.append(pos)
    return result


def main(argv: list[str] | None = None) -> int:
    from solver import Engine
    from solver.analysis import analyse

    parser = argparse.ArgumentParser(prog="python -m benchmarks.midgame", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=["jass"])
    parser.add_argument("--deals", type=int, default=14)
    parser.add_argument("--tricks", type=int, default=1, help="tricks played before the analysis (default 1)")
    parser.add_argument("--tt-megabytes", type=int, default=8)
    parser.add_argument("settings", nargs="+", help="lever settings, e.g. - trump_order=0")
    args = parser.parse_args(argv)
    settings = [parse_setting(s) for s in args.settings]
    engine = Engine(args.tt_megabytes)
    print(f"{'set':12} {'setting':34} {'mean nodes':>11} {'median nodes':>13} {'total s':>8} {'ratio':>6}")
    for key in args.games:
        nodes: list[list[int]] = [[] for _ in settings]
        times: list[list[float]] = [[] for _ in settings]
        differ = 0
        for i, pos in enumerate(positions(key, args.deals, args.tricks)):
            order = list(range(len(settings)))[:: -1 if i % 2 else 1]
            values = {}
            for j in order:
                engine.clear()
                started = time.process_time()
                result = analyse(pos, engine=engine, engine_options=settings[j])
                times[j].append(time.process_time() - started)
                nodes[j].append(result.nodes)
                values[j] = [(m.move, m.value) for m in result.moves]
            differ += any(v != values[0] for v in values.values())
        for j, setting in enumerate(settings):
            name = ",".join(f"{k}={v}" for k, v in setting.items()) or "defaults"
            ratio = statistics.median(t / t0 for t, t0 in zip(times[j], times[0]))
            print(
                f"{key:12} {name:34} {statistics.fmean(nodes[j]) / 1e3:10.0f}k "
                f"{statistics.median(nodes[j]) / 1e3:12.0f}k {sum(times[j]):8.2f} {ratio:6.3f}"
            )
        print(f"{key}: values differ in {differ} of {len(nodes[0])} positions")
        if differ:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
