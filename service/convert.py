"""Between the protocol messages (service/plis/v1) and the library's dicts and results.

Requests become FORMAT.md dicts, which `Position.from_dict` validates exactly as the
command line does; results come back from the library's dataclasses.  The client
uses the reverse direction, so both ends speak in the library's own types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf import duration_pb2

from solver.analysis import MOST_NODES, Hint, MoveValue, Result, Value, check_exact_moves, check_limits, require_a_move
from solver.batch import check_positions
from solver.besigue import BesiguePosition
from solver.errors import (
    CardError,
    DuplicateCardError,
    IllegalMoveError,
    OptionError,
    PlisError,
    PositionError,
    UnknownGameError,
    json_kind,
    parse_json,
    refuse_unknown_keys,
)
from solver.features import (
    Claim,
    ClaimError,
    PlayAnalysis,
    PlayedCard,
    TrumpEntry,
    TrumpTable,
    Verdict,
    deal_before_play,
)
from solver.position import KNOWN_FIELDS, AnyPosition, Position, load_position

from .plis.v1 import plis_pb2 as pb

ERRORS: dict[str, type[PlisError]] = {
    cls.reason: cls
    for cls in (UnknownGameError, OptionError, CardError, DuplicateCardError, PositionError, IllegalMoveError, ClaimError)
}

# --- positions ---------------------------------------------------------------------

FORMAT_FIELDS = {
    *KNOWN_FIELDS,
    "talon",
    "melded",
    "sevens",
    "exchanged",
    "dealer",
    "to_declare",
}  # FORMAT.md, Bésigue included
_SCALARS = ("trump", "declarer", "taker", "leader", "objective", "exchanged", "dealer", "to_declare")
_LISTS = ("hands", "trick", "scored", "tricks", "deal", "played", "talon", "sevens")


def position_to_dict(message: pb.Position) -> dict[str, Any]:
    """The FORMAT.md dict of a `Position` message: fields left empty are left out."""
    data: dict[str, Any] = {"game": message.game}
    if message.options:
        data["options"] = {name: _option_value(value) for name, value in message.options.items()}
    for name in _SCALARS:
        if message.HasField(name):
            data[name] = getattr(message, name)
    for name in _LISTS:
        values = list(getattr(message, name))
        if values:
            data[name] = values
    if message.melded:
        data["melded"] = [[{"card": m.card, "kinds": list(m.kinds)} for m in seat.cards] for seat in message.melded]
    return data


def _option_value(value: pb.OptionValue) -> Any:
    kind = value.WhichOneof("kind")
    return getattr(value, kind) if kind is not None else None


def position_from_dict(data: Mapping[str, Any]) -> pb.Position:
    """The `Position` message of a FORMAT.md dict.

    Only the shape is checked here (a field the format does not have, a value the
    message cannot carry); the server validates the position itself.
    """
    refuse_unknown_keys(data, FORMAT_FIELDS)
    name = "game"
    try:
        message = pb.Position(game=data.get("game", ""))
        name = "options"
        for option, value in dict(data.get("options") or {}).items():
            message.options[option].CopyFrom(_option_message(value))
        for name in _SCALARS:
            if data.get(name) is not None:
                setattr(message, name, data[name])
        for name in _LISTS:
            values = data.get(name)
            if values is None:
                continue
            if name in ("hands", "deal"):
                values = [v if isinstance(v, str) else " ".join(v) for v in values]
            elif name in ("trick", "played", "talon") and isinstance(values, str):
                values = values.split()
            getattr(message, name).extend(values)
        name = "melded"
        for seat in data.get("melded") or []:
            entry = message.melded.add()
            for melded in seat:
                entry.cards.add(card=melded["card"], kinds=list(melded.get("kinds", [])))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise PositionError(name, f"cannot be sent as given ({type(exc).__name__}: {exc})") from None
    return message


def _option_message(value: Any) -> pb.OptionValue:
    if isinstance(value, bool):
        return pb.OptionValue(flag=value)
    if isinstance(value, int):
        return pb.OptionValue(number=value)
    return pb.OptionValue(text=str(value))


def checked_position(
    position: Position | BesiguePosition | Mapping[str, Any] | str | bytes,
    for_trumps: bool = False,
    objective: str | None = None,
) -> tuple[pb.Position, AnyPosition]:
    """The message of a position the client sends, and the position as the library reads
    it.  The library checks it first, exactly as it checks its own input (as a deal for
    the trump table if `for_trumps`): a message cannot tell an empty list or a null
    from a field left out, so what the library refuses must not be sent.  `objective`,
    if given, replaces the position's (the library's `objective=`)."""
    data = as_position_dict(position)
    if objective is not None:
        data["objective"] = objective
    loaded = deal_before_play(data) if for_trumps else load_position(data)
    return position_from_dict(data), loaded


def in_request(error: PlisError, prefix: str) -> PlisError:
    """`error`, its field named by its path in the request (`position.` + field), as the
    service names it; an error of the whole position (field `position`) stays so."""
    if error.field != prefix.rstrip("."):
        error.field = prefix + error.field
    error.args = (f"{error.field}: {error.message}",)
    return error


def checked_exact_moves(position: AnyPosition, moves: Any) -> None:
    """`check_exact_moves` for a request: its error names the field's path in the
    request (`exact_moves.moves[1]`), as both the client and the server report it."""
    try:
        check_exact_moves(position, moves)
    except PlisError as exc:
        exc.field = exc.field.replace("exact_moves", "exact_moves.moves", 1)
        raise in_request(exc, "") from None


def as_position_dict(position: Position | BesiguePosition | Mapping[str, Any] | str | bytes) -> dict[str, Any]:
    """A FORMAT.md dict from what the library accepts as a position."""
    if isinstance(position, (str, bytes, bytearray)):
        data = parse_json(position)
        if not isinstance(data, dict):
            raise PositionError("position", f"must be a JSON object, got {json_kind(data)}")
        return data
    if isinstance(position, Position | BesiguePosition):
        # one built directly or by dataclasses.replace was never checked: checked first, as
        # the library checks it (its to_dict could crash, or write what the library refuses)
        position = position.checked()
        # a deal + played position keeps that form: play analysis needs it
        return position.to_deal_dict() if position.deal is not None else position.to_dict()
    if not isinstance(position, Mapping):
        raise PositionError(
            "position", f"expected a Position, a dict or JSON text (str or bytes), got {type(position).__name__}"
        )
    return dict(position)


NO_LIMIT_SECONDS = 365 * 24 * 3600.0  # a time limit or timeout this long or longer is none
MOST_DURATION_SECONDS = 315_576_000_000  # google.protobuf.Duration's range: ±10,000 years


def limits_message(time_limit: float | None, node_limit: int | None) -> pb.SearchLimits:
    check_limits(time_limit, node_limit)  # as the library checks them: an OptionError names the limit
    limits = pb.SearchLimits(node_limit=node_limit or 0)
    if time_limit is not None and time_limit < NO_LIMIT_SECONDS:  # longer (infinity too): no limit
        limits.time_limit.CopyFrom(duration(time_limit))
    return limits


def duration(seconds: float) -> duration_pb2.Duration:
    message = duration_pb2.Duration()
    # at least 1 ns: a positive limit below it would come out as 0, which is refused
    message.FromNanoseconds(max(1, int(round(seconds * 1e9))))
    return message


def limits_from_message(limits: pb.SearchLimits) -> tuple[float | None, int | None]:
    """(time_limit in seconds or None, node_limit or None)."""
    time_limit = None
    if limits.HasField("time_limit"):
        seconds, nanos = limits.time_limit.seconds, limits.time_limit.nanos
        # google.protobuf.Duration's own range; outside it the message is not a duration
        if not 0 <= abs(nanos) < 1_000_000_000 or abs(seconds) > MOST_DURATION_SECONDS or seconds * nanos < 0:
            raise OptionError(
                "limits.time_limit",
                f"is not a valid Duration (seconds {seconds}, nanos {nanos}): nanos must be within ±999,999,999 "
                f"and of the seconds' sign, seconds within ±{MOST_DURATION_SECONDS:,}",
            )
        nanos = limits.time_limit.ToNanoseconds()
        if nanos <= 0:
            raise OptionError("limits.time_limit", "must be positive")
        time_limit = nanos / 1e9
    if limits.node_limit < 0:
        raise OptionError("limits.node_limit", "must be positive")
    if limits.node_limit > MOST_NODES:
        raise OptionError("limits.node_limit", f"must be at most {MOST_NODES}, got {limits.node_limit}")
    return time_limit, limits.node_limit or None


# --- values and results ----------------------------------------------------------------


def value_message(value: Value | None) -> pb.Value | None:
    """A value's message; None (the field left unset, as the proto says) for none: an
    empty Value would be a field set without a value, which a client in another
    language may read as present (and its number as 0)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return pb.Value(flag=value)
    return pb.Value(number=int(value))


