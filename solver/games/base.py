"""What every game shares: the rules interface, option specs and the play rules.

A game module subclasses `Rules` and sets a few class attributes and hooks.  This
plain Python code is the definition the reference search and `Position` replay use;
`solver.compile` turns the same description into the tables the engine reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import SUITS, Card, deck
from ..errors import SUIT_NAMES, VALUE_LIMIT, OptionError, PositionError, json_kind, key_field, meant, shown


@dataclass(frozen=True)
class Option:
    """A documented game option: its default and the values it accepts."""

    name: str
    default: Any
    values: tuple[Any, ...] | None  # None: any integer from 0 to `limit`
    doc: str
    limit: int = VALUE_LIMIT

    def check(self, game: str, value: Any) -> Any:
        field = f"options.{self.name}"
        if self.values is None:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= self.limit:
                must = f"must be an integer from 0 to {self.limit}"
                raise OptionError(field, f"{game} option {self.name} {must}, got {shown(value)}")
            return value
        for allowed in self.values:
            if value == allowed and type(value) is type(allowed):
                return value
        listed = ", ".join(v if isinstance(v, str) else shown(v) for v in self.values)
        suggestion = meant(value, self.values)
        raise OptionError(field, f"{game} option {self.name} must be one of {listed}, got {shown(value)}{suggestion}")


# The objectives whose value is true or false (RULES.md, "Value of a position").
YES_NO_OBJECTIVES = ("all_tricks", "pomme")

# Play-rule kinds; the engine has the same numbers (solver/_engine.pyx).
FREE, JASS, ROTTERDAM, AMSTERDAM, KLAVERJAS_SEED, BELOTE = range(6)


class Rules:
    """One game with its options, trump and contract bound: everything card play needs."""

    name: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    OBJECTIVES: ClassVar[tuple[str, ...]] = ("score", "raw")
    RANKS: ClassVar[str] = "AKQJT987"
    TRUMPS: ClassVar[tuple[str, ...]] = tuple(SUITS)  # () if the game has no trump
    CONTRACT_FIELD: ClassVar[str | None] = None  # "declarer" / "taker"
    individual: ClassVar[bool] = False  # each seat for himself, paranoid search
    lowest_is_best: ClassVar[bool] = False
    last_trick_bonus: ClassVar[int] = 10
    has_roem: ClassVar[bool] = False  # tricks carry roem (`trick_bonus`, `sequence_position`)
    settles: ClassVar[bool] = False  # `settlement_info` says more than the points (chips)
    play_rule: int = FREE

    def __init__(self, options: dict[str, Any], trump: str | None, contract_seat: int | None) -> None:
        self.options = options
        self.trump = trump
        self.contract_seat = contract_seat
        self.deck = deck(self.RANKS)
        self.per_trick_bonus = 0
        self.sweep_bonus = 0  # to a side that takes every trick
        self.buur_exception = False

    # everything else follows from the game, its options, trump and contract seat, so
    # that two positions read from the same dict are equal
    def _identity(self) -> tuple[Any, ...]:
        return type(self), tuple(sorted(self.options.items())), self.trump, self.contract_seat

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:  # the call that makes these rules (a position's repr shows them)
        return f"{type(self).__name__}(options={self.options!r}, trump={self.trump!r}, contract_seat={self.contract_seat!r})"

    # --- construction ------------------------------------------------------------
    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        return {o.name: o.default for o in cls.OPTIONS}

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise OptionError("options", f"must be an object, got {json_kind(options)}")
        known = {o.name: o for o in cls.OPTIONS}
        result = cls.option_defaults()
        for key, value in options.items():
            if key not in known:
                listed = ", ".join(known) or "none"
                suggestion = meant(key, known)
                raise OptionError(
                    key_field(key, "options"), f"{cls.name} has no option {shown(key)} (its options: {listed}){suggestion}"
                )
            result[key] = known[key].check(cls.name, value)
        return result

    # --- seats and sides ------------------------------------------------------------
    n_players: int = 4

    @property
    def hand_size(self) -> int:
        """Cards each seat holds before the first trick (= tricks in a deal)."""
        return len(self.deck) // self.n_players

    @property
    def n_sides(self) -> int:
        return self.n_players if self.individual or self.n_players == 2 else 2

    def side_of(self, seat: int) -> int:
        return seat % self.n_sides

    # --- card order and points ------------------------------------------------------
    def group(self, card: Card) -> str:
        """The suit (or group) a card belongs to for following and winning."""
        return card.suit

    @property
    def trump_group(self) -> str | None:
        return self.trump if self.trump is not None and self.trump in SUITS else None

    def strength(self, card: Card) -> int:
        """Rank of a card within its group; higher wins."""
        raise NotImplementedError

    def points(self, card: Card) -> int:
        raise NotImplementedError

    def is_trump(self, card: Card) -> bool:
        return self.group(card) == self.trump_group

    # --- tricks --------------------------------------------------------------------------
    def trick_winner(self, trick: Sequence[Card]) -> int:
        """Index in `trick` of the winning card."""
        led = self.group(trick[0])
        best = 0
        for i, card in enumerate(trick[1:], 1):
            if self.beats(card, trick[best], led):
                best = i
        return best

    def beats(self, card: Card, winner: Card, led: str) -> bool:
        g, w = self.group(card), self.group(winner)
        if g == w:
            return self.strength(card) > self.strength(winner)
        return g == self.trump_group  # a trump on a non-trump; anything else off-suit loses

    def trick_bonus(self, trick: Sequence[Card]) -> int:
        """Points a trick carries beyond its cards (roem); 0 for most games."""
        return 0

    def sequence_position(self, card: Card) -> int:
        """Where a card stands in a roem run (games with roem only)."""
        raise NotImplementedError

    def trick_value(self, trick: Sequence[Card], last: bool) -> int:
        value = sum(self.points(c) for c in trick) + self.trick_bonus(trick) + self.per_trick_bonus
        return value + (self.last_trick_bonus if last else 0)

    # --- legal moves -----------------------------------------------------------------
    def legal(self, hand: Sequence[Card], trick: Sequence[Card], leader: int) -> list[Card]:
        """The cards of `hand` that may be played on `trick`, in canonical order."""
        hand = sorted(hand)
        if not trick:
            return hand
        return sorted(LEGAL[self.play_rule](self, hand, trick, leader))

    # --- bonuses fixed by the deal and settlement ----------------------------------
    def deal_bonuses(self, hands: Sequence[Sequence[Card]]) -> list[int]:
        """Bonuses the deal fixes before play (belote, bella, sequences), per side."""
        return [0] * self.n_sides

    def settle(self, totals: Sequence[int], objective: str) -> list[int]:
        """Final scores of each side from the raw totals, for `objective`."""
        return list(totals)

    def check_position(self, hands: Sequence[Sequence[Card]]) -> None:
        """Game-specific checks of a position (none by default)."""

    def settlement_info(self, finals: Sequence[int], tricks: Sequence[int]) -> dict[str, Any] | None:
        """What a person may want to know about the end of the deal (chips...)."""
        return None

    def describe(self) -> dict[str, Any]:
        return {"game": self.name, "options": self.options, "trump": self.trump}


def _trumps(rules: Rules, cards: Sequence[Card]) -> list[Card]:
    return [c for c in cards if rules.is_trump(c)]


def _highest_trump(rules: Rules, trick: Sequence[Card]) -> Card | None:
    trumps = _trumps(rules, trick)
    return max(trumps, key=rules.strength) if trumps else None


def _above(rules: Rules, cards: Sequence[Card], card: Card | None) -> list[Card]:
    """Cards of `cards` stronger than `card` in its group (all of them if `card` is None)."""
    if card is None:
        return list(cards)
    return [c for c in cards if rules.strength(c) > rules.strength(card)]


def legal_free(rules: Rules, hand: list[Card], trick: Sequence[Card], leader: int) -> list[Card]:
    """Follow the group led if you can; otherwise any card."""
    led = rules.group(trick[0])
    follow = [c for c in hand if rules.group(c) == led]
    return follow or hand


def legal_jass(rules: Rules, hand: list[Card], trick: Sequence[Card], leader: int) -> list[Card]:
    """Schieber: trump at any time, no undertrumping, the Buur exception."""
    if rules.trump_group is None:  # obenabe, undeufe
        return legal_free(rules, hand, trick, leader)
    led = rules.group(trick[0])
    trumps = _trumps(rules, hand)
    if led == rules.trump_group:
        if not trumps:
            return hand
        if rules.buur_exception and len(trumps) == 1 and trumps[0].rank == "J":
            return hand
        return trumps
    follow = [c for c in hand if rules.group(c) == led]
    allowed = follow + trumps if follow else hand
    top = _highest_trump(rules, trick)
    if top is not None and len(trumps) < len(hand):
        # a trump below the highest one on the trick is an undertrump
        allowed = [c for c in allowed if not rules.is_trump(c) or rules.strength(c) > rules.strength(top)]
    return allowed


def _follow_trump_lead(rules: Rules, hand: list[Card], trick: Sequence[Card]) -> list[Card] | None:
    """On a trump lead with trumps in hand: beat the highest trump if you can."""
    trumps = _trumps(rules, hand)
    if not trumps:
        return None
    return _above(rules, trumps, _highest_trump(rules, trick)) or trumps


def legal_rotterdam(rules: Rules, hand: list[Card], trick: Sequence[Card], leader: int) -> list[Card]:
    """Klaverjas Rotterdam, Klaberjass pagat: follow; overtrump; must trump when void."""
    led = rules.group(trick[0])
    if led == rules.trump_group:
        return _follow_trump_lead(rules, hand, trick) or hand
    follow = [c for c in hand if rules.group(c) == led]
    if follow:
        return follow
    trumps = _trumps(rules, hand)
    if not trumps:
        return hand
    return _above(rules, trumps, _highest_trump(rules, trick)) or trumps


def _partner_winning(rules: Rules, trick: Sequence[Card], leader: int) -> bool:
    """Whether the player about to play is on the side of the trick's current winner."""
    n = rules.n_players
    winner_seat = (leader + rules.trick_winner(trick)) % n
    to_play = (leader + len(trick)) % n
    return rules.side_of(winner_seat) == rules.side_of(to_play)


