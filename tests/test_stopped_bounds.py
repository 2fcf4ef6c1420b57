"""The bounds a limited analysis gives the move its limit stopped in: what the finished
null-window tests of that move's MTD(f) proved, so they must hold the exact value;
moves not yet searched keep the bounds the rules allow (`static_bounds`)."""

from __future__ import annotations

import random

import pytest

from solver import BesigueEngine, BesiguePosition, Engine, Position, analyse
from solver.analysis import position_bounds
from solver.compile import most_roem_to_come, static_bounds, sure_points

from .besigue_random import play_out, random_deal
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
    jack, the highest trump, and wins the trick it plays it in: side 0 cannot take
    every trick, and side 1 takes the jack's 20 points whatever the play, so side 0
    reaches 157 - 20 - 20 = 117 more than side 1 at most (the next trump, C9, is side
    0's: the jack alone is sure).  Jass's score is its raw points, so the bounds lie
    around the lead; Klaverjas's settled score stays symmetric, its pit bonus kept
    while a side can take every trick."""
    clubs = Position.from_dict({"game": "jass", "trump": "C", "hands": JASS_HANDS})
    assert sure_points(clubs) == (1, 20)
    assert static_bounds(clubs) == (-257, 117)
    assert static_bounds(Position.from_dict({"game": "jass", "trump": "C", "hands": JASS_HANDS, "leader": 3})) == (-117, 257)
    # hearts: side 0 holds HJ (seat 0), side 1 the next, H9 (seat 3)
    assert static_bounds(Position.from_dict({"game": "jass", "trump": "H", "hands": JASS_HANDS})) == (-117, 257)
    assert static_bounds(Position.from_dict({"game": "jass", "trump": "obenabe", "hands": JASS_HANDS})) == (-257, 257)
    # the jack already on the trick, put there by seat 3: side 1 wins that trick
    on_trick = Position.from_dict(
        {"game": "jass", "trump": "C", "hands": JASS_HANDS[:3] + ["CK S9 HT H9 H7 DA DT D7"], "trick": ["CJ"], "leader": 3}
    )
    assert on_trick.to_move == 0 and static_bounds(on_trick) == (-257, 117)
    # each side has taken a trick: no match for anyone, around the lead (30 - 34); the
    # only trump left, C8, is worth nothing
    later = Position.from_dict(
        {"game": "jass", "trump": "C", "hands": [" ".join(h.split()[2:]) for h in JASS_HANDS], "scored": [30, 34],
         "tricks": [1, 1]}
    )
    assert sure_points(later) == (1, 0)
    assert static_bounds(later) == (-4 - later.points_to_come, -4 + later.points_to_come)
    # Klaverjas's score (a nat settles it); both sides have tricks, so no pit
    klaverjas = Position.from_dict(
        {"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["HJ H9 S7", "ST S8 CK D8", "H7 SK CQ DA", "HT S9 C8 DK"],
         "trick": ["SA"], "leader": 0, "scored": [45, 16], "tricks": [3, 1]}
    )
    # no rank has its four cards in play, nor hearts their king and queen: roem of a run
    # of four (50) a trick at most
    assert most_roem_to_come(klaverjas) == 4 * 50
    # seat 1 (side 1, defending) to move, 29 behind; 101 points to come, 200 roem at
    # most; side 0 holds the two highest trumps (HJ, H9: 34 points).  Made, side 1
    # ends between 29 + 301 behind and 301 - 2 * 34 - 29 = 204 ahead; nat, it scores
    # both totals: 162 (45 + 16 + 101) to 362 (with all the roem)
    assert klaverjas.points_to_come == 101 and sure_points(klaverjas) == (0, 34)
    assert static_bounds(klaverjas) == (-29 - 301, 45 + 16 + 101 + 200)


def test_the_side_holding_the_highest_trumps_takes_their_points() -> None:
    """Hand-checked (belote, hearts trump, two tricks left): side 0 holds the jack
    (seat 0) and the nine (seat 2), the two highest trumps; each wins the trick it is
    played in (the other, if there too, is side 0's), so their 20 + 14 points are side
    0's whatever the play; the ace (side 1) is not sure: the jack or nine may take it."""
    position = Position.from_dict({"game": "belote", "trump": "H", "hands": ["HJ S7", "HA S8", "H9 C7", "HT C8"],
                                   "scored": [50, 40], "tricks": [3, 3]})
    assert position.points_to_come == 20 + 11 + 14 + 10 + 10  # and the last trick's 10
    assert sure_points(position) == (0, 34)
    lead = 50 - 40
    assert static_bounds(position) == (lead + 34 - (65 - 34), lead + 65)
    replied = position.play("HJ")  # seat 1 to move, side 1: the other side's sure points
    assert static_bounds(replied) == (-lead - 65, -lead - 34 + (65 - 34))
    for move in analyse(position, estimates=False).moves:
        assert move.value is not None and static_bounds(position)[0] <= move.value <= static_bounds(position)[1]
    # Putz, where each seat plays for itself: seat 0's club jack (20) is its own; 46
    # points to come (20 + 11 + 10 and the last trick's 5)
    putz = Position.from_dict({"game": "putz", "options": {"players": 3}, "trump": "C", "objective": "points",
                               "hands": ["CJ S6", "CA S8", "CT D6"], "scored": [40, 30, 60], "tricks": [3, 2, 2]})
    assert (putz.points_to_come, sure_points(putz)) == (46, (0, 20))
    assert static_bounds(putz) == (40 + 20, 40 + 46)
    assert static_bounds(putz.play("S6")) == (30, 30 + 46 - 20)  # seat 1's: never the jack's points
    # CJ led takes CA and CT (41); S6 led lets seat 1 trump it with CA, and seat 0's
    # jack takes only CT and the last trick's 5 at the end (35)
    assert [(m.move, m.value) for m in analyse(putz, estimates=False).moves] == [("CJ", 81), ("S6", 75)]


def test_a_settled_scores_bounds_follow_from_the_totals_difference() -> None:
    """Hand-checked: two tricks left, 80 card points to come, roem of two runs (100)
    at most, side 0 (seat 2) holds both trumps, HJ and HA (31 points), scored 200 to
    10.  Side 0, to move, ends 190 - 180 + 2 * 31 = 72 to 190 + 180 = 370 ahead.
    Declaring, it cannot fail: its score is that difference.  Defending, the declarer
    cannot make it: side 0 scores both totals, 210 + 80 = 290 at least (no more roem)
    and 390 at most.  Klaberjass's score is a function of the difference: with the
    taker's side ahead by 50 (10 to 60), side 0 ends 68 behind (made: each keeps his
    own) to 30 ahead (bate: side 0 scores both totals, 70 + 80 = 150)."""
    hands = ["CJ SJ", "CA SA", "HJ HA", "DJ DA"]
    for declarer, expected in ((0, (72, 370)), (1, (290, 390))):
        position = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": declarer, "hands": hands,
                                       "scored": [200, 10], "tricks": [3, 3]})
        assert (position.points_to_come, most_roem_to_come(position), sure_points(position)) == (80, 100, (0, 31))
        assert static_bounds(position.with_objective("raw")) == (72, 370)
        assert static_bounds(position) == expected
        for move in analyse(position, estimates=False).moves:  # 270 made, 290 nat: within
            assert move.value is not None and expected[0] <= move.value <= expected[1]
    klaberjass = Position.from_dict({"game": "klaberjass", "options": {"players": 4}, "trump": "H", "taker": 1,
                                     "hands": hands, "scored": [10, 60], "tricks": [3, 3]})
    assert static_bounds(klaberjass.with_objective("raw")) == (-68, 30)
    assert static_bounds(klaberjass) == (-68, 150)
    assert [m.value for m in analyse(klaberjass, estimates=False).moves] == [150, 150]


