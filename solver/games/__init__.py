"""The registry of games: each name maps to its `Rules` class, options and objectives."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import UnknownGameError, meant, shown
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

# other names of the games (RULES.md's headings), for "did you mean"
GAME_ALIASES = {"schieber": "jass", "pomme": "putz", "bezique": "besigue", "belote_contree": "belote"}


def get_game(name: object) -> type[Rules]:
    """The rules class registered under `name`; `UnknownGameError` names the field."""
    if name is None or name == "":  # "": a message's game left unset (the service)
        raise UnknownGameError("game", f"required (one of: {', '.join(sorted(GAMES))})")
    if not isinstance(name, str) or name not in GAMES:
        suggestion = meant(name, sorted(GAMES), GAME_ALIASES)
        raise UnknownGameError("game", f"unknown game {shown(name)} (known: {', '.join(sorted(GAMES))}){suggestion}")
    return GAMES[name]


def game_of(data: Mapping[str, Any]) -> type[Rules]:
    """The rules class of a position's dict.  A puzzle line (`position` and `claim`)
    given where a position is expected gets told where it belongs."""
    if "game" not in data and "position" in data:
        raise UnknownGameError(
            "game", "required: this looks like a puzzle (`position` and `claim`), which `plis verify` reads"
        )
    return get_game(data.get("game"))


__all__ = ["GAMES", "Option", "Rules", "game_of", "get_game"]
