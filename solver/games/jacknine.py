"""Ranks and points shared by the Jack-Nine games: Klaverjas, Klaberjass, Belote."""

from __future__ import annotations

from ..cards import Card
from .base import Rules

TRUMP_ORDER = "78QKTA9J"  # weakest first
PLAIN_ORDER = "789JQKTA"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


class JackNineRules(Rules):
    RANKS = "AKQJT987"

    def strength(self, card: Card) -> int:
        order = TRUMP_ORDER if card.suit == self.trump else PLAIN_ORDER
        return order.index(card.rank)

    def points(self, card: Card) -> int:
        table = TRUMP_POINTS if card.suit == self.trump else PLAIN_POINTS
        return table.get(card.rank, 0)

    def trump_marriage_holder(self, hands: list[list[Card]]) -> int | None:
        """The seat holding both the King and the Queen of trump, if one does."""
        for seat, hand in enumerate(hands):
            ranks = {c.rank for c in hand if c.suit == self.trump}
            if {"K", "Q"} <= ranks:
                return seat
        return None
