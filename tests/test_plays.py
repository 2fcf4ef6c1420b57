"""Verify's plays: the best moves grouped where cards play the same (README, `plis
verify`).  The groups come from the engine's merge of equivalent cards at the root;
here each merged pair is held to the rule README states, and to the plain reference
search, which never merges: both cards of a pair must be worth the same."""

from __future__ import annotations

import pytest

from solver import Engine, analyse, analyse_play, verify_puzzle
from solver.cards import Card
from solver.reference import reference_values

from .randompos import CONFIGS, random_positions

# seat 3 must follow spades, and holds S9 and S7 only (S8 is out): either loses to CQ
JASS = {"game": "jass", "options": {"match_bonus": 100, "buur_exception": True}, "trump": "C",
        "hands": ["H8 H7 DA D8", "C7 SQ DK DT", "C6 SK HA H9", "S9 S7 HQ HJ DJ"],
        "trick": ["ST", "CQ", "S6"], "leader": 0, "scored": [61, 28], "tricks": [3, 1]}  # fmt: skip


def test_two_cards_that_play_the_same_are_one_best_play() -> None:
    verdict = verify_puzzle(JASS, {"best": ["S7"]})
    assert verdict.holds and verdict.best == ("S9", "S7") and verdict.missing == ("S9",)
    assert (verdict.unique, verdict.unique_play, verdict.best_plays) == (False, True, (("S9", "S7"),))
    assert verify_puzzle(JASS, {"best": ["S7"], "unique_play": True}).holds is True
    assert verify_puzzle(JASS, {"best": ["S7"], "unique": True}).holds is False
    assert verify_puzzle(JASS, {"unique_play": False}).holds is False
    data = verdict.to_dict()
    assert (data["unique_play"], data["best_plays"]) == (True, [["S9", "S7"]])


def test_cards_apart_in_play_are_two_plays() -> None:
    """The same hand with S8 still in play (with seat 1): S9 beats it, S7 does not, so
    they no longer play the same, though here both are best."""
    hands = ["H8 H7 DA D8", "C7 S8 DK DT", "C6 SK HA H9", "S9 S7 HQ HJ DJ"]
    verdict = verify_puzzle({**JASS, "hands": hands}, {"unique_play": True})
    assert verdict.best_plays == (("S9",), ("S7",)) and verdict.unique_play is False and verdict.holds is False


# a deal's second trick: seat 1 must follow S6 with S9 or S7 (S8 is out, no trump)
FOLLOW = {"game": "jass", "trump": "C", "hands": ["CA CK CQ HA HK DA DK", "S9 S7 HQ HJ HT DQ DJ DT",
          "CJ C9 CT SA SK SQ H9 D9", "C8 C7 SJ ST H8 H7 D8 D7"], "trick": ["S6"], "leader": 0,
          "scored": [0, 0], "tricks": [1, 0]}  # fmt: skip


def test_a_limited_verdict_leaves_the_plays_unknown() -> None:
    """Seat 0 leads, with eight cards to choose from: a search stopped at once knows no play."""
    lead = {**FOLLOW, "hands": ["S6 " + FOLLOW["hands"][0], *FOLLOW["hands"][1:]], "trick": []}
    verdict = verify_puzzle(lead, {"unique_play": True}, node_limit=1, engine=Engine(1))
    assert not verdict.exact and (verdict.unique_play, verdict.best_plays, verdict.holds) == (None, (), None)


