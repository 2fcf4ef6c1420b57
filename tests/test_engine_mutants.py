"""Positions that kill plausible engine bugs the rest of the suite let through.

Each test was found by mutation testing (a small change to solver/_engine.pyx, built in
a scratch copy): with the change the engine's value differs from the reference search's,
and no other test failed.  The docstrings name the change.
"""

from __future__ import annotations

from solver import analyse
from solver.position import Position
from solver.reference import reference_values

from .helpers import assert_line_reaches_the_value

# the main table and the full search in positions small enough for the reference
# (as in test_engine_vs_reference.DEEP_PATHS)
DEEP_PATHS = {"shape_alone_tricks": 0, "endgame_tricks": 0}


def _check(data: dict, expected: dict[str, int]) -> None:
    position = Position.from_dict(data)
    assert {str(card): value for card, value in reference_values(position).items()} == expected
    for options in (DEEP_PATHS, None):
        got = {m.move: m.value for m in analyse(position, engine_options=options).moves}
        assert got == expected, options


def test_a_nat_shape_bound_widens_by_what_this_total_ends_higher() -> None:
    """Kills nat_bounds using `above` for `below` in the declarers' lower bound
    (`lo[0] = e.lower - above`): a position of the same shape whose totals will end
    higher lends its lower bound unwidened, and CQ came out 169, not 189."""
    data = {
        "game": "klaverjas",
        "options": {"rules": "amsterdam", "roem_order": "natural", "nat_on_tie": True},
        "trump": "S",
        "declarer": 2,
        "hands": ["SK H8 H7 D7", "CA S9 DK D8", "CK S8 DQ D9", "CQ CT SA ST"],
        "trick": [],
        "leader": 3,
        "scored": [36, 49],
        "tricks": [0, 4],
        "objective": "score",
    }
    _check(data, {"CQ": 189, "CT": 169, "SA": 289, "ST": 309})


def test_a_run_of_three_at_the_top_of_a_suit_is_not_four_with_the_next_suits_lowest() -> None:
    """Kills roem_of_cards letting a run of four start at place 5 (`run4 = run3 & (x >> 3)
    & 0x3F3F3F3F`, not 0x1F1F1F1F): a run's places are packed 8 bits a suit, so the
    Clubs Q K A (places 5 6 7) and the Spades 7 (the next suit's place 0) made a run of
    four, 50, not a run of three, 20 (CA came out 68, not 38)."""
    data = {
        "game": "klaverjas",
        "options": {"rules": "rotterdam", "roem_order": "natural"},
        "trump": "H",
        "declarer": 0,
        "hands": ["CA", "CK", "CQ", "S7"],
        "trick": [],
        "leader": 0,
        "scored": [40, 50],
        "tricks": [3, 4],
        "objective": "raw",
    }
    _check(data, {"CA": 38})


def test_belote_an_opponent_winning_with_a_trump_too_high_to_beat_frees_the_hand() -> None:
    """Kills legal_moves in belote making a hand that cannot beat the opponents' trump
    play a lower one (`return higher if higher else trumps`, not `hand`): RULES.md lets
    it play any card, and D7 (2) was missing, leaving H7 (-62)."""
    data = {
        "game": "belote",
        "trump": "H",
        "hands": ["S7 S8", "CA", "DA", "H7 D7"],
        "trick": ["C7", "HJ"],
        "leader": 1,
        "scored": [60, 50],
        "tricks": [3, 3],
        "objective": "raw",
    }
    _check(data, {"H7": -62, "D7": 2})


def test_rotterdam_a_hand_that_cannot_follow_must_overtrump() -> None:
    """Kills legal_moves in Rotterdam letting a hand that cannot follow play any trump
    (`higher = trumps`, not `above(trumps, s.top_trump)`): over the H8 on the trick only
    HA is legal, and H7 came in too (in the suite only Klaberjass's pagat rule, which is
    Rotterdam's, caught it, after 90 s of test_engine_vs_reference)."""
    data = {
        "game": "klaverjas",
        "options": {"rules": "rotterdam"},
        "trump": "H",
        "declarer": 0,
        "hands": ["S7", "S8", "H7 HA", "D7 D8"],
        "trick": ["C8", "H8"],
        "leader": 0,
        "scored": [40, 50],
        "tricks": [3, 3],
        "objective": "raw",
    }
    _check(data, {"HA": 11})


def test_the_line_of_best_play_keeps_to_the_value() -> None:
    """Kills principal_line taking a move whose search fails high at the top of the
    window (`lo <= r <= hi`, not `lo <= r < hi`): a coalition card worth one point more
    to the analysed seat than best play came into the line, which then ended at 30,
    not the value 29 (test_engine_vs_reference's line test did not meet such a card)."""
    data = {
        "game": "putz",
        "options": {"players": 5, "buur_exception": False},
        "trump": "H",
        "hands": ["SJ ST D9", "C8 H7 DA", "CT DJ D8", "HA HT", "CK C6 HQ"],
        "trick": ["C7"],
        "leader": 3,
        "scored": [35, 87, 22, 60, 16],
        "tricks": [0, 0, 4, 0, 0],
        "objective": "points",
    }
    _check(data, {"CK": 29, "C6": 29, "HQ": 29})
    position = Position.from_dict(data)
    result = analyse(position)
    assert result.value == 29
    assert_line_reaches_the_value(position, result)


def test_a_tie_with_no_roem_left_is_made() -> None:
    """Kills settle_by_raw_difference calling an exact tie a nat (`r > threshold`, not
    `r >= threshold`): with no roem left to fall, the declarers' raw difference decides,
    and with `nat_on_tie` off a tie is made.  Only a window wider than a null window
    whose low end lies below every nat value reaches that test (made_or_nat takes the
    others): with the default levers no search opens one, but the lever
    `null_window_root` off searches each root move with (-INF, INF).  Then a line after
    SK reaches such a tie; called a nat, SK came out -192, not -172.  (Found by a hunt
    over the totals so far: 2 of 6,150 positions.)"""
    data = {
        "game": "klaverjas",
        "options": {"rules": "rotterdam", "roem_order": "rank", "nat_on_tie": False},
        "trump": "H",
        "declarer": 2,
        "hands": ["C8 SQ DK DQ", "CK CQ CJ D8", "CA C7 SK HJ", "SJ S9 HK H7"],
        "trick": [],
        "leader": 2,
        "scored": [41, 61],
        "tricks": [0, 4],
        "objective": "score",
    }
    expected = {"CA": -172, "C7": 34, "SK": -172, "HJ": 34}
    _check(data, expected)
    for options in ({"null_window_root": 0}, {**DEEP_PATHS, "null_window_root": 0}):
        got = {m.move: m.value for m in analyse(Position.from_dict(data), engine_options=options).moves}
        assert got == expected, options
