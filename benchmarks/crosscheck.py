"""Deeper positions than the tests reach: the engine against itself with its levers off.

    python -m benchmarks.crosscheck [--games jass putz ...] [--per-value N]
                                    [--min-tricks 5] [--max-tricks 6] [--seed 3]
                                    [--keep-order | --leave-out [LEVER ...] | --exact-moves]

The tests hold the engine to the plain reference search on positions with 1 to 4
tricks left; a cut-off that only acts further from the end is not met there.  Here
seeded random positions (every option value, trump and objective of each game, as
in the tests) with `--min-tricks` to `--max-tricks` tricks left are analysed twice,
with the default levers and with every lever off (`solver.compile.ENGINE_OPTIONS`:
no merging, no bounds, no guesses, full windows: alpha-beta with the table only),
and every value of every legal move must agree.  Exit status 1 if any differs.
A new `--seed` deals positions no earlier run has checked.

`--exact-moves` compares instead the full analysis with `analyse(..., exact_moves=...)`
(0 to 3 legal cards named at random): the value, the best cards, the named cards'
values, the other cards' bounds, and the line of best play's end and points.

`--leave-out` compares the defaults instead with each cut-off lever turned off on its
own (all of `CUT_LEVERS`, or those named), one search per lever: much cheaper than
every lever off, so it reaches deeper (whole Putz deals), and a difference names the
lever.  A lever that is off in a game anyway gives the same search twice.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from solver import analyse
from solver._engine import Engine
from solver.compile import ENGINE_OPTIONS
from tests.randompos import CONFIGS, largest_hand, random_positions

from .arguments import at_least, positive

# every lever off; endgame_tricks 0 means no plain search below the table (shape_set
# is the shape table's layout, 2 or 4, and the shape table is off)
PLAIN = {name: 0 for name in ENGINE_OPTIONS if name != "shape_set"}
# the levers that only choose which move, or which first guess, is tried first: they
# cannot change a value, only how fast it is found.  With --keep-order they stay on
# in the plain search, which then checks every cut-off lever a little deeper than the
# plain order reaches (not Putz at 7 tricks left: without its cut-offs that stays out
# of reach, BENCHMARKS.md, the twenty-eighth session)
ORDER_LEVERS = (
    "lead_mobility", "trick_killers", "lead_killers", "cautious_smear", "suit_guess", "made_guess", "plan_guess",
    "trump_order", "trump_leads", "safe_smear", "coalition_trump_leads", "coalition_smear", "master_duck",
    "coalition_rich_wins", "coalition_ruffs_late", "safe_master_points", "own_trump_leads", "second_ruffs_late",
    "last_keeps_winners", "camp_order", "root_order",
)
# the levers that can change a value if they are wrong: each is checked on its own by
# --leave-out (shape_set is a layout, not a lever)
CUT_LEVERS = tuple(name for name in ENGINE_OPTIONS if name not in ORDER_LEVERS and name != "shape_set")
PROGRESS_SECONDS = 60  # a progress line on stderr at most this often


def crosscheck(
    game: str,
    per_value: int,
    min_tricks: int,
    max_tricks: int,
    seed: int = 3,
    out: Any = sys.stdout,
    keep_order: bool = False,
    leave_out: Sequence[str] = (),
    exact_moves: bool = False,
) -> int:
    """The number of positions on which some other search's values differ from the defaults'."""
    others: dict[str, dict[str, int]] = {}
    rng = random.Random(f"exact-moves-{game}-{seed}")
    if leave_out:
        others = {f"{name} off": {name: 0} for name in leave_out}
    elif not exact_moves:
        others = {"levers off": {name: v for name, v in PLAIN.items() if not (keep_order and name in ORDER_LEVERS)}}
    engine = Engine(8)
    other_engines = {label: Engine(8) for label in others}  # one each: a change of levers empties a table
    focused_engine = Engine(8) if exact_moves else None
    differ = count = 0
    started = reported = time.perf_counter()
    for position in random_positions(game, per_value, f"crosscheck-{seed}", max_tricks, min_tricks):
        full = analyse(position, engine=engine)
        fast = {m.move: m.value for m in full.moves}
        count += 1
        differs_here = False
        if exact_moves:
            fault = focused_fault(position, full, focused_engine, rng)
            if fault is not None:
                differs_here = True
                if differ < 3:
                    print(f"  differs: {position.to_dict()}\n    {fault}", file=out)
        for label, levers in others.items():
            other = {m.move: m.value for m in analyse(position, engine=other_engines[label], engine_options=levers).moves}
            if fast != other:
                differs_here = True
                if differ < 3:
                    print(f"  differs: {position.to_dict()}\n    defaults {fast}\n    {label} {other}", file=out)
        differ += differs_here
        if time.perf_counter() - reported > PROGRESS_SECONDS:  # the plain search can take minutes a position
            reported = time.perf_counter()
            so_far = f"  {game}: {count} positions so far, {differ} differ ({reported - started:.0f} s)"
            print(so_far, file=sys.stderr, flush=True)
    most = min(max_tricks, largest_hand(game))  # random_positions deals at most a full hand
    print(f"{game:12} {count:5} positions, {min(min_tricks, most)}-{most} tricks left: {differ} differ "
          f"({time.perf_counter() - started:.0f} s)", file=out, flush=True)
    return differ


def focused_fault(position: Any, full: Any, engine: Any, rng: random.Random) -> str | None:
    """What `analyse(position, exact_moves=...)`, 0 to 3 cards named at random, gets
    wrong against the full analysis `full`, or None."""
    values = {m.move: m.value for m in full.moves}
    named = rng.sample(sorted(values), rng.randint(0, min(3, len(values))))
    focused = analyse(position, engine=engine, exact_moves=named)
    if not focused.exact or (focused.value, focused.best) != (full.value, full.best):
        return f"named {named}: value {focused.value} best {focused.best}, full {full.value} {full.best}"
    for move in focused.moves:
        if move.value is not None and move.value != values[move.move]:
            return f"named {named}: {move.move} valued {move.value}, full {values[move.move]}"
        if move.value is None and (
            move.move in named or move.move in full.best or not move.lower <= values[move.move] <= move.upper
        ):
            return f"named {named}: {move.move} left at [{move.lower}, {move.upper}], full {values[move.move]}"
    end = position
    for card in focused.line:
        end = end.play(card)
    points = list(focused.points) if focused.points is not None else None
    if not end.is_over or end.value_for(position.side) != focused.value or points != end.final_scores():
        return f"named {named}: the line {focused.line} does not reach {focused.value} {focused.points}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.crosscheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(CONFIGS), default=sorted(CONFIGS))
    parser.add_argument("--per-value", type=positive, default=5, help="positions per option value (default 5)")
    parser.add_argument("--min-tricks", type=at_least(1), default=5)
    parser.add_argument("--max-tricks", type=at_least(1), default=6)
    parser.add_argument("--seed", type=int, default=3, help="seed of the positions (default 3)")
    compare = parser.add_mutually_exclusive_group()
    compare.add_argument("--keep-order", action="store_true", help="the move-order levers stay on in the plain search")
    compare.add_argument(
        "--leave-out", nargs="*", choices=CUT_LEVERS, metavar="LEVER",
        help="the defaults against each cut-off lever off on its own (default: all of them)",
    )
    compare.add_argument("--exact-moves", action="store_true", help="the full analysis against exact_moves' focused one")
    args = parser.parse_args(argv)
    if args.min_tricks > args.max_tricks:
        parser.error(f"--min-tricks {args.min_tricks} is more than --max-tricks {args.max_tricks}")
    most = max(largest_hand(game) for game in args.games)
    if args.max_tricks > most:
        parser.error(f"--max-tricks {args.max_tricks} is more than a full hand of these games ({most} tricks)")
    leave_out = () if args.leave_out is None else (args.leave_out or CUT_LEVERS)
    differ = sum(
        crosscheck(g, args.per_value, args.min_tricks, args.max_tricks, args.seed, keep_order=args.keep_order,
                   leave_out=leave_out, exact_moves=args.exact_moves)
        for g in args.games
    )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
