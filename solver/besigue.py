"""Bésigue positions (FORMAT.md, "Bésigue"): parsing, validation, moves and play.

Bésigue is unlike the other games: two packs (identical cards), a talon drawn after
every phase-1 trick, and declarations made as moves of their own by the trick winner
(`seven`, `exchange7`, `meld:KIND:CARDS`, `pass`).  Cards in hand are `Copy`s: a card
and the marks it carries (the meld kinds it was used in, `seven` for a trump 7 that
has scored), because a marked copy is not interchangeable with a fresh one.

`BesiguePosition.play` is the definition of the rules that the reference search
(`reference_future`) walks; the fast search is `solver._besigue`.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from .cards import SUITS, Card, parse_cards
from .errors import (
    SUIT_NAMES,
    CardError,
    DuplicateCardError,
    IllegalMoveError,
    PositionError,
    checked_objective,
    counted,
    ended_deal_side,
    ints_per_side,
    json_kind,
    meant,
    parse_json,
    refuse_unknown_keys,
    shown,
)
from .games.besigue import (
    FOUR_KIND,
    HAND_SIZE,
    LAST_TRICK_BONUS,
    MELD_KINDS,
    SEQUENCE_RANKS,
    SEVEN_BONUS,
    SEVEN_MARK,
    STRENGTH_ORDER,
    TALON_SIZE,
    Besigue,
)

PHASE1_TRICKS = TALON_SIZE // 2
TOTAL_TRICKS = PHASE1_TRICKS + HAND_SIZE
DECLARATIONS = ("seven", "exchange7", "pass")
KNOWN_FIELDS = {
    "game", "options", "trump", "scored", "objective", "hands", "trick", "leader", "tricks", "talon",
    "melded", "sevens", "exchanged", "dealer", "to_declare", "deal", "played",
}
STATE_FIELDS = ("hands", "trick", "leader", "tricks", "melded", "sevens", "exchanged", "to_declare")
COPY_TOKEN = re.compile(r"^\s*([^\[\]\s]+)\s*(?:\[([^\]]*)\])?\s*$")


@dataclass(frozen=True)
class Copy:
    """One card in a hand with its marks: the meld kinds it was used in, `seven` if it
    is a trump 7 that has scored.  Written `SQ`, `SQ[besigue,four_queens]`, `S7[seven]`."""

    card: Card
    marks: frozenset[str] = frozenset()

    @cached_property  # sorting hands asks for it often
    def key(self) -> tuple[int, tuple[str, ...]]:
        """Canonical order: the card's, then fresh copies before marked ones."""
        return (self.card.index, tuple(sorted(self.marks)))

    @property
    def face_up(self) -> bool:
        return bool(self.marks - {SEVEN_MARK})

    def with_mark(self, mark: str) -> Copy:
        return Copy(self.card, self.marks | {mark})

    def __str__(self) -> str:
        if not self.marks:
            return str(self.card)
        return f"{self.card}[{','.join(sorted(self.marks))}]"

    @classmethod
    def parse(cls, token: str, field_name: str) -> Copy:
        match = COPY_TOKEN.match(token) if isinstance(token, str) else None
        if match is None:
            raise CardError(field_name, f"{shown(token)} is not a card (like \"SQ\" or \"SQ[besigue]\"){_as_meld(token)}")
        card = Card.parse(match.group(1), field_name)
        marks = frozenset(m.strip() for m in (match.group(2) or "").split(",") if m.strip())
        for mark in marks:
            if mark not in MELD_KINDS and mark != SEVEN_MARK:
                raise CardError(field_name, f"unknown mark {shown(mark)} (marks: {', '.join(MELD_KINDS)}, {SEVEN_MARK})")
        return cls(card, marks)


Hand = tuple[Copy, ...]


def _sorted(copies: Sequence[Copy]) -> Hand:
    return tuple(sorted(copies, key=lambda c: c.key))


def _strip(hand: Hand) -> Hand:
    return _sorted([Copy(c.card) for c in hand])


@dataclass(frozen=True)
class Meld:
    kind: str
    copies: Hand  # canonical order

    def __str__(self) -> str:
        return f"meld:{self.kind}:{' '.join(str(c) for c in self.copies)}"


