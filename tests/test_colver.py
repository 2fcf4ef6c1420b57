"""plis against colver (PyPI), a Belote double-dummy solver written apart from plis, in
Rust: every legal card's value, on complete deals and on positions along random play,
and the legal cards at every step of randomly played deals (benchmarks/vs_colver.py
maps the two measures; colver comes with the dev extra)."""

from __future__ import annotations

import io
import random

from benchmarks.deals import deals
from benchmarks.vs_colver import check_rules, colver_env, colver_values, compare, our_values
from solver import Position

from .helpers import needs_colver

pytestmark = needs_colver


def test_complete_deals_get_colvers_value_for_every_first_card() -> None:
    out = io.StringIO()
    assert compare(100, 8, False, out) == 0, out.getvalue()
    assert "deals whose values differ: 0" in out.getvalue()
    assert out.getvalue().count(" ok\n") == 100


def test_positions_along_random_play_get_colvers_values() -> None:
    """Every legal card's value after 1 to 27 cards played at random (a trick under way
    or not, points already taken by both sides), on the thread's 8 MB engine, kept
    through them all."""
    rng = random.Random("colver-midgame")
    compared = 0
    for deal in deals("belote", 200, seed=11):
        played = []
        position = Position.from_dict(deal)
        for _ in range(rng.randint(1, 27)):
            card = rng.choice(position.legal_moves())
            played.append(str(card))
            position = position.play(card)
        ours, _, _ = our_values(position, 8)  # exact, or it raises
        theirs, _ = colver_values(colver_env(deal, played))
        assert ours == theirs, (deal, played)
        compared += len(ours)
    assert compared > 200


def test_legal_cards_and_endgame_values_agree_with_colver_along_random_play() -> None:
    out = io.StringIO()
    assert check_rules(30, 5, out) == 0, out.getvalue()
    assert "30 deals, 960 positions with legal cards compared, 30 values against the reference, 0 differences" in out.getvalue()