def value_from(message: pb.Value) -> Value | None:
    kind = message.WhichOneof("kind")
    if kind is None:
        return None
    return bool(message.flag) if kind == "flag" else int(message.number)


def move_message(move: MoveValue) -> pb.MoveValue:
    message = pb.MoveValue(move=move.move, value=value_message(move.value))
    if move.value is None:
        if move.lower is not None:
            message.lower = move.lower
        if move.upper is not None:
            message.upper = move.upper
        if move.estimate is not None:
            message.estimate = move.estimate
    return message


def move_from(message: pb.MoveValue) -> MoveValue:
    value = value_from(message.value)
    if value is None:
        return MoveValue(
            message.move,
            None,
            message.lower if message.HasField("lower") else None,
            message.upper if message.HasField("upper") else None,
            message.estimate if message.HasField("estimate") else None,
        )
    return MoveValue(message.move, value)


def result_message(result: Result) -> pb.Result:
    return pb.Result(
        to_move=result.to_move,
        side=result.side,
        objective=result.objective,
        value=value_message(result.value),
        moves=[move_message(m) for m in result.moves],
        best=list(result.best),
        points=list(result.points or ()),
        exact=result.exact,
        nodes=result.nodes,
        time_ms=result.time_ms,
        limit=result.limit or "",
        line=list(result.line),
        estimate_tricks=result.estimate_tricks,
        estimate_objective=result.estimate_objective or "",
        settlement=pb.Settlement(**result.settlement) if result.settlement is not None else None,
    )