def legal_amsterdam(rules: Rules, hand: list[Card], trick: Sequence[Card], leader: int) -> list[Card]:
    """Klaverjas Amsterdam: as Rotterdam, but a partner's winning trick frees you."""
    led = rules.group(trick[0])
    if led == rules.trump_group or any(rules.group(c) == led for c in hand):
        return legal_rotterdam(rules, hand, trick, leader)
    top = _highest_trump(rules, trick)
    trumps = _trumps(rules, hand)
    lower = [c for c in trumps if top is not None and rules.strength(c) < rules.strength(top)]
    if not _partner_winning(rules, trick, leader):
        higher = _above(rules, trumps, top)
        if higher:
            return higher
    # any card, but no trump below the highest one on the trick unless that is all you hold
    if len(lower) == len(hand):
        return hand
    return [c for c in hand if c not in lower]


def legal_klaverjas_seed(rules: Rules, hand: list[Card], trick: Sequence[Card], leader: int) -> list[Card]:
    """Seed 003's wording: follow and beat the previous card; else overtrump if you can."""
    led = rules.group(trick[0])
    follow = [c for c in hand if rules.group(c) == led]
    if follow:
        previous = trick[-1]
        if rules.group(previous) == led:
            return _above(rules, follow, previous) or follow
        return follow
    top = _highest_trump(rules, trick)
    if top is not None:
        higher = _above(rules, _trumps(rules, hand), top)
        if higher:
            return higher
    return hand


