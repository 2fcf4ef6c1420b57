"""The analysis API: `analyse` and `hint`, and the `Result` they return (FORMAT.md)."""

from __future__ import annotations

import difflib
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeAlias, overload

from .besigue import BesiguePosition
from .cards import Card
from .errors import (
    CardError,
    IllegalMoveError,
    OptionError,
    PlisError,
    PositionError,
    above_zero,
    at_least_one,
    check_flag,
    parse_json,
    shown,
    table_megabytes,
)
from .games.base import YES_NO_OBJECTIVES
from .position import AnyPosition, Position, load_position

if TYPE_CHECKING:  # the compiled engines' stubs; at run time imported where used
    from ._besigue import BesigueEngine
    from ._engine import Engine

Value = int | bool
# an engine of the caller's: its tables are kept between calls (None: the thread's)
EngineLike: TypeAlias = "Engine | BesigueEngine | None"

DEFAULT_TT_MEGABYTES = 8  # fits the caches better than more, for deals of up to 32 cards
# A deal of more than 32 cards to play (Jass) thrashes 8 MB: 64 MB took a quarter less
# time on 30 Jass deals, where 32-card deals and Putz's 27 are slower with more.
LARGE_DEAL_CARDS = 32
LARGE_DEAL_TT_MEGABYTES = 64
ENGINES_KEPT = 2  # per thread, one per table size: a batch that mixes games keeps both
MOST_NODES = 2**62  # the engine counts nodes in a signed 64-bit integer


@dataclass(frozen=True)
class MoveValue:
    """One legal move and the value of the position after it, for the analysed side.

    When a limited search stopped before this move was solved, `value` is None and
    `lower`/`upper` bound the true value; an `estimate` (see `Result.estimate_tricks`)
    may come with them, which is not a bound.
    """

    move: str
    value: Value | None
    lower: int | None = None
    upper: int | None = None
    estimate: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move, "value": self.value}
        if self.value is None:
            data["lower"] = self.lower
            data["upper"] = self.upper
            if self.estimate is not None:
                data["estimate"] = self.estimate
        return data


@dataclass(frozen=True)
class Result:
    """Exact values of every legal move of a position (FORMAT.md, "Result").

    The fields are FORMAT.md's, named as there; `to_dict()` gives its JSON.  `line`, a
    line of best play, is not in the JSON (the service's `Result` message carries it).
    """

    to_move: int
    side: int
    objective: str
    value: Value | None
    moves: tuple[MoveValue, ...]
    best: tuple[str, ...]
    points: tuple[int, ...] | None
    exact: bool
    # how the search went, not what it found: left out of ==, as in a Hint
    nodes: int = field(compare=False)
    time_ms: float = field(compare=False)
    limit: str | None = None  # "time", "nodes" or "cancelled" (engine.cancel()) when a limit stopped the search
    line: tuple[str, ...] = field(default=(), compare=False)  # one line of best play
    # limited: the unsolved moves' estimates are best play over this many tricks
    # (Bésigue: phase-1 tricks, what follows guessed from the hands; the two-sided card
    # games: what follows guessed from the hands, solver/leaf.py; Putz and
    # Bassadewitz: shared evenly)
    estimate_tricks: int | None = None
    # the objective the estimates are in where not the result's own (`points` for pomme, all_tricks)
    estimate_objective: str | None = None
    # a move merged with an equivalent one (the same play: adjacent in its suit, or
    # among Bassadewitz's Jacks as trumps, among the cards in play, the same points,
    # no roem to tell them apart), by the move searched for it; not in the JSON
    # (verify's unique_play reads it)
    merged: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    # Bassadewitz: the chips at the end of the line of best play (RULES.md: never
    # searched, for a person's information); None for the other games and limited results
    settlement: Mapping[str, Any] | None = None

    @property
    def one_play(self) -> bool:
        """Whether every legal move is one play: the only legal move, or cards that all
        play the same (`merged`), each the best whatever a limit left of its value."""
        return len(plays((m.move for m in self.moves), self.merged)) == 1

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "to_move": self.to_move,
            "side": self.side,
            "objective": self.objective,
            "value": self.value,
            "moves": [m.to_dict() for m in self.moves],
            "best": list(self.best),
            "points": list(self.points) if self.points is not None else None,
            **({"settlement": dict(self.settlement)} if self.settlement is not None else {}),
            "exact": self.exact,
            "nodes": self.nodes,
            "time_ms": round(self.time_ms, 3),
        }
        if self.limit is not None:
            data["limit"] = self.limit
        if self.estimate_tricks is not None:
            data["estimate_tricks"] = self.estimate_tricks
        if self.estimate_objective is not None:
            data["estimate_objective"] = self.estimate_objective
        return data


@dataclass(frozen=True)
class Hint:
    """The best move(s) of a position and its value."""

    best: tuple[str, ...]
    value: Value | None
    exact: bool
    nodes: int = field(default=0, compare=False)
    time_ms: float = field(default=0.0, compare=False)
    estimate: int | None = None  # nothing solved in time: the suggested move's estimate
    limit: str | None = None  # "time", "nodes" or "cancelled" when a limit stopped the search
    # the objective `estimate` is in, where not the hint's own (`points` for pomme, all_tricks)
    estimate_objective: str | None = None
    estimate_tricks: int | None = None  # how many tricks ahead `estimate` looked (Bésigue: phase-1 tricks)
    # a move named without a value: bounds on its value (proven, as an unsolved move's
    # in a Result: narrow where the limit stopped in its search)
    lower: int | None = None
    upper: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"best": list(self.best), "value": self.value, "exact": self.exact, "nodes": self.nodes,
                                "time_ms": round(self.time_ms, 3)}
        data.update(unknown_value_fields(self.value, self.lower, self.upper, self.estimate, self.estimate_objective,
                                         self.estimate_tricks))
        if self.limit is not None:
            data["limit"] = self.limit
        return data


PositionLike = Position | BesiguePosition | Mapping[str, Any] | str | bytes


