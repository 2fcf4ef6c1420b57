"""Positions in the JSON format of FORMAT.md: parsing, validation, replay and play.

A `Position` is validated once: when it is read (`from_dict`), or, built directly or
by `dataclasses.replace`, when a function takes it (`checked`); everything below it
(the engine, the reference search) trusts it.  `Position.play` returns the position
after a move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .besigue import BesiguePosition
from .cards import Card, format_cards, parse_cards
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
from .games import Rules, game_of
from .games.jass import Putz

HAND_FIELDS = ("hands", "trick", "leader", "tricks")
NAT_KEY_LIMIT = 4096  # Position._check_key_totals
MOST_ROEM_A_TRICK = 200  # four Jacks
KNOWN_FIELDS = {"game", "options", "trump", "declarer", "taker", "scored", "objective", "deal", "played", *HAND_FIELDS}


def load_position(data: Any) -> AnyPosition:
    """A position of any game from its FORMAT.md dict, or that dict's JSON text
    (Bésigue has its own class)."""
    if isinstance(data, (str, bytes, bytearray)):
        data = parse_json(data)
    if isinstance(data, dict) and data.get("game") == "besigue":
        return BesiguePosition.from_dict(data)
    return Position.from_dict(data)


@dataclass(frozen=True)
class Position:
    """A validated position: rules, hands, the trick in progress and what is scored."""

    rules: Rules
    hands: tuple[tuple[Card, ...], ...]  # per seat, canonical order
    trick: tuple[Card, ...] = ()
    leader: int = 0
    scored: tuple[int, ...] = ()  # per side
    tricks: tuple[int, ...] = ()  # per side
    objective: str = ""
    # the deal and the moves it was replayed from, when given that way
    deal: tuple[tuple[Card, ...], ...] | None = field(default=None, compare=False)
    played: tuple[Card, ...] = field(default=(), compare=False)
    # set once checked (from_dict, checked()); dataclasses.replace leaves it False
    _checked: bool = field(default=False, init=False, repr=False, compare=False)

    # --- reading ---------------------------------------------------------------
    @classmethod
    def from_json(cls, text: str | bytes) -> Position:
        """The position of a FORMAT.md JSON object's text (a card game's; Bésigue's:
        `BesiguePosition`, or `load_position` for any game); as `from_dict` checks it."""
        return cls.from_dict(parse_json(text))

    @classmethod
    def from_dict(cls, data: Any) -> Position:
        """The position of a FORMAT.md dict, validated once: in `hands` form, or as `deal`
        and `played` (replayed, and kept for `to_deal_dict` and play analysis).  A bad
        field raises a `PlisError` (a ValueError) whose `.field` names it."""
        if not isinstance(data, dict):
            raise PositionError("position", f"must be a JSON object, got {json_kind(data)}")
        game = game_of(data)
        if game.name == "besigue":
            raise PositionError("game", "a Bésigue position is a solver.BesiguePosition (or use solver.load_position)")
        refuse_unknown_keys(data, KNOWN_FIELDS)
        options = game.check_options(data.get("options", {}))
        trump = _trump(game, data.get("trump"))
        contract_seat = None
        if game.CONTRACT_FIELD is not None:
            contract_seat = data.get(game.CONTRACT_FIELD)
        for other in ("declarer", "taker"):
            if other in data and other != game.CONTRACT_FIELD:
                raise PositionError(other, f"{game.name} has no {other}")
        rules = game(options, trump, contract_seat)
        if game.CONTRACT_FIELD is not None:
            rules.contract_seat = _seat(rules, contract_seat, game.CONTRACT_FIELD, required=True)
        objective = checked_objective(game, data.get("objective", game.OBJECTIVES[0]))
        scored = _side_ints(rules, data.get("scored"), "scored", allow_negative=True)

        if "deal" in data or "played" in data:
            clash = [f for f in HAND_FIELDS if f in data]
            if clash:
                raise PositionError(clash[0], "give either hands/trick/leader/tricks or deal/played, not both")
            if "deal" not in data:
                raise PositionError("deal", "required with played")
            return cls._replay(rules, data["deal"], data.get("played", []), scored, objective)
        if "hands" not in data:
            raise PositionError("hands", "required (or give deal and played)")
        hands = _hands(rules, data["hands"], "hands")
        trick = tuple(parse_cards(_list_or_str(data.get("trick", []), "trick"), "trick"))
        leader = _seat(rules, data.get("leader", 0), "leader", required=False)
        tricks_given = data.get("tricks") is not None  # null: left out, as for scored
        tricks = _side_ints(rules, data.get("tricks"), "tricks", allow_negative=False)
        position = cls(rules, hands, trick, leader, scored, tricks, objective)
        position._check_cards(tricks_given)
        position._check_key_totals()
        object.__setattr__(position, "_checked", True)
        return position

    @classmethod
    def _replay(cls, rules: Rules, deal: Any, played: Any, scored: tuple[int, ...], objective: str) -> Position:
        hands = _hands(rules, deal, "deal")
        start = cls(rules, hands, scored=scored, tricks=(0,) * rules.n_sides, objective=objective)
        start._check_cards(tricks_given=True, field_name="deal")  # before the bonuses read the cards
        bonuses = rules.deal_bonuses(hands)
        start = replace(start, scored=tuple(s + b for s, b in zip(scored, bonuses)))
        start._check_key_totals()  # the totals only grow as far as the points to come shrink
        if not isinstance(played, (list, tuple)):
            raise PositionError("played", f"must be a list of cards, as [\"HJ\", \"H9\"], got {json_kind(played)}")
        position = start
        for index, token in enumerate(played):
            try:
                card = Card.parse(token, f"played[{index}]")
            except CardError as exc:
                exc.index = index  # as an illegal card's error has it
                raise
            position = position.play(card, field_name=f"played[{index}]", index=index)
        replayed = replace(position, deal=hands, played=tuple(position.played))
        object.__setattr__(replayed, "_checked", True)  # a checked deal, legal moves: what checked() would find
        return replayed

    # --- validation ------------------------------------------------------------
    def checked(self) -> Position:
        """This position, checked as `from_dict` checks one: for a position built
        directly or changed with `dataclasses.replace`, which nothing checked (the
        engine trusts what it is given: a seat out of range could crash it)."""
        if self._checked:
            return self
        rules = self.rules
        if not isinstance(rules, Rules) or rules.name == "besigue":
            raise PositionError("rules", f"must be a card game's Rules (solver.get_game), got {type(rules).__name__}")
        if rules.CONTRACT_FIELD is not None:
            _seat(rules, rules.contract_seat, rules.CONTRACT_FIELD, required=True)
        checked_objective(rules, self.objective)
        if not isinstance(self.hands, (tuple, list)) or len(self.hands) != rules.n_players:
            raise PositionError("hands", f"must hold {rules.n_players} hands, one per seat, got {shown(self.hands)}")
        for name, cards in (*((f"hands[{seat}]", hand) for seat, hand in enumerate(self.hands)), ("trick", self.trick)):
            if not isinstance(cards, (tuple, list)):
                raise PositionError(name, f"must be a tuple of Cards, got {type(cards).__name__}")
            for i, card in enumerate(cards):
                if not isinstance(card, Card):
                    raise CardError(f"{name}[{i}]", f"must be a Card (Card.parse), got {shown(card)}")
        _seat(rules, self.leader, "leader", required=True)
        _side_ints(rules, self.scored, "scored", allow_negative=True)
        _side_ints(rules, self.tricks, "tricks", allow_negative=False)
        self._check_cards(tricks_given=True)
        self._check_key_totals()
        self._check_replay()
        object.__setattr__(self, "_checked", True)  # a cache of this check, not a change of the position
        return self

    def _check_replay(self) -> None:
        """A position that keeps the deal it was replayed from (read as deal + played) is
        where `played` leads from that deal.  Changed by `dataclasses.replace` (its hands,
        trick, leader, tricks or `played`), it was analysed as its hands said, but its
        play analysed, and the service's client sent it, as its deal said: two positions."""
        if self.deal is None:
            return
        rules = self.rules
        deal = self.deal
        if (
            not isinstance(deal, (tuple, list))
            or len(deal) != rules.n_players
            or not all(isinstance(hand, (tuple, list)) and all(isinstance(c, Card) for c in hand) for hand in deal)
        ):
            raise PositionError("deal", f"must hold {rules.n_players} tuples of Cards, one per seat (or None), got {shown(deal)}")
        if not isinstance(self.played, (tuple, list)):
            raise PositionError("played", f"must be a tuple of Cards, got {type(self.played).__name__}")
        n_sides = rules.n_sides
        end = Position(rules, tuple(tuple(hand) for hand in deal), (), 0, (0,) * n_sides, (0,) * n_sides, self.objective)
        end._check_cards(tricks_given=True, field_name="deal")
        for index, card in enumerate(self.played):
            end = end.play(card, field_name=f"played[{index}]", index=index)
        if (
            [set(hand) for hand in end.hands] != [set(hand) for hand in self.hands]
            or (end.trick, end.leader, end.tricks) != (tuple(self.trick), self.leader, tuple(self.tricks))
        ):
            raise PositionError(
                "played",
                "does not lead from deal to this position's hands, trick, leader and tricks: change a position "
                "read as deal + played with play(), or leave its deal out (deal=None, played=())",
            )

    def _check_cards(self, tricks_given: bool, field_name: str = "hands") -> None:
        rules = self.rules
        if len(self.trick) >= rules.n_players:
            raise PositionError("trick", f"holds {len(self.trick)} cards; a trick in progress has at most {rules.n_players - 1}")
        seen: dict[Card, str] = {}
        allowed = set(rules.deck)
        for seat, hand in enumerate(self.hands):
            for card in hand:
                where = f"{field_name}[{seat}]"
                self._check_one(card, where, seen, allowed)
        for i, card in enumerate(self.trick):
            self._check_one(card, f"trick[{i}]", seen, allowed)
        played_tricks = sum(self.tricks)
        remaining = rules.hand_size - played_tricks
        if remaining < 0:
            raise PositionError("tricks", f"add up to {played_tricks}, more than the {rules.hand_size} tricks of a deal")
        if remaining == 0 and self.trick:
            raise PositionError("trick", "no trick can be in progress once every trick is played")
        if field_name == "hands" and not tricks_given:
            self._blame_uneven_hands()
        for seat, hand in enumerate(self.hands):
            played_now = (seat - self.leader) % rules.n_players < len(self.trick)
            expected = remaining - (1 if played_now else 0)
            if len(hand) != expected:
                if not tricks_given and len(hand) < rules.hand_size - (1 if played_now else 0):
                    raise PositionError(
                        "tricks",
                        f"required once a trick has been played: the hands hold fewer cards than the {rules.hand_size} "
                        f"a {rules.name} deal gives each seat (tricks: how many tricks each side has taken)",
                    )
                held = counted(len(hand), "card")
                if field_name != "hands":  # a deal: before any play, each seat holds what the deal gives it
                    raise PositionError(f"{field_name}[{seat}]", f"holds {held}; a {rules.name} deal gives each seat {expected}")
                self._blame_sizes(tricks_given, played_tricks)
                played, on_trick = counted(played_tricks, "trick"), len(self.trick)
                raise PositionError(
                    f"{field_name}[{seat}]",
                    f"holds {held}; with {played} played and {counted(on_trick, 'card')} on the trick it should hold {expected}",
                )
        rules.check_position(self.hands)

    def _blame_uneven_hands(self) -> None:
        """With `tricks` left out: where the hands disagree with each other (a card left
        out of one, or one too many), the error names the hand that differs from the
        others, not `tricks` (which no count of tricks would put right)."""
        n, on_trick = self.rules.n_players, len(self.trick)
        played_now = [(seat - self.leader) % n < on_trick for seat in range(n)]
        left = [len(hand) + played for hand, played in zip(self.hands, played_now)]  # each hand's count of tricks to come
        if len(set(left)) == 1:
            return
        if max(left) > self.rules.hand_size:
            return  # a hand holds more than a deal gives: the error says so
        self._blame_sizes(False, sum(self.tricks))  # the leader, if another one would make them agree
        counts = Counter(left).most_common()
        usual, times = counts[0]
        unique = times > 1 and (len(counts) == 1 or counts[1][1] < times)
        seat = next(s for s in range(n) if left[s] != usual)
        if not unique:  # no count most hands share: held against the first hand
            usual = left[0]
            seat = next(s for s in range(n) if left[s] != usual)
        expected = usual - played_now[seat]
        others = "the other hands" if unique else "hands[0]"
        trick = f" (and the {counted(on_trick, 'card')} on the trick)" if on_trick else ""
        raise PositionError(
            f"hands[{seat}]",
            f"holds {counted(len(self.hands[seat]), 'card')}, but by {others}{trick} it should hold {expected}: "
            "a card left out, or one too many?",
        )

    def _blame_sizes(self, tricks_given: bool, played_tricks: int) -> None:
        """Where the hands' sizes agree with each other but not with `tricks` or `leader`,
        the error names that field (a hand was blamed for a wrong count of tricks)."""
        n, on_trick = self.rules.n_players, len(self.trick)

        def tricks_left(leader: int) -> set[int]:  # what each hand says is left, this seat leading
            return {len(hand) + ((seat - leader) % n < on_trick) for seat, hand in enumerate(self.hands)}

        said, trick_cards = tricks_left(self.leader), counted(on_trick, "card")
        if len(said) == 1 and tricks_given and 0 <= self.rules.hand_size - min(said) != played_tricks:
            raise PositionError(
                "tricks",
                f"add up to {counted(played_tricks, 'trick')} played, but the hands (and {trick_cards} on the trick) "
                f"hold what is left after {counted(self.rules.hand_size - min(said), 'trick')}",
            )
        leaders = [seat for seat in range(n) if len(tricks_left(seat)) == 1]
        if on_trick and len(said) > 1 and len(leaders) == 1:
            raise PositionError(
                "leader", f"is seat {self.leader}, but by the hands' sizes seat {leaders[0]} led the {trick_cards} on the trick"
            )

    def _check_key_totals(self) -> None:
        """Klaverjas's score objective: the engine's table key holds each team's running
        total in 12 bits, so every total it can still reach must stay below 4096.
        Klaberjass's score objective: the two final totals must not add up to less
        than 0 (see below)."""
        rules = self.rules
        if rules.name == "klaberjass" and self.objective == "score":
            # The engine searches the raw difference and settles it afterwards, which
            # is right only where the settled value rises with the difference.  A bate
            # gives the opponent both totals: with a sum below 0 that is worse for the
            # opponent than the taker making the contract, and the taker would rather
            # be bate (e.g. totals -80/-78, 12 to come: the value is -14, the search
            # said -10).  The sum is the same at every point of a deal (no sweep bonus).
            final_sum = sum(self.scored) + self.points_to_come
            if final_sum < 0:
                raise PositionError(
                    "scored",
                    f"{rules.name}'s score objective needs the two final totals to add up to 0 or more (scored adds "
                    f"up to {sum(self.scored)} with {self.points_to_come} points still to come); got {list(self.scored)}",
                )
            return
        if rules.name != "klaverjas" or self.objective != "score":
            return
        reach = self.points_to_come + rules.sweep_bonus + MOST_ROEM_A_TRICK * self.tricks_left
        top = NAT_KEY_LIMIT - 1 - reach
        for i, total in enumerate(self.scored):
            if not 0 <= total <= top:
                raise PositionError(
                    f"scored[{i}]",
                    f"must be from 0 to {top} for {rules.name}'s score objective with {self.tricks_left} tricks left "
                    f"(with all that can still be scored, a team's total must stay below {NAT_KEY_LIMIT}); got {total}",
                )

    @staticmethod
    def _check_one(card: Card, where: str, seen: dict[Card, str], allowed: set[Card]) -> None:
        if card not in allowed:
            raise CardError(where, f"{card} is not a card of this game")
        if card in seen:
            raise DuplicateCardError(where, f"{card} appears twice (also in {seen[card]})")
        seen[card] = where

    def with_objective(self, objective: str) -> Position:
        """This position for another of its game's objectives (a `PositionError` naming
        `objective` for one the game does not have)."""
        checked_objective(self.rules, objective)
        position = replace(self, objective=objective)
        position._check_key_totals()
        return position

    # --- state -------------------------------------------------------------------
    @property
    def points_to_come(self) -> int:
        """Card points still to be taken, with the last trick's and the per-trick bonuses
        (no roem, no sweep)."""
        rules = self.rules
        cards = [card for hand in self.hands for card in hand] + list(self.trick)
        return sum(rules.points(card) for card in cards) + rules.last_trick_bonus + rules.per_trick_bonus * self.tricks_left

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.n_players

    @property
    def side(self) -> int:
        """The analysed side: the side of the seat to move."""
        return self.rules.side_of(self.to_move)

    @property
    def is_over(self) -> bool:
        return not self.trick and all(not h for h in self.hands)

    @property
    def tricks_left(self) -> int:
        return self.rules.hand_size - sum(self.tricks)

    def legal_moves(self) -> list[Card]:
        """The cards the seat to move may play, in canonical order (none once the deal is over)."""
        if self.is_over:
            return []
        return self.rules.legal(self.hands[self.to_move], self.trick, self.leader)

    def play(self, card: Card | str, field_name: str = "move", index: int | None = None) -> Position:
        """The position after the seat to move plays `card`; `IllegalMoveError` if it may not."""
        if not isinstance(card, Card):
            card = Card.parse(card, field_name)  # a CardError for what is not a card
        if self.is_over:
            raise IllegalMoveError(field_name, f"{card}: the deal is over", index)
        if card not in self.rules.deck:  # as a position's cards are checked: INVALID_CARD
            error = CardError(field_name, f"{card} is not a card of this game")
            error.index = index
            raise error
        seat = self.to_move
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalMoveError(field_name, f"seat {seat} does not hold {card}{self._where_is(card, field_name)}", index)
        legal = self.legal_moves()
        if card not in legal:
            raise IllegalMoveError(field_name, f"seat {seat} may not play {card} here (legal: {format_cards(legal)})", index)
        hands = list(self.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        trick = self.trick + (card,)
        played = self.played + (card,)
        rules = self.rules
        if len(trick) < rules.n_players:
            return self._after_move(replace(self, hands=tuple(hands), trick=trick, played=played))
        winner = (self.leader + rules.trick_winner(trick)) % rules.n_players
        side = rules.side_of(winner)
        last = all(not h for h in hands)
        scored = list(self.scored)
        tricks = list(self.tricks)
        scored[side] += rules.trick_value(trick, last)
        tricks[side] += 1
        if last and rules.sweep_bonus and tricks[side] == rules.hand_size:
            scored[side] += rules.sweep_bonus
        return self._after_move(
            replace(self, hands=tuple(hands), trick=(), leader=winner, scored=tuple(scored), tricks=tuple(tricks), played=played)
        )

    def _where_is(self, card: Card, field_name: str) -> str:
        """Where a card the seat to move does not hold is, for an illegal move's error:
        in another hand, played before (replaying `played`: where), or on the trick."""
        holders = [seat for seat, hand in enumerate(self.hands) if card in hand]
        if holders:
            return f" (seat {holders[0]} holds it)"
        if card in self.played and field_name.startswith("played["):
            return f" (it was played already: played[{self.played.index(card)}])"
        if card in self.trick:
            return " (it is on the trick)"
        return " (no seat holds it)"

    def _after_move(self, after: Position) -> Position:
        """`after`, a legal move's position, marked checked as this one is: what checked()
        would find again (and, replaying the deal, at a cost that grows with each card)."""
        if self._checked:
            object.__setattr__(after, "_checked", True)
        return after

    # --- the end of a deal -------------------------------------------------------------
    def final_scores(self) -> list[int]:
        """Scores of each side after the settlement of the objective (deal over)."""
        return self.rules.settle(self.scored, self.objective)

    def value_for(self, side: int, finals: Sequence[int] | None = None) -> int | bool:
        """The objective's value of a finished deal for `side` (RULES.md)."""
        ended_deal_side(self, side)
        if finals is None:
            finals = self.final_scores()
        objective = self.objective
        if objective in ("score", "raw"):
            return finals[side] - finals[1 - side]
        if objective == "points":
            return finals[side]
        if objective == "all_tricks":
            return self.tricks[side] == self.rules.hand_size
        if objective == "pomme":
            return finals[side] >= Putz.POMME_BELOW
        raise AssertionError(objective)

    def start_of_deal(self) -> Position:
        """The position before the first card of a position given as deal + played,
        `scored` holding only what play does not explain (what was scored before the
        deal, Weis); a PositionError naming `deal` for a position given by its hands."""
        if self.deal is None:
            raise PositionError("deal", "play analysis needs a position given as deal and played")
        n_sides = self.rules.n_sides
        start = replace(self, hands=self.deal, trick=(), leader=0, scored=(0,) * n_sides, tricks=(0,) * n_sides, played=())
        end = start
        for card in self.played:
            end = end.play(card)
        extra = tuple(s - e for s, e in zip(self.scored, end.scored))
        return self._after_move(replace(start, scored=extra))

    # --- writing -------------------------------------------------------------------
    def __repr__(self) -> str:
        # the call that reads it back (a dataclass's repr would spell out every Card)
        data = self.to_deal_dict() if self.deal is not None else self.to_dict()
        return f"Position.from_dict({data!r})"

    def to_deal_dict(self) -> dict[str, Any]:
        """The deal + played form of a position replayed from a deal (FORMAT.md): its
        `scored` is what was given, before the deal's own bonuses and play.  Unlike
        `to_dict`'s hands form, it reads back whatever play added to `scored`."""
        start = self.start_of_deal()
        assert self.deal is not None
        data = self.to_dict()
        for name in HAND_FIELDS:
            del data[name]
        data["deal"] = [format_cards(h) for h in self.deal]
        data["played"] = [str(c) for c in self.played]
        data["scored"] = [s - b for s, b in zip(start.scored, self.rules.deal_bonuses(self.deal))]
        return data

    def to_dict(self) -> dict[str, Any]:
        """The hands form (FORMAT.md), whichever form the position was read in."""
        rules = self.rules
        data: dict[str, Any] = {"game": rules.name, "options": dict(rules.options)}
        if rules.trump is not None:
            data["trump"] = rules.trump
        if rules.CONTRACT_FIELD is not None:
            data[rules.CONTRACT_FIELD] = rules.contract_seat
        data["hands"] = [format_cards(h) for h in self.hands]
        data["trick"] = [str(c) for c in self.trick]
        data["leader"] = self.leader
        data["scored"] = list(self.scored)
        data["tricks"] = list(self.tricks)
        data["objective"] = self.objective
        return data


AnyPosition = Position | BesiguePosition


def _trump(game: type[Rules], trump: Any) -> str | None:
    if not game.TRUMPS:
        if trump is not None:
            raise PositionError("trump", f"{game.name} has no trump")
        return None
    if trump is None:
        raise PositionError("trump", f"required for {game.name} (one of {', '.join(game.TRUMPS)})")
    if isinstance(trump, str) and trump.isascii():  # either case: "h", "Obenabe"
        for name in game.TRUMPS:
            if trump.lower() == name.lower():
                return name
    suggestion = meant(trump, game.TRUMPS, SUIT_NAMES)
    raise PositionError("trump", f"{game.name} trump must be one of {', '.join(game.TRUMPS)}, got {shown(trump)}{suggestion}")


def _seat(rules: Rules, value: Any, name: str, required: bool) -> int:
    if value is None and required:
        raise PositionError(name, f"required for {rules.name}")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < rules.n_players:
        raise PositionError(name, f"must be a seat from 0 to {rules.n_players - 1}, got {shown(value)}")
    return value


def _side_ints(rules: Rules, value: Any, name: str, allow_negative: bool) -> tuple[int, ...]:
    return ints_per_side(value, name, rules.n_sides, "side", allow_negative)


def _list_or_str(value: Any, name: str) -> Any:
    if not isinstance(value, (list, tuple, str)):  # a tuple from Python callers
        raise PositionError(name, f"must be a list of cards, got {json_kind(value)}")
    return value


def _hands(rules: Rules, value: Any, name: str) -> tuple[tuple[Card, ...], ...]:
    n = rules.n_players
    if not isinstance(value, (list, tuple)):
        raise PositionError(name, f"must be a list of {n} hands, got {json_kind(value)}")
    if len(value) != n:
        raise PositionError(name, _players(rules, len(value)))
    return tuple(tuple(sorted(parse_cards(_list_or_str(h, f"{name}[{i}]"), f"{name}[{i}]"))) for i, h in enumerate(value))


def _players(rules: Rules, hands: int) -> str:
    """How many players the game has, and the option that says so, for `hands` hands
    given: "klaberjass has 2 players (options.players: 2, the default); got 4 hands: for
    4 players give ..." (how to ask for `hands` players where the option allows it)."""
    players = next((option for option in rules.OPTIONS if option.name == "players"), None)
    if players is None:
        return f"{rules.name} has {rules.n_players} players; got {hands} hands"
    default = ", the default" if rules.n_players == players.default else ""
    told = f"{rules.name} has {rules.n_players} players (options.players: {rules.n_players}{default}); got {hands} hands"
    if players.values is None or hands not in players.values:
        return told
    return f"{told}: for {hands} players give \"options\": {{\"players\": {hands}}}"
