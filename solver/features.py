"""Analyses built on `analyse`: play analysis, the trump table and puzzle verification.

    >>> from solver import analyse_play, trump_table, verify_puzzle
    >>> analyse_play({"game": "belote", "trump": "H", "deal": [...], "played": [...]})
    >>> trump_table({"game": "klaberjass", "deal": [...]})
    >>> verify_puzzle(position, {"best": ["HJ"], "value": 24})

Every function takes a position as `analyse` does (a `Position`, a FORMAT.md dict or
its JSON text), the same limits (`time_limit` and `node_limit` apply to each search),
and returns a frozen dataclass with `to_dict()` for JSON.  `solve` replaces `analyse`
for each search (the service passes one that honours a call's deadline).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .analysis import (
    ANALYSE_ESTIMATE_SHARE,
    ANALYSE_ESTIMATE_TIME,
    FAVOURITE_TRICKS,
    CancelWatch,
    EngineLike,
    MoveValue,
    Result,
    Value,
    analyse,
    as_position,
    check_limits,
    default_tt_megabytes,
    engine_for,
    favourite_by_estimates,
    named_moves,
    plays,
    position_bounds,
    preference,
    require_a_move,
    table_size,
    time_left,
    unknown_value_fields,
)
from .besigue import BesiguePosition
from .cards import Card, format_cards
from .errors import (
    VALUE_REACH,
    OptionError,
    PlisError,
    PositionError,
    check_flag,
    json_kind,
    parse_json,
    refuse_unknown_keys,
    shown,
)
from .games import game_of
from .games.base import YES_NO_OBJECTIVES
from .position import AnyPosition, Position, load_position

Solve = Callable[..., Result]  # called as analyse(position, time_limit=, node_limit=, engine=, exact_moves=)
Estimate = Callable[..., Any]  # called as favourite_by_estimates(position, deadline, most_tricks)
PositionLike = Position | BesiguePosition | Mapping[str, Any] | str | bytes


class ClaimError(PlisError):
    """A puzzle claim that is malformed (not a move of the position, a value of the wrong kind)."""

    reason = "INVALID_CLAIM"


def _search(
    solve: Solve | None,
    position: AnyPosition,
    engine: Any,
    time_limit: float | None,
    node_limit: int | None,
    exact_moves: tuple[str, ...],
) -> Result:
    """The best moves, the value and `points`, and the exact values of `exact_moves`
    only: what these analyses report, in a fraction of a full analysis's time."""
    return (analyse if solve is None else solve)(
        position, time_limit=time_limit, node_limit=node_limit, engine=engine, exact_moves=exact_moves
    )


def check_solve(solve: Any) -> None:
    """An OptionError naming `solve` unless it is None or can be called (as `analyse`):
    else the first search would fail with a TypeError, after the others' work."""
    if solve is not None and not callable(solve):
        raise OptionError("solve", f"must be a function called as solver.analyse is (or None), got {type(solve).__name__}")


# --- play analysis ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedCard:
    """One card of the play, valued for the side that played it.

    `before` is the value of the position before the card (best play from there),
    `after` the value once the card is played, `lost` how much the card gave away
    (0 for a best card; a yes/no objective counts a lost `true` as 1).  Values are
    None when a search limit stopped the analysis before it could tell (a card's
    `after` may come from the next card's search: one position; `before` is known
    where the bounds met, a move having reached the most the position allows), but
    for a forced card, the only legal one, which loses nothing (`lost` 0, `before` =
    `after`, its own best), and one of legal cards that all play the same (`lost` 0,
    all of them best); `lost_at_least`
    is then set where the card is already shown to have lost something: what it lost
    at least, against the best move the limited search found.  For a card that lost
    something, `line` is a line of best play from the position before it, to the end
    of the deal (it starts with a best card): what it gave away.
    """

    index: int  # place in `played`
    seat: int
    side: int
    card: str
    before: Value | None
    after: Value | None
    lost: int | None
    best: tuple[str, ...]  # the best cards at that point
    forced: bool  # the only legal card
    exact: bool = True
    # for a card that lost something: best play from before it (one of the best lines)
    line: tuple[str, ...] = field(default=(), compare=False)
    lost_at_least: int | None = None  # `lost` unknown: what the card surely lost (> 0)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "index": self.index,
            "seat": self.seat,
            "side": self.side,
            "card": self.card,
            "before": self.before,
            "after": self.after,
            "lost": self.lost,
            "best": list(self.best),
            "forced": self.forced,
            "exact": self.exact,
            "line": list(self.line),
        }
        if self.lost_at_least is not None:
            data["lost_at_least"] = self.lost_at_least
        return data


