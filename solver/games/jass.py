"""Jass, Schieber (seed 001) and Putz for 3 or 5 players."""

from __future__ import annotations

from typing import Any, ClassVar

from ..cards import Card
from ..errors import MATCH_BONUS_LIMIT
from .base import JASS, Option, Rules

TRUMP_ORDER = "678TQKA9J"  # weakest first
PLAIN_ORDER = "6789TJQKA"
UNDEUFE_ORDER = PLAIN_ORDER[::-1]
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "T": 10}
PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10}
OBENABE_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "8": 8}
UNDEUFE_POINTS = {"6": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "8": 8}

BUUR_OPTION = Option("buur_exception", True, (True, False), "a player whose only trump is the Jack need not play it")


class Jass(Rules):
    name = "jass"
    RANKS = "AKQJT9876"
    TRUMPS: ClassVar[tuple[str, ...]] = ("C", "S", "H", "D", "obenabe", "undeufe")
    OPTIONS = (
        Option("match_bonus", 100, None, "bonus to a team that takes all 9 tricks", limit=MATCH_BONUS_LIMIT),
        BUUR_OPTION,
    )
    last_trick_bonus = 5
    play_rule = JASS

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        super().__init__(options, trump, contract_seat)
        self.sweep_bonus = options.get("match_bonus", 0)
        self.buur_exception = options["buur_exception"]

    def strength(self, card: Card) -> int:
        if self.trump == "undeufe":
            return UNDEUFE_ORDER.index(card.rank)
        order = TRUMP_ORDER if card.suit == self.trump else PLAIN_ORDER
        return order.index(card.rank)

    def points(self, card: Card) -> int:
        if self.trump == "obenabe":
            table = OBENABE_POINTS
        elif self.trump == "undeufe":
            table = UNDEUFE_POINTS
        else:
            table = TRUMP_POINTS if card.suit == self.trump else PLAIN_POINTS
        return table.get(card.rank, 0)


class Putz(Jass):
    """Each for himself; 3 players hold 9 cards, 5 players 7 (RULES.md, "Putz")."""

    name = "putz"
    TRUMPS = ("C", "S", "H", "D")
    OBJECTIVES = ("points", "pomme")
    OPTIONS = (
        Option("players", 3, (3, 5), "number of players"),
        BUUR_OPTION,
    )
    individual = True
    POMME_BELOW = 21  # a seat with fewer points is pomme

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        super().__init__(options, trump, contract_seat)
        self.n_players = options["players"]
        self.sweep_bonus = 0

    @property
    def hand_size(self) -> int:
        return 9 if self.n_players == 3 else 7
