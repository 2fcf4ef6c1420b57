"""Where move order wastes nodes: per kind of node, how often the first move tried
was not the one that cut off, and what the moves tried before the cut cost.

Needs an instrumented build (global counters in the search: never on main):

    git worktree add ../plis-counts && cd ../plis-counts
    git apply benchmarks/cut_counts.patch && python setup.py build_ext --inplace
    PYTHONPATH=. python -m benchmarks.cut_counts --game jass --positions 12 --tricks 1 [lever=value,...]

(When `order_moves` or `search` change, the patch may need the same change.)

Two tables. Per kind of node (a lead by the maximising or minimising side; a later
card by its place in the trick, side, who is winning for the mover, whether it holds
the suit led, whether trumps were led): nodes with two moves or more, their subtrees'
nodes as a share of all nodes (nested kinds count again), the share that cut off, the
share of cuts at the first move, and the nodes spent on failed moves before a cut.
Then the largest wastes by (kind, rule that placed the first move, rule that placed
the move that cut), the rules being the branches of `order_moves`. The fifteenth
round found the Jass levers `second_ruffs_late` and `last_keeps_winners` this way.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .arguments import at_least, lever_setting, positive
from .deals import DEAL_SETS, deals, table_megabytes
from .midgame import positions as midgame_positions

RULES = (
    "table move",
    "killer",
    "plain lead",
    "trump lead",
    "master duck",
    "ruff over partner",
    "ruff over opponent",
    "low onto partner",
    "own winner",
    "rich onto partner",
    "coalition smear",
    "coalition rich win",
    "neutral",
    "discard to opponent",
    "second-hand ruff",
    "kept winner",
)


def kind_name(kind: int) -> str:
    if kind < 2:
        return f"lead, {'max' if kind else 'min'}"
    kind -= 2
    place, maximising, rest = kind // 24 + 1, (kind // 12) % 2, kind % 12
    winner = ("opponent", "neutral", "own side")[rest // 4]
    follows = "follows" if (rest // 2) % 2 else "void"
    led = "trump led" if rest % 2 else "plain led"
    return f"card {place + 1}, {'max' if maximising else 'min'}, {winner} winning, {follows}, {led}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cut_counts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=list(DEAL_SETS), default="jass")
    parser.add_argument("--positions", type=positive, default=12)
    parser.add_argument("--tricks", type=at_least(0), default=0, help="tricks played before the analysis (default 0)")
    parser.add_argument("--top", type=positive, default=25)
    parser.add_argument("setting", nargs="?", type=lever_setting, default="-", help="lever settings, e.g. master_duck=0")
    args = parser.parse_args(argv)
    hand_size = DEAL_SETS[args.game].hand_size
    if args.tricks >= hand_size:  # a position must have a card left to play
        parser.error(f"--tricks: a {args.game} deal has {hand_size} tricks, give at most {hand_size - 1}")

    from solver import Engine, _engine
    from solver.analysis import analyse

    if not hasattr(_engine, "counts"):
        print("this build has no counters: apply benchmarks/cut_counts.patch and rebuild", file=sys.stderr)
        return 2
    chosen: list[Any] = (
        midgame_positions(args.game, args.positions, args.tricks) if args.tricks else deals(args.game, args.positions)
    )
    engine = Engine(table_megabytes(chosen[0], None))
    _engine.reset_counts()
    total = 0
    for position in chosen:
        engine.clear()
        total += analyse(position, engine=engine, engine_options=args.setting).nodes
    kinds = _engine.counts()
    print(f"{args.game}, {len(chosen)} positions, {total} nodes")
    print(f"{'kind of node':62s} {'nodes':>9s} {'subtree%':>8s} {'cut%':>6s} {'first%':>6s} {'waste%':>6s}")
    for kind, d in sorted(kinds.items(), key=lambda kv: -kv[1]["waste"])[: args.top]:
        print(
            f"{kind_name(kind):62s} {d['nodes']:9d} {100 * d['total'] / total:8.1f}"
            f" {100 * d['cut'] / d['nodes']:6.1f} {100 * d['first'] / max(1, d['cut']):6.1f}"
            f" {100 * d['waste'] / total:6.2f}"
        )
    print()
    print(f"{'waste%':>6s} {'nodes':>8s}  {'kind of node':62s} first move -> move that cut")
    pairs = [(waste, count, kind, first, cut) for kind, d in kinds.items() for (first, cut), (count, waste) in d["pairs"].items()]
    for waste, count, kind, first, cut in sorted(pairs, reverse=True)[: args.top]:
        print(f"{100 * waste / total:6.2f} {count:8d}  {kind_name(kind):62s} {RULES[first]} -> {RULES[cut]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