@dataclass(frozen=True)
class PlayAnalysis:
    """Every played card of a deal with what it cost (like DDS's AnalysePlay)."""

    objective: str
    cards: tuple[PlayedCard, ...]
    exact: bool
    # how the search went, not what it found: left out of ==, as in a Hint
    nodes: int = field(compare=False)
    time_ms: float = field(compare=False)
    limit: str | None = None  # what stopped a search: "cancelled", else "time", else "nodes"

    @property
    def mistakes(self) -> tuple[PlayedCard, ...]:
        """The cards that lost something (or, limited, surely lost something), in the order played."""
        return tuple(c for c in self.cards if c.lost or c.lost_at_least)

    def to_dict(self) -> dict[str, Any]:
        return {
            "objective": self.objective,
            "cards": [c.to_dict() for c in self.cards],
            "exact": self.exact,
            **({"limit": self.limit} if self.limit is not None else {}),
            "nodes": self.nodes,
            "time_ms": round(self.time_ms, 3),
        }


def _set_up(
    position: AnyPosition, engine: EngineLike, tt_megabytes: int | None, time_limit: float | None
) -> tuple[Any, float | None]:
    """The engine for a call's searches (`engine_for`) and what is left of `time_limit`
    for the first of them: a thread's first call sets up its table within that limit,
    as `analyse` does (README: the time limit counts from the start of the call)."""
    started = time.perf_counter()
    return engine_for(position, engine, tt_megabytes), time_left(time_limit, started)


def start_of_deal(position: AnyPosition) -> AnyPosition:
    """The position at the start of play of a position given as deal + played."""
    return position.start_of_deal()


def analyse_play(
    position: PositionLike,
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    engine: EngineLike = None,
    first: int = 0,
    solve: Solve | None = None,
) -> PlayAnalysis:
    """Value each card of `played` (from index `first` on) against the best card there.

    `position` must be given as `deal` and `played`.  One engine (and its
    transposition table) serves every position of the deal.
    """
    pos = as_position(position)
    if objective is not None:
        pos = pos.with_objective(objective)
    current = start_of_deal(pos)
    check_first(first, pos)
    check_solve(solve)
    eng, first_limit = _set_up(current, engine, tt_megabytes, time_limit)
    cancelled = CancelWatch(eng)
    cards: list[PlayedCard] = []
    found: list[Value | None] = []  # per card, a limited search's value: a bound on `before`
    nodes, time_ms, exact = 0, 0.0, True
    limits: list[str | None] = []
    places = written_places(pos)
    played: tuple[Any, ...] = pos.played
    for card, index in zip(played, places):
        if index is None:  # a pass the replay added: not in the list given, not valued
            pass
        elif index >= first and cancelled():
            exact = False
            limits.append("cancelled")
            forced = len(current.legal_moves()) == 1
            cards.append(PlayedCard(index, current.to_move, current.side, str(card), None, None, None, (), forced, False))
            found.append(None)
        elif index >= first:
            limit = time_limit if cards else first_limit  # the first search's: less the set-up
            result = _search(solve, current, eng, limit, node_limit, (str(card),))
            nodes += result.nodes
            time_ms += result.time_ms
            exact = exact and result.exact
            limits.append(result.limit)
            cards.append(_played_card(current, index, card, result))
            found.append(None if result.exact else result.value)
        current = current.play(card)
    # the moves that follow an added pass: their position is not the one before it
    after_added = {place for place, previous in zip(places[1:], places) if previous is None}
    filled = [_with_lost(pos, card) for card in _fill_from_neighbours(pos, cards, after_added)]
    valued = tuple(_surely_lost(pos, c, f) for c, f in zip(filled, found))
    return PlayAnalysis(pos.objective, valued, exact, nodes, time_ms, strongest_limit(limits))


def strongest_limit(limits: Iterable[str | None]) -> str | None:
    """Of the limits that stopped several searches, the one to report for them all: a
    cancel (the rest is not to be trusted as a limit's), else time, else nodes."""
    given = set(limits)
    return next((limit for limit in ("cancelled", "time", "nodes") if limit in given), None)


def _fill_from_neighbours(pos: AnyPosition, cards: list[PlayedCard], after_added: set[int | None]) -> tuple[PlayedCard, ...]:
    """A card's `after` and the next card's `before` value one position, for the sides
    of two seats; where a limit stopped one of the two searches (the later position is
    often solved, the earlier one not), the other's exact value stands for it.  Forward,
    then back: a forced card passes what it is given on to either neighbour, so a
    value found after it reaches the cards before it too."""
    pairs = range(len(cards) - 1)
    for i in [*pairs, *reversed(pairs)]:
        card, following = cards[i], cards[i + 1]
        if following.index != card.index + 1 or following.index in after_added:
            continue
        if card.after is None and following.before is not None:
            card = replace(card, after=_for_side(pos, following.before, following.side, card.side))
        if following.before is None and card.after is not None:
            following = replace(following, before=_for_side(pos, card.after, card.side, following.side))
        cards[i], cards[i + 1] = _with_lost(pos, card), _with_lost(pos, following)
    return tuple(cards)


