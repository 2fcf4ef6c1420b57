"""The bounds a limited analysis gives the move its limit stopped in: what the finished
null-window tests of that move's MTD(f) proved, so they must hold the exact value;
moves not yet searched keep the bounds the rules allow (`static_bounds`)."""

from __future__ import annotations

import pytest

from solver import Engine, Position, analyse
from solver.analysis import position_bounds
from solver.compile import most_roem_to_come, static_bounds

from .randompos import CONFIGS, random_positions
from .test_engine import full_deal

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


# one deal with the trump jack (the highest trump, Jass's Buur) in a hand of side 1
JASS_HANDS = [
    "C9 C7 C6 SQ S8 HA HK HJ D6",
    "CA CT C8 SA SK H6 DJ D9 D8",
    "CQ SJ ST S7 S6 HQ H8 DK DQ",
    "CK CJ S9 HT H9 H7 DA DT D7",
]


def test_a_side_facing_the_highest_trump_cannot_take_every_trick() -> None:
    """Hand-checked: Jass's 152 card points and 5 for the last trick, 157, and the
    match bonus (100) to a side that takes every trick.  Seat 3 (side 1) holds the club
    jack, the highest trump, and wins the trick it plays it in: side 0 can reach 157
    more at most, side 1 257.  Jass's score is its raw points, so the bounds lie around
    the lead; Klaverjas's settled score stays symmetric, its pit bonus kept while a
    side can take every trick."""
    clubs = Position.from_dict({"game": "jass", "trump": "C", "hands": JASS_HANDS})
    assert static_bounds(clubs) == (-257, 157)
    assert static_bounds(Position.from_dict({"game": "jass", "trump": "C", "hands": JASS_HANDS, "leader": 3})) == (-157, 257)
    assert static_bounds(Position.from_dict({"game": "jass", "trump": "H", "hands": JASS_HANDS})) == (-157, 257)  # HJ
    assert static_bounds(Position.from_dict({"game": "jass", "trump": "obenabe", "hands": JASS_HANDS})) == (-257, 257)
    # the jack already on the trick, put there by seat 3: side 1 wins that trick
    on_trick = Position.from_dict(
        {"game": "jass", "trump": "C", "hands": JASS_HANDS[:3] + ["CK S9 HT H9 H7 DA DT D7"], "trick": ["CJ"], "leader": 3}
    )
    assert on_trick.to_move == 0 and static_bounds(on_trick) == (-257, 157)
    # each side has taken a trick: no match for anyone, around the lead (30 - 34)
    later = Position.from_dict(
        {"game": "jass", "trump": "C", "hands": [" ".join(h.split()[2:]) for h in JASS_HANDS], "scored": [30, 34],
         "tricks": [1, 1]}
    )
    assert static_bounds(later) == (-4 - later.points_to_come, -4 + later.points_to_come)
    # Klaverjas's score (a nat settles it): symmetric; both sides have tricks, so no pit
    klaverjas = Position.from_dict(
        {"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["HJ H9 S7", "ST S8 CK D8", "H7 SK CQ DA", "HT S9 C8 DK"],
         "trick": ["SA"], "leader": 0, "scored": [45, 16], "tricks": [3, 1]}
    )
    # no rank has its four cards in play, nor hearts their king and queen: roem of a run
    # of four (50) a trick at most
    assert most_roem_to_come(klaverjas) == 4 * 50
    total = 45 + 16 + klaverjas.points_to_come + 4 * 50
    assert static_bounds(klaverjas) == (-total, total)


def test_the_roem_still_to_come_is_bounded_by_the_cards_in_play() -> None:
    """Hand-checked (Klaverjas, RULES.md "Roem"): a trick scores one four of a kind
    (jacks 200; aces, tens, kings, queens 100; each rank once, all four cards in
    play) or else a run of four at most (50); the stuk (trump king and queen) once."""
    # a complete deal: every four of a kind in play, five of the eight tricks, three runs, the stuk
    deal = full_deal("klaverjas", 1, trump="H", declarer=0)
    assert most_roem_to_come(deal) == 200 + 4 * 100 + 3 * 50 + 20
    assert static_bounds(deal) == (-(162 + 770 + 100), 162 + 770 + 100)  # with the pit to either side
    # two tricks left, the four jacks and the four aces: 200 and 100, no stuk (no HK, HQ)
    kinds = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["CJ CA", "SJ SA", "HJ HA", "DJ DA"],
                                "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(kinds) == 300
    # three aces and jacks only, the trump king without its queen: two runs
    runs = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["CJ CA", "SJ SA", "HK HA", "DJ DQ"],
                               "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(runs) == 100
    # the stuk still possible, the queen already on the trick
    stuk = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["CJ CA", "SJ SA", "HK HA", "DJ"],
                               "trick": ["HQ"], "leader": 3, "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(stuk) == 100 + 20
    # the raw objective: around the lead, each side's roem bound by the same
    lead = kinds.with_objective("raw")
    assert static_bounds(lead) == (20 - 80 - 300, 20 + 80 + 300)  # no pit: both sides have tricks