@dataclass(frozen=True)
class BesiguePosition:
    """A validated Bésigue position.  `to_declare` is the seat that won the last
    phase-1 trick and has still to declare (then both seats draw)."""

    rules: Besigue
    hands: tuple[Hand, Hand]
    talon: tuple[Card, ...]
    trick: tuple[Card, ...] = ()
    leader: int = 0
    scored: tuple[int, ...] = (0, 0)
    tricks: tuple[int, ...] = (0, 0)
    exchanged: bool = False
    dealer: int = 1
    to_declare: int | None = None
    objective: str = "score"
    deal: tuple[tuple[Card, ...], ...] | None = field(default=None, compare=False)
    played: tuple[str, ...] = field(default=(), compare=False)
    deal_talon: tuple[Card, ...] | None = field(default=None, compare=False)
    # places in `played` of the passes the replay added: a trick winner's pass that the
    # list given left out (FORMAT.md allows it)
    implied: frozenset[int] = field(default=frozenset(), compare=False)
    # set once checked (from_dict, checked()); dataclasses.replace leaves it False
    _checked: bool = field(default=False, init=False, repr=False, compare=False)

    # --- reading -----------------------------------------------------------------
    @classmethod
    def from_json(cls, text: str | bytes) -> BesiguePosition:
        """The position of a FORMAT.md JSON object's text; as `from_dict` checks it."""
        return cls.from_dict(parse_json(text))

    @classmethod
    def from_dict(cls, data: Any) -> BesiguePosition:
        """The position of a FORMAT.md dict (its Bésigue fields too), validated once: in
        `hands` form, or as `deal`, `talon` and `played` (replayed).  A bad field raises a
        `PlisError` (a ValueError) whose `.field` names it."""
        if not isinstance(data, dict):
            raise PositionError("position", f"must be a JSON object, got {json_kind(data)}")
        for other in ("declarer", "taker"):  # the other games' fields: said so, not just unknown
            if other in data:
                raise PositionError(other, f"besigue has no {other}")
        refuse_unknown_keys(data, KNOWN_FIELDS)
        options = Besigue.check_options(data.get("options", {}))
        trump = data.get("trump")
        if trump is None:
            raise PositionError("trump", "required for besigue (the suit of the retourne: C, S, H or D)")
        if not isinstance(trump, str) or trump.upper() not in SUITS:
            suggestion = meant(trump, SUITS, SUIT_NAMES)
            raise PositionError("trump", f"besigue trump must be one of C, S, H, D, got {shown(trump)}{suggestion}")
        rules = Besigue(options, trump.upper(), None)
        objective = checked_objective(Besigue, data.get("objective", Besigue.OBJECTIVES[0]))
        scored = _pair(data.get("scored"), "scored", allow_negative=True)
        dealer = _seat(data.get("dealer", 1), "dealer")
        talon = tuple(parse_cards(_list_or_str(data.get("talon"), "talon"), "talon")) if "talon" in data else None
        if "deal" in data or "played" in data:
            clash = [f for f in STATE_FIELDS if f in data]
            if clash:
                raise PositionError(clash[0], "give either hands (and the state fields) or deal/played, not both")
            if "deal" not in data:
                raise PositionError("deal", "required with played")
            if talon is None:
                raise PositionError("talon", "required: the talon at the start of the deal, in drawing order")
            return cls._replay(rules, data["deal"], talon, dealer, data.get("played", []), scored, objective)
        if "hands" not in data:
            raise PositionError("hands", "required (or give deal, talon and played)")
        if talon is None:
            talon = ()  # phase 2 (an empty list cannot be told from a missing one over gRPC)
        plain_hands = _two_hands(data["hands"], "hands")
        trick = tuple(parse_cards(_list_or_str(data.get("trick", []), "trick"), "trick"))
        for name in ("to_declare", "melded", "sevens"):  # as every field but scored and tricks
            if name in data and data[name] is None:
                raise PositionError(name, "is null: leave it out for none")
        to_declare = data.get("to_declare")
        if to_declare is not None:
            to_declare = _seat(to_declare, "to_declare")
        first_trick = len(talon) == TALON_SIZE  # led by the dealer's opponent (RULES.md)
        default_leader = to_declare if to_declare is not None else (1 - dealer if first_trick else 0)
        leader = _seat(data.get("leader", default_leader), "leader")
        exchanged = data.get("exchanged", False)
        if not isinstance(exchanged, bool):
            raise PositionError("exchanged", f"must be true or false, got {shown(exchanged)}")
        tricks = _pair(data.get("tricks"), "tricks", allow_negative=False)
        hands = _marked_hands(rules, plain_hands, data.get("melded"), data.get("sevens"))
        position = cls(rules, hands, talon, trick, leader, scored, tricks, exchanged, dealer, to_declare, objective)
        position._check(data.get("tricks") is not None)  # null: left out, as for scored
        if position.phase == 2:  # melded cards are simply in hand now
            position = replace(position, hands=(_strip(hands[0]), _strip(hands[1])))
        object.__setattr__(position, "_checked", True)
        return position

    @classmethod
    def _replay(
        cls, rules: Besigue, deal: Any, talon: tuple[Card, ...], dealer: int, played: Any, scored: tuple[int, ...],
        objective: str,
    ) -> BesiguePosition:
        hands = _two_hands(deal, "deal")
        for seat, hand in enumerate(hands):
            if len(hand) != HAND_SIZE:
                raise PositionError(f"deal[{seat}]", f"holds {counted(len(hand), 'card')}; a Bésigue deal gives {HAND_SIZE}")
        if len(talon) != TALON_SIZE:
            raise PositionError("talon", f"holds {counted(len(talon), 'card')}; at the start of a deal it holds {TALON_SIZE}")
        bonus = [0, 0]
        if talon[-1].rank == "7":  # the dealer turned up a 7
            bonus[dealer] = SEVEN_BONUS
        start = cls(
            rules,
            (_sorted([Copy(c) for c in hands[0]]), _sorted([Copy(c) for c in hands[1]])),
            talon,
            leader=1 - dealer,
            scored=(scored[0] + bonus[0], scored[1] + bonus[1]),
            dealer=dealer,
            objective=objective,
        )
        start._check(tricks_given=True, field_name="deal")
        if not isinstance(played, (list, tuple)):
            raise PositionError("played", f"must be a list of moves, as [\"SQ\", \"pass\"], got {json_kind(played)}")
        position = start
        implied = []
        for index, token in enumerate(played):
            where = f"played[{index}]"
            if not isinstance(token, str):
                raise IllegalMoveError(where, f"a move must be a string, got {shown(token)}", index)
            if position.to_declare is not None and not is_declaration(_keywords_lower(token)):
                implied.append(len(position.played))
                position = position.play("pass", where, index)  # nothing listed: the winner declared nothing
            try:
                position = position.play(token, where, index)
            except CardError as exc:
                exc.index = index  # as an illegal move's error has it
                raise
        replayed = replace(
            position, deal=(tuple(hands[0]), tuple(hands[1])), played=position.played, deal_talon=talon,
            implied=frozenset(implied),
        )
        object.__setattr__(replayed, "_checked", True)  # a checked deal, legal moves: what checked() would find
        return replayed

    def start_of_deal(self) -> BesiguePosition:
        """The position before the first trick, `scored` holding only what play does not
        explain (the retourne 7, points given in `scored`)."""
        if self.deal is None or self.deal_talon is None:
            raise PositionError("deal", "play analysis needs a position given as deal, talon and played")
        hands = (_sorted([Copy(c) for c in self.deal[0]]), _sorted([Copy(c) for c in self.deal[1]]))
        start = BesiguePosition(
            self.rules, hands, self.deal_talon, leader=1 - self.dealer, dealer=self.dealer, objective=self.objective,
            deal=self.deal, deal_talon=self.deal_talon,
        )
        end = start
        for move in self.played:
            end = end.play(move)
        return self._after_move(replace(start, scored=tuple(s - e for s, e in zip(self.scored, end.scored))))

    def to_deal_dict(self) -> dict[str, Any]:
        """The deal + played form of a position replayed from a deal (FORMAT.md)."""
        start = self.start_of_deal()
        assert self.deal is not None and self.deal_talon is not None
        bonus = [0, 0]
        if self.deal_talon[-1].rank == "7":
            bonus[self.dealer] = SEVEN_BONUS
        written = [move for i, move in enumerate(self.played) if i not in self.implied]  # as given
        return {
            "game": "besigue", "options": dict(self.rules.options), "trump": self.rules.trump,
            "deal": [" ".join(str(c) for c in hand) for hand in self.deal], "talon": [str(c) for c in self.deal_talon],
            "dealer": self.dealer, "played": written, "scored": [s - b for s, b in zip(start.scored, bonus)],
            "objective": self.objective,
        }

    # --- validation ------------------------------------------------------------------
    def checked(self) -> BesiguePosition:
        """This position, checked as `from_dict` checks one but for the cards each
        hand holds against the talon and the tricks (see below): for a position built
        directly or changed with `dataclasses.replace`, which nothing checked (the
        engine trusts what it is given: a talon too long could crash it)."""
        if self._checked:
            return self
        if not isinstance(self.rules, Besigue):
            raise PositionError("rules", f"must be Bésigue's Rules (solver.get_game), got {type(self.rules).__name__}")
        checked_objective(Besigue, self.objective)
        if not isinstance(self.hands, (tuple, list)) or len(self.hands) != 2:
            raise PositionError("hands", f"must hold 2 hands, one per seat, got {shown(self.hands)}")
        for seat, hand in enumerate(self.hands):
            if not isinstance(hand, (tuple, list)):
                raise PositionError(f"hands[{seat}]", f"must be a tuple of Copy, got {type(hand).__name__}")
            for i, copy in enumerate(hand):
                if not isinstance(copy, Copy) or not isinstance(copy.card, Card) or not isinstance(copy.marks, frozenset):
                    raise PositionError(f"hands[{seat}][{i}]", f"must be a Copy of a Card (from_dict's), got {shown(copy)}")
                seven = {SEVEN_MARK} if copy.card == self.trump_seven else set()
                if not copy.marks <= {*seven, *self.rules.kinds_of(copy.card)}:
                    raise PositionError(f"hands[{seat}][{i}]", f"{copy.card} cannot carry the marks {sorted(copy.marks)}")
        for name, cards in (("talon", self.talon), ("trick", self.trick)):
            if not isinstance(cards, (tuple, list)):
                raise PositionError(name, f"must be a tuple of Cards, got {type(cards).__name__}")
            for i, card in enumerate(cards):
                if not isinstance(card, Card):
                    raise CardError(f"{name}[{i}]", f"must be a Card (Card.parse), got {shown(card)}")
        for name in ("leader", "dealer"):
            _seat(getattr(self, name), name)
        if self.to_declare is not None:
            _seat(self.to_declare, "to_declare")
        if not isinstance(self.exchanged, bool):
            raise PositionError("exchanged", f"must be true or false, got {shown(self.exchanged)}")
        _pair(self.scored, "scored", allow_negative=True)
        _pair(self.tricks, "tricks", allow_negative=False)
        # not the counts (_check_counts): a position with fewer cards in hand than its
        # talon implies is no deal's, but the engine values it all the same (the tests'
        # small positions, solver.besigue's reference)
        self._check_cards("hands")
        self._check_declaration()
        for seat, hand in enumerate(self.hands):
            if len(hand) > HAND_SIZE:
                raise PositionError(f"hands[{seat}]", f"holds {len(hand)} cards; a hand holds at most {HAND_SIZE}")
        sizes = [len(hand) + (seat == self.leader and bool(self.trick)) for seat, hand in enumerate(self.hands)]
        if sizes[0] != sizes[1]:  # each seat plays one card a trick
            led = f", seat {self.leader} besides the card it led" if self.trick else ""
            held = f"holds {counted(len(self.hands[1]), 'card')} and seat 0 {counted(len(self.hands[0]), 'card')}{led}"
            raise PositionError("hands[1]", f"{held}: each seat plays one card a trick")
        self._check_replay()
        object.__setattr__(self, "_checked", True)  # a cache of this check, not a change of the position
        return self

    def _check_replay(self) -> None:
        """A position that keeps the deal it was replayed from (read as deal, talon and
        played) is where `played` leads from that deal.  Changed by `dataclasses.replace`
        (its hands, talon, trick... or `played`), it was analysed as its hands said, but
        its play analysed, and the service's client sent it, as its deal said."""
        if self.deal is None and self.deal_talon is None:
            return
        deal, talon = self.deal, self.deal_talon
        if (
            not isinstance(deal, (tuple, list))
            or len(deal) != 2
            or not all(isinstance(hand, (tuple, list)) and all(isinstance(c, Card) for c in hand) for hand in deal)
        ):
            raise PositionError("deal", f"must hold 2 tuples of Cards, one per seat (or None), got {shown(deal)}")
        if not isinstance(talon, (tuple, list)) or not all(isinstance(c, Card) for c in talon):
            raise PositionError("deal_talon", f"must be a tuple of Cards (with deal), got {shown(talon)}")
        if not isinstance(self.played, (tuple, list)):
            raise PositionError("played", f"must be a tuple of moves, got {type(self.played).__name__}")
        hands = (_sorted([Copy(c) for c in deal[0]]), _sorted([Copy(c) for c in deal[1]]))
        dealer = self.dealer
        end = BesiguePosition(self.rules, hands, tuple(talon), leader=1 - dealer, dealer=dealer, objective=self.objective)
        end._check(tricks_given=True, field_name="deal")
        for index, move in enumerate(self.played):
            end = end.play(move, f"played[{index}]", index)

        def state(p: BesiguePosition) -> tuple[Any, ...]:
            hands = tuple(_sorted(hand) for hand in p.hands)
            return hands, tuple(p.talon), tuple(p.trick), p.leader, tuple(p.tricks), p.exchanged, p.to_declare

        if state(end) != state(self):
            raise PositionError(
                "played",
                "does not lead from deal to this position's hands, talon, trick, leader, tricks, exchanged and "
                "to_declare: change a position read as deal + played with play(), or leave its deal out "
                "(deal=None, deal_talon=None, played=())",
            )

    def _check(self, tricks_given: bool, field_name: str = "hands") -> None:
        self._check_cards(field_name)
        self._check_counts(tricks_given, field_name)

    def _check_cards(self, field_name: str) -> None:
        """The cards: of the game, at most two of each, a talon and trick of sizes the
        game can have, the retourne of the trump suit."""
        rules, talon = self.rules, self.talon
        if len(talon) > TALON_SIZE or len(talon) % 2:
            held = counted(len(talon), "card")
            raise PositionError("talon", f"holds {held}; the talon holds an even number from 0 to {TALON_SIZE}")
        if talon and talon[-1].suit != rules.trump:
            raise PositionError("talon", f"its last card {talon[-1]} is the retourne and its suit is trump, not {rules.trump}")
        if self.exchanged and talon and talon[-1] != Card.parse(rules.trump_suit + "7"):
            raise PositionError("exchanged", f"after the exchange the talon's last card is the trump 7, not {talon[-1]}")
        if len(self.trick) > 1:
            raise PositionError("trick", f"holds {len(self.trick)} cards; a trick in progress has at most 1")
        counts: Counter[Card] = Counter()
        places: dict[Card, list[str]] = {}
        for where, cards in (
            *((f"{field_name}[{s}]", [c.card for c in h]) for s, h in enumerate(self.hands)),
            ("talon", list(talon)),
            ("trick", list(self.trick)),
        ):
            for card in cards:
                if card.rank not in rules.RANKS:
                    raise CardError(where, f"{card} is not a card of this game")
                counts[card] += 1
                if counts[card] > 2:
                    also = " and ".join(places[card])
                    raise DuplicateCardError(where, f"{card} appears three times (also in {also}); there are two of each")
                places.setdefault(card, []).append(where)

    def _check_declaration(self) -> None:
        if self.to_declare is not None:
            if not self.talon:
                raise PositionError("to_declare", "a declaration comes after a phase-1 trick, while the talon is not empty")
            if self.trick:
                raise PositionError("trick", "must be empty while a declaration is pending (to_declare)")
            if self.leader != self.to_declare:
                raise PositionError("leader", f"the trick winner ({self.to_declare}, to_declare) leads next, not {self.leader}")

    def _check_counts(self, tricks_given: bool, field_name: str) -> None:
        """The cards each hand holds, the tricks, the leader and the declaration pending,
        against the talon: what a deal can come to."""
        talon = self.talon
        self._check_declaration()
        played_tricks = self.played_tricks
        if played_tricks == 0 and self.leader != 1 - self.dealer:
            raise PositionError("leader", f"the dealer's opponent leads the first trick: seat {1 - self.dealer}, the "
                                f"dealer being seat {self.dealer} (dealer: default 1)")
        if not talon and self.to_declare is None and tricks_given and sum(self.tricks) < PHASE1_TRICKS:
            raise PositionError("talon", f"empty or left out means phase 2, after {PHASE1_TRICKS} tricks, but tricks add up to "
                                f"{sum(self.tricks)}: give the talon")
        if sum(self.tricks) != played_tricks:
            if not tricks_given and played_tricks:
                raise PositionError("tricks", "required once a trick has been played (one count per seat)")
            raise PositionError("tricks", f"add up to {sum(self.tricks)}, but this position comes after {played_tricks} tricks")
        if self.phase == 2 and max(len(h) for h in self.hands) > HAND_SIZE:
            raise PositionError(field_name, f"with the talon empty a hand holds at most {HAND_SIZE} cards")
        for seat, hand in enumerate(self.hands):
            expected = self.cards_in_hand(seat)
            if expected < 0:
                raise PositionError(f"{field_name}[{seat}]", "no card can be held once every trick is played")
            if len(hand) != expected:
                raise PositionError(
                    f"{field_name}[{seat}]",
                    f"holds {counted(len(hand), 'card')}; with {counted(len(talon), 'card')} in the talon and "
                    f"{len(self.trick)} on the trick"
                    f"{' and a declaration pending' if self.to_declare is not None else ''} it should hold {expected}",
                )
        if self.phase == 2 and played_tricks == TOTAL_TRICKS and self.trick:
            raise PositionError("trick", "no trick can be in progress once every trick is played")

    @property
    def played_tricks(self) -> int:
        if self.talon or self.to_declare is not None:
            return (TALON_SIZE - len(self.talon)) // 2 + (1 if self.to_declare is not None else 0)
        # phase 2: the seat that has not played to the trick holds one card a trick left
        return PHASE1_TRICKS + HAND_SIZE - max(len(h) for h in self.hands)

    def cards_in_hand(self, seat: int) -> int:
        """How many cards `seat` must hold in this state."""
        played_now = 1 if self.trick and seat == self.leader else 0
        if self.to_declare is not None:
            return HAND_SIZE - 1
        if self.talon:
            return HAND_SIZE - played_now
        return max(len(h) for h in self.hands) - played_now

    # --- state ---------------------------------------------------------------------------
    @property
    def phase(self) -> int:
        return 1 if self.talon or self.to_declare is not None else 2

    @property
    def to_move(self) -> int:
        if self.to_declare is not None:
            return self.to_declare
        return (self.leader + len(self.trick)) % 2

    @property
    def side(self) -> int:
        return self.to_move

    @property
    def is_over(self) -> bool:
        return self.to_declare is None and not self.trick and not self.hands[0] and not self.hands[1]

    @property
    def tricks_left(self) -> int:
        return TOTAL_TRICKS - sum(self.tricks)

    @property
    def trump_seven(self) -> Card:
        return Card.parse(self.rules.trump_suit + "7")

    def with_objective(self, objective: str) -> BesiguePosition:
        """This position for the other objective (`score` or `raw`)."""
        checked_objective(Besigue, objective)
        return replace(self, objective=objective)

    # --- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        """Every legal move once, in canonical order (cards, seven, exchange7, melds, pass)."""
        if self.is_over:
            return []
        hand = self.hands[self.to_move]
        if self.to_declare is None:
            if self.phase == 1:
                copies = list(dict.fromkeys(hand))
            else:
                allowed = set(self.rules.phase2_legal([c.card for c in hand], self.trick))
                copies = list(dict.fromkeys(c for c in hand if c.card in allowed))
            return [str(c) for c in copies]
        return [*self._seven_moves(), *(str(m) for m in self.melds()), "pass"]

    def _seven_moves(self) -> list[str]:
        """The declarations of the trump 7 open to the declaring seat (a step of `legal_moves`)."""
        moves = []
        if Copy(self.trump_seven) in self.hands[self.to_move]:
            moves.append("seven")
            if not self.exchanged and self.talon[-1].rank != "7":
                moves.append("exchange7")
        return moves

    def melds(self) -> list[Meld]:
        """The melds the declaring seat may declare now, one per distinct set of copies
        (none where no declaration is pending)."""
        return list(self._melds)

    @cached_property
    def _melds(self) -> tuple[Meld, ...]:  # a position's own: `replace` makes a new one
        if self.to_declare is None:
            return ()
        hand = self.hands[self.to_declare]
        trump = self.rules.trump_suit
        by_card: dict[str, list[Copy]] = {}
        for c in dict.fromkeys(hand):
            by_card.setdefault(str(c.card), []).append(c)

        def copies_of(card: str) -> list[Copy]:
            return by_card.get(card, [])

        candidates: list[tuple[str, tuple[Copy, ...]]] = []
        for suit in SUITS:
            for pair in itertools.product(copies_of(suit + "K"), copies_of(suit + "Q")):
                candidates.append(("marriage", pair))
        for pair in itertools.product(copies_of("SQ"), copies_of("DJ")):
            candidates.append(("besigue", pair))
        both = [c for c in hand if str(c.card) in ("SQ", "DJ")]
        if len(both) == 4:
            candidates.append(("double_besigue", tuple(both)))
        for rank, kind in FOUR_KIND.items():
            of_rank = [c for c in hand if c.card.rank == rank]
            for four in itertools.combinations(of_rank, 4):
                candidates.append((kind, four))
        for five in itertools.product(*(copies_of(trump + r) for r in SEQUENCE_RANKS)):
            candidates.append(("sequence", five))
        found: dict[str, Meld] = {}
        for kind, copies in candidates:
            if not any(not c.face_up for c in copies):
                continue  # a meld needs a card not melded before
            if any(kind in c.marks for c in copies):
                continue  # no card twice in a meld of one kind
            if kind == "marriage" and copies[0].card.suit == trump and any("sequence" in c.marks for c in copies):
                continue  # a sequence's King or Queen may not join a trump marriage
            meld = Meld(kind, _sorted(copies))
            found.setdefault(str(meld), meld)
        order = {k: i for i, k in enumerate(MELD_KINDS)}
        return tuple(sorted(found.values(), key=lambda m: (order[m.kind], [c.key for c in m.copies])))

    def move_key(self, move: str) -> tuple[int, Any]:
        """Canonical order of moves: cards, then seven, exchange7, melds, pass."""
        if move == "seven":
            return (1, ())
        if move == "exchange7":
            return (2, ())
        if move == "pass":
            return (4, ())
        if move.startswith("meld:"):
            kind, _, cards = move[5:].partition(":")
            order = MELD_KINDS.index(kind) if kind in MELD_KINDS else len(MELD_KINDS)
            return (3, (order, [Copy.parse(t, "move").key for t in _split_copies(cards)]))
        return (0, Copy.parse(move, "move").key)

    # --- play ------------------------------------------------------------------------------
    def play(self, move: str, field_name: str = "move", index: int | None = None) -> BesiguePosition:
        """The position after the seat to move makes `move`; `IllegalMoveError` if it may not."""
        if not isinstance(move, str):
            raise IllegalMoveError(field_name, f"a move must be a string, got {shown(move)}", index)
        if self.is_over:
            raise IllegalMoveError(field_name, f"{move}: the deal is over", index)
        move = self._resolve(_keywords_lower(move), field_name, index)
        seat = self.to_move
        played = self.played + (move,)
        if self.to_declare is not None:
            return self._after_move(self._declare(seat, move, played))
        return self._after_move(self._play_card(seat, Copy.parse(move, field_name), played))

    def _after_move(self, after: BesiguePosition) -> BesiguePosition:
        """`after`, a legal move's position, marked checked as this one is: what checked()
        would find again (and, replaying the deal, at a cost that grows with each move)."""
        if self._checked:
            object.__setattr__(after, "_checked", True)
        return after

    def _resolve(self, move: str, field_name: str, index: int | None) -> str:
        """The legal move `move` names: exact, or a card or meld written without marks
        when only one legal move fits."""
        if self.to_declare is not None and (move == "pass" or move in self._seven_moves()):
            return move  # legal without listing the melds
        legal = self.legal_moves()
        if move in legal:
            return move
        seat = self.to_move
        if self.to_declare is None and is_declaration(move):
            raise IllegalMoveError(field_name, f"{move}: seat {seat} has no declaration to make now (it plays a card)", index)
        if self.to_declare is not None and not is_declaration(move):
            raise IllegalMoveError(
                field_name, f"{move}: seat {seat} won the trick and declares first (legal: {', '.join(legal)})", index
            )
        written = _written_key(move)
        same = [m for m in legal if _written_key(m) == written] if written is not None else []
        if len(same) == 1:  # the same move, its marks (or a meld's cards) in another order or case
            return same[0]
        # written without marks: the one legal move of those cards (marks that name no
        # copy the seat holds are an error, not dropped)
        plain = _unmarked(move)
        fits = [m for m in legal if _unmarked(m) == plain] if "[" not in move else []
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            raise IllegalMoveError(field_name, f"{move} is ambiguous: say which copies ({', '.join(fits)})", index)
        if self.to_declare is not None and move.startswith("meld:"):
            self._check_meld_written(move, seat, field_name, index)
        if self.to_declare is None:
            card = Copy.parse(move, field_name).card
            if card.rank not in Besigue.RANKS:  # as a position's cards are checked: INVALID_CARD
                error = CardError(field_name, f"{card} is not a card of this game")
                error.index = index
                raise error
            if all(c.card != card for c in self.hands[seat]):
                raise IllegalMoveError(field_name, f"seat {seat} does not hold {card}", index)
        verb = "declare" if is_declaration(move) else "play"
        raise IllegalMoveError(field_name, f"seat {seat} may not {verb} {move} here (legal: {', '.join(legal)})", index)

    def _check_meld_written(self, move: str, seat: int, field_name: str, index: int | None) -> None:
        """A meld that is no legal move: an error that says what is wrong with it where
        that can be told (a kind misspelt, no cards, a token that is no card, a card the
        seat does not hold); else nothing, and the caller's error lists the legal moves."""
        kind, _, cards = move[5:].partition(":")
        if kind.strip() not in MELD_KINDS:
            suggestion = meant(kind, MELD_KINDS, cutoff=0.6)
            raise IllegalMoveError(
                field_name, f"{move}: {shown(kind)} is not a meld (the melds: {', '.join(MELD_KINDS)}){suggestion}", index
            )
        tokens = _split_copies(cards)
        if not tokens:
            raise IllegalMoveError(
                field_name, f"{move}: names no cards (a meld is written meld:KIND:CARDS, as \"meld:marriage:HK HQ\")", index
            )
        needed: Counter[Card] = Counter()
        for token in tokens:
            try:
                card = Copy.parse(token, field_name).card
            except CardError as exc:
                exc.index = index
                raise
            if card.rank not in Besigue.RANKS:
                error = CardError(field_name, f"{card} is not a card of this game")
                error.index = index
                raise error
            needed[card] += 1
        held = Counter(copy.card for copy in self.hands[seat])
        for card, count in needed.items():
            if held[card] < count:
                times = f" {count} times" if count > 1 else ""
                raise IllegalMoveError(field_name, f"{move}: seat {seat} does not hold {card}{times}", index)

    def _play_card(self, seat: int, copy: Copy, played: tuple[str, ...]) -> BesiguePosition:
        hand = list(self.hands[seat])
        hand.remove(copy)
        hands = _replace_hand(self.hands, seat, _sorted(hand))
        trick = self.trick + (copy.card,)
        if len(trick) < 2:
            return replace(self, hands=hands, trick=trick, played=played)
        winner = (self.leader + (1 if self.rules.second_wins(trick[0], trick[1], self.phase) else 0)) % 2
        gained = sum(self.rules.points(c) for c in trick)
        last = self.phase == 2 and not hands[0] and not hands[1]
        if last:
            gained += LAST_TRICK_BONUS
        scored = _add(self.scored, winner, gained)
        tricks = _add(self.tricks, winner, 1)
        to_declare = winner if self.phase == 1 else None
        return replace(
            self, hands=hands, trick=(), leader=winner, scored=scored, tricks=tricks, to_declare=to_declare, played=played
        )

    def _declare(self, seat: int, move: str, played: tuple[str, ...]) -> BesiguePosition:
        hand = list(self.hands[seat])
        if move in ("seven", "exchange7"):
            seven = Copy(self.trump_seven)
            hand.remove(seven)
            scored = _add(self.scored, seat, SEVEN_BONUS)
            if move == "seven":
                hand.append(seven.with_mark(SEVEN_MARK))
                return replace(self, hands=_replace_hand(self.hands, seat, _sorted(hand)), scored=scored, played=played)
            hand.append(Copy(self.talon[-1]))  # the retourne comes into the hand, the 7 takes its place
            talon = self.talon[:-1] + (self.trump_seven,)
            hands = _replace_hand(self.hands, seat, _sorted(hand))
            return replace(self, hands=hands, talon=talon, scored=scored, exchanged=True, played=played)
        hands, scored = self.hands, self.scored
        if move != "pass":
            meld = next(m for m in self._melds if str(m) == move)
            for copy in meld.copies:
                hand.remove(copy)
                hand.append(copy.with_mark(meld.kind))
            hands = _replace_hand(hands, seat, _sorted(hand))
            scored = _add(scored, seat, self.rules.meld_points(meld.kind, [c.card for c in meld.copies]))
        return self._draw(hands, scored, played)

    def _draw(self, held: tuple[Hand, Hand], scored: tuple[int, ...], played: tuple[str, ...]) -> BesiguePosition:
        """After the declaration (leaving `held`, `scored`), the declaring winner draws
        the talon's top card, then the other seat the next."""
        winner = self.to_declare
        assert winner is not None
        hands = [list(held[0]), list(held[1])]
        talon = self.talon
        for seat, card in ((winner, talon[0]), (1 - winner, talon[1])):
            scored_seven = len(talon) == 2 and seat != winner and card == self.trump_seven
            # the talon's last card, if the trump 7, was exchanged or turned up: it has scored
            hands[seat].append(Copy(card, frozenset({SEVEN_MARK}) if scored_seven else frozenset()))
        talon = talon[2:]
        new_hands = (_sorted(hands[0]), _sorted(hands[1]))
        if not talon:  # phase 2: melded cards are simply in hand
            new_hands = (_strip(new_hands[0]), _strip(new_hands[1]))
        return replace(self, hands=new_hands, talon=talon, to_declare=None, scored=scored, played=played)

    # --- the end of the deal ------------------------------------------------------------
    def final_scores(self) -> list[int]:
        return list(self.scored)

    def value_for(self, side: int, finals: Sequence[int] | None = None) -> int:
        """The value of a finished deal for `side` (its points minus the other's)."""
        ended_deal_side(self, side)
        if finals is None:
            finals = self.final_scores()
        return finals[side] - finals[1 - side]

    # --- writing --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The hands form (FORMAT.md), whichever form the position was read in."""
        data: dict[str, Any] = {"game": "besigue", "options": dict(self.rules.options), "trump": self.rules.trump}
        data["hands"] = [" ".join(str(c.card) for c in hand) for hand in self.hands]
        data["talon"] = [str(c) for c in self.talon]
        data["trick"] = [str(c) for c in self.trick]
        data["leader"] = self.leader
        data["scored"] = list(self.scored)
        data["tricks"] = list(self.tricks)
        data["melded"] = [
            [{"card": str(c.card), "kinds": sorted(c.marks - {SEVEN_MARK})} for c in hand if c.face_up] for hand in self.hands
        ]
        data["sevens"] = [sum(1 for c in hand if SEVEN_MARK in c.marks) for hand in self.hands]
        data["exchanged"] = self.exchanged
        data["dealer"] = self.dealer
        if self.to_declare is not None:
            data["to_declare"] = self.to_declare
        data["objective"] = self.objective
        return data