def _for_side(pos: AnyPosition, value: Value, side: int, other: int) -> Value | None:
    """A position's `value` for `side`, as its value for `other`: the same for the same
    side; negated in the two-sided games, where a value is one side's final score less
    the other's (RULES.md); unknown in the paranoid games."""
    if side == other:
        return value
    if pos.rules.individual or isinstance(value, bool):
        return None
    return -value


def _surely_lost(pos: AnyPosition, card: PlayedCard, found: Value | None) -> PlayedCard:
    """`card` with `lost_at_least` where its `lost` is unknown but its `after` is
    known and worse than `found`, the value of the best move its limited search found
    (a bound on `before`)."""
    if card.lost is None and card.after is not None and found is not None:
        gap = preference(pos, found) - preference(pos, card.after)
        if gap > 0:
            return replace(card, lost_at_least=gap)
    return card


def _with_lost(pos: AnyPosition, card: PlayedCard) -> PlayedCard:
    if card.forced:  # the only legal card: the position's value is its value, whatever a limit left
        value = card.before if card.before is not None else card.after
        return replace(card, before=value, after=value, lost=0, best=(card.card,))
    if card.lost is None and card.before is not None and card.after is not None:
        return replace(card, lost=preference(pos, card.before) - preference(pos, card.after))
    if card.lost == 0 and (card.before is None) != (card.after is None):  # nothing lost: one value
        value = card.before if card.before is not None else card.after
        return replace(card, before=value, after=value)
    return card


def written_places(position: AnyPosition) -> list[int | None]:
    """For each move of `position.played`, its place in the `played` list as given;
    None for a pass that the replay added (a Bésigue trick winner's pass left out)."""
    implied: frozenset[int] = getattr(position, "implied", frozenset())
    places: list[int | None] = []
    count = 0
    for i in range(len(position.played)):
        places.append(None if i in implied else count)
        count += i not in implied
    return places


def check_first(first: Any, position: AnyPosition) -> int:
    """`first`, the index of the first played card to value, if it is a whole number
    from 0 to the number of moves in `played` as given; else an OptionError naming `first`."""
    played = sum(place is not None for place in written_places(position))
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first <= played:
        raise OptionError("first", f"must be a whole number from 0 to {played}, got {shown(first)}")
    return first


def _played_card(pos: AnyPosition, index: int, card: Card | str, result: Result) -> PlayedCard:
    after = next(m.value for m in result.moves if m.move == str(card))
    # limited, the position's value is still known where a move reached the most it allows
    before = result.value if result.exact else _met_bounds(pos, result)
    # the only legal card, or legal cards that all play the same: nothing lost, whatever a limit left
    one_play = result.one_play
    if one_play and before is None:
        before = after
    lost = None
    if before is not None and after is not None:
        lost = preference(pos, before) - preference(pos, after)
    elif one_play:
        lost = 0
    return PlayedCard(
        index=index,
        seat=pos.to_move,
        side=pos.side,
        card=str(card),
        before=before,
        after=after,
        lost=lost,
        best=result.best if result.exact or one_play else (),
        forced=len(result.moves) == 1,
        exact=result.exact,
        line=result.line if lost else (),
    )


# --- trump table -------------------------------------------------------------------------


@dataclass(frozen=True)
class TrumpEntry:
    """The value of the deal with one trump (and, in Klaverjas and Klaberjass, one declaring side)."""

    trump: str
    declaring_side: int | None  # the side of the declarer / taker; None where no side declares
    # for side 0 (seat 0 leads the deal); known though a limit stopped the search (not
    # `exact`, no `best`) where a lead reached the most the deal allows
    value: Value | None
    best: tuple[str, ...]  # the best opening leads
    points: tuple[int, ...] | None  # final scores along a line of best play
    exact: bool
    # a limit left the value unknown: bounds on it (proven, as a move's in a Result),
    # and an estimate (not a bound) as a hint's: its estimates' favourite's
    lower: int | None = None
    upper: int | None = None
    estimate: int | None = None
    estimate_objective: str | None = None  # the objective `estimate` is in, where not the table's
    estimate_tricks: int | None = None  # how many tricks ahead `estimate` looked

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"trump": self.trump}
        if self.declaring_side is not None:
            data["declaring_side"] = self.declaring_side
        data.update(
            value=self.value,
            best=list(self.best),
            points=list(self.points) if self.points is not None else None,
            exact=self.exact,
        )
        data.update(unknown_value_fields(self.value, self.lower, self.upper, self.estimate, self.estimate_objective,
                                         self.estimate_tricks))
        return data


class NoEntryError(OptionError, KeyError):
    """`TrumpTable.value` of a trump or declaring side the table has no entry for
    (a KeyError too, as it was)."""

    def __str__(self) -> str:  # a KeyError's would be quoted
        return ValueError.__str__(self)


