"""Belote contrée card play: RULES.md, "Belote contrée card play".  Trump is hearts."""

from __future__ import annotations

import random

import pytest

from solver.errors import IllegalMoveError

from .helpers import canon, cards, engine_values, legal, make_rules, play, position, random_deal, random_playout, values, winner


@pytest.fixture
def bel():
    return make_rules("belote", "H")


# --- who may play what -----------------------------------------------------------------------------------


def test_follow_suit(bel):
    assert legal(bel, "S7 HJ C8", "SA") == canon("S7")


def test_partner_winning_frees_you(bel):
    # seat 2's partner (seat 0) wins with SA: any card, no need to trump
    assert legal(bel, "H7 C8", "SA S7") == canon("H7 C8")


def test_partner_winning_with_a_trump_lower_trump_allowed(bel):
    # seat 1 leads, seat 2 (seat 0's partner) wins with H9: seat 0 may play anything, HA included
    assert legal(bel, "HA C8", "SA H9 S7", leader=1) == canon("HA C8")


def test_opponent_winning_must_trump(bel):
    assert legal(bel, "H7 HJ C8", "SA") == canon("H7 HJ")  # no trump on the trick: any trump


def test_opponent_winning_must_overtrump(bel):
    assert legal(bel, "HJ HA C8", "SA H9") == canon("HJ")


def test_cannot_beat_the_trump_any_card(bel):
    # "if you cannot beat it, any card": HA (an undertrump) or the club
    assert legal(bel, "HA C8", "SA H9") == canon("HA C8")


def test_opponent_winning_no_trump_any_card(bel):
    assert legal(bel, "C8 D7", "SA") == canon("C8 D7")


def test_trump_lead_overtrump(bel):
    assert legal(bel, "HJ HA S8", "H9") == canon("HJ")
    assert legal(bel, "HA H7 S8", "HJ") == canon("HA H7")  # cannot beat: any trump
    assert legal(bel, "S8 C7", "HJ") == canon("S8 C7")  # no trump: any card


def test_trump_lead_overtrump_partner_too(bel):
    # on a trump lead you must beat the highest trump even when it is your partner's
    assert legal(bel, "HJ HA S8", "H9 H7") == canon("HJ")


# --- trick winner and points ---------------------------------------------------------------------------------


def test_trick_winner(bel):
    assert winner(bel, "SA S7 H7 SK") == 2
    assert winner(bel, "HA H9 HT HK") == 1
    assert winner(bel, "ST SK SA SQ") == 2
    assert winner(bel, "ST SK CA SQ") == 0  # plain A T K Q: the Ten beats the King


def test_points(bel):
    assert [bel.points(c) for c in cards("HJ H9 HA HT HK HQ H8 H7")] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [bel.points(c) for c in cards("SA ST SK SQ SJ S9 S8 S7")] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert sum(bel.points(c) for c in bel.deck) == 152


def test_random_full_deals_162_or_capot_252(bel):
    rng = random.Random(7)
    for _ in range(30):
        end = random_playout(position("belote", trump="H", hands=random_deal(bel, rng)), rng)
        assert sum(end.tricks) == 8
        assert sum(end.scored) == (252 if 8 in end.tricks else 162)


# --- capot and belote ---------------------------------------------------------------------------------------------


def test_capot():
    # team 0 had 7 tricks and 132 card points; its HJ takes the last: 20 + 10 + 90 = 252 in all
    hands = ["HJ", "S7", "S8", "C7"]
    capot = play(position("belote", trump="H", hands=hands, tricks=[7, 0], scored=[132, 0]), "HJ S7 S8 C7")
    assert capot.scored == (252, 0)
    assert capot.value_for(0) == 252
    no_capot = play(position("belote", trump="H", hands=hands, tricks=[6, 1], scored=[132, 0]), "HJ S7 S8 C7")
    assert no_capot.scored == (162, 0)


DEAL = [
    "SA SK SQ SJ HK HQ CA CK",  # seat 0 holds the trump K and Q: belote
    "ST S9 HA HT CQ CJ DA DK",
    "S8 S7 H9 H8 CT C9 DQ DJ",
    "HJ H7 C8 C7 DT D9 D8 D7",
]


def test_belote_from_the_deal():
    assert position("belote", trump="H", deal=DEAL, played=[]).scored == (20, 0)
    assert position("belote", trump="S", deal=DEAL, played=[]).scored == (20, 0)  # SK SQ with seat 0 too
    assert position("belote", trump="D", deal=DEAL, played=[]).scored == (0, 0)  # DK with seat 1, DQ with seat 2
    assert position("belote", trump="H", deal=DEAL, played=[], scored=[0, 7]).scored == (20, 7)


