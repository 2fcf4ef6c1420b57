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
from typing import Any

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


def _timed(kind: str, deal: dict[str, Any], engine: Any, solve: Any) -> tuple[Any, float]:
    """The answer from an emptied table, and its CPU time in ms."""
    engine.clear()
    started = time.process_time()
    answer = _answer(kind, deal, engine, solve)
    return answer, (time.process_time() - started) * 1000.0


def _same(kind: str, a: Any, b: Any) -> bool:
    """The answers agree in everything these analyses report (not nodes or time)."""
    first, second = a.to_dict(), b.to_dict()
    for data in (first, second):
        data.pop("nodes")
        data.pop("time_ms")
        for entry in data.get("table", ()):
            # points follow one line of best play: equal values may come by other lines
            entry.pop("points")
    return bool(first == second)


def compare(key: str, kind: str, n: int, seed: int) -> dict[str, Any]:
    from solver import Engine

    sample = deals(key, n)
    engine = Engine(table_megabytes(sample[0], None))
    focused: list[float] = []
    full: list[float] = []
    differ = 0
    for i, hands in enumerate(sample):
        deal = played_out(hands, seed + i) if kind == "play" else hands
        times: dict[str, float] = {}
        answers: dict[str, Any] = {}
        order = [("focused", None), ("full", every_move)]
        for name, solve in order if i % 2 == 0 else order[::-1]:
            answers[name], times[name] = _timed(kind, deal, engine, solve)
        focused.append(times["focused"])
        full.append(times["full"])
        differ += not _same(kind, answers["focused"], answers["full"])
    ratios = [f / max(a, 1e-3) for f, a in zip(focused, full)]
    return {"set": key, "kind": kind, "deals": n, "focused": focused, "full": full, "ratio": statistics.median(ratios),
            "differ": differ}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.features", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=list(DEAL_SETS))
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=11, help="seed of the random play (default 11)")
    args = parser.parse_args(argv)
    print(f"{'set':<22}{'kind':<8}{'deals':>6}{'median ms':>11}{'(full)':>9}{'total s':>9}{'(full)':>8}"
          f"{'ratio':>7}{'differ':>8}")
    failed = False
    for key in args.games:
        for kind in args.kinds:
            if kind == "trumps" and DEAL_SETS[key].game == "bassadewitz":
                continue
            row = compare(key, kind, args.deals, args.seed)
            print(f"{key:<22}{kind:<8}{row['deals']:>6}{statistics.median(row['focused']):>11.1f}"
                  f"{statistics.median(row['full']):>9.1f}{sum(row['focused']) / 1000:>9.2f}"
                  f"{sum(row['full']) / 1000:>8.2f}{row['ratio']:>7.2f}{row['differ']:>8}", flush=True)
            failed = failed or row["differ"] > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