@dataclass(frozen=True)
class TrumpTable:
    """The value of a deal for each possible trump, like a bridge double-dummy table.

    Values are for side 0 (seat 0, who leads); in the individual game Putz, seat 0's.
    `entries` are written `table` in the JSON (`to_dict()`, `plis trumps`).
    """

    game: str
    objective: str
    entries: tuple[TrumpEntry, ...]
    exact: bool
    nodes: int = field(compare=False)  # left out of ==, as in a Hint
    time_ms: float = field(compare=False)
    side: int = 0
    limit: str | None = None  # what stopped a search: "cancelled", else "time", else "nodes"

    def value(self, trump: str, declaring_side: int | None = None) -> Value | None:
        """The value with `trump` (and `declaring_side`, in the games where a side
        declares); a `NoEntryError` (an OptionError and a KeyError) naming the argument
        that has no entry.  The trump in either case, as positions take it ("h", "Obenabe")."""
        if isinstance(trump, str) and trump.isascii():
            trump = next((e.trump for e in self.entries if e.trump.lower() == trump.lower()), trump)
        if isinstance(declaring_side, bool):  # True is no side, though it equals 1
            raise NoEntryError("declaring_side", f"must be a side, 0 or 1 (or None), got {declaring_side}")
        for entry in self.entries:
            if entry.trump == trump and entry.declaring_side == declaring_side:
                return entry.value
        trumps = list(dict.fromkeys(e.trump for e in self.entries))
        if trump not in trumps:
            raise NoEntryError("trump", f"no entry for trump {trump!r} (the table's: {', '.join(trumps)})")
        sides = sorted({repr(e.declaring_side) for e in self.entries if e.trump == trump})
        raise NoEntryError(
            "declaring_side", f"no entry for declaring side {declaring_side!r} (the table's: {' or '.join(sides)})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "objective": self.objective,
            "side": self.side,
            "table": [e.to_dict() for e in self.entries],
            "exact": self.exact,
            **({"limit": self.limit} if self.limit is not None else {}),
            "nodes": self.nodes,
            "time_ms": round(self.time_ms, 3),
        }


def trump_table(
    deal: PositionLike,
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    engine: EngineLike = None,
    solve: Solve | None = None,
    jobs: int | None = 1,
    estimates: bool = True,
    estimate: Estimate | None = None,
) -> TrumpTable:
    """Value a deal before play for every trump of its game (and both declaring sides).

    `deal` is a position at the start of play, as `deal` (with no `played`) or as
    `hands`; its `trump` and `declarer`/`taker`, if given, are ignored.  The bonuses
    that depend on the trump (belote, bella, sequences) are computed for each trump;
    `scored` may carry the others (Weis).  `jobs` > 1 (None: one per core) values
    that many trumps at once, each thread with tables of its own (a complete Jass
    deal's table: 0.76 of the wall time on two cores, as one trump often takes most
    of it); not with `engine` or `solve`, which serve one thread.

    An entry a limit left unsolved has `value` None, `lower` and `upper` bounds on
    it (the best of its leads' proven bounds: narrow where a lead was solved or
    shown better than a value) and, with `estimates`, an `estimate` (not a bound)
    made as a hint's when nothing is solved: best play over the next tricks, what
    follows guessed, within a share of the time limit kept back from the search.
    `estimate` replaces `solver.analysis.favourite_by_estimates` for them, as `solve`
    replaces `analyse` (the service passes one that honours the call's deadline).
    """
    from .batch import check_jobs, ordered_map

    base = deal_before_play(deal)
    check_limits(time_limit, node_limit)
    check_solve(solve)
    if estimate is not None and not callable(estimate):
        raise OptionError("estimate", f"must be a function called as favourite_by_estimates is (or None), "
                                      f"got {type(estimate).__name__}")
    check_flag("estimates", estimates)
    one = jobs == 1 and not isinstance(jobs, bool)  # True is no number of threads: check_jobs refuses it
    threads = 1 if one else check_jobs(jobs, table_size(tt_megabytes, default_tt_megabytes(base)))
    if threads > 1 and (engine is not None or solve is not None or estimate is not None):
        raise OptionError("jobs", "an engine, solve or estimate of your own serves one thread: give jobs=1 with them")
    rules = base.rules
    game = type(rules)
    objective = objective if objective is not None else base.objective
    hands = base.deal if base.deal is not None else base.hands
    extra = base.scored
    if base.deal is not None:  # scored holds this trump's bonuses: keep only what was given
        extra = tuple(s - b for s, b in zip(base.scored, rules.deal_bonuses(hands)))
    sides: tuple[int | None, ...] = (0, 1) if game.CONTRACT_FIELD is not None else (None,)
    contracts: list[tuple[str, int | None, Position]] = []
    for trump in game.TRUMPS:
        for side in sides:
            data: dict[str, Any] = {
                "game": game.name,
                "options": dict(rules.options),
                "trump": trump,
                "deal": [format_cards(h) for h in hands],
                "scored": list(extra),
                "objective": objective,
            }
            if side is not None:
                data[str(game.CONTRACT_FIELD)] = side  # seat `side` is of side `side`
            contracts.append((trump, side, Position.from_dict(data)))
    valued: list[tuple[TrumpEntry, int, float, str | None]]
    if threads > 1:
        # no engine given: each thread searches with its own, as in analyse_many
        def value_one(contract: tuple[str, int | None, Position]) -> tuple[TrumpEntry, int, float, str | None]:
            eng, limit = _set_up(contract[2], None, tt_megabytes, time_limit)  # a new thread sets up its table
            return _value_contract(contract, solve, eng, limit, node_limit, estimates, None)

        valued = list(ordered_map(value_one, contracts, threads))
    else:
        from .compile import static_bounds

        eng, first_limit = _set_up(base, engine, tt_megabytes, time_limit)
        cancelled = CancelWatch(eng)
        valued = [
            (TrumpEntry(trump, side, None, (), None, False, *static_bounds(pos)), 0, 0.0, "cancelled") if cancelled()
            else _value_contract((trump, side, pos), solve, eng, time_limit if i else first_limit, node_limit,
                                 estimates, estimate, cancelled)
            for i, (trump, side, pos) in enumerate(contracts)
        ]
    entries = tuple(entry for entry, _, _, _ in valued)
    nodes = sum(n for _, n, _, _ in valued)
    time_ms = sum(t for _, _, t, _ in valued)
    limit = strongest_limit(limit for _, _, _, limit in valued)
    return TrumpTable(game.name, objective, entries, all(e.exact for e in entries), nodes, time_ms, limit=limit)