# --- helpers ------------------------------------------------------------------------------


def _split_copies(text: str) -> list[str]:
    """Copy tokens of a meld: spaces separate cards, but not inside brackets."""
    return re.findall(r"[^\s\[\]]+(?:\[[^\]]*\])?", text)


def _as_meld(token: Any) -> str:
    """For a token that is not a card but a meld without its `meld:`: how to write it."""
    if isinstance(token, str) and token.partition(":")[0].strip().lower() in MELD_KINDS and ":" in token:
        return f'; a meld is written "meld:{token.strip()}"'
    return ""


def is_declaration(move: str) -> bool:
    """Whether `move` (its words in lower case) is a trick winner's declaration."""
    return move in DECLARATIONS or move.startswith("meld:")


def _keywords_lower(move: str) -> str:
    """`move`, stripped, its declaration word (`PASS`, `Seven`, `MELD:`) in lower case,
    as the moves are listed: only the cards' and marks' case is read elsewhere."""
    move = move.strip()
    if move.lower() in DECLARATIONS:
        return move.lower()
    if move[:5].lower() == "meld:":
        return "meld:" + move[5:]
    return move


def _written_key(move: str) -> str | None:
    """`move` written one way: cards upper case, marks lower case and sorted, a meld's
    cards sorted; None where it names no card or meld."""

    def copy(token: str) -> str:
        token = re.sub(r"\[(.*?)\]", lambda marks: f"[{marks.group(1).lower()}]", token)
        return str(Copy.parse(token, "move"))

    try:
        if move.startswith("meld:"):
            kind, _, cards = move[5:].partition(":")
            return f"meld:{kind.lower()}:" + " ".join(sorted(copy(t) for t in _split_copies(cards)))
        return copy(move)
    except CardError:
        return None