def test_the_roem_still_to_come_is_bounded_by_the_cards_in_play() -> None:
    """Hand-checked (Klaverjas, RULES.md "Roem"): a trick scores one four of a kind
    (jacks 200; aces, tens, kings, queens 100; each rank once, its four cards in play
    one in each seat's hand, as each seat plays one card a trick) or else a run of four
    at most (50); the stuk (trump king and queen, in two hands) once."""
    # a complete deal whose every rank has two cards in one hand (aces: CA HA in seat
    # 1's; tens, kings, queens, jacks: two each in seat 0's): eight runs and the stuk
    deal = full_deal("klaverjas", 1, trump="H", declarer=0)
    assert deal.to_dict()["hands"] == [
        "CK CT C9 SQ SJ HK DQ DT", "CA C7 SK S9 HA HJ H8 D8", "C8 ST S8 S7 HT H9 H7 D9", "CQ CJ SA HQ DA DK DJ D7"]
    assert most_roem_to_come(deal) == 8 * 50 + 20
    # side 0 declares; side 1 holds the trump jack (20 points, and no pit for side 0):
    # nat, side 0 scores nothing and side 1 all, pit included; made, 582 - 40 ahead at most
    assert static_bounds(deal) == (-(162 + 420 + 100), 162 + 420 - 2 * 20)
    # the jacks, aces and tens one in each hand: 200, 100, 100, five runs, the stuk (HK, HQ)
    spread = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": [
        "C8 S8 S7 HT DA DK DJ D7", "CK C9 SA HK HJ H9 H7 DT", "CQ CJ CT SK SQ S9 HA D8", "CA C7 SJ ST HQ H8 DQ D9"]})
    assert most_roem_to_come(spread) == 200 + 100 + 100 + 5 * 50 + 20
    # two tricks left, the four jacks and the four aces one in each hand: 200 and 100,
    # no stuk (no HK, HQ)
    kinds = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["CJ CA", "SJ SA", "HJ HA", "DJ DA"],
                                "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(kinds) == 300
    # the same cards, two jacks in one hand and two aces in another: two runs at most
    paired = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["CJ SJ", "CA SA", "HJ HA", "DJ DA"],
                                 "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(paired) == 100
    # the stuk still possible, the queen already on the trick (played by seat 3)
    stuk = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["CJ CA", "SJ SA", "HK HA", "DJ"],
                               "trick": ["HQ"], "leader": 3, "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(stuk) == 100 + 20
    # the trump king and queen in one hand never fall in one trick: no stuk
    one_hand = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0,
                                   "hands": ["CJ CA", "SJ SA", "HK HQ", "DJ DA"], "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(one_hand) == 2 * 50
    # a card on the trick counts for the seat that played it: the club jack, by seat 3
    played = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["HJ CA", "SJ SA", "DJ HA", "DA"],
                                 "trick": ["CJ"], "leader": 3, "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_to_come(played) == 300
    # the raw objective: around the lead, each side's roem bound by the same; seat 2
    # (side 0) holds the two trumps, HJ and HA: their 31 points are side 0's
    lead = kinds.with_objective("raw")
    assert sure_points(lead) == (0, 31)
    assert static_bounds(lead) == (20 - 80 - 300 + 2 * 31, 20 + 80 + 300)  # no pit: both sides have tricks


