"""Klaverjas (seed 003): roem in the tricks, pit, and the nat settlement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from .base import AMSTERDAM, KLAVERJAS_SEED, ROTTERDAM, Option
from .jacknine import PLAIN_ORDER, TRUMP_ORDER, JackNineRules

PIT_BONUS = 100
NATURAL_ORDER = "789TJQKA"  # sequences, Dutch federation order (weakest first)
FOUR_OF_A_KIND = {"A": 100, "T": 100, "K": 100, "Q": 100, "J": 200}


class Klaverjas(JackNineRules):
    name = "klaverjas"
    CONTRACT_FIELD = "declarer"
    has_roem = True
    OPTIONS = (
        Option(
            "rules", "rotterdam", ("rotterdam", "amsterdam", "seed"), "which card you must play: following, and when you cannot"
        ),
        Option("roem_order", "natural", ("natural", "rank"), "card order for sequences: A K Q J T 9 8 7, or the trick ranking"),
        Option("nat_on_tie", False, (False, True), "equal totals are nat"),
    )

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        super().__init__(options, trump, contract_seat)
        self.play_rule = {"rotterdam": ROTTERDAM, "amsterdam": AMSTERDAM, "seed": KLAVERJAS_SEED}[options["rules"]]
        self.sweep_bonus = PIT_BONUS

    def sequence_position(self, card: Card) -> int:
        """Where a card stands in a run; consecutive numbers are in sequence."""
        if self.options["roem_order"] == "natural":
            return NATURAL_ORDER.index(card.rank)
        order = TRUMP_ORDER if card.suit == self.trump else PLAIN_ORDER
        return order.index(card.rank)

    def trick_bonus(self, trick: Sequence[Card]) -> int:
        return roem(trick, self.trump, self.sequence_position)

    def settle(self, totals: Sequence[int], objective: str) -> list[int]:
        if objective != "score":
            return list(totals)
        assert self.contract_seat is not None
        playing = self.side_of(self.contract_seat)
        made = totals[playing] > totals[1 - playing] or (
            totals[playing] == totals[1 - playing] and not self.options["nat_on_tie"]
        )
        if made:
            return list(totals)
        finals = [0, 0]
        finals[1 - playing] = totals[0] + totals[1]
        return finals


def roem(trick: Sequence[Card], trump: str | None, position: Any) -> int:
    """Roem of a complete trick: a run of 3 (20) or 4 (50), four of a kind, stuk."""
    ranks = {c.rank for c in trick}
    if len(trick) == 4 and len(ranks) == 1:
        return FOUR_OF_A_KIND.get(trick[0].rank, 0)
    total = 0
    for suit in {c.suit for c in trick}:
        places = sorted(position(c) for c in trick if c.suit == suit)
        run = best = 1
        for a, b in zip(places, places[1:]):
            run = run + 1 if b == a + 1 else 1
            best = max(best, run)
        total += {3: 20, 4: 50}.get(best, 0)
    if {"K", "Q"} <= {c.rank for c in trick if c.suit == trump}:
        total += 20  # stuk
    return total
