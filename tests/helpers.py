"""Short-hand for the rules tests: rules, cards and positions from short strings.

Expectations in the tests are written by hand; these helpers only build inputs and
put outputs into a comparable form (canonical card strings).
"""

from __future__ import annotations

import importlib.util
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from solver.cards import Card, format_cards, parse_cards
from solver.games import Rules, get_game
from solver.position import Position
from solver.reference import reference_values

ROOT = Path(__file__).resolve().parent.parent
needs_git_checkout = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)
needs_colver = pytest.mark.skipif(
    importlib.util.find_spec("colver") is None, reason="colver (in the dev and bench extras) is not installed"
)


def cards(text: str) -> list[Card]:
    return parse_cards(text, "test")


def canon(text: str) -> str:
    """A space-separated card list in canonical order, for comparing sets of cards."""
    return format_cards(cards(text))


def make_rules(game: str, trump: str | None = None, seat: int | None = None, **options: Any) -> Rules:
    """The bound rules of `game` (options checked and defaulted as in a position)."""
    cls = get_game(game)
    return cls(cls.check_options(options), trump, seat)


def legal(rules: Rules, hand: str, trick: str = "", leader: int = 0) -> str:
    """The legal cards of `hand` on `trick`, canonical and space-separated."""
    return format_cards(rules.legal(cards(hand), cards(trick), leader))


def winner(rules: Rules, trick: str) -> int:
    """Index in the trick of the card that wins it."""
    return rules.trick_winner(cards(trick))


def position(game: str, **fields: Any) -> Position:
    return Position.from_dict({"game": game, **fields})


def play(pos: Position, moves: str) -> Position:
    for move in moves.split():
        pos = pos.play(move)
    return pos


def values(pos: Position) -> dict[str, Any]:
    """The reference search's value of every legal move, keyed by card token."""
    return {str(card): value for card, value in reference_values(pos).items()}


def engine_values(pos: Position) -> dict[str, Any]:
    """The engine's value of every legal move, keyed by card token, as `values` gives the reference's."""
    from solver import analyse

    return {m.move: m.value for m in analyse(pos).moves}


def assert_line_reaches_the_value(position: Position, result: Any) -> None:
    """Playing out `result`'s line of best play from `position` ends the deal with
    the result's value for the side to move and its points."""
    end = position
    for move in result.line:
        end = end.play(move)
    assert end.is_over and end.value_for(position.side) == result.value, (position.to_dict(), result.line)
    assert result.points is not None and list(result.points) == end.final_scores(), (position.to_dict(), result.line)


def random_deal(rules: Rules, rng: random.Random) -> list[str]:
    """A random deal of `rules`: every seat gets `hand_size` cards of the game's pack."""
    pack = list(rules.deck)
    rng.shuffle(pack)
    size = rules.hand_size
    return [format_cards(pack[i * size : (i + 1) * size]) for i in range(rules.n_players)]


def random_playout(pos: Position, rng: random.Random) -> Position:
    """Play uniformly random legal cards to the end of the deal."""
    while not pos.is_over:
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos
