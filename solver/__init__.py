"""plis: exact double-dummy analysis of point-trick card games.

    >>> from solver import analyse
    >>> result = analyse({"game": "belote", "trump": "H", "hands": [...]})
    >>> result.best, result.value

Also `analyse_many` (many positions on every core), `hint`, `analyse_play` (what
each played card cost), `trump_table` (the value of a deal for every trump) and
`verify_puzzle` (does a puzzle's claim hold).
"""

import importlib
from typing import TYPE_CHECKING, Any

# what `solver` exports, and the module each comes from: imported on first use, so
# that `import solver` (and the `plis` command's start, which can then take a Ctrl-C
# quietly) does not load the engines, NumPy and every game first
_EXPORTS = {
    **dict.fromkeys(("Hint", "MoveValue", "Result", "analyse", "as_position", "hint"), "analysis"),
    "analyse_many": "batch",
    "BesiguePosition": "besigue",
    "Card": "cards",
    **dict.fromkeys(
        ("CardError", "DuplicateCardError", "IllegalMoveError", "OptionError", "PlisError", "PositionError",
         "UnknownGameError"),
        "errors",
    ),  # fmt: skip
    **dict.fromkeys(
        ("Claim", "ClaimError", "PlayAnalysis", "PlayedCard", "TrumpEntry", "TrumpTable", "Verdict", "analyse_play",
         "trump_table", "verify_puzzle"),
        "features",
    ),  # fmt: skip
    **dict.fromkeys(("GAMES", "Option", "Rules", "get_game"), "games"),
    **dict.fromkeys(("AnyPosition", "Position", "load_position"), "position"),
    "Engine": "_engine",  # the compiled engines
    "BesigueEngine": "_besigue",
}

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


if TYPE_CHECKING:  # for type checkers; at run time each is imported on first use
    from ._besigue import BesigueEngine
    from ._engine import Engine
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

    __version__: str


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("plis")
        except PackageNotFoundError:  # run from a source tree that was never installed
            value = "unknown"
    elif name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}", name=name)
    globals()[name] = value  # found once: the next use is a plain lookup
    return value


def __dir__() -> list[str]:  # the exports too, for completion and help()
    return sorted({*globals(), *_EXPORTS, "__version__"})