def result_from(message: pb.Result) -> Result:
    return Result(
        to_move=message.to_move,
        side=message.side,
        objective=message.objective,
        value=value_from(message.value),
        moves=tuple(move_from(m) for m in message.moves),
        best=tuple(message.best),
        points=tuple(message.points) if message.points else None,
        exact=message.exact,
        nodes=message.nodes,
        time_ms=message.time_ms,
        limit=message.limit or None,
        line=tuple(message.line),
        estimate_tricks=message.estimate_tricks if message.HasField("estimate_tricks") else None,
        estimate_objective=message.estimate_objective or None,
        settlement=_settlement_from(message) if message.HasField("settlement") else None,
    )


def _settlement_from(message: pb.Result) -> dict[str, Any]:
    given = message.settlement
    return {
        "from_pool": list(given.from_pool), "between_players": list(given.between_players),
        "pool_stays": given.pool_stays,
    }  # fmt: skip


def hint_message(hint: Hint) -> pb.HintResponse:
    return pb.HintResponse(
        best=list(hint.best), value=value_message(hint.value), exact=hint.exact, nodes=hint.nodes, time_ms=hint.time_ms,
        estimate=hint.estimate, limit=hint.limit or "", estimate_objective=hint.estimate_objective or "",
        estimate_tricks=hint.estimate_tricks, lower=hint.lower, upper=hint.upper,
    )


