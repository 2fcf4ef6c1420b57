"""Bésigue (seed 002): two packs, a talon, melds declared by the trick winner.

This module holds the card rules (trick winners of both phases, phase-2 obligations)
and the melds (kinds, values, reuse).  The state of a deal (talon, face-up cards,
declarations as moves) lives in `solver.besigue`, which also runs the searches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from .base import Option, Rules, require_trump

STRENGTH_ORDER = "ATKQJ987"  # every suit, highest first
HAND_SIZE = 9
TALON_SIZE = 46  # 64 cards - 2 hands of 9
LAST_TRICK_BONUS = 10
SEVEN_BONUS = 10  # a trump 7 shown, exchanged, or turned up for the dealer
BRISQUE_RANKS = "AT"

# Meld kinds.  A face-up card remembers the kinds it has been used in ("marks");
# marriages, common or trump, are one kind.
FOUR_KIND = {"A": "four_aces", "K": "four_kings", "Q": "four_queens", "J": "four_jacks"}
FOUR_POINTS = {"four_aces": 100, "four_kings": 80, "four_queens": 60, "four_jacks": 40}
MELD_KINDS = ("marriage", "besigue", "double_besigue", "four_aces", "four_kings", "four_queens", "four_jacks", "sequence")
SEVEN_MARK = "seven"  # the mark of a trump 7 that has scored
BESIGUE_CARDS = (Card.parse("SQ"), Card.parse("DJ"))
SEQUENCE_RANKS = "ATKQJ"
MARRIAGE_POINTS, TRUMP_MARRIAGE_POINTS = 20, 40
FIXED_POINTS = {"besigue": 40, "double_besigue": 500, "sequence": 250, **FOUR_POINTS}


class Besigue(Rules):
    name = "besigue"
    OPTIONS = (
        Option(
            "phase1",
            "seed",
            ("seed", "standard"),
            "phase-1 trick: seed = trump, else the higher rank whatever the suit; standard = suit led or trump",
        ),
    )
    RANKS = "AKQJT987"
    n_players = 2

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        self.trump_suit = require_trump(type(self), trump)
        super().__init__(options, self.trump_suit, contract_seat)
        self.standard = options["phase1"] == "standard"

    @property
    def hand_size(self) -> int:
        return HAND_SIZE

    def strength(self, card: Card) -> int:
        return len(STRENGTH_ORDER) - 1 - STRENGTH_ORDER.index(card.rank)

    def points(self, card: Card) -> int:
        return 10 if card.rank in BRISQUE_RANKS else 0

    # --- tricks ---------------------------------------------------------------------
    def second_wins(self, led: Card, second: Card, phase: int) -> bool:
        """Whether the second card of a trick beats the first (the first of two equals wins)."""
        led_trump, second_trump = led.suit == self.trump, second.suit == self.trump
        if phase == 1 and not self.standard:
            if led_trump != second_trump:
                return second_trump
            return self.strength(second) > self.strength(led)
        if second.suit == led.suit:
            return self.strength(second) > self.strength(led)
        return second_trump

    def phase2_legal(self, hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
        """Phase 2: follow and win if you can, else follow; else trump; else anything."""
        if not trick:
            return list(hand)
        led = trick[0]
        follow = [c for c in hand if c.suit == led.suit]
        if follow:
            winning = [c for c in follow if self.strength(c) > self.strength(led)]
            return winning or follow
        trumps = [c for c in hand if c.suit == self.trump]
        return trumps or list(hand)

    # --- melds ------------------------------------------------------------------------
    def meld_points(self, kind: str, cards: Sequence[Card]) -> int:
        if kind == "marriage":
            return TRUMP_MARRIAGE_POINTS if cards[0].suit == self.trump else MARRIAGE_POINTS
        return FIXED_POINTS[kind]

    def kinds_of(self, card: Card) -> tuple[str, ...]:
        """The meld kinds a card can take part in (its possible marks)."""
        kinds = []
        if card.rank in "KQ":
            kinds.append("marriage")
        if card in BESIGUE_CARDS:
            kinds += ["besigue", "double_besigue"]
        if card.rank in FOUR_KIND:
            kinds.append(FOUR_KIND[card.rank])
        if card.suit == self.trump and card.rank in SEQUENCE_RANKS:
            kinds.append("sequence")
        return tuple(kinds)
