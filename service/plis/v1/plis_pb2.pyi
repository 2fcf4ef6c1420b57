import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OptionValue(_message.Message):
    __slots__ = ("text", "number", "flag")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FLAG_FIELD_NUMBER: _ClassVar[int]
    text: str
    number: int
    flag: bool
    def __init__(self, text: _Optional[str] = ..., number: _Optional[int] = ..., flag: _Optional[bool] = ...) -> None: ...

class MeldedCard(_message.Message):
    __slots__ = ("card", "kinds")
    CARD_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    card: str
    kinds: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, card: _Optional[str] = ..., kinds: _Optional[_Iterable[str]] = ...) -> None: ...

class MeldedCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[MeldedCard]
    def __init__(self, cards: _Optional[_Iterable[_Union[MeldedCard, _Mapping]]] = ...) -> None: ...

class Position(_message.Message):
    __slots__ = ("game", "options", "trump", "declarer", "taker", "hands", "trick", "leader", "scored", "tricks", "objective", "deal", "played", "talon", "melded", "sevens", "exchanged", "dealer", "to_declare")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[OptionValue, _Mapping]] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    MELDED_FIELD_NUMBER: _ClassVar[int]
    SEVENS_FIELD_NUMBER: _ClassVar[int]
    EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    TO_DECLARE_FIELD_NUMBER: _ClassVar[int]
    game: str
    options: _containers.MessageMap[str, OptionValue]
    trump: str
    declarer: int
    taker: int
    hands: _containers.RepeatedScalarFieldContainer[str]
    trick: _containers.RepeatedScalarFieldContainer[str]
    leader: int
    scored: _containers.RepeatedScalarFieldContainer[int]
    tricks: _containers.RepeatedScalarFieldContainer[int]
    objective: str
    deal: _containers.RepeatedScalarFieldContainer[str]
    played: _containers.RepeatedScalarFieldContainer[str]
    talon: _containers.RepeatedScalarFieldContainer[str]
    melded: _containers.RepeatedCompositeFieldContainer[MeldedCards]
    sevens: _containers.RepeatedScalarFieldContainer[int]
    exchanged: bool
    dealer: int
    to_declare: int
    def __init__(self, game: _Optional[str] = ..., options: _Optional[_Mapping[str, OptionValue]] = ..., trump: _Optional[str] = ..., declarer: _Optional[int] = ..., taker: _Optional[int] = ..., hands: _Optional[_Iterable[str]] = ..., trick: _Optional[_Iterable[str]] = ..., leader: _Optional[int] = ..., scored: _Optional[_Iterable[int]] = ..., tricks: _Optional[_Iterable[int]] = ..., objective: _Optional[str] = ..., deal: _Optional[_Iterable[str]] = ..., played: _Optional[_Iterable[str]] = ..., talon: _Optional[_Iterable[str]] = ..., melded: _Optional[_Iterable[_Union[MeldedCards, _Mapping]]] = ..., sevens: _Optional[_Iterable[int]] = ..., exchanged: _Optional[bool] = ..., dealer: _Optional[int] = ..., to_declare: _Optional[int] = ...) -> None: ...

class SearchLimits(_message.Message):
    __slots__ = ("time_limit", "node_limit")
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    NODE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    time_limit: _duration_pb2.Duration
    node_limit: int
    def __init__(self, time_limit: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., node_limit: _Optional[int] = ...) -> None: ...

class Value(_message.Message):
    __slots__ = ("number", "flag")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FLAG_FIELD_NUMBER: _ClassVar[int]
    number: int
    flag: bool
    def __init__(self, number: _Optional[int] = ..., flag: _Optional[bool] = ...) -> None: ...

