"""plis: exact double-dummy analysis of point-trick card games.

    >>> from solver import analyse
    >>> result = analyse({"game": "belote", "trump": "H", "hands": [...]})
    >>> result.best, result.value

Also `analyse_many` (many positions on every core), `hint`, `analyse_play` (what
each played card cost), `trump_table` (the value of a deal for every trump) and
`verify_puzzle` (does a puzzle's claim hold).
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version
from typing import TYPE_CHECKING, Any

from .analysis import Hint, MoveValue, Result, analyse, as_position, hint
from .batch import analyse_many
from .besigue import BesiguePosition
from .cards import Card
from .errors import (
    CardError,
    DuplicateCardError,
    IllegalMoveError,
    OptionError,
    PlisError,
    PositionError,
    UnknownGameError,
)
from .features import (
    Claim,
    ClaimError,
    PlayAnalysis,
    PlayedCard,
    TrumpEntry,
    TrumpTable,
    Verdict,
    analyse_play,
    trump_table,
    verify_puzzle,
)
from .games import GAMES, Option, Rules, get_game
from .position import AnyPosition, Position, load_position

try:
    __version__ = _version("plis")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "unknown"

__all__ = [
    "GAMES",
    "AnyPosition",
    "BesigueEngine",
    "BesiguePosition",
    "Card",
    "CardError",
    "Claim",
    "ClaimError",
    "DuplicateCardError",
    "Hint",
    "IllegalMoveError",
    "MoveValue",
    "Option",
    "OptionError",
    "PlayAnalysis",
    "PlayedCard",
    "PlisError",
    "Position",
    "PositionError",
    "Result",
    "Rules",
    "TrumpEntry",
    "TrumpTable",
    "UnknownGameError",
    "Verdict",
    "Engine",
    "analyse",
    "analyse_many",
    "analyse_play",
    "as_position",
    "get_game",
    "hint",
    "load_position",
    "trump_table",
    "verify_puzzle",
]


if TYPE_CHECKING:  # their stubs, for type checkers; at run time imported on first use
    from ._besigue import BesigueEngine
    from ._engine import Engine


def __getattr__(name: str) -> Any:
    if name == "Engine":  # the compiled engine, imported on first use
        from ._engine import Engine

        return Engine
    if name == "BesigueEngine":
        from ._besigue import BesigueEngine

        return BesigueEngine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}", name=name)


def __dir__() -> list[str]:  # the compiled classes too, for completion and help()
    return sorted({*globals(), "Engine", "BesigueEngine"})
