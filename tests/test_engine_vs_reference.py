"""The engine against the plain reference search: every value of every legal move.

For each game, enough seeded random positions (1 to 4 tricks left, a trick perhaps
in progress, scores and tricks taken so far) that every option value, trump and
objective is met at least PER_VALUE times.  (Putz's five-player positions of four tricks
take the reference up to 20 s each: about three minutes of one core for Putz's 800.)
"""

from __future__ import annotations

import itertools

import pytest

from solver import Engine, analyse
from solver.reference import reference_values

from .helpers import assert_line_reaches_the_value
from .randompos import CONFIGS, position_count, random_positions

PER_VALUE = 200


PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_engine_matches_reference(game: str, part: int) -> None:
    # each game's positions in PARTS parts (every PARTS-th one), so that the slow games
    # (Putz's reference search takes about three minutes) share out over the cores pytest runs on
    engine = Engine(4)  # one engine for all: its table is reused or reset between positions
    mismatches = []
    count = 0
    for position in itertools.islice(random_positions(game, PER_VALUE, seed=1), part, None, PARTS):
        expected = {str(card): value for card, value in reference_values(position).items()}
        result = analyse(position, engine=engine)
        got = {m.move: m.value for m in result.moves}
        count += 1
        if got != expected or not result.exact:
            mismatches.append((position.to_dict(), expected, got))
    assert count == len(range(part, position_count(game, PER_VALUE), PARTS))
    assert not mismatches, f"{len(mismatches)} of {count} differ; first: {mismatches[0]}"


# The main table is probed only with more than `shape_alone_tricks` (5) tricks left, and
# below `endgame_tricks` (2) a plainer search takes over: with both thresholds at 0 the
# main table's code and the full search run in positions the reference can reach
DEEP_PATHS = {"shape_alone_tricks": 0, "endgame_tricks": 0}


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_the_deep_positions_code_matches_reference(game: str) -> None:
    engine = Engine(4)
    mismatches = []
    count = 0
    for position in random_positions(game, 30, seed=3):
        expected = {str(card): value for card, value in reference_values(position).items()}
        got = {m.move: m.value for m in analyse(position, engine=engine, engine_options=DEEP_PATHS).moves}
        count += 1
        if got != expected:
            mismatches.append((position.to_dict(), expected, got))
    assert count == position_count(game, 30)
    assert not mismatches, f"{len(mismatches)} of {count} differ; first: {mismatches[0]}"


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_best_line_reaches_the_value(game: str) -> None:
    """Playing out the reported line of best play gives the reported value and points."""
    for position in random_positions(game, 15, seed=2):
        result = analyse(position)
        assert_line_reaches_the_value(position, result)
        assert set(result.best) == {m.move for m in result.moves if m.value == result.value}