def legal_belote(rules: Rules, hand: list[Card], trick: Sequence[Card], leader: int) -> list[Card]:
    """Belote contrée: follow; overtrump on a trump lead; trump unless partner is winning."""
    led = rules.group(trick[0])
    if led == rules.trump_group:
        return _follow_trump_lead(rules, hand, trick) or hand
    follow = [c for c in hand if rules.group(c) == led]
    if follow:
        return follow
    if _partner_winning(rules, trick, leader):
        return hand
    trumps = _trumps(rules, hand)
    if not trumps:
        return hand
    return _above(rules, trumps, _highest_trump(rules, trick)) or hand


LEGAL = {
    FREE: legal_free,
    JASS: legal_jass,
    ROTTERDAM: legal_rotterdam,
    AMSTERDAM: legal_amsterdam,
    KLAVERJAS_SEED: legal_klaverjas_seed,
    BELOTE: legal_belote,
}


def require_trump(rules_cls: type[Rules], trump: Any) -> str:
    if trump is None:
        raise PositionError("trump", f"{rules_cls.name} needs a trump ({', '.join(rules_cls.TRUMPS)})")
    if trump not in rules_cls.TRUMPS:
        listed, suggestion = ", ".join(rules_cls.TRUMPS), meant(trump, rules_cls.TRUMPS, SUIT_NAMES)
        raise PositionError("trump", f"{rules_cls.name} trump must be one of {listed}, got {shown(trump)}{suggestion}")
    return str(trump)