USED_ITS_TIME = 0.9  # a search that stopped this far into its time limit was stopped by it


def _value_contract(
    contract: tuple[str, int | None, Position],
    solve: Solve | None,
    engine: Any,
    time_limit: float | None,
    node_limit: int | None,
    estimates: bool,
    estimate: Estimate | None,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[TrumpEntry, int, float, str | None]:
    """One entry of the trump table, with the nodes and milliseconds it took and the
    limit that stopped its search.  Stopped
    by a limit, the entry has bounds and (with `estimates`) its estimates' favourite's
    estimate, made as `analyse` makes its own: under a time limit alone in a share
    of it kept back from the search, under a node limit (or when the search ended
    well before its time: `solve` answering by a deadline of its own) a trick ahead."""
    trump, side, pos = contract
    started = time.perf_counter()
    guess_time = time_limit if estimates and time_limit and not node_limit else None
    search_time = time_limit
    if guess_time:
        search_time = guess_time - min(ANALYSE_ESTIMATE_SHARE * guess_time, ANALYSE_ESTIMATE_TIME)
    result = _search(solve, pos, engine, time_left(search_time, started), node_limit, ())
    if result.exact:
        entry = TrumpEntry(trump, side, result.value, result.best, result.points, True)
        return entry, result.nodes, result.time_ms, None
    known = _met_bounds(pos, result)
    if known is not None:  # a lead reached the most the deal allows: the value is known, its best leads are not
        return TrumpEntry(trump, side, known, (), None, False), result.nodes, result.time_ms, result.limit
    lower, upper = position_bounds(pos, result)
    nodes = result.nodes
    favourite = None
    if estimates and result.limit != "cancelled" and not (cancelled and cancelled()):
        # further ahead in the time kept back, unless something cut the search short of
        # its own time (`solve` may answer before a deadline of its own: the service's)
        used_its_time = search_time and time.perf_counter() - started >= USED_ITS_TIME * search_time
        deadline = started + guess_time if guess_time and used_its_time else None
        favourite = (estimate or favourite_by_estimates)(pos, deadline, FAVOURITE_TRICKS)
    entry = TrumpEntry(trump, side, None, (), None, False, lower, upper)
    if favourite is not None:
        guess = favourite.estimate
        if favourite.objective is None:  # in the entry's own measure: within its bounds
            guess = min(max(guess, lower), upper)
        entry = replace(entry, estimate=guess, estimate_objective=favourite.objective, estimate_tricks=favourite.tricks)
        nodes += favourite.nodes
    return entry, nodes, (time.perf_counter() - started) * 1000.0, result.limit


def deal_before_play(deal: PositionLike) -> Position:
    """A deal checked for the trump table (`trump_table`'s first step): its trump and
    contract seat may be left out, and are ignored if given."""
    if isinstance(deal, (str, bytes, bytearray)):
        deal = parse_json(deal)
    if isinstance(deal, Mapping):
        data = dict(deal)
        game = game_of(data)
        if game.name == "besigue":
            raise PositionError("game", "besigue's trump is the suit of the retourne: there is no trump table")
        if not game.TRUMPS:
            raise PositionError("game", f"{game.name} has no trump: there is no trump table")
        if data.get("played"):  # before the replay: with another trump it may not replay at all
            raise PositionError("played", "a trump table is for a deal before play: give no played cards")
        # any trump and contract seat given are ignored: every one is tried
        data["trump"] = game.TRUMPS[0]
        for name in ("declarer", "taker"):
            data.pop(name, None)
        if game.CONTRACT_FIELD is not None:
            data[game.CONTRACT_FIELD] = 0
        position = Position.from_dict(data)
    elif isinstance(deal, Position):
        position = deal.checked()
        if not type(position.rules).TRUMPS:
            raise PositionError("game", f"{position.rules.name} has no trump: there is no trump table")
    else:
        any_position = as_position(deal, "deal")  # raises the usual error, or Bésigue's
        if isinstance(any_position, BesiguePosition):
            raise PositionError("game", "besigue's trump is the suit of the retourne: there is no trump table")
        position = any_position
    if position.deal is not None:
        if position.played:
            raise PositionError("played", "a trump table is for a deal before play: give no played cards")
        return position
    if position.trick or any(position.tricks):
        where = "trick" if position.trick else "tricks"
        raise PositionError(where, "a trump table is for a deal before play")
    if position.leader != 0:
        raise PositionError("leader", "seat 0 leads the first trick of a deal")
    return position


# --- puzzle verification ------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """What a puzzle says about its position: the winning move(s), the value, uniqueness.

    Leave out what the puzzle does not claim (`best=()`, `value=None`, `unique=None`,
    `unique_play=None`).  `unique` claims one best card; `unique_play` one best play,
    where cards that play the same (Verdict.best_plays) count as one.
    """

    best: tuple[str, ...] = ()
    value: Value | None = None
    unique: bool | None = None
    unique_play: bool | None = None  # one best play, equivalent cards counted as one

    @classmethod
    def from_dict(cls, data: Any, name: str = "claim") -> Claim:
        if isinstance(data, Claim):  # built directly: checked all the same, what it leaves out left out
            given = {"best": data.best, "value": data.value, "unique": data.unique, "unique_play": data.unique_play}
            data = {k: v for k, v in given.items() if v is not None and v != ()}
        if not isinstance(data, Mapping):
            raise ClaimError(name, f"must be an object with best, value and/or unique, got {json_kind(data)}")
        known = ("best", "value", "unique", "unique_play")
        refuse_unknown_keys(data, known, ClaimError, name, " (a claim has best, value, unique, unique_play)")
        # a field given as null (or best as []) claims nothing: an error, not silently
        # read as left out, since the puzzle meant to claim something there
        best = data.get("best", ())
        if isinstance(best, tuple):  # as a Result, a Hint or a Claim gives them
            best = list(best)
        if isinstance(best, list):  # a Card as "HJ", as analyse's exact_moves takes them
            best = [str(m) if isinstance(m, Card) else m for m in best]
        if not isinstance(best, list) or not all(isinstance(m, str) for m in best):
            hint = " (one move is a list of one)" if isinstance(best, str) else ""
            raise ClaimError(f"{name}.best", f"must be a list of moves{hint}, got {shown(best)}")
        if "best" in data and not best:
            raise ClaimError(f"{name}.best", "names no move: give the winning move(s), or leave best out")
        if "value" in data and data["value"] is None:
            raise ClaimError(f"{name}.value", "is null: give the value, or leave value out")
        value = data.get("value")
        if value is not None and (not isinstance(value, int)):
            raise ClaimError(f"{name}.value", f"must be an integer or true/false, got {shown(value)}")
        if value is not None and not -VALUE_REACH <= value <= VALUE_REACH:
            raise ClaimError(f"{name}.value", f"no position's value lies beyond ±{VALUE_REACH}, got {value}")
        unique, unique_play = (_claimed_bool(data, key, name) for key in ("unique", "unique_play"))
        if not best and value is None and unique is None and unique_play is None:
            raise ClaimError(name, "claims nothing: give best (the winning moves), value and/or unique")
        return cls(tuple(best), value, unique, unique_play)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.best:
            data["best"] = list(self.best)
        if self.value is not None:
            data["value"] = self.value
        if self.unique is not None:
            data["unique"] = self.unique
        if self.unique_play is not None:
            data["unique_play"] = self.unique_play
        return data


def _claimed_bool(data: Mapping[str, Any], key: str, name: str) -> bool | None:
    """A claim's `key`, true or false, or None where left out (null is an error)."""
    if key in data and data[key] is None:
        raise ClaimError(f"{name}.{key}", f"is null: give true or false, or leave {key} out")
    given = data.get(key)
    if given is not None and not isinstance(given, bool):
        raise ClaimError(f"{name}.{key}", f"must be true or false, got {shown(given)}")
    return given


@dataclass(frozen=True)
class Verdict:
    """Whether a puzzle's claim holds.

    `holds` is true when every part of the claim holds: each claimed move is a best
    move (`best_holds`), the value is right (`value_holds`), and the winning move is
    unique if the claim says so.  `unique` says whether the position has exactly one
    best move, whatever was claimed; `best_plays` groups the best moves into plays,
    cards that play the same together (cards of one hand adjacent in their suit, or
    among Bassadewitz's Jacks as trumps, among the cards in play and worth the same
    points, no roem to tell them apart: either takes the same tricks), and
    `unique_play` says whether there is one; `missing` lists best moves the claim left out,
    `wrong` claimed moves that are not best, and `claimed` the values of the claimed
    moves.  When a limit stopped the search (`limit` says which), the checks it could
    not decide are None, `value` is None and `best` empty (but a forced move, the
    only legal one, is the best and unique whatever the limit, legal cards that all
    play the same are all best and one play, and where the bounds
    met, a move having reached the most the position allows, `value` is known and
    decides a claimed one, and a claimed move solved at it is best), `wrong` lists the
    claimed moves already shown worse than another move (solved worse, or bounded
    below it), and `value_holds` is False for a claimed value worse than the best
    move found or outside the position's bounds (the best of its moves').
    """

    holds: bool | None
    best_holds: bool | None  # None: the claim names no move
    value_holds: bool | None  # None: the claim gives no value
    unique: bool | None
    objective: str
    value: Value | None
    best: tuple[str, ...]
    missing: tuple[str, ...]
    wrong: tuple[str, ...]
    claimed: tuple[MoveValue, ...]
    exact: bool
    limit: str | None = None  # "time", "nodes" or "cancelled" when a limit stopped the search
    unique_play: bool | None = None  # one best play (equivalent cards counted as one)
    best_plays: tuple[tuple[str, ...], ...] = ()  # the best moves by play
    nodes: int = field(default=0, compare=False)  # left out of ==, as in a Hint
    time_ms: float = field(default=0.0, compare=False)
    # the search behind the verdict: the claimed and the best moves valued, the others
    # perhaps only shown worse than the best (analyse's exact_moves)
    result: Result | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "holds": self.holds,
            "best_holds": self.best_holds,
            "value_holds": self.value_holds,
            "unique": self.unique,
            "unique_play": self.unique_play,
            "objective": self.objective,
            "value": self.value,
            "best": list(self.best),
            "best_plays": [list(play) for play in self.best_plays],
            "missing": list(self.missing),
            "wrong": list(self.wrong),
            "claimed": [m.to_dict() for m in self.claimed],
            "exact": self.exact,
            **({"limit": self.limit} if self.limit is not None else {}),
            "nodes": self.nodes,
            "time_ms": round(self.time_ms, 3),
        }


