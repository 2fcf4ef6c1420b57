"""Bassadewitz (seed 000): each for himself, fewest points wins; Jacks as fixed trumps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from .base import FREE, Option, Rules

JACK_ORDER = "DHSC"  # weakest first: CJ > SJ > HJ > DJ
SUIT_ORDER_WITH_JACK_TRUMPS = "789QKTA"
SUIT_ORDER_PLAIN = "789JQKTA"
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
OLD_POINTS = {"A": 5, "T": 10, "K": 4, "Q": 3, "J": 2}
JACKS = "J"  # the name of the Jacks' own group


class Bassadewitz(Rules):
    name = "bassadewitz"
    TRUMPS = ()
    OBJECTIVES = ("points", "all_tricks")
    OPTIONS = (
        Option("jacks", "trumps", ("trumps", "plain"), "Jacks form a trump group above all, or belong to their suits"),
        Option("scoring", "standard", ("standard", "old"), "old: Ace 5 and 1 point a trick"),
    )
    individual = True
    lowest_is_best = True
    settles = True
    last_trick_bonus = 0
    play_rule = FREE

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        super().__init__(options, trump, contract_seat)
        self.jack_trumps = options["jacks"] == "trumps"
        self.per_trick_bonus = 1 if options["scoring"] == "old" else 0

    def group(self, card: Card) -> str:
        return JACKS if self.jack_trumps and card.rank == "J" else card.suit

    @property
    def trump_group(self) -> str | None:
        return JACKS if self.jack_trumps else None

    def strength(self, card: Card) -> int:
        if self.group(card) == JACKS:
            return JACK_ORDER.index(card.suit)
        order = SUIT_ORDER_WITH_JACK_TRUMPS if self.jack_trumps else SUIT_ORDER_PLAIN
        return order.index(card.rank)

    def points(self, card: Card) -> int:
        table = OLD_POINTS if self.options["scoring"] == "old" else POINTS
        return table.get(card.rank, 0)

    def settlement_info(self, finals: Sequence[int], tricks: Sequence[int]) -> dict[str, Any] | None:
        return chips(finals, tricks)


def chips(points: Sequence[int], tricks: Sequence[int]) -> dict[str, Any]:
    """The chip settlement of RULES.md, for a person's information (never searched)."""
    n = len(points)
    pays = [0] * n
    pool_stays = False
    if max(tricks) == sum(tricks):
        sweeper = tricks.index(max(tricks))
        for seat in range(n):
            if seat != sweeper:
                pays[seat] -= 4
                pays[sweeper] += 4
        pool_stays = True
    for seat in range(n):
        if points[seat] >= 100 and tricks[seat] != sum(tricks):
            for other in range(n):
                if other != seat:
                    pays[seat] -= 4
                    pays[other] += 4
            pool_stays = True
    pool = [0] * n
    if not pool_stays and len(set(points)) > 1:
        ranking = sorted(range(n), key=lambda s: (points[s], s))
        for chips_won, seat in zip((5, 4, 3), ranking):
            pool[seat] = chips_won
    return {"from_pool": pool, "between_players": pays, "pool_stays": pool_stays or len(set(points)) == 1}