def test_legal_cards_that_all_play_the_same_are_best_whatever_the_limit() -> None:
    """As a forced move is: S9 and S7, the only legal cards, are one play, so either is
    best and the play unique though the search stopped before valuing them (it had left
    the claim undecided)."""
    verdict = verify_puzzle(FOLLOW, {"best": ["S7"], "unique_play": True}, node_limit=1, engine=Engine(1))
    assert not verdict.exact and verdict.value is None
    assert (verdict.holds, verdict.best_holds, verdict.unique, verdict.unique_play) == (True, True, False, True)
    assert set(verdict.best) == {"S9", "S7"} and len(verdict.best_plays) == 1
    assert verify_puzzle(FOLLOW, {"unique": True}, node_limit=1, engine=Engine(1)).holds is False
    exact = verify_puzzle(FOLLOW, {"best": ["S7"], "unique_play": True})
    assert (exact.holds, exact.unique, exact.unique_play, exact.best_plays) == (True, False, True, (("S9", "S7"),))


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_merged_cards_are_equivalent(game: str) -> None:
    """Each card merged with another at the root: one hand's, the same suit and points
    (any points where tricks alone count),
    no card in play (hands and trick) between the two but those of the same run, and
    the same value by the reference search."""
    engine = Engine(4)
    pairs = 0
    for position in random_positions(game, 150, seed="plays", max_tricks=3, min_tricks=3):
        result = analyse(position, engine=engine)
        if not result.merged:
            continue
        rules = position.rules
        expected = {str(card): value for card, value in reference_values(position).items()}
        in_play = [c for hand in position.hands for c in hand] + list(position.trick)
        for name, stand in result.merged.items():
            card, other = Card.parse(name), Card.parse(stand)
            pairs += 1
            assert other in position.hands[position.to_move] and card in position.hands[position.to_move]
            assert rules.group(card) == rules.group(other)
            # (all_tricks counts tricks, not points: there any two cards so placed are one play)
            assert rules.points(card) == rules.points(other) or position.objective == "all_tricks"
            low, high = sorted((rules.strength(card), rules.strength(other)))
            between = [c for c in in_play if rules.group(c) == rules.group(card) and low < rules.strength(c) < high]
            # a run of three or more: the cards between belong to it too
            assert all(result.merged.get(str(c)) == stand for c in between), (position.to_dict(), name, stand)
            assert expected[name] == expected[stand], (position.to_dict(), name, stand)
    assert pairs >= 5  # (8 to 54 by the game)


def test_bassadewitz_jacks_as_trumps_are_one_group() -> None:
    """README: with Jacks as trumps, CJ and SJ (2 points each, adjacent among the Jacks)
    are one play though of two suits; with Jacks in their suits they are not."""
    hands = ["CJ SJ", "HJ C7", "DJ C8", "S7 S8"]
    position = {"game": "bassadewitz", "hands": hands, "scored": [10, 20, 30, 40], "tricks": [2, 2, 1, 1]}
    verdict = verify_puzzle(position, {"unique_play": True})
    assert (verdict.best_plays, verdict.unique, verdict.holds) == ((("CJ", "SJ"),), False, True)
    plain = verify_puzzle({**position, "options": {"jacks": "plain"}}, {"unique_play": True})
    assert all(len(play) == 1 for play in plain.best_plays)


# seat 1 must follow SQ with S8 or S7, both worth nothing with nothing between them
BELOTE = {"game": "belote", "trump": "D", "deal": [
    "CJ C7 SQ SJ ST S9 HA DA", "CT C8 S8 S7 HQ DQ DT D7", "CA C9 SK HK H9 DK D9 D8", "CK CQ SA HJ HT H8 H7 DJ"]}


def test_legal_cards_that_all_play_the_same_lose_nothing_whatever_the_limit() -> None:
    """As a forced card: an analysis stopped at once still has both as its best moves,
    and a play analysis knows that S7 lost nothing (both had been left unknown)."""
    limited = analyse({**BELOTE, "played": ["SQ"]}, node_limit=1, engine=Engine(1))
    assert not limited.exact and limited.value is None and set(limited.best) == {"S8", "S7"}
    cards = analyse_play({**BELOTE, "played": ["SQ", "S7"]}, node_limit=1, engine=Engine(1)).cards
    assert not cards[1].exact and (cards[1].lost, set(cards[1].best), cards[1].forced) == (0, {"S8", "S7"}, False)
    exact = analyse_play({**BELOTE, "played": ["SQ", "S7"]}).cards[1]
    assert exact.lost == 0 and exact.before == exact.after is not None
