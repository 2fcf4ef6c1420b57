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

import sys
from typing import Any

from .features import both_ways, played_out, report

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
    for card in cards:  # one line of best play: kept tables may follow another, as good
        card.pop("line", None)
    return cards


def compare(key: str, kind: str, n: int, seed: int) -> dict[str, Any]:
    kept, emptied, ratio, differ = both_ways(
        key,
        n,
        lambda hands, i: played_out(hands, seed + i),
        (False, True),
        _hints if kind == "hints" else _play,
        lambda a, b: bool(a == b),
    )
    return {"set": key, "kind": kind, "deals": n, "kept": kept, "emptied": emptied, "ratio": ratio, "differ": differ}


def main(argv: list[str] | None = None) -> int:
    return report(argv, "benchmarks.played", __doc__ or "", KINDS, compare, ("kept", "emptied"))


if __name__ == "__main__":
    sys.exit(main())
