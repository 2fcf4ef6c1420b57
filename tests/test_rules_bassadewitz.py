"""Bassadewitz: RULES.md, "Bassadewitz" (seed 000)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver import analyse
from solver.games.bassadewitz import chips

from .helpers import canon, cards, engine_values, legal, make_rules, play, position, random_deal, random_playout, values, winner


@pytest.fixture
def trumps():
    return make_rules("bassadewitz")  # default jacks=trumps


@pytest.fixture
def plain():
    return make_rules("bassadewitz", jacks="plain")


# --- who may play what ---------------------------------------------------------------------------------


def test_jack_is_not_of_its_suit(trumps):
    # seed 000, trick 2: B's only "heart" is the Jack, which is no heart: void, any card
    assert legal(trumps, "HJ SA S9", "HT") == canon("HJ SA S9")


def test_jack_follows_its_suit_when_plain(plain):
    assert legal(plain, "HJ SA S9", "HT") == canon("HJ")


def test_suit_lead_cannot_be_followed_with_that_suits_jack(trumps):
    # spade led: SJ is not a spade, so S7 must be played
    assert legal(trumps, "SJ H7 S7", "S9") == canon("S7")


def test_suit_lead_plain_jack_is_a_spade(plain):
    assert legal(plain, "SJ H7 S7", "S9") == canon("SJ S7")


def test_jack_lead_asks_for_a_jack(trumps):
    assert legal(trumps, "HJ SA S7", "SJ") == canon("HJ")  # not the spades
    assert legal(trumps, "SA S7 DK", "SJ") == canon("SA S7 DK")  # no Jack: any card


def test_jack_lead_plain_asks_for_its_suit(plain):
    assert legal(plain, "HJ SA S7", "SJ") == canon("SA S7")


def test_no_obligation_to_beat(trumps):
    # "il n'y a aucune obligation de surmonter": any spade, and no need to play the Jack when void
    assert legal(trumps, "SA S7 CJ", "S9") == canon("SA S7")
    assert legal(trumps, "HA CJ", "S9") == canon("HA CJ")


# --- who wins a trick -------------------------------------------------------------------------------------


def test_seed_first_trick(trumps):
    # A leads D10, B D9, C discards an Ace, D a Queen: A takes it, 11 + 10 + 3 = 24
    trick = cards("DT D9 SA CQ")
    assert trumps.trick_winner(trick) == 0
    assert trumps.trick_value(trick, last=False) == 24


def test_seed_second_trick(trumps):
    # A leads H10, B (no heart) plays the HJ, C (no heart) a 9, D tops it with the highest Jack
    trick = cards("HT HJ S9 CJ")
    assert trumps.trick_winner(trick) == 3
    assert trumps.trick_value(trick, last=False) == 10 + 2 + 0 + 2


SEED_DEAL = [
    "DT DA DK DQ D8 D7 H7 H8",  # A: six diamonds
    "D9 HJ H9 HQ HK HT HA C7",  # B: the D9 is its only diamond
    "SA S9 SK ST DJ CT CK C8",  # C: no diamond (its DJ is a Jack)
    "CQ CJ SJ SQ S8 S7 CA C9",  # D: no diamond
]


def test_seed_first_trick_played():
    pos = position("bassadewitz", hands=SEED_DEAL)
    pos = pos.play("DT")
    assert [str(c) for c in pos.legal_moves()] == ["D9"]  # B must follow
    pos = pos.play("D9")
    assert len(pos.legal_moves()) == 8  # C is void in diamonds: any card
    pos = play(pos, "SA CQ")
    assert pos.scored == (24, 0, 0, 0) and pos.tricks == (1, 0, 0, 0) and pos.leader == 0


def test_seed_first_trick_plain_jacks():
    # without Jack trumps C's DJ is a diamond and must be played
    pos = position("bassadewitz", options={"jacks": "plain"}, hands=SEED_DEAL)
    assert [str(c) for c in play(pos, "DT D9").legal_moves()] == ["DJ"]


# After trick 1, the seed's trick 2: A leads H10, B, C and D have no heart (B's only one is its Jack).
SEED_TRICK_2 = {
    "hands": [
        "HA HK HQ HT H9 H8 H7",
        "HJ DA DK DQ D8 D7 C7",
        "S9 SK ST S8 S7 SQ DJ",
        "CJ SJ CA CK CT C9 C8",
    ],
    "tricks": [1, 0, 0, 0],
    "scored": [24, 0, 0, 0],
}


def test_seed_second_trick_played():
    pos = position("bassadewitz", **SEED_TRICK_2).play("HT")
    assert len(pos.legal_moves()) == 7  # B may play its HJ, or anything else
    pos = play(pos, "HJ S9 CJ")
    assert pos.scored == (24, 0, 0, 14) and pos.leader == 3  # D's CJ takes 10 + 2 + 0 + 2


def test_seed_second_trick_plain_jacks():
    pos = position("bassadewitz", options={"jacks": "plain"}, **SEED_TRICK_2).play("HT")
    assert [str(c) for c in pos.legal_moves()] == ["HJ"]  # HJ is a heart: B must follow with it


def test_jack_order(trumps):
    assert winner(trumps, "DJ HJ CJ SJ") == 2  # CJ > SJ > HJ > DJ
    assert winner(trumps, "DJ HJ SA SJ") == 3
    assert winner(trumps, "DJ HJ DA CA") == 1
    assert winner(trumps, "DJ DA HA CA") == 0  # the lowest Jack still beats every Ace


def test_a_jack_wins_any_suit_trick(trumps):
    assert winner(trumps, "SQ SJ S9 S8") == 1  # Jacks above the suits
    assert winner(trumps, "SA DJ ST SK") == 1


def test_suit_order_with_jack_trumps(trumps):
    assert winner(trumps, "SK ST SQ S9") == 1  # A T K Q 9 8 7
    assert winner(trumps, "S7 S8 CA S9") == 3  # off-suit Ace loses
    assert winner(trumps, "S8 S7 H7 D7") == 0  # 8 above 7
    assert winner(trumps, "S9 SQ H7 D7") == 1  # Q above 9
    assert winner(trumps, "SA ST SK SQ") == 0  # A above T


def test_plain_order(plain):
    assert winner(plain, "S8 S7 H7 D7") == 0  # 8 above 7
    assert winner(plain, "S9 SQ H7 D7") == 1  # Q above 9
    assert winner(plain, "S9 SJ S8 S7") == 1  # J above 9
    assert winner(plain, "SQ SJ S9 S8") == 0  # J below Q in A T K Q J 9 8 7
    assert winner(plain, "S9 SJ S8 S7") == 1
    assert winner(plain, "HT HJ S9 CJ") == 0  # seed trick 2 without Jack trumps: the Ten wins
    assert winner(plain, "DJ HJ CJ SJ") == 0  # no Jack group: the led diamond wins


# --- points ---------------------------------------------------------------------------------------------


def test_card_points(trumps):
    assert [trumps.points(c) for c in cards("SA ST SK SQ SJ S9 S8 S7")] == [11, 10, 4, 3, 2, 0, 0, 0]


def test_old_scoring_card_points_and_trick_point():
    old = make_rules("bassadewitz", scoring="old")
    assert [old.points(c) for c in cards("SA ST SK SQ SJ S9 S8 S7")] == [5, 10, 4, 3, 2, 0, 0, 0]
    # seed trick 1 with the Ace at 5 and 1 for the trick
    assert old.trick_value(cards("DT D9 SA CQ"), last=False) == 10 + 0 + 5 + 3 + 1


@pytest.mark.parametrize("jacks", ["trumps", "plain"])
def test_deck_totals(jacks):
    # 4 x (11 + 10 + 4 + 3 + 2) = 120; old: 4 x (5 + 10 + 4 + 3 + 2) + 8 tricks = 104; no last-trick bonus
    standard = make_rules("bassadewitz", jacks=jacks)
    old = make_rules("bassadewitz", jacks=jacks, scoring="old")
    assert sum(standard.points(c) for c in standard.deck) == 120
    assert sum(old.points(c) for c in old.deck) == 96
    assert standard.trick_value(cards("S7 S8 S9 H7"), last=True) == 0
    assert old.trick_value(cards("S7 S8 S9 H7"), last=True) == 1


@pytest.mark.parametrize("scoring, total", [("standard", 120), ("old", 104)])
@pytest.mark.parametrize("jacks", ["trumps", "plain"])
def test_random_full_deals_total(scoring, total, jacks):
    rng = random.Random(scoring + jacks)
    rules = make_rules("bassadewitz", jacks=jacks, scoring=scoring)
    for _ in range(20):
        pos = position("bassadewitz", options={"jacks": jacks, "scoring": scoring}, hands=random_deal(rules, rng))
        end = random_playout(pos, rng)
        assert sum(end.tricks) == 8
        assert sum(end.scored) == total


# --- the reference search -----------------------------------------------------------------------------------


def _endgame(**options):
    return position(
        "bassadewitz",
        options=options,
        hands=["S7 CJ", "S8 HA", "HT DA", "DT SK"],
        tricks=[2, 2, 1, 1],
        scored=[10, 30, 40, 40],
    )


def test_reference_points_lowest_is_best():
    # Seat 0 against a coalition that gives it as many points as it can:
    # CJ: trick 1 is ours; they keep S8 and SK back only if that makes us take trick 2 too:
    #     S8 and SK under the CJ, then S7 wins HA HT DT: all 48 points -> 58.
    # S7: S8 and SK must follow, SK wins; SK's DT lead is won by our CJ with HA and DA: 34 -> 44.
    assert values(_endgame()) == {"CJ": 58, "S7": 44}


def test_reference_points_old_scoring():
    # the same lines with A 5 and 1 a trick: CJ takes 2 tricks and 36 -> 38; S7 takes DT HA HT CJ 27 + 1
    assert values(_endgame(scoring="old")) == {"CJ": 10 + 38, "S7": 10 + 28}


def test_reference_all_tricks():
    # SA: seat 1 has no spade (its SJ is a Jack) and trumps it; CJ: seat 1 must give its SJ, SA wins next
    pos = position(
        "bassadewitz",
        hands=["CJ SA", "SJ HA", "HT DA", "DT SK"],
        tricks=[6, 0, 0, 0],
        objective="all_tricks",
    )
    assert values(pos) == {"CJ": True, "SA": False}


# --- settlement (information only) ----------------------------------------------------------------------------


def test_chips_fewest_points_five_four_three():
    result = chips([60, 10, 20, 30], [3, 1, 2, 2])
    assert result == {"from_pool": [0, 5, 4, 3], "between_players": [0, 0, 0, 0], "pool_stays": False}


def test_chips_ties_by_seat_order():
    assert chips([10, 10, 30, 70], [1, 1, 2, 4])["from_pool"] == [5, 4, 3, 0]
    assert chips([40, 10, 10, 60], [2, 1, 1, 4])["from_pool"] == [3, 5, 4, 0]


def test_chips_all_equal_pool_stays():
    assert chips([30, 30, 30, 30], [2, 2, 2, 2]) == {
        "from_pool": [0, 0, 0, 0],
        "between_players": [0, 0, 0, 0],
        "pool_stays": True,
    }


def test_chips_all_tricks():
    # seat 2 took all 8 tricks (and 120 points, which it does not pay for): 4 from each other seat
    assert chips([0, 0, 120, 0], [0, 0, 8, 0]) == {
        "from_pool": [0, 0, 0, 0],
        "between_players": [-4, -4, 12, -4],
        "pool_stays": True,
    }


def test_chips_hundred_points_pays():
    assert chips([100, 10, 10, 0], [5, 1, 1, 1]) == {
        "from_pool": [0, 0, 0, 0],
        "between_players": [-12, 4, 4, 4],
        "pool_stays": True,
    }


@pytest.mark.parametrize(
    ("scored", "tricks", "settlement"),
    [
        # CA takes the last trick (11): 40 30 40 10; fewest 5 (seat 3), then 4 (seat 1),
        # then seats 0 and 2 tie at 40, seat order first: 3 to seat 0
        ([29, 30, 40, 10], [2, 2, 2, 1], {"from_pool": [3, 4, 0, 5], "between_players": [0, 0, 0, 0],
                                          "pool_stays": False}),
        # seat 0 takes all 8 tricks (120 points, not paid for): 4 from each other seat
        ([109, 0, 0, 0], [7, 0, 0, 0], {"from_pool": [0, 0, 0, 0], "between_players": [12, -4, -4, -4],
                                        "pool_stays": True}),
    ],
)  # fmt: skip
def test_a_result_gives_the_chips_at_the_end_of_its_line(
    scored: list[int], tricks: list[int], settlement: dict[str, Any]
) -> None:
    pos = position("bassadewitz", hands=["CA", "C7", "C8", "C9"], tricks=tricks, scored=scored)
    result = analyse(pos)
    assert result.settlement == settlement and result.to_dict()["settlement"] == settlement
    limited = analyse(pos, node_limit=1)  # stopped before the search: no line, no settlement
    assert not limited.exact and limited.settlement is None
    jass = position("jass", trump="H", hands=["CA", "C7", "C8", "C9"], tricks=[4, 4])
    assert analyse(jass).settlement is None and "settlement" not in analyse(jass).to_dict()


@pytest.mark.parametrize(("jacks", "after_ace"), [("trumps", 35), ("plain", 37)])
def test_a_jack_as_trump_or_as_its_suit_in_the_search(jacks, after_ace):
    """Seat 0 (10 points so far) leads with two tricks left.  CA: with Jacks as trumps
    seat 1 keeps SJ to take the last trick and plays S8, the others give ST and SK: 11 +
    10 + 4 = 25, 35 in all.  With plain Jacks SJ is a spade, worth nothing more to keep:
    it goes onto CA too, 11 + 2 + 10 + 4, 37.  S7 takes no trick either way: 10."""
    pos = position("bassadewitz", options={"jacks": jacks}, hands=["S7 CA", "SJ S8", "ST D7", "SK D8"],
                   tricks=[1, 2, 2, 1], scored=[10, 20, 30, 40])
    assert values(pos) == engine_values(pos) == {"S7": 10, "CA": after_ace}


@pytest.mark.parametrize(
    ("jacks", "scoring", "expected"),
    [
        ("trumps", "standard", {"SA": 25, "S7": 10}),
        ("plain", "standard", {"SA": 27, "S7": 23}),
        ("trumps", "old", {"SA": 20, "S7": 10}),
        ("plain", "old", {"SA": 22, "S7": 18}),
    ],
)
def test_second_hand_against_a_coalition_that_keeps_its_jack(jacks: str, scoring: str, expected: dict[str, int]) -> None:
    """Seat 0 has led S9; seat 1 (10 points, to move) holds SA S7, seat 2 SK S8, seat 3 DJ H8,
    seat 0 C7.  By hand, the other three giving seat 1 all they can:
    Jacks as trumps.  SA: seat 2 gives SK, seat 3 keeps DJ (played now it would take the
    trick): 11 + 4 = 15, 25; S7 then loses to seat 2's spade.  S7: seat 1 takes no trick
    whatever they do: SK (or S8, and seat 0's S9 takes it and leads C7) leaves the DJ to
    take the last trick with SA in it, and the DJ played now takes this one and leads H8:
    10.  Plain Jacks (DJ a diamond worth 2, no trump): SA: SK and DJ onto it, 11 + 4 + 2,
    27; S7: seat 2's SK takes it and leads S8, which seat 1's SA must take with the DJ kept
    for it, 11 + 2, 23.  Old scoring (A 5, 1 a trick): 5 + 4 + 1 = 10 -> 20 and 10; plain
    5 + 4 + 2 + 1 -> 22 and 5 + 2 + 1 -> 18."""
    pos = position("bassadewitz", options={"jacks": jacks, "scoring": scoring}, hands=["C7", "SA S7", "SK S8", "DJ H8"],
                   trick=["S9"], leader=0, tricks=[2, 1, 2, 1], scored=[10, 10, 10, 10])
    assert pos.to_move == 1
    assert values(pos) == engine_values(pos) == expected