class MoveValue(_message.Message):
    __slots__ = ("move", "value", "lower", "upper", "estimate")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LOWER_FIELD_NUMBER: _ClassVar[int]
    UPPER_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    move: str
    value: Value
    lower: int
    upper: int
    estimate: int
    def __init__(self, move: _Optional[str] = ..., value: _Optional[_Union[Value, _Mapping]] = ..., lower: _Optional[int] = ..., upper: _Optional[int] = ..., estimate: _Optional[int] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ("to_move", "side", "objective", "value", "moves", "best", "points", "exact", "nodes", "time_ms", "limit", "line", "estimate_tricks", "estimate_objective", "settlement")
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_TRICKS_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    to_move: int
    side: int
    objective: str
    value: Value
    moves: _containers.RepeatedCompositeFieldContainer[MoveValue]
    best: _containers.RepeatedScalarFieldContainer[str]
    points: _containers.RepeatedScalarFieldContainer[int]
    exact: bool
    nodes: int
    time_ms: float
    limit: str
    line: _containers.RepeatedScalarFieldContainer[str]
    estimate_tricks: int
    estimate_objective: str
    settlement: Settlement
    def __init__(self, to_move: _Optional[int] = ..., side: _Optional[int] = ..., objective: _Optional[str] = ..., value: _Optional[_Union[Value, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[MoveValue, _Mapping]]] = ..., best: _Optional[_Iterable[str]] = ..., points: _Optional[_Iterable[int]] = ..., exact: _Optional[bool] = ..., nodes: _Optional[int] = ..., time_ms: _Optional[float] = ..., limit: _Optional[str] = ..., line: _Optional[_Iterable[str]] = ..., estimate_tricks: _Optional[int] = ..., estimate_objective: _Optional[str] = ..., settlement: _Optional[_Union[Settlement, _Mapping]] = ...) -> None: ...

class Settlement(_message.Message):
    __slots__ = ("from_pool", "between_players", "pool_stays")
    FROM_POOL_FIELD_NUMBER: _ClassVar[int]
    BETWEEN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    POOL_STAYS_FIELD_NUMBER: _ClassVar[int]
    from_pool: _containers.RepeatedScalarFieldContainer[int]
    between_players: _containers.RepeatedScalarFieldContainer[int]
    pool_stays: bool
    def __init__(self, from_pool: _Optional[_Iterable[int]] = ..., between_players: _Optional[_Iterable[int]] = ..., pool_stays: _Optional[bool] = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ("reason", "field", "message", "index")
    REASON_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    reason: str
    field: str
    message: str
    index: int
    def __init__(self, reason: _Optional[str] = ..., field: _Optional[str] = ..., message: _Optional[str] = ..., index: _Optional[int] = ...) -> None: ...

class AnalyseRequest(_message.Message):
    __slots__ = ("position", "limits", "exact_moves")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    EXACT_MOVES_FIELD_NUMBER: _ClassVar[int]
    position: Position
    limits: SearchLimits
    exact_moves: MoveSelection
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ..., exact_moves: _Optional[_Union[MoveSelection, _Mapping]] = ...) -> None: ...

class MoveSelection(_message.Message):
    __slots__ = ("moves",)
    MOVES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, moves: _Optional[_Iterable[str]] = ...) -> None: ...

class AnalyseResponse(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: Result
    def __init__(self, result: _Optional[_Union[Result, _Mapping]] = ...) -> None: ...

class HintRequest(_message.Message):
    __slots__ = ("position", "limits")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    position: Position
    limits: SearchLimits
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ...) -> None: ...

class HintResponse(_message.Message):
    __slots__ = ("best", "value", "exact", "nodes", "time_ms", "estimate", "limit", "estimate_objective", "estimate_tricks", "lower", "upper")
    BEST_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_TRICKS_FIELD_NUMBER: _ClassVar[int]
    LOWER_FIELD_NUMBER: _ClassVar[int]
    UPPER_FIELD_NUMBER: _ClassVar[int]
    best: _containers.RepeatedScalarFieldContainer[str]
    value: Value
    exact: bool
    nodes: int
    time_ms: float
    estimate: int
    limit: str
    estimate_objective: str
    estimate_tricks: int
    lower: int
    upper: int
    def __init__(self, best: _Optional[_Iterable[str]] = ..., value: _Optional[_Union[Value, _Mapping]] = ..., exact: _Optional[bool] = ..., nodes: _Optional[int] = ..., time_ms: _Optional[float] = ..., estimate: _Optional[int] = ..., limit: _Optional[str] = ..., estimate_objective: _Optional[str] = ..., estimate_tricks: _Optional[int] = ..., lower: _Optional[int] = ..., upper: _Optional[int] = ...) -> None: ...