def unknown_value_fields(
    value: Value | None, lower: int | None, upper: int | None, estimate: int | None, estimate_objective: str | None,
    estimate_tricks: int | None,
) -> dict[str, Any]:
    """The JSON fields of what a limit left of a value (a hint's, a trump table
    entry's): its bounds where the value is unknown, and each part of an estimate given."""
    data: dict[str, Any] = {}
    if value is None and lower is not None:
        data.update(lower=lower, upper=upper)
    if estimate is not None:
        data["estimate"] = estimate
    if estimate_objective is not None:
        data["estimate_objective"] = estimate_objective
    if estimate_tricks is not None:
        data["estimate_tricks"] = estimate_tricks
    return data


def as_position(position: PositionLike, argument: str = "position") -> AnyPosition:
    """Accept a `Position` or `BesiguePosition`, a FORMAT.md dict, or its JSON text
    (anything else: an error naming `argument`, the caller's name for it)."""
    if isinstance(position, (Position, BesiguePosition)):
        return position.checked()  # one built directly or by dataclasses.replace was never checked
    if isinstance(position, (str, bytes, bytearray)):
        return load_position(parse_json(position))
    if isinstance(position, Mapping):
        return load_position(dict(position))
    raise PositionError(argument, f"expected a Position, a dict or JSON text (str or bytes), got {type(position).__name__}")


_local = threading.local()


def default_tt_megabytes(position: AnyPosition) -> int:
    """The table size when the caller gives none: 8 MB, or 64 MB for a position with
    more than 32 cards still to play."""
    if isinstance(position, BesiguePosition):
        return DEFAULT_TT_MEGABYTES
    cards = sum(len(hand) for hand in position.hands) + len(position.trick)
    return LARGE_DEAL_TT_MEGABYTES if cards > LARGE_DEAL_CARDS else DEFAULT_TT_MEGABYTES


def table_size(tt_megabytes: int | None, default: int) -> int:
    """The table size asked for, checked, or the default when none was."""
    if tt_megabytes is None:
        return default
    return table_megabytes(tt_megabytes)


def check_limits(time_limit: Any, node_limit: Any) -> None:
    """A time limit in seconds above 0 and a node limit of at least 1 node; None: no limit."""
    if time_limit is not None:
        above_zero("time_limit", time_limit, "seconds", " (or None: no limit)")
    if node_limit is not None:
        at_least_one("node_limit", node_limit, "nodes", " (or None: no limit)")
        if node_limit > MOST_NODES:
            raise OptionError("node_limit", f"must be at most {MOST_NODES}, got {shown(node_limit)}")


def require_a_move(pos: AnyPosition, verb: str = "analyse") -> None:
    """A PositionError if the deal of `pos` is over, naming `played` where the position
    was given as a deal and its moves, else `hands`."""
    if pos.is_over:
        field_name = "played" if pos.deal is not None else "hands"
        raise PositionError(field_name, f"the deal is over: there is no move to {verb}")


# the largest value a lever takes: the engine reads them as small counts and switches
LEVER_MOST = 255


def check_engine_options(engine_options: Any) -> dict[str, int] | None:
    """`analyse`'s `engine_options` (levers for measuring, solver.compile), checked:
    None, or a mapping of known lever names to whole numbers from 0 to LEVER_MOST;
    else an OptionError naming `engine_options`."""
    from .compile import ENGINE_OPTIONS

    if engine_options is None:
        return None
    if not isinstance(engine_options, Mapping):
        raise OptionError("engine_options", f"must be a mapping of lever names to numbers, got {type(engine_options).__name__}")
    levers: dict[str, int] = {}
    for name, value in engine_options.items():
        if name not in ENGINE_OPTIONS:
            meant = difflib.get_close_matches(str(name), ENGINE_OPTIONS, n=3)
            known = f"did you mean {' or '.join(meant)}?" if meant else "the levers are solver.compile.ENGINE_OPTIONS"
            raise OptionError("engine_options", f"unknown lever {name!r} ({known})")
        if isinstance(value, bool):
            value = int(value)
        if not isinstance(value, int) or not 0 <= value <= LEVER_MOST:
            raise OptionError("engine_options", f"{name} must be a whole number from 0 to {LEVER_MOST}, got {value!r}")
        if name == "shape_set" and value not in (2, 4):
            raise OptionError("engine_options", f"shape_set must be 2 or 4, got {value}")
        levers[name] = value
    return levers


def check_engine(engine: Any, position: AnyPosition) -> None:
    """An OptionError naming `engine` unless it is None or a `solver.Engine`, or for a
    Bésigue position a `solver.BesigueEngine` (a Bésigue search takes its own engine
    from the thread when given a card-game one, so a caller may pass one engine for a
    deal of any game)."""
    from ._besigue import BesigueEngine
    from ._engine import Engine

    allowed = (Engine, BesigueEngine) if isinstance(position, BesiguePosition) else (Engine,)
    if engine is not None and not isinstance(engine, allowed):
        kind = type(engine).__name__
        raise OptionError("engine", f"must be a solver.Engine (a solver.BesigueEngine for Bésigue), got {kind}")


def engine_for(position: AnyPosition, engine: Any, tt_megabytes: int | None) -> Any:
    """`engine` if the caller gave one, else this thread's engine with a table of
    `tt_megabytes` (checked) or of the position's default size: for Bésigue, the
    thread's `BesigueEngine`, which its search runs on (a card-game one would take
    a table of its own for nothing)."""
    check_engine(engine, position)
    size = table_size(tt_megabytes, default_tt_megabytes(position))  # checked even where unused
    if engine is not None:
        return engine
    if isinstance(position, BesiguePosition):
        from .besigue_solve import besigue_engine

        return besigue_engine(size)
    return _engine(size)


def thread_engine(pos: AnyPosition, tt_megabytes: int | None) -> Any:
    """The engine of this thread that `analyse` searches `pos` on when given none (for
    Bésigue, the thread's `BesigueEngine`): a batch cancels it to stop that search."""
    return engine_for(pos, None, tt_megabytes)


