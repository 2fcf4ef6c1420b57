"""The estimates' leaf (solver/leaf.py): its features by hand, its guess's limits,
and the engine's leaf against the plain one from the start of a deal."""

from __future__ import annotations

import pytest

from solver import Engine, Position
from solver.cards import Card
from solver.compile import estimate
from solver.leaf import FEATURES, features, leaf_weights, rest_guess
from solver.leaf_weights import LEAF_WEIGHTS
from solver.reference import reference_values

from .test_engine import full_deal

# a Jass deal, hearts trumps, only for its rules
JASS = full_deal("jass", 1, trump="H")


def hands(*texts: str) -> list[list[Card]]:
    return [[Card.parse(t) for t in text.split()] for text in texts]


# two tricks left; seats 0 and 2 are side 0
HANDS = hands("HJ SA", "H6 S6", "HA CT", "H9 C6")


def test_features_counted_by_hand() -> None:
    # points: HJ 20 + SA 11 + HA 11 + CT 10 = 52 against H9 14: 38; trumps 2 against 2;
    # trump points 31 against 14; masters: SA and CT (none in diamonds), 11 + 10 points;
    # the highest trump left (the Jack) is side 0's; seat 1 leads; only side 1 has no
    # trick, so only side 0 can still take the match bonus (100)
    found = features(JASS.rules, HANDS, leader=1, side=0, tricks=[7, 0])
    assert dict(zip(FEATURES, found, strict=True)) == {
        "points": 38, "trumps": 0, "trump_points": 17, "masters": 2, "master_points": 21,
        "master_trump": 1, "lead": -1, "sweep": 100,
    }
    assert features(JASS.rules, HANDS, leader=1, side=1, tricks=[7, 0]) == [-f for f in found]
    # once both sides have a trick nobody can sweep
    assert features(JASS.rules, HANDS, leader=1, side=0, tricks=[6, 1])[-1] == 0


def test_features_without_trumps() -> None:
    obenabe = full_deal("jass", 1, trump="obenabe").rules
    found = dict(zip(FEATURES, features(obenabe, HANDS, leader=0, side=0, tricks=[3, 4]), strict=True))
    # obenabe: the Aces highest, eights worth 8; hearts are a plain group
    assert found["trumps"] == found["trump_points"] == found["master_trump"] == 0
    assert found["masters"] == 3  # HA, SA, CT
    assert found["master_points"] == 11 + 11 + 10
    assert found["lead"] == 1


def test_the_guess_stays_within_what_is_left_and_is_the_other_sides_negation() -> None:
    rest = 20 + 11 + 11 + 10 + 14 + 5  # the cards' points and the last trick's bonus
    for tricks in ([7, 0], [3, 4], [0, 7]):
        ours = rest_guess(JASS.rules, HANDS, 1, 0, tricks, rest)
        theirs = rest_guess(JASS.rules, HANDS, 1, 1, tricks, rest)
        assert ours is not None and theirs == -ours
        reach = rest + (100 if 0 in tricks else 0)
        assert -reach <= ours <= reach
    # a guess far beyond what is left is cut to it
    lopsided = hands("HJ HA", "S6 S7", "H9 HK", "C6 C7")
    rest = 20 + 11 + 14 + 4 + 5
    assert rest_guess(JASS.rules, lopsided, 0, 0, [6, 1], rest) == rest


def test_weights_for_two_sides_only() -> None:
    for key, rows in LEAF_WEIGHTS.items():
        game, players, _ = key
        hand_size = 9 if game == "jass" or (game, players) == ("klaberjass", 2) else 8
        assert len(rows) == hand_size  # a row per tricks left, 0 unused
        assert all(len(row) == len(FEATURES) for row in rows)
    assert leaf_weights(JASS.rules) is not None
    assert leaf_weights(full_deal("putz", 1, trump="H").rules) is None  # paranoid: shared evenly
    assert leaf_weights(full_deal("bassadewitz", 1).rules) is None


@pytest.mark.parametrize(
    "position",
    [
        full_deal("jass", 3, trump="S"),
        full_deal("jass", 4, trump="undeufe"),
        full_deal("belote", 5, trump="D"),
        full_deal("klaverjas", 6, trump="C", declarer=1, objective="raw"),
        full_deal("klaberjass", 7, trump="H", taker=0, options={"players": 4}, objective="raw"),
        full_deal("klaberjass", 8, trump="S", taker=1, objective="raw"),
    ],
    ids=["jass", "jass-undeufe", "belote", "klaverjas", "klaberjass4", "klaberjass2"],
)
def test_the_engines_leaf_is_the_plain_one_a_trick_into_a_deal(position: Position) -> None:
    # every leaf a trick in: only one side has a trick, so the sweep counts
    assert leaf_weights(position.rules) is not None
    expected = {str(c): v for c, v in reference_values(position, horizon=1).items()}
    got = estimate(position, Engine(1), 1)
    assert got is not None
    assert {str(c): v for c, v in got.items()} == expected
    assert len(set(expected.values())) > 1  # the leaf tells the cards apart
