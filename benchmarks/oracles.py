"""What an ideal search would still leave: proofs' sizes and oracle ceilings.

Needs a measuring build (global switches in the search, and an unsound one: never
on main):

    git worktree add ../plis-oracles && cd ../plis-oracles
    git apply benchmarks/oracles.patch && python setup.py build_ext --inplace
    PYTHONPATH=. python -m benchmarks.oracles curve --game jass --deals 4
    PYTHONPATH=. python -m benchmarks.oracles ceiling --game jass --deals 30

`curve`: for the first cards of the first deals whose value is worse than the best
card's, the nodes of one null-window test from an emptied table at thresholds at a
distance from the card's exact value (offset -1 proves `value >= v`, +1 proves
`value < v + 2`): how much a proof costs near the value and away from it.

`ceiling`: the full analysis of each deal four times, each from an emptied table:
as it is; with the shape margins set to zero (a bound serves every position of its
shape unwidened: unsound, values may differ); with every first card's MTD(f)
starting at its exact value (an oracle, values the same); and with both. The node
counts say how far the two largest levers could take the search if they were perfect
(BENCHMARKS.md, the twenty-sixth round).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from typing import Any

from .arguments import positive
from .deals import DEAL_SETS, deals, table_megabytes

OFFSETS = (-81, -41, -21, -11, -5, -1, 1, 3, 7, 11, 21, 41, 81)
SETTINGS = (("as is", False, False), ("zero margins", True, False), ("exact guesses", False, True), ("both", True, True))


def engine_module() -> Any:
    """The compiled engine (untyped: a Cython module)."""
    return importlib.import_module("solver._engine")


def curve(game: str, n_deals: int, cards_per_deal: int) -> None:
    from solver.compile import build_spec
    from solver.position import Position

    module = engine_module()
    sets = deals(game, n_deals)
    engine = module.Engine(table_megabytes(sets[0], None))
    print("deal card value  " + " ".join(f"{o:+6d}" for o in OFFSETS) + "   (thousands of nodes)")
    for index, deal in enumerate(sets):
        spec = build_spec(Position.from_dict(deal))
        names = {bit: str(card) for card, bit in spec["_bits"].items()}
        engine.clear()
        values = engine.solve(spec, want_line=False)["values"]
        best = max(values.values())  # seat 0 leads a deal: the maximising side
        worse = sorted((b for b, v in values.items() if v < best), key=lambda b: values[b])[:cards_per_deal]
        for bit in worse:
            row = []
            for offset in OFFSETS:
                engine.clear()
                _, nodes = engine.null_window_test(spec, bit, values[bit] + offset + 1)
                row.append(f"{nodes / 1e3:6.0f}")
            print(f"{index:4} {names[bit]:4} {values[bit]:5}  " + " ".join(row), flush=True)


def ceiling(game: str, n_deals: int) -> None:
    from solver.compile import build_spec
    from solver.position import Position

    module = engine_module()
    sets = deals(game, n_deals)
    engine = module.Engine(table_megabytes(sets[0], None))
    rows: list[dict[str, int]] = []
    differ = 0
    for index, deal in enumerate(sets):
        spec = build_spec(Position.from_dict(deal))
        row: dict[str, int] = {}
        exact: dict[int, int] = {}
        for name, zero_margins, exact_guesses in SETTINGS:
            engine.clear()
            module.set_oracles(zero_margins, exact if exact_guesses else {})
            result = engine.solve(spec, want_line=False)
            if not exact:  # the first setting: as it is
                exact = dict(result["values"])
            elif result["values"] != exact:
                if not zero_margins:
                    raise AssertionError(f"deal {index}: exact guesses changed a value")
                differ += 1
            row[name] = result["nodes"]
        module.set_oracles(False, {})
        rows.append(row)
        print(f"{index:4} {deal.get('trump', ''):8} " + "  ".join(f"{k} {v / 1e6:6.2f}M" for k, v in row.items()), flush=True)
    print(f"\n{len(rows)} deals; zero margins gave a wrong value in {differ} of {2 * len(rows)} runs")
    for name, _, _ in SETTINGS:
        nodes = [r[name] for r in rows]
        ratio = statistics.median(r[name] / r["as is"] for r in rows)
        print(f"{name:14} mean {statistics.fmean(nodes) / 1e6:6.2f}M  median {statistics.median(nodes) / 1e6:6.2f}M  "
              f"median ratio {ratio:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.oracles", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("curve", "ceiling"))
    parser.add_argument("--game", choices=list(DEAL_SETS), default="jass")
    parser.add_argument("--deals", type=positive, default=4)
    parser.add_argument("--cards", type=positive, default=2, help="curve: the worst cards per deal (default %(default)s)")
    args = parser.parse_args(argv)
    if not hasattr(engine_module(), "set_oracles"):
        print("this build has no oracles: apply benchmarks/oracles.patch in a scratch worktree (see the docstring)",
              file=sys.stderr)
        return 2
    if args.what == "curve":
        curve(args.game, args.deals, args.cards)
    else:
        ceiling(args.game, args.deals)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
