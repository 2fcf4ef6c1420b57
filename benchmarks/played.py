"""The positions of a played deal on one engine: its tables kept from one position to
the next, against emptied before each position, in one process.

    python -m benchmarks.played --games jass belote --deals 20

An app asking for a hint at every card, or a play analysis ("which card lost us the
game"), values the positions of one deal in turn.  One engine keeps its tables from
one position to the next (README, `engine=`), the sides to move taking turns.  This
plays each deal of a set out by seeded random cards and, from an emptied table,
runs both ways, the order reversed on every other deal:

- hints: `hint` at every position, the tables kept, or emptied before each;
- play: `analyse_play`, the tables kept, or emptied before each position.

Printed per set and kind: median and total CPU time both ways, the median of the
per-deal time ratio (kept / emptied), and how many answers differ.  Every answer
with the tables kept must be the one from emptied tables (not `points`, which may
follow another line of best play): a difference fails the run, so this is a check
of the tables' reuse too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from .deals import DEAL_SETS, deals, table_megabytes
from .features import played_out

KINDS = ("hints", "play")


def _hints(deal: dict[str, Any], engine: Any, emptied: bool) -> list[Any]:
    from solver.analysis import as_position, hint
    from solver.features import start_of_deal

    position = start_of_deal(as_position(deal))
    answers = []
    for card in deal["played"]:
        if emptied:
            engine.clear()
        result = hint(position, engine=engine)
        answers.append((result.value, result.best))
        position = position.play(card)
    return answers


def _play(deal: dict[str, Any], engine: Any, emptied: bool) -> Any:
    from solver.analysis import analyse
    from solver.features import analyse_play

    def emptied_first(position: Any, **kwargs: Any) -> Any:
        engine.clear()
        return analyse(position, **kwargs)

    cards = analyse_play(deal, engine=engine, solve=emptied_first if emptied else None).to_dict()["cards"]
    return cards


def _timed(kind: str, deal: dict[str, Any], engine: Any, emptied: bool) -> tuple[Any, float]:
    """The answers from an emptied table, and their CPU time in ms."""
    engine.clear()
    started = time.process_time()
    answer = (_hints if kind == "hints" else _play)(deal, engine, emptied)
    return answer, (time.process_time() - started) * 1000.0


def compare(key: str, kind: str, n: int, seed: int) -> dict[str, Any]:
    from solver import Engine

    sample = deals(key, n)
    engine = Engine(table_megabytes(sample[0], None))
    kept: list[float] = []
    emptied: list[float] = []
    differ = 0
    for i, hands in enumerate(sample):
        deal = played_out(hands, seed + i)
        times: dict[bool, float] = {}
        answers: dict[bool, Any] = {}
        for empty in (False, True) if i % 2 == 0 else (True, False):
            answers[empty], times[empty] = _timed(kind, deal, engine, empty)
        kept.append(times[False])
        emptied.append(times[True])
        differ += answers[False] != answers[True]
    ratios = [k / max(e, 1e-3) for k, e in zip(kept, emptied)]
    return {"set": key, "kind": kind, "deals": n, "kept": kept, "emptied": emptied, "ratio": statistics.median(ratios),
            "differ": differ}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.played", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=list(DEAL_SETS))
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=11, help="seed of the random play (default 11)")
    args = parser.parse_args(argv)
    print(f"{'set':<22}{'kind':<7}{'deals':>6}{'median ms':>11}{'(emptied)':>11}{'total s':>9}{'(emptied)':>11}"
          f"{'ratio':>7}{'differ':>8}")
    failed = False
    for key in args.games:
        for kind in args.kinds:
            row = compare(key, kind, args.deals, args.seed)
            print(f"{key:<22}{kind:<7}{row['deals']:>6}{statistics.median(row['kept']):>11.1f}"
                  f"{statistics.median(row['emptied']):>11.1f}{sum(row['kept']) / 1000:>9.2f}"
                  f"{sum(row['emptied']) / 1000:>11.2f}{row['ratio']:>7.2f}{row['differ']:>8}", flush=True)
            failed = failed or row["differ"] > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
