"""The bounds a limited analysis gives the move its limit stopped in: what the finished
null-window tests of that move's MTD(f) proved, so they must hold the exact value;
moves not yet searched keep the bounds the rules allow (`static_bounds`)."""

from __future__ import annotations

import pytest

from solver import Engine, analyse
from solver.analysis import position_bounds
from solver.compile import static_bounds

from .randompos import CONFIGS, random_positions

# Klaberjass's random deals are small searches: more of them
PER_VALUE = {"jass": 1, "klaberjass": 8}
SHARES = (0.15, 0.35, 0.55, 0.75)  # of the nodes of the exact analysis


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_a_stopped_moves_bounds_hold_its_exact_value(game: str) -> None:
    """Each game with every option value, trump and objective (step objectives,
    Klaverjas's nat, the paranoid games' own seats), stopped at node limits that fall
    inside one move's MTD(f); with `exact_moves`, beside the bounds of moves shown
    worse.  The position's bounds, the best of its moves', hold its exact value.  A
    fresh table each time, so the limit stops a search that has work left."""
    proved = 0
    for position in random_positions(game, PER_VALUE.get(game, 2), seed="stopped", max_tricks=9, min_tricks=9):
        full = analyse(position, engine=Engine(2), estimates=False)
        exact = {m.move: m.value for m in full.moves}
        static = static_bounds(position)
        worst = [full.moves[-1].move]  # asked for exactly: the others only shown worse
        for limit in (int(full.nodes * share) for share in SHARES):
            for wanted in (None, worst):
                limited = analyse(position, engine=Engine(2), node_limit=limit, estimates=False, exact_moves=wanted)
                narrowed = set()
                for move in limited.moves:
                    if move.value is not None:
                        assert move.value == exact[move.move]
                        continue
                    assert move.lower is not None and move.upper is not None
                    assert move.lower <= exact[move.move] <= move.upper, (position.to_dict(), limit, wanted, move)
                    if (move.lower, move.upper) != static:
                        narrowed.add((move.lower, move.upper))
                # the position's bounds, the best of its moves' (a trump table's entry)
                lower, upper = position_bounds(position, limited)
                assert lower <= full.value <= upper, (position.to_dict(), limit, wanted, lower, upper)
                if limited.value is not None:  # the end the side is sure of
                    assert limited.value in (lower, upper)
                if wanted is None:
                    # every move asked for: only the one the limit stopped in (and the
                    # cards merged with it) can be narrowed
                    assert len(narrowed) <= 1, (position.to_dict(), limit, limited.moves)
                    proved += len(narrowed)
    assert proved  # some limits stopped a move after tests that narrowed it


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_the_static_bounds_hold_every_moves_value(game: str) -> None:
    """The bounds of a move a limit did not reach need no search (`static_bounds`):
    every legal move's exact value lies within them, in every game, option and
    objective, with points already scored; for `raw`, around the lead so far (a
    settled score may hand one side everything, so its bounds stay symmetric)."""
    around_the_lead = 0
    for position in random_positions(game, 4, seed="static", max_tricks=5, min_tricks=2):
        lower, upper = static_bounds(position)
        for move in analyse(position, engine=Engine(2), estimates=False).moves:
            assert move.value is not None and lower <= move.value <= upper, (position.to_dict(), move)
        around_the_lead += lower != -upper
    if "raw" in CONFIGS[game]["objective"]:
        assert around_the_lead