def verify_puzzle(
    position: PositionLike,
    claim: Claim | Mapping[str, Any],
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    engine: EngineLike = None,
    solve: Solve | None = None,
) -> Verdict:
    """Check `claim` (`Claim` or {"best": [...], "value": v, "unique": bool}) on `position`."""
    pos = as_position(position)
    if objective is not None:
        pos = pos.with_objective(objective)
    require_a_move(pos)  # before the claim: its moves and value mean nothing once the deal is over
    claim = Claim.from_dict(claim)
    check_solve(solve)
    claimed_cards = _claimed_moves(pos, claim)
    if claim.unique and len(claimed_cards) > 1:
        raise ClaimError(
            "claim.unique", f"is true, but best claims {len(claimed_cards)} moves: only one move can be the only best"
        )
    yes_no = pos.objective in YES_NO_OBJECTIVES
    if claim.value is not None and isinstance(claim.value, bool) != yes_no:
        kind = "true or false" if yes_no else "a number"
        raise ClaimError("claim.value", f"the {pos.objective} objective's value is {kind}, got {shown(claim.value)}")
    eng, limit = _set_up(pos, engine, tt_megabytes, time_limit)
    result = _search(solve, pos, eng, limit, node_limit, claimed_cards)
    values = {m.move: m for m in result.moves}
    claimed = tuple(values[c] for c in claimed_cards)
    exact = result.exact
    # a forced play is the best, whatever a limit left of its value: the only legal
    # move, or cards that all play the same (S9 and S7 that must follow, S8 gone)
    forced = result.one_play
    best = result.best if exact else tuple(m.move for m in result.moves) if forced else ()
    unique = len(best) == 1 if exact or forced else None
    best_plays = plays(best, result.merged)
    unique_play = len(best_plays) == 1 if unique is not None else None
    best_holds = value_holds = None
    value = result.value if exact else _met_bounds(pos, result)
    if exact or forced:
        wrong = tuple(m for m in claimed_cards if m not in best)
    else:
        # stopped by a limit: a claimed move whose value, or the better of its bounds,
        # is worse than another solved move (or than the bound of a move shown better
        # than them: the limited `value`) is surely not best; one solved at the most any
        # move can reach is surely best (`_surely_best`); of the others nothing is known
        top = preference(pos, result.value) if result.value is not None else None
        wrong = tuple(m.move for m in claimed if top is not None and _at_best(pos, m) < top)
    if claimed and (exact or forced):
        best_holds = not wrong
    elif wrong:
        best_holds = False
    elif claimed and all(_surely_best(pos, result, m) for m in claimed):
        best_holds = True
    if claim.value is not None and value is not None:  # exact, or bounds that met
        value_holds = value == claim.value and isinstance(value, bool) == isinstance(claim.value, bool)
    elif claim.value is not None:
        # stopped by a limit: the position is worth at least the best move found, and
        # lies within its bounds (the best of its moves'): a claimed value outside is
        # surely wrong; of one within nothing is known
        lower, upper = position_bounds(pos, result)
        worse = result.value is not None and preference(pos, claim.value) < preference(pos, result.value)
        if worse or not lower <= int(claim.value) <= upper:
            value_holds = False
    parts: list[bool | None] = []
    if claim.best:
        parts.append(best_holds)
    if claim.value is not None:
        parts.append(value_holds)
    if claim.unique is not None:
        parts.append(None if unique is None else unique == claim.unique)
    if claim.unique_play is not None:
        parts.append(None if unique_play is None else unique_play == claim.unique_play)
    holds = False if False in parts else None if None in parts else True
    return Verdict(
        holds=holds,
        best_holds=best_holds,
        value_holds=value_holds,
        unique=unique,
        objective=pos.objective,
        value=value,
        best=best,
        missing=tuple(m for m in best if m not in claimed_cards) if claimed_cards else (),
        wrong=wrong,
        claimed=claimed,
        exact=exact,
        limit=result.limit,
        unique_play=unique_play,
        best_plays=best_plays,
        nodes=result.nodes,
        time_ms=result.time_ms,
        result=result,
    )