def test_belote_needs_both_cards_in_one_hand_not_one_team():
    # trump hearts: HK with seat 0, HQ with its partner seat 2
    deal = [DEAL[0].replace("HQ", "H8"), DEAL[1], DEAL[2].replace("H8", "HQ"), DEAL[3]]
    assert position("belote", trump="H", deal=deal, played=[]).scored == (0, 0)


def test_belote_for_side_one():
    # seat 3 holds DA DK DQ DJ: the trump K and Q count for team 1
    deal = [DEAL[0], DEAL[1].replace("DA DK", "D9 D8"), DEAL[2].replace("DQ DJ", "DT D7"), "HJ H7 C8 C7 DA DK DQ DJ"]
    assert position("belote", trump="D", deal=deal, played=[]).scored == (0, 20)


def test_belote_not_added_to_a_position_given_by_hands():
    # by hands, `scored` already carries the belote (RULES.md, "Bonuses fixed before play")
    assert position("belote", trump="H", hands=DEAL).scored == (0, 0)


def test_deal_and_played_scores_the_tricks():
    # SA S9 S7, then seat 3, void in spades with the opponent winning, must trump: H7 takes 11
    pos = position("belote", trump="H", deal=DEAL, played=["SA", "S9", "S7", "H7"])
    assert pos.scored == (20, 11) and pos.leader == 3 and pos.tricks == (0, 1)


def test_deal_and_played_rejects_an_illegal_card():
    with pytest.raises(IllegalMoveError) as info:  # seat 3 must trump, not discard C8
        position("belote", trump="H", deal=DEAL, played=["SA", "S9", "S7", "C8"])
    assert info.value.index == 3 and info.value.field == "played[3]"
    with pytest.raises(IllegalMoveError) as info:  # seat 1 holds spades: HA does not follow
        position("belote", trump="H", deal=DEAL, played=["SA", "HA"])
    assert info.value.index == 1 and info.value.field == "played[1]"


# --- the reference search ------------------------------------------------------------------------------------------


def test_reference_capot_needs_the_partner_discard():
    # Team 0 has the first 6 tricks and 117 card points.
    # SA: seat 2, its partner winning, keeps HJ and throws C7; then S7 is trumped by H7 and
    #     overtrumped by HJ: every trick, 117 + 15 + 30 + 90 capot = 252 against 0.
    # S7: SK wins unless seat 2 trumps (it must): HJ takes 24, then its C7 lead is trumped
    #     by H7 (11 + 10): 141 against 21.
    pos = position(
        "belote",
        trump="H",
        hands=["SA S7", "SK H7", "HJ C7", "D7 D8"],
        tricks=[6, 0],
        scored=[117, 0],
    )
    assert values(pos) == {"SA": 252, "S7": 120}
    assert values(pos.with_objective("raw")) == {"SA": 252, "S7": 120}


def test_capot_through_the_engine():
    """Side 0 has taken every trick so far and HJ takes the last: 132 + 20 + 10 for the
    last trick makes 162, and a capot counts 252 (RULES.md)."""
    pos = position("belote", trump="H", hands=["HJ", "S7", "S8", "C7"], tricks=[7, 0], scored=[132, 0])
    assert values(pos) == engine_values(pos) == {"HJ": 252}


def test_an_opponents_trump_that_cannot_be_beaten_frees_the_hand_in_the_search():
    """Audit B.  SA led, seat 1 (an opponent of seat 2) trumped with HJ; seat 2, void
    in spades, holds H7, which cannot beat HJ: "if you cannot beat it, any card".
    C8: HJ takes SA HJ C8 S7, 11 + 20 = 31 for side 1; D7 led, seat 2 (an opponent
    winning, no trump on the trick) must trump with H7: D7 H7 D8 CA, 11 + 10 for the
    last trick = 21 for side 0: (40 + 21) - (50 + 31) = -20.
    H7: HJ still takes 31; D7 C8 D8 CA goes to D8, 21 for side 1: 40 - (50 + 52) = -62."""
    pos = position("belote", trump="H", hands=["CA", "D7", "H7 C8", "S7 D8"], trick=["SA", "HJ"], leader=0,
                   tricks=[3, 3], scored=[40, 50])
    assert values(pos) == engine_values(pos) == {"C8": -20, "H7": -62}