def hint_from(message: pb.HintResponse) -> Hint:
    estimate = message.estimate if message.HasField("estimate") else None
    return Hint(
        tuple(message.best), value_from(message.value), message.exact, message.nodes, message.time_ms,
        estimate=estimate, limit=message.limit or None, estimate_objective=message.estimate_objective or None,
        estimate_tricks=message.estimate_tricks if message.HasField("estimate_tricks") else None,
        lower=_optional_int(message, "lower"), upper=_optional_int(message, "upper"),
    )


def error_message(error: PlisError) -> pb.Error:
    message = pb.Error(reason=error.reason, field=error.field, message=error.message)
    index = getattr(error, "index", None)
    if index is not None:
        message.index = index
    return message


def error_from(message: pb.Error | Mapping[str, str], prefix: str = "") -> PlisError:
    """The library's exception for an error: its class by reason, the field named."""
    if isinstance(message, Mapping):
        reason, field, text = message.get("reason", ""), message.get("field", ""), message.get("message", "")
        index = int(message["index"]) if message.get("index") else None
    else:
        reason, field, text = message.reason, message.field, message.message
        index = message.index if message.HasField("index") else None
    cls = ERRORS.get(reason, PlisError)
    error = IllegalMoveError(prefix + field, text, index) if cls is IllegalMoveError else cls(prefix + field, text)
    error.index = index
    if cls is PlisError:
        error.reason = reason  # a reason this library version does not know
    return error


# --- play analysis, trump table, verdict ------------------------------------------------------


def _optional_int(message: Any, name: str) -> int | None:
    return getattr(message, name) if message.HasField(name) else None


def play_message(analysis: PlayAnalysis) -> pb.AnalysePlayResponse:
    cards = []
    for c in analysis.cards:
        card = pb.PlayedCard(
            index=c.index,
            seat=c.seat,
            side=c.side,
            card=c.card,
            before=value_message(c.before),
            after=value_message(c.after),
            best=list(c.best),
            forced=c.forced,
            exact=c.exact,
            line=list(c.line),
        )
        if c.lost is not None:
            card.lost = c.lost
        if c.lost_at_least is not None:
            card.lost_at_least = c.lost_at_least
        cards.append(card)
    return pb.AnalysePlayResponse(
        objective=analysis.objective,
        cards=cards,
        exact=analysis.exact,
        nodes=analysis.nodes,
        time_ms=analysis.time_ms,
        limit=analysis.limit or "",
    )


def play_from(message: pb.AnalysePlayResponse) -> PlayAnalysis:
    cards = tuple(
        PlayedCard(
            index=c.index,
            seat=c.seat,
            side=c.side,
            card=c.card,
            before=value_from(c.before),
            after=value_from(c.after),
            lost=_optional_int(c, "lost"),
            best=tuple(c.best),
            forced=c.forced,
            exact=c.exact,
            line=tuple(c.line),
            lost_at_least=_optional_int(c, "lost_at_least"),
        )
        for c in message.cards
    )
    return PlayAnalysis(message.objective, cards, message.exact, message.nodes, message.time_ms, message.limit or None)


def trumps_message(table: TrumpTable) -> pb.TrumpTableResponse:
    entries = []
    for e in table.entries:
        entry = pb.TrumpEntry(
            trump=e.trump, value=value_message(e.value), best=list(e.best), points=list(e.points or ()), exact=e.exact,
            lower=e.lower, upper=e.upper, estimate=e.estimate, estimate_objective=e.estimate_objective or "",
            estimate_tricks=e.estimate_tricks,
        )
        if e.declaring_side is not None:
            entry.declaring_side = e.declaring_side
        entries.append(entry)
    return pb.TrumpTableResponse(
        game=table.game,
        objective=table.objective,
        side=table.side,
        entries=entries,
        exact=table.exact,
        nodes=table.nodes,
        time_ms=table.time_ms,
        limit=table.limit or "",
    )