class AnalyseBatchRequest(_message.Message):
    __slots__ = ("positions", "limits")
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    positions: _containers.RepeatedCompositeFieldContainer[Position]
    limits: SearchLimits
    def __init__(self, positions: _Optional[_Iterable[_Union[Position, _Mapping]]] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ...) -> None: ...

class AnalyseBatchResponse(_message.Message):
    __slots__ = ("index", "result", "error")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    index: int
    result: Result
    error: Error
    def __init__(self, index: _Optional[int] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., error: _Optional[_Union[Error, _Mapping]] = ...) -> None: ...

class AnalysePlayRequest(_message.Message):
    __slots__ = ("position", "limits", "first")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    position: Position
    limits: SearchLimits
    first: int
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ..., first: _Optional[int] = ...) -> None: ...

class PlayedCard(_message.Message):
    __slots__ = ("index", "seat", "side", "card", "before", "after", "lost", "best", "forced", "exact", "line", "lost_at_least")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    LOST_AT_LEAST_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    side: int
    card: str
    before: Value
    after: Value
    lost: int
    best: _containers.RepeatedScalarFieldContainer[str]
    forced: bool
    exact: bool
    line: _containers.RepeatedScalarFieldContainer[str]
    lost_at_least: int
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., side: _Optional[int] = ..., card: _Optional[str] = ..., before: _Optional[_Union[Value, _Mapping]] = ..., after: _Optional[_Union[Value, _Mapping]] = ..., lost: _Optional[int] = ..., best: _Optional[_Iterable[str]] = ..., forced: _Optional[bool] = ..., exact: _Optional[bool] = ..., line: _Optional[_Iterable[str]] = ..., lost_at_least: _Optional[int] = ...) -> None: ...

class AnalysePlayResponse(_message.Message):
    __slots__ = ("objective", "cards", "exact", "nodes", "time_ms", "limit")
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    objective: str
    cards: _containers.RepeatedCompositeFieldContainer[PlayedCard]
    exact: bool
    nodes: int
    time_ms: float
    limit: str
    def __init__(self, objective: _Optional[str] = ..., cards: _Optional[_Iterable[_Union[PlayedCard, _Mapping]]] = ..., exact: _Optional[bool] = ..., nodes: _Optional[int] = ..., time_ms: _Optional[float] = ..., limit: _Optional[str] = ...) -> None: ...

class TrumpTableRequest(_message.Message):
    __slots__ = ("position", "limits")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    position: Position
    limits: SearchLimits
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ...) -> None: ...

class TrumpEntry(_message.Message):
    __slots__ = ("trump", "declaring_side", "value", "best", "points", "exact", "lower", "upper", "estimate", "estimate_objective", "estimate_tricks")
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    DECLARING_SIDE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    LOWER_FIELD_NUMBER: _ClassVar[int]
    UPPER_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_TRICKS_FIELD_NUMBER: _ClassVar[int]
    trump: str
    declaring_side: int
    value: Value
    best: _containers.RepeatedScalarFieldContainer[str]
    points: _containers.RepeatedScalarFieldContainer[int]
    exact: bool
    lower: int
    upper: int
    estimate: int
    estimate_objective: str
    estimate_tricks: int
    def __init__(self, trump: _Optional[str] = ..., declaring_side: _Optional[int] = ..., value: _Optional[_Union[Value, _Mapping]] = ..., best: _Optional[_Iterable[str]] = ..., points: _Optional[_Iterable[int]] = ..., exact: _Optional[bool] = ..., lower: _Optional[int] = ..., upper: _Optional[int] = ..., estimate: _Optional[int] = ..., estimate_objective: _Optional[str] = ..., estimate_tricks: _Optional[int] = ...) -> None: ...