def _met_bounds(pos: AnyPosition, result: Result) -> Value | None:
    """A limited search's position value where its bounds meet (a move reached the most
    the position allows): true or false for a yes/no objective; else None."""
    if _unbounded(result):
        return None
    lower, upper = position_bounds(pos, result)
    if lower != upper:
        return None
    return bool(lower) if pos.objective in YES_NO_OBJECTIVES else lower


def _surely_best(pos: AnyPosition, result: Result, move: MoveValue) -> bool:
    """Whether a limited search proved `move` best: solved, and no move's value, or
    better bound, beats it (so the bounds met at its value)."""
    if move.value is None or _unbounded(result):
        return False
    return all(_at_best(pos, m) <= preference(pos, move.value) for m in result.moves)


def _unbounded(result: Result) -> bool:
    """Whether a move was left with neither value nor bounds (a cancelled Bésigue search)."""
    return any(m.value is None and (m.lower is None or m.upper is None) for m in result.moves)


def _at_best(pos: AnyPosition, move: MoveValue) -> int:
    """The preference of a move's value, or of the better end of its bounds."""
    if move.value is not None:
        return preference(pos, move.value)
    assert move.lower is not None and move.upper is not None  # an unsolved move's bounds
    return max(preference(pos, move.lower), preference(pos, move.upper))


