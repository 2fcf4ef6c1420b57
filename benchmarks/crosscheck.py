"""Deeper positions than the tests reach: the engine against itself with its levers off.

    python -m benchmarks.crosscheck [--games jass putz ...] [--per-value N]
                                    [--min-tricks 5] [--max-tricks 6]

The tests hold the engine to the plain reference search on positions with 1 to 4
tricks left; a cut-off that only acts further from the end is not met there.  Here
seeded random positions (every option value, trump and objective of each game, as
in the tests) with `--min-tricks` to `--max-tricks` tricks left are analysed twice,
with the default levers and with every lever off (`solver.compile.ENGINE_OPTIONS`:
no merging, no bounds, no guesses, full windows: alpha-beta with the table only),
and every value of every legal move must agree.  Exit status 1 if any differs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

from solver._engine import Engine

from solver import Position, analyse
from solver.compile import ENGINE_OPTIONS
from solver.games import get_game
from tests.randompos import CONFIGS, NOT_OPTIONS, balanced, random_position

# every lever off; endgame_tricks 0 means no plain search below the table
PLAIN = {name: 0 for name in ENGINE_OPTIONS}


def crosscheck(game: str, per_value: int, min_tricks: int, max_tricks: int, out: Any = sys.stdout) -> int:
    engine = Engine(8)
    plain_engine = Engine(8)
    differ = count = 0
    started = time.perf_counter()
    for position in deep_positions(game, per_value, min_tricks, max_tricks):
        fast = {m.move: m.value for m in analyse(position, engine=engine).moves}
        plain = {m.move: m.value for m in analyse(position, engine=plain_engine, engine_options=PLAIN).moves}
        count += 1
        if fast != plain:
            differ += 1
            if differ <= 3:
                print(f"  differs: {position.to_dict()}\n    defaults {fast}\n    levers off {plain}", file=out)
    print(f"{game:12} {count:5} positions, {min_tricks}-{max_tricks} tricks left: {differ} differ "
          f"({time.perf_counter() - started:.0f} s)", file=out, flush=True)
    return differ


def deep_positions(game: str, per_value: int, min_tricks: int, max_tricks: int) -> Iterator[Position]:
    """As the tests' random positions (every option value, trump and objective at
    least `per_value` times), with more tricks left (at most a full hand)."""
    rng = random.Random(f"crosscheck-{game}")
    config = CONFIGS[game]
    count = per_value * max(len(v) for v in config.values())
    columns = {name: balanced(rng, values, count) for name, values in config.items()}
    for i in range(count):
        chosen = {name: column[i] for name, column in columns.items()}
        cls = get_game(game)
        options = cls.check_options({k: v for k, v in chosen.items() if k not in NOT_OPTIONS})
        hand_size = cls(options, chosen.get("trump") or (cls.TRUMPS[0] if cls.TRUMPS else None), None).hand_size
        yield random_position(rng, game, chosen, rng.randint(min(min_tricks, hand_size), min(max_tricks, hand_size)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.crosscheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(CONFIGS), default=sorted(CONFIGS))
    parser.add_argument("--per-value", type=int, default=5, help="positions per option value (default 5)")
    parser.add_argument("--min-tricks", type=int, default=5)
    parser.add_argument("--max-tricks", type=int, default=6)
    args = parser.parse_args(argv)
    differ = sum(crosscheck(g, args.per_value, args.min_tricks, args.max_tricks) for g in args.games)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
