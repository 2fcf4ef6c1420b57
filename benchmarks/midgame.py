"""Engine levers on and off on positions a few tricks into a deal, in one process.

    python -m benchmarks.midgame --games jass --deals 14 --tricks 1 - trump_order=0

For sets whose complete deals take too long to compare levers on (Jass): each deal
of the set is played forward `--tricks` tricks by a seeded random choice among the
legal cards, then every setting analyses the position (every first card valued) from
an emptied table, in turn, the order reversed on every other position; the values
must agree.  Printed as by `benchmarks.levers`: mean and median nodes, median and
total CPU time, and the median over the positions of the time ratio to the first setting.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from .arguments import at_least, lever_setting, megabytes, positive
from .deals import DEAL_SETS, deals
from .levers import HEAD, compare, print_row


def positions(key: str, n: int, tricks: int, seed: int = 7) -> list:
    from solver.position import load_position

    rng = random.Random(seed)
    result = []
    for deal in deals(key, n):
        pos = load_position(deal)
        for _ in range(tricks * pos.rules.n_players):
            move: Any = rng.choice(pos.legal_moves())
            pos = pos.play(move)
        result.append(pos)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.midgame", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=["jass"])
    parser.add_argument("--deals", type=positive, default=14)
    parser.add_argument("--tricks", type=at_least(0), default=1, help="tricks played before the analysis (default 1)")
    parser.add_argument("--tt-megabytes", type=megabytes, help="table size (default: the library's, 8 or 64 MB by the position)")
    parser.add_argument(
        "settings", nargs="+", type=lever_setting,
        help="one setting per argument, side by side: comma-separated name=value, or - for the defaults; e.g. - trump_order=0",
    )
    args = parser.parse_args(argv)
    settings = args.settings
    for key in args.games:
        tricks = DEAL_SETS[key].hand_size
        if args.tricks >= tricks:  # a position must have a card left to play
            parser.error(f"--tricks: a {key} deal has {tricks} tricks, give at most {tricks - 1}")
    print(HEAD)
    for key in args.games:
        rows = compare(key, positions(key, args.deals, args.tricks), settings, args.tt_megabytes)
        for row in rows:
            print_row(row)
        print(f"{key}: values differ in {rows[0]['differ']} of {rows[0]['positions']} positions")
        if rows[0]["differ"]:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