def _claimed_moves(pos: AnyPosition, claim: Claim) -> tuple[str, ...]:
    """The claimed moves, as the legal moves they name."""
    return tuple(str(move) for move in named_moves(pos, claim.best, "claim.best", ClaimError))


def puzzle_from_dict(data: Any) -> tuple[AnyPosition, Claim]:
    """A puzzle line, {"position": {...}, "claim": {...}} or the position's fields with
    "claim", read as the service reads a request: the position first (a nested one's
    errors named `position.<field>`, their path in the line), then the claim."""
    if not isinstance(data, Mapping):
        raise PositionError("puzzle", f"must be a JSON object, got {json_kind(data)}")
    if "claim" not in data:
        raise ClaimError("claim", "required: what the puzzle claims (best, value and/or unique)")
    nested = "position" in data
    if nested:
        refuse_unknown_keys(data, ("position", "claim"), told=" (a puzzle has position and claim)")
        fields = data["position"]
        if not isinstance(fields, Mapping):
            raise PositionError("position", f"must be a JSON object, got {json_kind(fields)}")
        fields = dict(fields)
    else:
        fields = {k: v for k, v in data.items() if k != "claim"}
    try:
        position = load_position(fields)
        require_a_move(position)
    except PlisError as exc:
        if nested:
            exc.field = f"position.{exc.field}"
        raise
    return position, Claim.from_dict(data["claim"])