def trumps_from(message: pb.TrumpTableResponse) -> TrumpTable:
    entries = tuple(
        TrumpEntry(
            trump=e.trump,
            declaring_side=_optional_int(e, "declaring_side"),
            value=value_from(e.value),
            best=tuple(e.best),
            points=tuple(e.points) if e.points else None,
            exact=e.exact,
            lower=_optional_int(e, "lower"),
            upper=_optional_int(e, "upper"),
            estimate=_optional_int(e, "estimate"),
            estimate_objective=e.estimate_objective or None,
            estimate_tricks=_optional_int(e, "estimate_tricks"),
        )
        for e in message.entries
    )
    return TrumpTable(
        message.game, message.objective, entries, message.exact, message.nodes, message.time_ms, message.side,
        message.limit or None,
    )


def claim_message(claim: Claim | Mapping[str, Any]) -> pb.Claim:
    checked = Claim.from_dict(claim)  # the library's checks: a ClaimError names the field
    message = pb.Claim(best=list(checked.best))
    claimed = value_message(checked.value)
    if claimed is not None:
        message.value.CopyFrom(claimed)
    if checked.unique is not None:
        message.unique = checked.unique
    if checked.unique_play is not None:
        message.unique_play = checked.unique_play
    return message


def claim_to_dict(message: pb.Claim) -> dict[str, Any]:
    """The claim as the library reads it (`Claim.from_dict` validates it)."""
    data: dict[str, Any] = {}
    if message.best:
        data["best"] = list(message.best)
    value = value_from(message.value)
    if value is not None:
        data["value"] = value
    for name in ("unique", "unique_play"):
        if message.HasField(name):
            data[name] = getattr(message, name)
    return data


def _optional_bool(message: Any, name: str) -> bool | None:
    return getattr(message, name) if message.HasField(name) else None


def verdict_message(verdict: Verdict) -> pb.VerifyPuzzleResponse:
    message = pb.VerifyPuzzleResponse(
        objective=verdict.objective,
        value=value_message(verdict.value),
        best=list(verdict.best),
        missing=list(verdict.missing),
        wrong=list(verdict.wrong),
        claimed=[move_message(m) for m in verdict.claimed],
        exact=verdict.exact,
        nodes=verdict.nodes,
        time_ms=verdict.time_ms,
        limit=verdict.limit or "",
        best_plays=[pb.Play(moves=list(play)) for play in verdict.best_plays],
    )
    for name in ("holds", "best_holds", "value_holds", "unique", "unique_play"):
        flag = getattr(verdict, name)
        if flag is not None:
            setattr(message, name, flag)
    return message


def verdict_from(message: pb.VerifyPuzzleResponse) -> Verdict:
    return Verdict(
        holds=_optional_bool(message, "holds"),
        best_holds=_optional_bool(message, "best_holds"),
        value_holds=_optional_bool(message, "value_holds"),
        unique=_optional_bool(message, "unique"),
        objective=message.objective,
        value=value_from(message.value),
        best=tuple(message.best),
        missing=tuple(message.missing),
        wrong=tuple(message.wrong),
        claimed=tuple(move_from(m) for m in message.claimed),
        exact=message.exact,
        limit=message.limit or None,
        unique_play=_optional_bool(message, "unique_play"),
        best_plays=tuple(tuple(play.moves) for play in message.best_plays),
        nodes=message.nodes,
        time_ms=message.time_ms,
    )


def checked_batch(
    positions: Iterable[Position | BesiguePosition | Mapping[str, Any] | str | bytes],
    objective: str | None = None,
) -> tuple[list[pb.Position], list[int], list[tuple[int, PlisError]]]:
    """The messages of the batch's positions the library accepts, the index in the batch
    of each, and (index, error) for the others: those are answered without being sent,
    as the service would answer them (the batch goes on)."""
    check_positions(positions)  # as solver.analyse_many refuses one position
    messages: list[pb.Position] = []
    sent: list[int] = []
    refused: list[tuple[int, PlisError]] = []
    for index, position in enumerate(positions):
        try:
            message, loaded = checked_position(position, objective=objective)
            require_a_move(loaded)  # as analyse_many refuses it, in its place
        except PlisError as exc:
            refused.append((index, exc))
            continue
        messages.append(message)
        sent.append(index)
    return messages, sent, refused