def _engine(tt_megabytes: int) -> Any:
    """This thread's engine with a table of that size (each thread its own: nothing is
    shared between solves)."""
    from ._engine import Engine

    engines: dict[int, Any] | None = getattr(_local, "engines", None)
    if engines is None:
        engines = _local.engines = {}
    engine = engines.pop(tt_megabytes, None)
    if engine is not None:
        engines[tt_megabytes] = engine  # last in the order: the most recently used
    else:
        if len(engines) >= ENGINES_KEPT:
            del engines[next(iter(engines))]  # the size used least recently
        engine = engines[tt_megabytes] = Engine(tt_megabytes)
    return engine


def analyse(
    position: PositionLike,
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    engine: EngineLike = None,
    engine_options: Mapping[str, int] | None = None,
    exact_moves: Iterable[str | Card] | None = None,
    estimates: bool = True,
) -> Result:
    """Value every legal move of `position` exactly (or within the limits given).

    `time_limit` is in seconds, `node_limit` counts search nodes; when either stops
    the search the result has `exact=False` and `limit` says which; `value` and
    `best` are then the best solved moves' (a bound on the position's value), or the
    move the limit stopped in, with the bound it is sure of, where its tests had shown
    it better than those (listed first); and (with
    `estimates`, every move asked for) each move it left unsolved comes with an
    `estimate` beside its bounds: best play over the next tricks, `estimate_tricks`
    of them, what follows guessed (solver/leaf.py; Putz and Bassadewitz: shared
    evenly; Bésigue: `besigue.horizon_guess`); `estimate_unsolved` adds them to a result
    made without them.  Under
    a time limit alone the search stops early enough to leave the estimates a share
    of the time (`ANALYSE_ESTIMATE_SHARE`, at most `ANALYSE_ESTIMATE_TIME`), up to
    `FAVOURITE_TRICKS` ahead; under a node limit they look a trick ahead, past it by
    their nodes (hundreds, a few thousand in a complete deal).  Where the objective's values do not add up they are made in
    the measure it rests on, as a hint's.  `engine` may be
    a `solver.Engine` of your own (its table is kept between calls); otherwise the
    thread's engine with a table of `tt_megabytes` (default: `default_tt_megabytes`).
    `engine_options` switch search levers off for measurement (solver.compile).

    `exact_moves` (legal moves, as "HJ" or `Card`s): value exactly the best moves
    and these, and the other moves only as far as showing them worse than the best
    (a hint's search, in a fraction of a full analysis's time).  Such a move's value
    is None, with `lower`/`upper` bounds, as when a limit stops a search; a move
    that led until a better one came keeps its exact value.  The value and `best`
    are those of a full analysis; `points` follow a line of best play, as there
    (in Putz and Bassadewitz the other seats' points may differ between best
    lines).  Where one value of the objective stands for several of the engine's
    (`all_tricks`, `pomme`, Klaberjass `score`), and in Bésigue, every move is
    valued all the same.
    """
    from .compile import solve

    pos = as_position(position)
    if objective is not None:
        pos = pos.with_objective(objective)
    check_limits(time_limit, node_limit)
    engine_options = check_engine_options(engine_options)
    check_flag("estimates", estimates)
    require_a_move(pos)
    focus = check_exact_moves(pos, exact_moves)
    started = time.perf_counter()
    if isinstance(pos, BesiguePosition):  # its search makes its own estimates
        if engine_options:
            raise OptionError("engine_options", "the Bésigue search has no levers to switch")
        size = table_size(tt_megabytes, DEFAULT_TT_MEGABYTES)
        outcome = _solve_besigue(pos, engine, size, time_limit, node_limit, all_moves=True, started=started)
        if not estimates:
            outcome.estimates = outcome.estimate_tricks = None
    else:
        eng = engine_for(pos, engine, tt_megabytes)
        guessing = estimates and bool(time_limit or node_limit) and exact_moves is None and len(pos.legal_moves()) > 1
        guess_time = time_limit if guessing and not node_limit else None
        search_time = time_limit
        if guess_time:
            search_time = guess_time - min(ANALYSE_ESTIMATE_SHARE * guess_time, ANALYSE_ESTIMATE_TIME)
        outcome = solve(pos, eng, time_limit=time_left(search_time, started), node_limit=node_limit,
                        engine_options=engine_options, exact_moves=focus)
        if guessing and outcome.limit in ("time", "nodes"):
            _estimate_unsolved(pos, outcome, started + guess_time if guess_time else None)
    elapsed = (time.perf_counter() - started) * 1000.0
    return _result(pos, outcome, elapsed)


def check_exact_moves(pos: AnyPosition, moves: Iterable[str | Card] | None) -> list[Any] | None:
    """The legal moves (cards) `analyse`'s `exact_moves` names, None where every move
    is to be valued; an error naming `exact_moves[i]` for one that is not legal."""
    if moves is None:
        return None
    if isinstance(moves, str | bytes | bytearray | Mapping) or not isinstance(moves, Iterable):
        # (a dict's keys, or a string's letters, are no list of moves one meant)
        raise OptionError("exact_moves", f"must be a list of moves, got {shown(moves)}")
    cards = named_moves(pos, moves, "exact_moves")
    if isinstance(pos, BesiguePosition) or has_transform(pos):
        # Bésigue's own search, or several of the engine's values make one of the
        # objective's: every move valued
        return None
    return cards


