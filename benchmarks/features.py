"""Play analysis, the trump table and puzzle checks: their focused searches against
valuing every move, in one process.

    python -m benchmarks.features --games jass belote --deals 20

`analyse_play`, `trump_table` and `verify_puzzle` report the best moves, the value,
`points` and the values of a few named moves only (the played card, the claimed
moves), so they search for just that (`analyse(..., exact_moves=...)`).  This runs
each on the set's deals both ways, from an emptied table, the order reversed on every
other deal, and checks that the answers agree:

- play analysis: the deal played out by a seeded random choice among the legal cards;
- trump table: the deal before play, every trump (not Bassadewitz, which has none);
- puzzle: the deal's first position, the claim its last legal card.

Printed per set and kind: median and total CPU time both ways, the median of the
per-deal time ratio (focused / every move), and how many answers differ.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from .arguments import positive
from .deals import DEAL_SETS, deals, table_megabytes

KINDS = ("play", "trumps", "puzzle")


def played_out(deal: dict[str, Any], seed: int) -> dict[str, Any]:
    """`deal` (hands form) as `deal` + `played`, played to the end by seeded random cards."""
    from solver.position import load_position

    rng = random.Random(seed)
    pos = load_position(deal)
    played: list[str] = []
    while pos.legal_moves():
        move: Any = rng.choice(pos.legal_moves())
        played.append(str(move))
        pos = pos.play(move)
    data = dict(deal)
    data["deal"] = data.pop("hands")
    data["played"] = played
    return data


def every_move(position: Any, **kwargs: Any) -> Any:
    """`analyse` valuing every move: the search these analyses made before."""
    from solver.analysis import analyse

    kwargs.pop("exact_moves", None)
    return analyse(position, **kwargs)


def _answer(kind: str, deal: dict[str, Any], engine: Any, solve: Any) -> Any:
    from solver.features import analyse_play, trump_table, verify_puzzle
    from solver.position import load_position

    if kind == "play":
        return analyse_play(deal, engine=engine, solve=solve)
    if kind == "trumps":
        return trump_table(deal, engine=engine, solve=solve)
    claim = {"best": [str(load_position(deal).legal_moves()[-1])]}
    return verify_puzzle(deal, claim, engine=engine, solve=solve)


def _same(kind: str, a: Any, b: Any) -> bool:
    """The answers agree in everything these analyses report (not nodes or time)."""
    first, second = a.to_dict(), b.to_dict()
    for data in (first, second):
        data.pop("nodes")
        data.pop("time_ms")
        # points and lines follow one line of best play: equal values may come by others
        for entry in data.get("table", ()):
            entry.pop("points")
        for card in data.get("cards", ()):
            card.pop("line")
    return bool(first == second)


def both_ways(
    key: str,
    n: int,
    prepare: Callable[[dict[str, Any], int], dict[str, Any]],
    ways: tuple[Any, Any],
    answer: Callable[[dict[str, Any], Any, Any], Any],
    same: Callable[[Any, Any], bool],
) -> tuple[list[float], list[float], float, int]:
    """Each of the first `n` deals of set `key`, made ready by `prepare(hands, index)`,
    answered both ways (`answer(deal, engine, way)`), each from an emptied table of one
    engine, the order reversed on every other deal: each way's CPU ms per deal, the
    median per-deal ratio (first way / second), and how many answers are not `same`."""
    from solver import Engine

    sample = deals(key, n)
    engine = Engine(table_megabytes(sample[0], None))
    times: dict[Any, list[float]] = {way: [] for way in ways}
    differ = 0
    for i, hands in enumerate(sample):
        deal = prepare(hands, i)
        answers: dict[Any, Any] = {}
        for way in ways if i % 2 == 0 else ways[::-1]:
            engine.clear()
            started = time.process_time()
            answers[way] = answer(deal, engine, way)
            times[way].append((time.process_time() - started) * 1000.0)
        differ += not same(answers[ways[0]], answers[ways[1]])
    first, second = times[ways[0]], times[ways[1]]
    ratio = statistics.median(f / max(s, 1e-3) for f, s in zip(first, second))
    return first, second, ratio, differ


def compare(key: str, kind: str, n: int, seed: int) -> dict[str, Any]:
    focused, full, ratio, differ = both_ways(
        key,
        n,
        lambda hands, i: played_out(hands, seed + i) if kind == "play" else hands,
        (None, every_move),
        lambda deal, engine, solve: _answer(kind, deal, engine, solve),
        lambda a, b: _same(kind, a, b),
    )
    return {"set": key, "kind": kind, "deals": n, "focused": focused, "full": full, "ratio": ratio, "differ": differ}


def report(
    argv: list[str] | None,
    module: str,
    doc: str,
    kinds: tuple[str, ...],
    compare: Callable[[str, str, int, int], dict[str, Any]],
    ways: tuple[str, str],
    skip: Callable[[str, str], bool] = lambda key, kind: False,
) -> int:
    """The command line of a benchmark comparing two ways (`compare` gives each set and
    kind a row with the two ways' times under the names `ways`): a table, and status 1
    if any answer differs."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=doc.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=list(DEAL_SETS))
    parser.add_argument("--kinds", nargs="+", choices=kinds, default=list(kinds))
    parser.add_argument("--deals", type=positive, default=20)
    parser.add_argument("--seed", type=int, default=11, help="seed of the random play (default 11)")
    args = parser.parse_args(argv)
    first, second = ways
    other = f"({second})"
    width = max(9, len(other) + 2)
    print(f"{'set':<22}{'kind':<8}{'deals':>6}{'median ms':>11}{other:>{width}}{'total s':>9}{other:>{width}}"
          f"{'ratio':>7}{'differ':>8}")
    failed = False
    for key in args.games:
        for kind in args.kinds:
            if skip(key, kind):
                continue
            row = compare(key, kind, args.deals, args.seed)
            print(f"{key:<22}{kind:<8}{row['deals']:>6}{statistics.median(row[first]):>11.1f}"
                  f"{statistics.median(row[second]):>{width}.1f}{sum(row[first]) / 1000:>9.2f}"
                  f"{sum(row[second]) / 1000:>{width}.2f}{row['ratio']:>7.2f}{row['differ']:>8}", flush=True)
            failed = failed or row["differ"] > 0
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    # Bassadewitz has no trump
    return report(argv, "benchmarks.features", __doc__ or "", KINDS, compare, ("focused", "full"),
                  lambda key, kind: kind == "trumps" and DEAL_SETS[key].game == "bassadewitz")


if __name__ == "__main__":
    sys.exit(main())
