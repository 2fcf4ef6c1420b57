"""Belote contrée card play (RULES.md, "Belote contrée card play")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from .base import BELOTE
from .jacknine import JackNineRules

CAPOT_BONUS = 252 - 162  # a capot scores 252 instead of 162
BELOTE_BONUS = 20


class Belote(JackNineRules):
    name = "belote"
    play_rule = BELOTE

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        super().__init__(options, trump, contract_seat)
        self.sweep_bonus = CAPOT_BONUS

    def deal_bonuses(self, hands: Sequence[Sequence[Card]]) -> list[int]:
        bonuses = [0, 0]
        holder = self.trump_marriage_holder([list(h) for h in hands])
        if holder is not None:
            bonuses[self.side_of(holder)] += BELOTE_BONUS
        return bonuses
