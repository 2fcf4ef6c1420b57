"""The registry of games: each name maps to its `Rules` class, options and objectives."""

from __future__ import annotations

from ..errors import UnknownGameError
from .base import Option, Rules
from .bassadewitz import Bassadewitz
from .belote import Belote
from .besigue import Besigue
from .jass import Jass, Putz
from .klaberjass import Klaberjass
from .klaverjas import Klaverjas

GAMES: dict[str, type[Rules]] = {
    cls.name: cls for cls in (Bassadewitz, Jass, Putz, Besigue, Klaverjas, Klaberjass, Belote)
}


def get_game(name: object) -> type[Rules]:
    """The rules class registered under `name`; `UnknownGameError` names the field."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError("game", f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})")
    return GAMES[name]


__all__ = ["GAMES", "Option", "Rules", "get_game"]
