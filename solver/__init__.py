"""plis: exact double-dummy analysis of point-trick card games.

    >>> from solver import analyse
    >>> result = analyse({"game": "belote", "trump": "H", "hands": [...]})
    >>> result.best, result.value
"""

from .analysis import Hint, MoveValue, Result, analyse, as_position, hint
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
from .games import GAMES, Option, Rules, get_game
from .position import Position

__all__ = [
    "GAMES",
    "Card",
    "CardError",
    "DuplicateCardError",
    "Hint",
    "IllegalMoveError",
    "MoveValue",
    "Option",
    "OptionError",
    "PlisError",
    "Position",
    "PositionError",
    "Result",
    "Rules",
    "UnknownGameError",
    "Engine",
    "analyse",
    "as_position",
    "get_game",
    "hint",
]


def __getattr__(name: str) -> object:
    if name == "Engine":  # the compiled engine, imported on first use
        from ._engine import Engine

        return Engine
    raise AttributeError(name)