def most_roem_by_every_line(position: Position) -> int:
    """The most roem any line of legal play brings from `position` to the end: every
    line tried, not only best play (the pit, which the sweep bonus stands for, left out)."""
    if position.is_over:
        return -1  # unreachable: the caller counts the end's roem itself
    most = 0
    for card in position.legal_moves():
        after = position.play(card)
        if after.is_over:
            card_points = position.points_to_come
            pit = position.rules.sweep_bonus if max(after.tricks) == position.rules.hand_size else 0
            roem = sum(after.scored) - sum(position.scored) - card_points - pit
        else:
            roem = sum(after.scored) - sum(position.scored) - (position.points_to_come - after.points_to_come)
            roem += most_roem_by_every_line(after)
        most = max(most, roem)
    return most


def test_no_line_of_play_brings_more_roem_than_the_bound() -> None:
    """`most_roem_to_come` against every line of play (not only best play) of random
    Klaverjas positions of one to three tricks, each rule set, and of a position
    built for it: the four jacks and the four aces, one of each in every hand, make
    200 and 100 on some line, the bound exactly."""
    kinds = Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": ["CJ CA", "SJ SA", "HJ HA", "DJ DA"],
                                "scored": [60, 40], "tricks": [3, 3]})
    assert most_roem_by_every_line(kinds) == most_roem_to_come(kinds) == 300
    checked = with_roem = 0
    for position in random_positions("klaverjas", 40, seed="roem-lines", max_tricks=3):
        most = most_roem_by_every_line(position)
        assert 0 <= most <= most_roem_to_come(position), position.to_dict()
        checked += 1
        with_roem += most > 0
    assert checked >= 100 and with_roem >= 20


@pytest.mark.parametrize("game", sorted(CONFIGS) + ["besigue"])
def test_a_forced_move_is_the_best_whatever_the_limit(game: str) -> None:
    """The only legal move is the best one, limit or not: a limited analysis names it
    in `best` (it had none: a limit had left its value unknown), with bounds that hold
    the exact value."""
    if game == "besigue":
        rng = random.Random("forced-besigue")
        found = (play_out(rng, random_deal(rng)) for _ in range(6))
        positions = [p for deal in found for p in deal if p.talon == () and len(p.legal_moves()) == 1][:3]
    else:
        positions = [p for p in random_positions(game, 4, seed="forced", max_tricks=6) if len(p.legal_moves()) == 1][:3]
    assert positions
    stopped = 0
    for position in positions:
        exact = analyse(position, engine=fresh_engine(position))
        (move,) = exact.moves
        assert exact.best == (move.move,)
        for limits in ({"node_limit": 1}, {"time_limit": 1e-6}, {"node_limit": 1, "estimates": False}):
            limited = analyse(position, engine=fresh_engine(position), **limits)
            assert limited.best == exact.best and [m.move for m in limited.moves] == [move.move]
            if limited.value is None:
                assert limited.moves[0].lower <= exact.value <= limited.moves[0].upper
                stopped += 1
            else:
                assert limited.value == exact.value
    assert stopped >= 1


def fresh_engine(position):
    """A new engine of the position's kind, its table empty: a limit finds work left."""
    return BesigueEngine(2) if isinstance(position, BesiguePosition) else Engine(2)
