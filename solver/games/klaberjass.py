"""Klaberjass (seed 004): 2 or 4 players, bella, sequences, bate and half bate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from .base import FREE, ROTTERDAM, Option
from .jacknine import JackNineRules

BELLA_BONUS = 20
SEQUENCE_ORDER = "789TJQKA"  # weakest first


class Klaberjass(JackNineRules):
    name = "klaberjass"
    CONTRACT_FIELD = "taker"
    OPTIONS = (
        Option("players", 2, (2, 4), "number of players (4: teams 0+2 and 1+3)"),
        Option("rules", "seed", ("seed", "pagat"), "seed: follow else any card; pagat: overtrump and must trump"),
        Option("half_bate", "own", ("own", "seed"), "at a tie the opponent scores his own total, or half the taker's"),
    )

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        super().__init__(options, trump, contract_seat)
        self.n_players = options["players"]
        self.play_rule = ROTTERDAM if options["rules"] == "pagat" else FREE

    @property
    def hand_size(self) -> int:
        return 9 if self.n_players == 2 else 8

    def deal_bonuses(self, hands: Sequence[Sequence[Card]]) -> list[int]:
        bonuses = [0] * self.n_sides
        holder = self.trump_marriage_holder([list(h) for h in hands])
        if holder is not None:
            bonuses[self.side_of(holder)] += BELLA_BONUS
        best: list[tuple[int, int, bool] | None] = [None] * self.n_sides
        totals = [0] * self.n_sides
        for seat, hand in enumerate(hands):
            side = self.side_of(seat)
            for value, top, is_trump in sequences(hand, self.trump):
                totals[side] += value
                key = (value, top, is_trump)
                if best[side] is None or key > best[side]:  # type: ignore[operator]
                    best[side] = key
        held = [(key, side) for side, key in enumerate(best) if key is not None]
        if held:
            held.sort(reverse=True)
            if len(held) == 1 or held[0][0] != held[1][0]:
                bonuses[held[0][1]] += totals[held[0][1]]
        return bonuses

    def settle(self, totals: Sequence[int], objective: str) -> list[int]:
        if objective != "score":
            return list(totals)
        assert self.contract_seat is not None
        taker = self.side_of(self.contract_seat)
        other = 1 - taker
        finals = [0, 0]
        if totals[taker] > totals[other]:
            return list(totals)
        if totals[taker] < totals[other]:
            finals[other] = totals[0] + totals[1]
        elif self.options["half_bate"] == "own":
            finals[other] = totals[other]
        else:
            finals[other] = totals[taker] // 2
        return finals


def sequences(hand: Sequence[Card], trump: str | None) -> list[tuple[int, int, bool]]:
    """Each maximal run of 3+ cards in one suit: (value, top card place, is trump)."""
    found = []
    for suit in "CSHD":
        places = sorted(SEQUENCE_ORDER.index(c.rank) for c in hand if c.suit == suit)
        start = 0
        for i in range(1, len(places) + 1):
            if i == len(places) or places[i] != places[i - 1] + 1:
                length = i - start
                if length >= 3:
                    found.append((20 if length == 3 else 50, places[i - 1], suit == trump))
                start = i
    return found