def _unmarked(move: str) -> str:
    if move.startswith("meld:"):
        kind, _, cards = move[5:].partition(":")
        return f"meld:{kind}:" + " ".join(sorted(re.sub(r"\[.*?\]", "", t).upper() for t in _split_copies(cards)))
    return re.sub(r"\[.*?\]", "", move).strip().upper()


def _replace_hand(hands: tuple[Hand, Hand], seat: int, hand: Hand) -> tuple[Hand, Hand]:
    return (hand, hands[1]) if seat == 0 else (hands[0], hand)


def _add(pair: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == seat else v for i, v in enumerate(pair))


def _seat(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2:
        raise PositionError(name, f"must be a seat, 0 or 1, got {shown(value)}")
    return value


def _pair(value: Any, name: str, allow_negative: bool) -> tuple[int, ...]:
    return ints_per_side(value, name, 2, "seat", allow_negative)


def _list_or_str(value: Any, name: str) -> Any:
    if not isinstance(value, (list, tuple, str)):  # a tuple from Python callers
        raise PositionError(name, f"must be a list of cards, got {json_kind(value)}")
    return value


def _two_hands(value: Any, name: str) -> tuple[list[Card], list[Card]]:
    if not isinstance(value, (list, tuple)):
        raise PositionError(name, f"must be a list of 2 hands, got {json_kind(value)}")
    if len(value) != 2:
        raise PositionError(name, f"besigue has 2 players; got {len(value)} hands")
    first, second = (parse_cards(_list_or_str(h, f"{name}[{i}]"), f"{name}[{i}]") for i, h in enumerate(value))
    return first, second


def _marked_hands(rules: Besigue, hands: tuple[list[Card], list[Card]], melded: Any, sevens: Any) -> tuple[Hand, Hand]:
    """The hands as copies: the `melded` entries and `sevens` mark copies the hands hold."""
    if melded is None:
        melded = [[], []]
    if not isinstance(melded, (list, tuple)) or len(melded) != 2:
        raise PositionError("melded", f"must be a list of 2 lists, one per seat, got {shown(melded)}")
    if sevens is None:
        sevens = [0, 0]
    sevens = _pair(sevens, "sevens", allow_negative=False)
    result = []
    for seat, hand in enumerate(hands):
        free = Counter(hand)
        copies: list[Copy] = []
        entries = melded[seat]
        if not isinstance(entries, (list, tuple)):
            raise PositionError(f"melded[{seat}]", f"must be a list of {{card, kinds}} objects, got {shown(entries)}")
        for i, entry in enumerate(entries):
            where = f"melded[{seat}][{i}]"
            if not isinstance(entry, dict) or set(entry) != {"card", "kinds"}:
                raise PositionError(where, f"must be an object with card and kinds, got {shown(entry)}")
            card = Card.parse(entry["card"], f"{where}.card")
            kinds = entry["kinds"]
            if not isinstance(kinds, (list, tuple)) or not kinds:
                raise PositionError(f"{where}.kinds", f"must be a non-empty list of meld kinds, got {shown(kinds)}")
            for kind in kinds:
                if kind not in rules.kinds_of(card):
                    possible = ", ".join(rules.kinds_of(card)) or "none"
                    message = f"{card} cannot be part of a {shown(kind)} meld (its kinds: {possible})"
                    raise PositionError(f"{where}.kinds", message)
            if len(set(kinds)) != len(kinds):
                raise PositionError(f"{where}.kinds", f"lists a kind twice: {shown(kinds)}")
            if free[card] == 0:
                raise PositionError(where, f"seat {seat} does not hold (another) {card} to lie face up")
            free[card] -= 1
            copies.append(Copy(card, frozenset(kinds)))
        seven = Card.parse(f"{rules.trump_suit}7")
        if sevens[seat] > free[seven]:
            scored_sevens, held = counted(sevens[seat], "scored trump 7"), free[seven] or "no"
            raise PositionError(f"sevens[{seat}]", f"{scored_sevens}, but seat {seat} holds {held} {seven}")
        free[seven] -= sevens[seat]
        copies += [Copy(seven, frozenset({SEVEN_MARK}))] * sevens[seat]
        copies += [Copy(card) for card, n in free.items() for _ in range(n)]
        result.append(_sorted(copies))
    return result[0], result[1]


# --- the slow reference search --------------------------------------------------------------


# What a hand at a trick start is worth for the rest of the deal, in tenths of a point:
# rounded from least-squares fits (a scratch script) to exact values of 300 played-out
# deals at 2, 4 and 6 talon cards, which moved by up to 3 points from one depth to the
# next; leading the trick is worth 5.5 points less than following it (BENCHMARKS.md,
# "Bésigue estimates").
LEAF_BRISQUE, LEAF_TRUMP, LEAF_TRUMP_BRISQUE, LEAF_ACE, LEAF_LEAD = 65, 80, 40, 50, -55


def horizon_guess(p: BesiguePosition) -> int:
    """A limited search's guess at what comes after its horizon (a trick start): seat 0's
    points less seat 1's, from each hand's brisques, trumps (a trump Ace or Ten counts
    more) and Aces, and who leads; to the nearest 10, within the brisques still to come
    and the last trick.  The engine's leaf (`horizon_leaf` in solver/_besigue.pyx)."""
    trump = p.rules.trump_suit

    def worth(hand: Sequence[Copy]) -> int:
        cards = [c.card for c in hand]
        return (
            LEAF_BRISQUE * sum(c.rank in "AT" for c in cards)
            + LEAF_TRUMP * sum(c.suit == trump for c in cards)
            + LEAF_TRUMP_BRISQUE * sum(c.suit == trump and c.rank in "AT" for c in cards)
            + LEAF_ACE * sum(c.rank == "A" for c in cards)
        )

    tenths = worth(p.hands[0]) - worth(p.hands[1]) + (LEAF_LEAD if p.leader == 0 else -LEAF_LEAD)
    guess = 10 * ((abs(tenths) + 50) // 100) * (1 if tenths >= 0 else -1)  # halves away from 0
    cards = [c.card for hand in p.hands for c in hand] + list(p.talon)
    still = sum(p.rules.points(c) for c in cards) + LAST_TRICK_BONUS  # brisques still to come and the last trick
    return max(-still, min(still, guess))


class Reference:
    """The slow reference search: plain minimax over `legal_moves` and `play`, every
    position remembered.  Values are future points of seat 0 minus those of seat 1.
    With a `horizon` > 0, play stops at the trick starts with at most that many talon
    cards, what follows guessed by `horizon_guess` (the estimate of a limited search)."""

    def __init__(self, horizon: int = 0) -> None:
        self.memo: dict[tuple[Any, ...], int] = {}
        self.horizon = horizon

    def future(self, p: BesiguePosition) -> int:
        if p.is_over:
            return 0
        if self.horizon > 0 and not p.trick and p.to_declare is None and len(p.talon) <= self.horizon:
            return horizon_guess(p)
        key = (p.hands, p.talon, p.trick, p.leader, p.exchanged, p.to_declare)
        if key in self.memo:
            return self.memo[key]
        values = []
        for move in p.legal_moves():
            child = p.play(move)
            gained = (child.scored[0] - p.scored[0]) - (child.scored[1] - p.scored[1])
            values.append(gained + self.future(child))
        result = max(values) if p.to_move == 0 else min(values)
        self.memo[key] = result
        return result


def reference_future(position: BesiguePosition) -> int:
    """Points seat 0 still scores minus those seat 1 still scores, under best play."""
    return Reference().future(position)


def reference_values(position: BesiguePosition) -> dict[str, int]:
    """The exact value of every legal move for the side to move (final score difference)."""
    search = Reference()
    sign = 1 if position.side == 0 else -1
    values = {}
    for move in position.legal_moves():
        child = position.play(move)
        values[move] = sign * (child.scored[0] - child.scored[1] + search.future(child))
    return values


# --- the engine's description --------------------------------------------------------------

MARK_BITS = {"marriage": 1, "besigue": 2, "double_besigue": 4, "sequence": 16, SEVEN_MARK: 32}
for _kind in FOUR_KIND.values():
    MARK_BITS[_kind] = 8


def card_code(card: Card) -> int:
    """The engine's card number: suit * 8 + rank in STRENGTH_ORDER (0 = Ace)."""
    return SUITS.index(card.suit) * 8 + STRENGTH_ORDER.index(card.rank)


def engine_state(position: BesiguePosition) -> dict[str, Any]:
    """`position` as `solver._besigue.BesigueEngine.search` reads it."""
    return {
        "trump": SUITS.index(position.rules.trump_suit),
        "standard": position.rules.standard,
        "hands": [[(card_code(c.card), sum(MARK_BITS[m] for m in c.marks)) for c in hand] for hand in position.hands],
        "talon": [card_code(c) for c in position.talon],
        "exchanged": position.exchanged,
        "trick": [card_code(c) for c in position.trick],
        "leader": position.leader,
        "to_declare": -1 if position.to_declare is None else position.to_declare,
    }