class TrumpTableResponse(_message.Message):
    __slots__ = ("game", "objective", "side", "entries", "exact", "nodes", "time_ms", "limit")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    game: str
    objective: str
    side: int
    entries: _containers.RepeatedCompositeFieldContainer[TrumpEntry]
    exact: bool
    nodes: int
    time_ms: float
    limit: str
    def __init__(self, game: _Optional[str] = ..., objective: _Optional[str] = ..., side: _Optional[int] = ..., entries: _Optional[_Iterable[_Union[TrumpEntry, _Mapping]]] = ..., exact: _Optional[bool] = ..., nodes: _Optional[int] = ..., time_ms: _Optional[float] = ..., limit: _Optional[str] = ...) -> None: ...

class Claim(_message.Message):
    __slots__ = ("best", "value", "unique", "unique_play")
    BEST_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    UNIQUE_FIELD_NUMBER: _ClassVar[int]
    UNIQUE_PLAY_FIELD_NUMBER: _ClassVar[int]
    best: _containers.RepeatedScalarFieldContainer[str]
    value: Value
    unique: bool
    unique_play: bool
    def __init__(self, best: _Optional[_Iterable[str]] = ..., value: _Optional[_Union[Value, _Mapping]] = ..., unique: _Optional[bool] = ..., unique_play: _Optional[bool] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("moves",)
    MOVES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, moves: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyPuzzleRequest(_message.Message):
    __slots__ = ("position", "claim", "limits")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    position: Position
    claim: Claim
    limits: SearchLimits
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., claim: _Optional[_Union[Claim, _Mapping]] = ..., limits: _Optional[_Union[SearchLimits, _Mapping]] = ...) -> None: ...

class VerifyPuzzleResponse(_message.Message):
    __slots__ = ("holds", "best_holds", "value_holds", "unique", "objective", "value", "best", "missing", "wrong", "claimed", "exact", "nodes", "time_ms", "limit", "unique_play", "best_plays")
    HOLDS_FIELD_NUMBER: _ClassVar[int]
    BEST_HOLDS_FIELD_NUMBER: _ClassVar[int]
    VALUE_HOLDS_FIELD_NUMBER: _ClassVar[int]
    UNIQUE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    WRONG_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    UNIQUE_PLAY_FIELD_NUMBER: _ClassVar[int]
    BEST_PLAYS_FIELD_NUMBER: _ClassVar[int]
    holds: bool
    best_holds: bool
    value_holds: bool
    unique: bool
    objective: str
    value: Value
    best: _containers.RepeatedScalarFieldContainer[str]
    missing: _containers.RepeatedScalarFieldContainer[str]
    wrong: _containers.RepeatedScalarFieldContainer[str]
    claimed: _containers.RepeatedCompositeFieldContainer[MoveValue]
    exact: bool
    nodes: int
    time_ms: float
    limit: str
    unique_play: bool
    best_plays: _containers.RepeatedCompositeFieldContainer[Play]
    def __init__(self, holds: _Optional[bool] = ..., best_holds: _Optional[bool] = ..., value_holds: _Optional[bool] = ..., unique: _Optional[bool] = ..., objective: _Optional[str] = ..., value: _Optional[_Union[Value, _Mapping]] = ..., best: _Optional[_Iterable[str]] = ..., missing: _Optional[_Iterable[str]] = ..., wrong: _Optional[_Iterable[str]] = ..., claimed: _Optional[_Iterable[_Union[MoveValue, _Mapping]]] = ..., exact: _Optional[bool] = ..., nodes: _Optional[int] = ..., time_ms: _Optional[float] = ..., limit: _Optional[str] = ..., unique_play: _Optional[bool] = ..., best_plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ...) -> None: ...
