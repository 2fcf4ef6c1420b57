"""Card tokens, the canonical order, parsing and printing.

A card is suit then rank: ``HJ``, ``ST``, ``C7``.  Canonical order: suits C S H D,
then ranks A K Q J T 9 8 7 6 (RULES.md, "Common notation").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import total_ordering

from .errors import SUIT_NAMES, CardError, clipped, json_kind, shown

SUITS = "CSHD"
RANKS = "AKQJT9876"


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """An immutable card; ``Card.parse("HJ")`` and ``str(card)`` round-trip."""

    suit: str
    rank: str
    # the canonical order, kept: cards are hashed and sorted on every call
    _index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.suit, str) or not isinstance(self.rank, str):  # `in SUITS` would be a TypeError
            parts = f"Card({clipped(repr(self.suit), 80)}, {clipped(repr(self.rank), 80)})"
            raise CardError("card", f"not a card: {parts} (suit and rank are letters, e.g. 'H', 'J')")
        if self.suit not in SUITS or self.rank not in RANKS or len(self.suit) != 1 or len(self.rank) != 1:
            raise CardError("card", f"not a card: {self.suit + self.rank!r}")
        object.__setattr__(self, "_index", SUITS.index(self.suit) * len(RANKS) + RANKS.index(self.rank))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index == other._index

    def __hash__(self) -> int:
        return self._index

    @classmethod
    def parse(cls, token: str, field: str = "card") -> Card:
        """The card of a token such as "HJ" (either case; "H10" for "HT"); a `CardError`
        naming `field` for anything else."""
        if not isinstance(token, str):
            raise CardError(field, f"a card must be a string like \"HJ\", got {shown(token)}")
        # ASCII only: str.upper() makes "ST" of the ligature "ﬅ", and "SJ" of "ſj"
        text = token.strip()
        text = text.upper() if text.isascii() else ""
        if len(text) == 3 and text[1:] == "10":  # accept "H10" for the ten
            text = text[0] + "T"
        if len(text) != 2 or text[0] not in SUITS or text[1] not in RANKS:
            raise CardError(field, f"{shown(token)} is not a card (suit CSHD then rank AKQJT9876, e.g. \"HJ\"){_meant(token)}")
        return _CARDS[text]

    @property
    def index(self) -> int:
        """Position in the canonical order of the 36-card pack (0 = CA)."""
        return self._index

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index < other._index

    def __str__(self) -> str:
        return self.suit + self.rank

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS = {s + r: Card(s, r) for s in SUITS for r in RANKS}


def _meant(token: str) -> str:
    """What a token that is not a card likely meant, for its error: cards run
    together with commas, a suit symbol, a rank written first or a 10 ("10H": "HT")."""
    text = token.strip()
    if "," in text or ";" in text:
        return '; this looks like several cards: one card a token ("HJ H9 S7" in a hand, ["HJ", "H9"] in a list)'
    text = "".join(SUIT_NAMES.get(ch, ch) for ch in text)  # a suit symbol: its letter
    if not text.isascii():
        return ""
    text = text.upper().replace("10", "T")
    if len(text) == 2:
        for guess in (text, text[::-1]):
            if guess[0] in SUITS and guess[1] in RANKS:
                return f'; did you mean "{guess}"?'
    return ""


def deck(ranks: str) -> list[Card]:
    """Every card of the given ranks, in canonical order."""
    return [_CARDS[s + r] for s in SUITS for r in RANKS if r in ranks]


def parse_cards(text: str | Iterable[str], field: str) -> list[Card]:
    """Parse a space-separated string (or a list) of card tokens."""
    if isinstance(text, str):
        tokens = text.split()
    elif isinstance(text, (list, tuple)):
        tokens = list(text)
    else:
        raise CardError(field, f"expected a string of cards like \"HJ H9 S7\", got {json_kind(text)}")
    return [Card.parse(t, f"{field}[{i}]") for i, t in enumerate(tokens)]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards))