def named_moves(pos: AnyPosition, tokens: Iterable[Any], field: str, repeat_error: type[PlisError] = OptionError) -> list[Any]:
    """The legal moves of `pos` that `tokens` name ("HJ" or a `Card`; in Bésigue a move
    as `play` reads it, its marks resolved), in order; an error naming `field[i]` for
    a token that names none, or names a move again (`repeat_error`: a slip, likely for
    another move, so not passed over)."""
    legal = set(pos.legal_moves())
    moves: list[Any] = []
    for i, token in enumerate(tokens):
        name = f"{field}[{i}]"
        move: Any
        if isinstance(pos, BesiguePosition):
            move = pos.play(str(token) if isinstance(token, Card) else token, name).played[-1]
        else:
            move = token if isinstance(token, Card) else Card.parse(token, name)
            if move not in pos.rules.deck:  # as a position's cards are checked
                raise CardError(name, f"{move} is not a card of this game")
            if move not in legal:
                shown = " ".join(sorted(str(m) for m in legal))
                raise IllegalMoveError(name, f"{move} is not a legal move here (legal: {shown})")
        if move in moves:
            raise repeat_error(name, f"names {move} twice")
        moves.append(move)
    return moves


# the least time a limited search is given, when setting up the call (a new engine's
# table) took all of the limit: the search then stops at its first look at the clock
LEAST_SEARCH_TIME = 1e-6


class CancelWatch:
    """Whether the engine's `cancel()` was called since the watch began: a call of
    several searches (an analysis of a deal's positions, a hint's estimates before
    its search) then searches no further (a cancel between two searches would
    otherwise be lost, as each search starts afresh)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.start = getattr(engine, "cancels", None)

    def __call__(self) -> bool:
        return self.start is not None and self.engine.cancels != self.start


@overload
def time_left(time_limit: float, started: float) -> float: ...
@overload
def time_left(time_limit: None, started: float) -> None: ...
@overload
def time_left(time_limit: float | None, started: float) -> float | None: ...
def time_left(time_limit: float | None, started: float) -> float | None:
    """What is left of a call's `time_limit` (seconds, None: no limit) for its search,
    the call having started at `started` (time.perf_counter).  The limit bounds the
    whole call: a thread's first call allocates its engine's table first, which on a
    cold machine can take a good part of a short limit."""
    if time_limit is None:
        return None
    return max(time_limit - (time.perf_counter() - started), LEAST_SEARCH_TIME)


def _solve_besigue(
    pos: BesiguePosition,
    engine: Any,
    tt_megabytes: int,
    time_limit: float | None,
    node_limit: int | None,
    all_moves: bool,
    started: float,
) -> Any:
    from ._besigue import BesigueEngine
    from .besigue_solve import besigue_engine, solve_besigue

    check_engine(engine, pos)
    eng = engine if isinstance(engine, BesigueEngine) else besigue_engine(tt_megabytes)
    return solve_besigue(pos, eng, time_limit=time_left(time_limit, started), node_limit=node_limit, all_moves=all_moves)


# a time-limited hint spends at most this share of its time on estimates before its
# search: they stop at FAVOURITE_TRICKS, so it matters only for short limits (three
# tricks take 3.5 ms median in Jass: at 20 ms a fifth cut them short, a mean loss of
# 14.4 points against 10.8 with half, 60 deals; the 32-card games alike or better)
FAVOURITE_SHARE = 0.5
# where every move is valued (`has_transform`), the share of the time kept for
# estimates after a search that solved nothing
ESTIMATE_SHARE = 0.2
# a time-limited hint's estimates look at most this many tricks ahead before the
# search (in Jass 3.5 ms median; 4 tricks take 25 ms, and choose no better)
FAVOURITE_TRICKS = 3
# and at most this many cards: Putz for five's estimates three tricks (15 cards) ahead
# took 0.3 to 2.9 s where two took 10 to 45 ms (and four players' three, 12 cards,
# 3 to 7 ms)
FAVOURITE_CARDS = 12
# a hint under a time limit alone first searches this share of it and at most
# QUICK_NODES nodes (a millisecond or two), without estimates: a position solved so
# soon is answered at once (Putz for five's deals where seat 0 takes nothing: a
# median of 0.8 ms at 0.1 s, not the estimates' half of the limit); where it is not,
# its table entries serve the search after the estimates (60 deals each of Jass,
# Bassadewitz, Putz and Amsterdam at 0.02 to 0.5 s: the same losses, within the
# runs' noise).  QUICK_NODES 0: no short search
QUICK_SHARE = 0.05
QUICK_NODES = 20_000
# a time-limited analysis keeps this share of its time, at most ANALYSE_ESTIMATE_TIME
# seconds, for the estimates of the moves its search leaves unsolved (three tricks
# ahead take 4 to 8 ms median in Jass, a trick ahead well under a millisecond)
ANALYSE_ESTIMATE_SHARE = 0.1
ANALYSE_ESTIMATE_TIME = 0.03
# objectives whose values do not add up (a contract settlement, a yes/no goal) are
# guided by the additive measure they rest on
GUIDE_OBJECTIVES = {"score": "raw", "pomme": "points", "all_tricks": "points"}


def _guide(pos: Position) -> Position:
    """The position whose estimates choose a hint's move: `pos` itself where its
    objective's values add up, else `pos` with the objective `GUIDE_OBJECTIVES` gives."""
    from .compile import SETTLE_ADDITIVE, build_spec

    spec = build_spec(pos)
    if spec["settle"] == SETTLE_ADDITIVE and not spec["plan"] and not has_transform(pos):
        return pos
    return pos.with_objective(GUIDE_OBJECTIVES[pos.objective])


def _into_objective(pos: Position, guide: Position) -> Callable[[int], int] | None:
    """How an estimate of `guide` (`_guide(pos)`) becomes one in `pos`'s objective: as
    it is, or for a settled `score` (Klaverjas's nat, Klaberjass's bate) the `raw`
    difference settled (`compile.settled_guess`); None where it cannot (`pomme`
    and `all_tricks` estimate in `points`, which say more than a yes or no)."""
    from .compile import settled_guess

    if guide is pos:
        return lambda value: value
    if pos.objective == "score":
        return lambda diff: settled_guess(pos, diff)
    return None


def estimate_preference(pos: AnyPosition, objective: str | None, value: int) -> int:
    """How good an estimate `value` is for the analysed side, higher better: in
    `objective` where not the position's own (a guide's); where every trick is the
    goal (`all_tricks`), the most points."""
    if isinstance(pos, BesiguePosition) or pos.objective == "all_tricks":
        return value
    return -value if pos.rules.lowest_is_best and (objective or pos.objective) == "points" else value


def _estimate_unsolved(pos: Position, outcome: Any, deadline: float | None) -> None:
    """Give the moves a limited analysis left unsolved their estimates (`_unsolved_estimates`)."""
    estimates, ranks, searched, depth, guide = _unsolved_estimates(pos, outcome.values, outcome.bounds, deadline)
    outcome.nodes += searched
    if estimates is not None:
        outcome.estimates = estimates
        outcome.estimate_ranks = ranks
        outcome.estimate_tricks = depth
        outcome.estimate_objective = guide


def _unsolved_estimates(
    pos: Position, values: Mapping[Any, Value | None], bounds: Mapping[Any, tuple[int, int]], deadline: float | None
) -> tuple[dict[Any, int | None] | None, dict[Any, int] | None, int, int, str | None]:
    """The estimates of the moves whose `values` are None (`_estimates` of `_guide(pos)`,
    up to `FAVOURITE_TRICKS` ahead until `deadline`), within their `bounds` where in
    the objective's own values; where they were settled, the guide's (by move: it
    tells apart what the settlement makes equal); the nodes searched, how many
    tricks ahead they looked, and the objective they are in where not the position's
    own.  None for the estimates where every move is solved or the objective has none."""
    if all(v is not None for v in values.values()):
        return None, None, 0, 0, None
    guide = _guide(pos)
    found, searched, depth = _estimates(guide, deadline, FAVOURITE_TRICKS)
    if not found:
        return None, None, searched, 0, None
    into = _into_objective(pos, guide)
    estimates: dict[Any, int | None] = {}
    for move, value in values.items():
        guess = found.get(move)
        if value is None and guess is not None:
            lower, upper = bounds[move]
            estimates[move] = max(lower, min(upper, into(int(guess)))) if into else int(guess)
    ranks = None
    if into is not None and guide is not pos:
        ranks = {move: int(guess) for move, guess in found.items() if move in estimates and guess is not None}
    return estimates, ranks, searched, depth, None if into else guide.objective


def estimate_unsolved(position: PositionLike, result: Result, time_limit: float | None = None) -> Result:
    """`result`, a limited analysis of `position` made with `estimates=False` (or whose
    estimates are to be made again), with estimates for the moves it left unsolved, as
    `analyse` gives them: a trick ahead, deeper (up to `FAVOURITE_TRICKS`) within
    `time_limit` seconds.  Their nodes and time are added to the result's.  The result
    as it is where `analyse` makes none: where no limit stopped it (with `exact_moves`
    too: the moves left out are not wanted), where it was cancelled, has one legal
    move or left none unsolved, and in Bésigue, whose estimates only its search makes (`analyse` with
    `estimates`).  A limited result made with `exact_moves` is not one to give them."""
    pos = as_position(position)
    check_limits(time_limit, None)
    if not isinstance(result, Result):
        raise OptionError("result", f"must be a solver.Result, got {type(result).__name__}")
    if result.objective != pos.objective:
        raise OptionError("result", f"is for the objective {result.objective!r}, the position's is {pos.objective!r}")
    if isinstance(pos, BesiguePosition):
        return result
    if result.limit not in ("time", "nodes") or len(result.moves) < 2 or all(m.value is not None for m in result.moves):
        return result  # exact (or with `exact_moves`: the others not wanted), cancelled, a forced move, all solved
    started = time.perf_counter()
    try:
        values = {Card.parse(m.move): m.value for m in result.moves}
    except CardError:
        values = {}
    if set(values) != set(pos.legal_moves()) or len(values) != len(result.moves):
        raise OptionError("result", "is not an analysis of this position: its moves are not the position's legal moves")
    bounds = {card: (int(m.lower or 0), int(m.upper or 0)) for card, m in zip(values, result.moves) if m.value is None}
    deadline = started + time_limit if time_limit else None
    estimates, ranks, searched, depth, guide = _unsolved_estimates(pos, values, bounds, deadline)
    moves = result.moves
    if estimates is not None:
        solved = tuple(m for m in result.moves if m.value is not None)
        unsolved = _unsolved_order(pos, [c for c, v in values.items() if v is None], estimates, guide, ranks)

        def entry(card: Card) -> MoveValue:
            return MoveValue(str(card), None, bounds[card][0], bounds[card][1], estimates.get(card))

        # a move shown better than the solved ones (unsolved, in `best`) stays first
        ahead = tuple(entry(c) for c in unsolved if str(c) in result.best)
        moves = ahead + solved + tuple(entry(c) for c in unsolved if str(c) not in result.best)
    elapsed = (time.perf_counter() - started) * 1000.0
    return replace(
        result, moves=moves, nodes=result.nodes + searched, time_ms=result.time_ms + elapsed,
        estimate_tricks=depth if estimates is not None else result.estimate_tricks,
        estimate_objective=guide if estimates is not None else result.estimate_objective,
    )


def _unsolved_order(
    pos: AnyPosition, moves: Iterable[Any], estimates: Mapping[Any, int | None], guide: str | None,
    ranks: Mapping[Any, int] | None = None,
) -> list[Any]:
    """The unsolved `moves` as a result lists them: the best estimate first; among
    equals the best by `ranks` (a settled score's `raw` estimates, higher better),
    then in canonical order (and after every estimate, those without)."""

    def rank(move: Any) -> tuple[bool, int, int]:
        guess = estimates.get(move)
        if guess is None:
            return (True, 0, 0)
        return (False, -estimate_preference(pos, guide, guess), -(ranks or {}).get(move, 0))

    return sorted(sorted(moves, key=lambda m: move_key(pos, m)), key=rank)


def estimate_engine() -> Any:
    """The calling thread's engine for estimates, made on first use: a 1 MB table of
    its own (estimates are not values).  A caller that cancels a thread's searches
    cancels this one too (the service does)."""
    from ._engine import Engine

    engine = getattr(_local, "estimate_engine", None)
    if engine is None:
        engine = _local.estimate_engine = Engine(1)
    return engine


def release_engines() -> int:
    """Drop the engines the calling thread keeps (the card games' of each table size,
    the estimates' and Bésigue's) and its cached rule specs, and return the megabytes of
    tables let go: their memory goes back to the system once no caller holds them.  A
    thread that outlives its analyses (a long-lived pool's, a server's) calls it to
    keep no tables between them; its next call makes them afresh."""
    from .besigue_solve import release_engine
    from .compile import forget_rules_specs

    engines = [*(_local.__dict__.pop("engines", None) or {}).values(), _local.__dict__.pop("estimate_engine", None)]
    forget_rules_specs()
    return release_engine() + sum(engine.tt_megabytes for engine in engines if engine is not None)


def _estimates(
    pos: Position, deadline: float | None, most_tricks: int | None = None
) -> tuple[dict[Any, Value | None] | None, int, int]:
    """Estimates deepened a trick at a time until `deadline` (the first always, so that
    a move is named; it takes a fraction of a millisecond; None: only the first), and
    `most_tricks` ahead at most: the deepest complete set, None if the objective has
    none, the nodes searched, and how many tricks ahead the set looked."""
    from .compile import estimate_search

    engine = estimate_engine()
    deepest = None
    nodes = depth = 0
    most = min(pos.tricks_left, most_tricks or pos.tricks_left, max(1, FAVOURITE_CARDS // pos.rules.n_players))
    for horizon in range(1, most + 1):
        left = 0.0 if deadline is None else deadline - time.perf_counter()
        if horizon > 1 and left <= 0:
            break
        # the first, a trick ahead, without a limit: it names a move whatever the time
        found, searched = estimate_search(pos, engine, horizon, time_limit=left if horizon > 1 else None)
        nodes += searched
        if found is None:
            return None, nodes, 0
        if any(v is None for v in found.values()):
            break
        deepest, depth = found, horizon
    return deepest, nodes, depth


@dataclass(frozen=True)
class _Favourite:
    """The move the estimates rank first, its estimate, the objective that is in where
    not the position's own, and the nodes the estimates took."""

    move: Any
    estimate: int
    objective: str | None
    nodes: int
    tricks: int  # how many tricks ahead


def favourite_by_estimates(pos: Position, deadline: float | None, most_tricks: int | None = None) -> _Favourite | None:
    """The best move by `_estimates` of `_guide(pos)`; None if there are none."""
    guide = _guide(pos)
    found, searched, depth = _estimates(guide, deadline, most_tricks)
    guesses = [(m, v) for m, v in (found or {}).items() if v is not None]
    if not guesses:
        return None
    objective = None if guide is pos else guide.objective
    # ranked in the guide's values, which tell apart moves a settlement makes equal
    guesses.sort(key=lambda mv: (-estimate_preference(pos, objective, int(mv[1])), move_key(pos, mv[0])))
    move, value = guesses[0]
    into = _into_objective(pos, guide)
    if into is not None:
        return _Favourite(move, into(int(value)), None, searched, depth)
    return _Favourite(move, int(value), objective, searched, depth)


def _guessed(
    favourite: _Favourite | None, nodes: int, limit: str | None, started: float,
    bounds: Mapping[Any, tuple[int, int]] | None = None,
) -> Hint:
    """A limited hint that solved no move: the estimates' favourite, if any, with its
    bounds among `bounds` (by move)."""
    elapsed = (time.perf_counter() - started) * 1000.0
    if favourite is None:
        return Hint((), None, False, nodes, elapsed, limit=limit)
    lower, upper = (bounds or {}).get(favourite.move, (None, None))
    estimate = favourite.estimate
    if favourite.objective is None and lower is not None and upper is not None:
        estimate = max(lower, min(upper, estimate))  # in the hint's own measure: within its bounds
    return Hint((str(favourite.move),), None, False, nodes + favourite.nodes, elapsed, estimate=estimate,
                limit=limit, estimate_objective=favourite.objective, estimate_tricks=favourite.tricks,
                lower=lower, upper=upper)


def _first_points(pos: BesiguePosition, outcome: Any) -> Any:
    """A Bésigue move for a limited hint with no estimates (two talon cards or none: no
    phase-1 trick to look ahead to): the one that scores the most at once."""
    sign = 1 if pos.side == 0 else -1

    def scored_now(move: Any) -> int:
        child = pos.play(move)
        return sign * ((child.scored[0] - child.scored[1]) - (pos.scored[0] - pos.scored[1]))

    return min(outcome.values, key=lambda m: (-scored_now(m), move_key(pos, m)))


def hint(
    position: PositionLike,
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    engine: EngineLike = None,
    estimates: bool = True,
) -> Hint:
    """The best move(s) and the value of `position` (for `objective`, if given: as in
    `analyse`), without valuing the other moves.

    Stopped by a limit, it names the best move solved, with its value (a bound on the
    position's), or a move its tests had shown better than that, with the bound it
    is sure of (`_shown_better`).  With a time or node limit and `estimates`, a
    search that solves no move still names one (unless cancelled): the best by
    estimates (best play over the next tricks, what follows guessed as `analyse`'s
    are), with its `estimate` and `lower`/`upper` bounds on its value (narrow where
    the limit stopped in its search).  Under a time limit alone a short search comes
    first (`QUICK_SHARE` of the time, `QUICK_NODES` nodes at most: a position it
    solves needs no estimates), then the estimates, up to `FAVOURITE_TRICKS` (and
    `FAVOURITE_CARDS`) ahead until half the time at most, and their favourite is
    searched first; under a node limit they look a trick ahead (past the limit by
    their nodes, a few thousand at most in a complete deal), and their favourite is
    searched first too.  Where the objective's values do not add up,
    the estimates are made in the measure it rests on: a settled `score`'s in `raw`,
    then settled (`compile.settled_guess`; the moves ranked by `raw`), `pomme`'s
    and `all_tricks`' in `points` (`estimate_objective`; the most points best);
    where every move is valued (`has_transform`: Klaberjass `score`, `pomme`,
    `all_tricks`) they are made after the search.  Bésigue with two talon cards or
    none names the move that scores the most at once, without an estimate."""
    from .compile import solve

    pos = as_position(position)
    if objective is not None:
        pos = pos.with_objective(objective)
    check_limits(time_limit, node_limit)
    check_flag("estimates", estimates)
    require_a_move(pos, "suggest")
    started = time.perf_counter()
    guessing = estimates and bool(time_limit or node_limit)
    # estimates within a time limit alone, in a share of it; under a node limit only
    # a trick ahead, once the search has solved nothing
    guess_time = time_limit if guessing and not node_limit else None
    if isinstance(pos, BesiguePosition):
        size = table_size(tt_megabytes, DEFAULT_TT_MEGABYTES)
        outcome = _solve_besigue(pos, engine, size, time_limit, node_limit, all_moves=False, started=started)
    elif has_transform(pos):
        # several engine values map to one objective value: value every move
        search_time = guess_time * (1 - ESTIMATE_SHARE) if guess_time else time_limit
        result = analyse(pos, time_limit=time_left(search_time, started), node_limit=node_limit,
                         tt_megabytes=tt_megabytes, engine=engine, estimates=False)
        # (a forced move a limit left unvalued is `best` in the result, but named here
        # as an unsolved move is: with its estimate and bounds)
        named = result.best if result.value is not None or result.exact else ()
        if named or not guessing or result.limit in (None, "cancelled"):
            return Hint(named, result.value, result.exact, result.nodes, result.time_ms, limit=result.limit)
        until = started + guess_time if guess_time else None
        card = {str(c): c for c in pos.legal_moves()}
        bounds = {card[m.move]: (m.lower, m.upper) for m in result.moves if m.lower is not None and m.upper is not None}
        return _guessed(favourite_by_estimates(pos, until), result.nodes, result.limit, started, bounds)
    else:
        eng = engine_for(pos, engine, tt_megabytes)
        cancelled = CancelWatch(eng)  # a cancel() while the estimates run is not the search's
        favourite = None
        quick = None
        quick_nodes = 0  # of a short search that did not solve the position
        if guessing and len(pos.legal_moves()) > 1:
            if guess_time and QUICK_NODES:
                # (within what the limit has left: a thread's first call sets up its table)
                quick_time = min(QUICK_SHARE * guess_time, time_left(guess_time, started))
                quick = solve(pos, eng, time_limit=quick_time, node_limit=QUICK_NODES, all_moves=False)
                if quick.limit not in (None, "cancelled"):
                    quick_nodes, quick = quick.nodes, None  # not solved in its share: its table entries stay
            if quick is None:
                # the estimates first, and their favourite searched first: solved, it is
                # the hint unless a move beats it; if nothing is, it is named.  Under a
                # time limit alone a few tricks ahead in a share of it (on 60 complete
                # Jass deals at 0.1 s, a mean loss of 7 points, not 17); under a node
                # limit a trick ahead only, a few thousand nodes at most (at 200k nodes,
                # 8 points, not 16.5)
                until = started + FAVOURITE_SHARE * guess_time if guess_time else None
                favourite = favourite_by_estimates(pos, until, FAVOURITE_TRICKS)
                if cancelled():
                    return _guessed(None, quick_nodes + (favourite.nodes if favourite else 0), "cancelled", started)
        if quick is not None:
            outcome = quick
        else:
            outcome = solve(pos, eng, time_limit=time_left(time_limit, started), node_limit=node_limit,
                            all_moves=False, first_move=favourite.move if favourite else None)
            outcome.nodes += quick_nodes
            if guessing and outcome.limit in ("time", "nodes") and all(v is None for v in outcome.values.values()):
                return _guessed(favourite or favourite_by_estimates(pos, None), outcome.nodes, outcome.limit, started,
                                outcome.bounds)
        outcome.nodes += favourite.nodes if favourite else 0
    elapsed = (time.perf_counter() - started) * 1000.0
    if outcome.limit is not None:
        # stopped early: the best move found so far, marked as not exact
        solved = [(c, v) for c, v in outcome.values.items() if v is not None]
        solved.sort(key=lambda cv: (-preference(pos, cv[1]), move_key(pos, cv[0])))
        if solved:
            move, value = _shown_better(pos, outcome, solved[0][1]) or solved[0]
            return Hint((str(move),), value, False, outcome.nodes, elapsed, limit=outcome.limit)
        if outcome.estimates and guessing:  # Bésigue's, a phase-1 trick or more ahead
            guesses = [(m, v) for m, v in outcome.estimates.items() if v is not None]
            guesses.sort(key=lambda mv: (-estimate_preference(pos, None, int(mv[1])), move_key(pos, mv[0])))
            lower, upper = outcome.bounds[guesses[0][0]]
            return Hint((str(guesses[0][0]),), None, False, outcome.nodes, elapsed, estimate=guesses[0][1],
                        limit=outcome.limit, estimate_tricks=outcome.estimate_tricks, lower=lower, upper=upper)
        if isinstance(pos, BesiguePosition) and guessing and outcome.limit != "cancelled":
            move = _first_points(pos, outcome)
            lower, upper = outcome.bounds[move]
            return Hint((str(move),), None, False, outcome.nodes, elapsed, limit=outcome.limit, lower=lower, upper=upper)
        return Hint((), None, False, outcome.nodes, elapsed, limit=outcome.limit)
    best = tuple(str(c) for c in sorted(outcome.best_moves or [], key=lambda m: move_key(pos, m)))
    return Hint(best, outcome.value, True, outcome.nodes, elapsed)


def _shown_better(pos: AnyPosition, outcome: Any, value: Value) -> tuple[Any, Value] | None:
    """An unsolved move whose bounds show it better than `value` (the best solved
    move's), with the bound it is sure of (the best such; None if none): the move
    the limit stopped in, once its finished tests had shown that."""
    found: tuple[Any, Value] | None = None
    for move in sorted((m for m, v in outcome.values.items() if v is None), key=lambda m: move_key(pos, m)):
        sure = min(outcome.bounds[move], key=lambda bound: preference(pos, bound))
        if preference(pos, sure) > preference(pos, found[1] if found else value):
            found = (move, sure)
    return found


def position_bounds(pos: AnyPosition, result: Result) -> tuple[int, int]:
    """Bounds (lower, upper) on the value of the position `result` analysed: its best
    move's, so the best of its moves' values and bounds at either end (a limited
    result's `value`, where it has one, is the end its side is sure of)."""
    lows: list[int] = []
    highs: list[int] = []
    for m in result.moves:
        lo, hi = (m.value, m.value) if m.value is not None else (m.lower, m.upper)
        if lo is None or hi is None:
            raise ValueError(f"move {m.move}: unsolved, without bounds")
        lows.append(int(lo))
        highs.append(int(hi))
    pick = min if preference(pos, 0) > preference(pos, 1) else max  # fewer points may be better
    return pick(lows), pick(highs)


def has_transform(pos: AnyPosition) -> bool:
    """Whether the objective is a many-to-one function of what the engine computes."""
    if isinstance(pos, BesiguePosition):
        return False
    return pos.objective in YES_NO_OBJECTIVES or (pos.objective == "score" and pos.rules.name == "klaberjass")


def move_key(pos: AnyPosition, move: Any) -> Any:
    """Canonical order of moves (cards, or Bésigue's cards and declarations)."""
    return pos.move_key(move) if isinstance(pos, BesiguePosition) else move


def preference(position: AnyPosition, value: Value) -> int:
    """A number that is higher the better `value` is for the analysed side."""
    if position.rules.lowest_is_best and position.objective == "points":
        return -int(value)
    return int(value)


def _result(pos: AnyPosition, outcome: Any, elapsed_ms: float) -> Result:
    solved = [(card, v) for card, v in outcome.values.items() if v is not None]
    solved.sort(key=lambda cv: (-preference(pos, cv[1]), move_key(pos, cv[0])))
    moves = [MoveValue(str(c), v) for c, v in solved]
    estimates = outcome.estimates or {}
    guide = outcome.estimate_objective
    unsolved = _unsolved_order(pos, (c for c, v in outcome.values.items() if v is None), estimates, guide,
                               outcome.estimate_ranks)
    exact = outcome.limit is None
    value: Value | None = None
    best: tuple[str, ...] = ()
    if solved:
        # the position's value (limited: the best solved moves', only a bound on it)
        value = solved[0][1]
        best = tuple(str(c) for c, v in solved if v == value)
    shown = _shown_better(pos, outcome, solved[0][1]) if solved and not exact else None
    ahead: list[Any] = []
    if shown is not None:
        # the move the limit stopped in, already shown better than them (and the cards
        # merged with it, the same bounds): the best so far, listed first, the bound it
        # is sure of the value
        ahead = [c for c in unsolved if outcome.bounds[c] == outcome.bounds[shown[0]]]
        value = shown[1]
        best = tuple(str(c) for c in ahead)
    merged = {str(card): str(stand) for card, stand in (outcome.merged or {}).items()}
    if not best and len(plays((str(c) for c in outcome.values), merged)) == 1:  # (every legal move is here)
        # the only legal move, or legal cards that all play the same, are the best whatever a limit left
        best = tuple(str(c) for c in unsolved)

    def unsolved_move(card: Any) -> MoveValue:
        lo, hi = outcome.bounds[card]
        return MoveValue(str(card), None, lo, hi, estimates.get(card))

    moves = [unsolved_move(c) for c in ahead] + moves + [unsolved_move(c) for c in unsolved if c not in ahead]
    points = None
    settlement = None
    line: tuple[str, ...] = ()
    if outcome.line and exact:  # a limited result has no line of best play, whatever
        # an engine gives (one cancelled while it followed the line stopped it there)
        if outcome.line_scores is not None:
            points = tuple(pos.rules.settle(outcome.line_scores, pos.objective))
        else:
            end: Any = pos
            for card in outcome.line:
                end = end.play(card)
            points = tuple(end.final_scores())
        line = tuple(str(c) for c in outcome.line)
        settlement = line_settlement(pos, outcome.line)
    return Result(
        to_move=pos.to_move,
        side=pos.side,
        objective=pos.objective,
        value=value,
        moves=tuple(moves),
        best=best,
        points=points,
        exact=exact,
        nodes=outcome.nodes,
        time_ms=elapsed_ms,
        limit=outcome.limit,
        line=line,
        estimate_tricks=outcome.estimate_tricks,
        estimate_objective=guide,
        merged=merged,
        settlement=settlement,
    )


def plays(moves: Iterable[str], merged: Mapping[str, str]) -> tuple[tuple[str, ...], ...]:
    """`moves` grouped by play, in their order: a card the search merged with an
    equivalent one (`Result.merged`) goes with the card searched for it."""
    found: dict[str, list[str]] = {}
    for move in moves:
        found.setdefault(merged.get(move, move), []).append(move)
    return tuple(tuple(group) for group in found.values())


def line_settlement(pos: AnyPosition, line: Iterable[Any]) -> dict[str, Any] | None:
    """What the game settles at the end of `line` from `pos`, where it settles more than
    its points, never searched (Bassadewitz's chips); None for the other games (whose
    lines, played out for nothing, cost 0.2 ms a result)."""
    if isinstance(pos, BesiguePosition) or not pos.rules.settles:
        return None
    end = pos
    for card in line:
        end = end.play(card)
    return pos.rules.settlement_info(end.final_scores(), end.tricks)
