"""Klaverjas: RULES.md, "Klaverjas" (seed 003).  Trump is hearts unless said otherwise."""

from __future__ import annotations

import pytest

from .helpers import canon, cards, engine_values, legal, make_rules, play, position, values, winner


def kj(**options):
    return make_rules("klaverjas", "H", 0, **options)


# --- Rotterdam (default) ---------------------------------------------------------------------------------


def test_rotterdam_follow_suit():
    assert legal(kj(), "S7 HJ C8", "SA") == canon("S7")


def test_rotterdam_void_must_trump():
    assert legal(kj(), "H7 HJ C8", "SA") == canon("H7 HJ")  # no trump on the trick: any trump


def test_rotterdam_must_trump_even_when_partner_wins():
    # seat 2's partner (seat 0) is winning with SA: Rotterdam still obliges a trump
    assert legal(kj(), "H7 C8", "SA S7") == canon("H7")


def test_rotterdam_void_must_overtrump():
    assert legal(kj(), "HA HJ C8", "SA H9") == canon("HJ")  # only HJ beats H9


def test_rotterdam_void_must_undertrump_if_it_cannot_overtrump():
    assert legal(kj(), "HA H7 C8", "SA H9") == canon("HA H7")


def test_rotterdam_trump_lead_must_beat_the_highest_trump():
    assert legal(kj(), "HJ H7 S8", "HA") == canon("HJ")
    # the highest trump on the trick is HA (not the H7 just played): only H9 beats it, HT does not
    assert legal(kj(), "HT HQ H9 S8", "HK HA H7") == canon("H9")


def test_rotterdam_trump_lead_any_trump_if_it_cannot_beat():
    assert legal(kj(), "HA H7 S8", "H9") == canon("HA H7")
    assert legal(kj(), "S8 C7", "H9") == canon("S8 C7")


def test_no_trump_while_following():
    # holding a spade: follow; trumping is not allowed
    assert legal(kj(), "S7 HJ", "SA H9") == canon("S7")


# --- Amsterdam -------------------------------------------------------------------------------------------


def test_amsterdam_partner_winning_any_card():
    assert legal(kj(rules="amsterdam"), "H7 C8", "SA S7") == canon("H7 C8")


def test_amsterdam_partner_winning_no_lower_trump():
    # seat 1 leads, seat 2 (seat 0's partner) trumps with H9 and wins, seat 3 follows: seat 0 plays
    am = kj(rules="amsterdam")
    assert legal(am, "HA HJ C8", "SA H9 S7", leader=1) == canon("HJ C8")  # HA is below H9
    assert legal(am, "HA H7", "SA H9 S7", leader=1) == canon("HA H7")  # only lower trumps: allowed
    assert legal(am, "HA H7 HJ", "SA H9 S7", leader=1) == canon("HJ")  # not every card is a lower trump
    # Rotterdam in the same place must overtrump
    assert legal(kj(), "HA HJ C8", "SA H9 S7", leader=1) == canon("HJ")


def test_amsterdam_opponent_winning_must_trump():
    assert legal(kj(rules="amsterdam"), "H7 C8", "SA") == canon("H7")


def test_amsterdam_opponent_winning_overtrump_or_no_lower_trump():
    am = kj(rules="amsterdam")
    assert legal(am, "HJ HA C8", "SA H9") == canon("HJ")  # can beat: must
    assert legal(am, "HA C8", "SA H9") == canon("C8")  # cannot beat: any card but the lower trump
    assert legal(am, "HA H7", "SA H9") == canon("HA H7")  # only lower trumps


def test_amsterdam_follow_and_trump_lead_as_rotterdam():
    am = kj(rules="amsterdam")
    assert legal(am, "S7 HJ C8", "SA") == canon("S7")
    assert legal(am, "HJ H7 S8", "H9 HA") == canon("HJ")  # trump lead: beat the highest, partner or not


# --- seed 003's wording ---------------------------------------------------------------------------------


def test_seed_follow_and_beat_the_previous_card():
    sd = kj(rules="seed")
    assert legal(sd, "SK S7", "SA S8") == canon("SK")  # must beat the S8 just played
    assert legal(kj(), "SK S7", "SA S8") == canon("SK S7")  # Rotterdam: any spade
    assert legal(sd, "SQ SA C8", "S9 SK") == canon("SA")
    assert legal(sd, "SQ S7", "S9 SK") == canon("SQ S7")  # cannot beat: any spade


def test_seed_previous_card_not_of_the_suit_led():
    # the previous player trumped: just follow
    assert legal(kj(rules="seed"), "S8 SA", "S9 H7") == canon("S8 SA")
    # the previous player discarded a diamond: just follow, S7 too, though an S9 was led
    assert legal(kj(rules="seed"), "S7 SA", "S9 D8") == canon("S7 SA")
    assert legal(kj(rules="seed"), "S7 SA", "S9 H8") == canon("S7 SA")


def test_seed_void_any_card_unless_a_higher_trump_is_held():
    sd = kj(rules="seed")
    assert legal(sd, "H7 C8", "SA") == canon("H7 C8")  # no obligation to trump
    assert legal(sd, "HJ C8", "SA H9") == canon("HJ")  # a trump lies there and HJ is higher
    assert legal(sd, "HA C8", "SA H9") == canon("HA C8")  # no higher trump: any card


def test_seed_trump_lead_beat_the_previous_trump():
    assert legal(kj(rules="seed"), "HJ H7 S8", "HA") == canon("HJ")
    # the previous card is the H7: any trump above it will do, where Rotterdam asks to beat the HA
    assert legal(kj(rules="seed"), "H9 HT H8", "HA H7") == canon("H9 HT H8")
    assert legal(kj(), "H9 HT H8", "HA H7") == canon("H9")


# --- trick winner and points -----------------------------------------------------------------------------


def test_trick_winner():
    r = kj()
    assert winner(r, "SA H7 ST SK") == 1  # the lowest trump beats the Ace
    assert winner(r, "HT HK HQ H8") == 0  # trump J 9 A T K Q 8 7
    assert winner(r, "H8 HQ HK HT") == 3
    assert winner(r, "HQ H7 HK H8") == 2  # King above Queen, both above 8 and 7
    assert winner(r, "H7 H8 C7 D7") == 1
    assert winner(r, "HA H9 HJ HT") == 2
    assert winner(r, "SJ S9 ST SK") == 2  # plain A T K Q J 9 8 7
    assert winner(r, "S7 CA DA S8") == 3


def test_card_points():
    r = kj()
    assert [r.points(c) for c in cards("HJ H9 HA HT HK HQ H8 H7")] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [r.points(c) for c in cards("SA ST SK SQ SJ S9 S8 S7")] == [11, 10, 4, 3, 2, 0, 0, 0]


@pytest.mark.parametrize("trump", ["C", "S", "H", "D"])
def test_deck_adds_up_to_162(trump):
    # 62 in trumps, 30 in each plain suit, 10 for the last trick
    r = make_rules("klaverjas", trump, 0)
    assert sum(r.points(c) for c in r.deck) == 152
    assert r.trick_value(cards("C7 S7 H7 D7"), last=True) == 10


# --- roem ---------------------------------------------------------------------------------------------------


def roem(trick, trump="D", **options):
    return make_rules("klaverjas", trump, 0, **options).trick_bonus(cards(trick))


def test_seed_example_nine_jack_queen():
    # "neuf, valet, dame de cœur avec un atout carreau": a run only in the trick order A T K Q J 9
    assert roem("H9 HJ HQ S7", roem_order="rank") == 20
    assert roem("H9 HJ HQ S7") == 0  # natural order: the Ten is missing


def test_seed_example_ten_ace_nine_jack_of_trump():
    # "dix, as, neuf, valet de carreau avec un atout carreau": J 9 A T is a run of 4 in trump rank
    assert roem("DT DA D9 DJ", roem_order="rank") == 50
    assert roem("DT DA D9 DJ") == 20  # natural order: 9 T J is a run of 3, the Ace stands apart


def test_natural_runs():
    assert roem("HQ HK HA S7") == 20  # Q K A
    assert roem("HQ HK HA S7", roem_order="rank") == 0  # rank A T K Q: the Ten stands between K and A
    assert roem("H7 H8 H9 HT") == 50
    assert roem("H7 H8 H9 HT", roem_order="rank") == 20  # 7 8 9, the Ten is far up
    assert roem("HT HJ HQ HK") == 50
    assert roem("H7 H8 HT HJ") == 0  # two runs of 2
    assert roem("H7 S8 H9 HT") == 0  # not one suit


def test_four_of_a_kind():
    assert roem("SA HA CA DA") == 100
    assert roem("ST HT CT DT") == 100
    assert roem("SK HK CK DK") == 100
    assert roem("SQ HQ CQ DQ") == 100
    assert roem("SJ HJ CJ DJ") == 200
    assert roem("S9 H9 C9 D9") == 0
    assert roem("S7 H7 C7 D7") == 0


def test_stuk():
    assert roem("DK DQ S7 C8") == 20  # K and Q of trump
    assert roem("HK HQ S7 C8") == 0  # K and Q of a plain suit: nothing
    assert roem("DK DQ DJ S7") == 40  # natural J Q K: 20, and the stuk on top
    assert roem("DK DQ DJ S7", roem_order="rank") == 20  # trump rank J 9 A T K Q: only the stuk
    assert roem("DK DQ DT DA", roem_order="rank") == 70  # Q K T A of trump: 50 + 20
    assert roem("D8 DQ DK S7", roem_order="rank") == 40  # trump rank 8 Q K: a run, and the stuk
    assert roem("D8 DQ DK S7") == 20  # natural: 8 and Q are apart, only the stuk


def test_roem_scores_for_the_trick_winner():
    # one trick left: seat 2's HQ wins (A T K Q J 9), team 0 gets 3 + 2 + 10 last, and 20 roem in rank order
    hands = ["H9", "HJ", "HQ", "S7"]
    natural = play(position("klaverjas", trump="D", declarer=0, hands=hands, tricks=[4, 3]), "H9 HJ HQ S7")
    rank = play(
        position("klaverjas", trump="D", declarer=0, options={"roem_order": "rank"}, hands=hands, tricks=[4, 3]),
        "H9 HJ HQ S7",
    )
    assert natural.scored == (15, 0)
    assert rank.scored == (35, 0)


def test_pit():
    # team 1 (seat 1) takes the last trick and had all 7 before: 11 + 10 last + 100 pit
    hands = ["S7", "SA", "S9", "C8"]
    pit = play(position("klaverjas", trump="H", declarer=0, hands=hands, tricks=[0, 7], scored=[0, 141]), "S7 SA S9 C8")
    assert pit.scored == (0, 262)
    no_pit = play(position("klaverjas", trump="H", declarer=0, hands=hands, tricks=[1, 6], scored=[20, 121]), "S7 SA S9 C8")
    assert no_pit.scored == (20, 142)


# --- the contract: nat ---------------------------------------------------------------------------------------


def test_settle_made_and_nat():
    r = kj()
    assert r.settle([82, 80], "score") == [82, 80]
    assert r.settle([80, 82], "score") == [0, 162]  # nat: the defenders score both totals
    assert r.settle([81, 81], "score") == [81, 81]  # "autant ou plus": a tie is made
    assert r.settle([80, 82], "raw") == [80, 82]


def test_settle_nat_on_tie():
    assert kj(nat_on_tie=True).settle([81, 81], "score") == [0, 162]
    assert kj(nat_on_tie=True).settle([82, 80], "score") == [82, 80]


def test_settle_declarer_on_side_one():
    r = make_rules("klaverjas", "H", 3)
    assert r.settle([100, 62], "score") == [162, 0]
    assert r.settle([62, 100], "score") == [62, 100]


def _last_trick(scored, **options):
    # seat 1's SA takes the last trick: 11 + 10 for team 1, no roem (7, 9, A and a club)
    pos = position(
        "klaverjas",
        trump="H",
        declarer=0,
        options=options,
        hands=["S7", "SA", "S9", "C8"],
        tricks=[3, 4],
        scored=scored,
    )
    return play(pos, "S7 SA S9 C8")


def test_nat_through_play():
    end = _last_trick([70, 60])  # 70 against 81: nat
    assert end.scored == (70, 81)
    assert end.final_scores() == [0, 151]
    assert end.value_for(0) == -151
    assert end.with_objective("raw").value_for(0) == -11


def test_tie_through_play():
    end = _last_trick([81, 60])  # 81 against 81
    assert end.final_scores() == [81, 81]
    assert end.value_for(1) == 0
    tie_nat = _last_trick([81, 60], nat_on_tie=True)
    assert tie_nat.final_scores() == [0, 162]
    assert tie_nat.value_for(1) == 162


# --- the reference search ---------------------------------------------------------------------------------------


def test_reference_score_and_raw():
    # SA: all follow, we take SA S8 SK ST (25); then S7 is trumped by HJ: they get 20 + 10.
    #     95 against 90, made: +5.
    # S7: ST wins (14); their D8 lead: seat 1, void, trumps our SA with HJ: 41 more. 70 against 115.
    #     raw -45; score: nat, they score 185.
    pos = position(
        "klaverjas",
        trump="H",
        declarer=0,
        hands=["SA S7", "HJ S8", "SK D7", "ST D8"],
        tricks=[3, 3],
        scored=[70, 60],
    )
    assert values(pos) == {"SA": 5, "S7": -185}
    assert values(pos.with_objective("raw")) == {"SA": 5, "S7": -45}


# --- hand-checked values through the engine (an audit's list) --------------------------------------------


@pytest.mark.parametrize(("roem_order", "expected"), [("natural", 8), ("rank", -148)])
def test_roem_decides_the_contract(roem_order, expected):
    """The last trick: SA (seat 2, the declarer's side) takes SQ S7 SA SK, 3 + 0 + 11 + 4
    and 10 for the last trick, 28, with Q K A of spades.  In natural order that is a run
    of three, 20 roem: 40 + 28 + 20 = 88 against 80, made: 8.  In rank order (A T K Q)
    Q K A is no run: 68 against 80, nat, and the opponents score all 148: -148."""
    pos = position("klaverjas", trump="H", declarer=0, options={"roem_order": roem_order},
                   hands=["SQ", "S7", "SA", "SK"], tricks=[4, 3], scored=[40, 80])
    assert values(pos) == engine_values(pos) == {"SQ": expected}


def test_four_jacks_are_200_roem():
    """HJ (seat 1) takes the last trick, 20 + 3 x 2 + 10 = 36, with 200 roem for the four
    Jacks: 40 + 36 + 200 = 276 against the declarer's 80, nat, and side 1 scores all of
    it, 356: -356.  raw: 80 - 276 = -196."""
    fields = {"trump": "H", "declarer": 0, "hands": ["SJ", "HJ", "CJ", "DJ"], "tricks": [4, 3], "scored": [80, 40]}
    pos = position("klaverjas", **fields)
    assert values(pos) == engine_values(pos) == {"SJ": -356}
    raw = position("klaverjas", objective="raw", **fields)
    assert values(raw) == engine_values(raw) == {"SJ": -196}


@pytest.mark.parametrize(("roem_order", "score", "raw"), [("natural", 7, 7), ("rank", -167, -13)])
def test_the_stuk_through_the_engine(roem_order, score, raw):
    """The last trick (audit B): HK led, HQ, HJ, S8; HJ (seat 2) takes it for the
    declarer's side: 4 + 3 + 20 + 10 for the last trick = 37.  Stuk (trump K and Q in
    the trick) 20.  Natural order: J Q K is a run of three, 20 more: 20 + 37 + 40 = 97
    against 90, made: 7.  Rank order (J 9 A T K Q): K Q, the J apart, no run: 77
    against 90, nat, side 1 scores 167: -167; raw 77 - 90 = -13."""
    fields = {"trump": "H", "declarer": 0, "options": {"roem_order": roem_order}, "hands": ["HK", "HQ", "HJ", "S8"],
              "tricks": [4, 3], "scored": [20, 90]}
    pos = position("klaverjas", **fields)
    assert values(pos) == engine_values(pos) == {"HK": score}
    raw_pos = position("klaverjas", objective="raw", **fields)
    assert values(raw_pos) == engine_values(raw_pos) == {"HK": raw}


def test_four_aces_are_100_roem_through_the_engine():
    """The last trick (audit B): SA, HA, CA, DA; hearts trump, so HA (seat 1) takes it:
    4 x 11 + 10 + 100 for the four Aces = 154.  80 against 154: nat, side 1 scores
    234: -234; raw 80 - 154 = -74."""
    fields = {"trump": "H", "declarer": 0, "hands": ["SA", "HA", "CA", "DA"], "tricks": [4, 3], "scored": [80, 0]}
    pos = position("klaverjas", **fields)
    assert values(pos) == engine_values(pos) == {"SA": -234}
    raw_pos = position("klaverjas", objective="raw", **fields)
    assert values(raw_pos) == engine_values(raw_pos) == {"SA": -74}


def test_a_defender_hands_the_declarers_roem_when_they_go_nat_anyway():
    """Seat 1, a defender, answers the declarers' SK with SQ or SA (found by a black-box
    audit in the fiftieth session).  SQ: SK takes SK SQ SJ S7 (4 + 3 + 2 + 0 = 9) with
    K Q J, 20 roem: 20 + 9 + 20 = 49; the last trick, C7 SA D7 H7, goes to the trump H7
    (11 + 10 last = 21): 121.  SA: SA takes SK SA SJ S7 (17), no run: 117; the last
    trick, SQ D7 H7 C7, to H7 (3 + 10 = 13): 130 against 20.  Both are nat, so the
    defenders score both totals: 170 after SQ, 150 after SA.  raw would pick SA
    (121 - 49 = 72 against 130 - 20 = 110): the roem is worth giving when it comes back."""
    fields = {"trump": "H", "declarer": 0, "hands": ["C7", "SQ SA", "SJ D7", "S7 H7"], "trick": ["SK"],
              "leader": 0, "tricks": [3, 3], "scored": [20, 100]}
    pos = position("klaverjas", **fields)
    assert values(pos) == engine_values(pos) == {"SQ": 170, "SA": 150}
    raw = position("klaverjas", objective="raw", **fields)
    assert values(raw) == engine_values(raw) == {"SQ": 72, "SA": 110}


def test_a_declarer_going_nat_keeps_the_roem_from_the_defenders():
    """The mirror (the same audit): seat 1 declares, 20 against 150, and answers SQ.
    S7: SQ takes SQ S7 SJ S8 (5, no run): 155; the last trick, C7 SK D7 H7, to H7
    (4 + 10 = 14): 34.  SK: SK takes SQ SK SJ S8 (9) with J Q K, 20 roem: 49; the last,
    S7 D7 H7 C7, to H7 (10): 59 against 150.  Both nat: the defenders score 189 after
    S7, 209 after SK, so S7 (-189) is best; raw would pick SK (-91 against -121)."""
    fields = {"trump": "H", "declarer": 1, "hands": ["C7", "SK S7", "SJ D7", "S8 H7"], "trick": ["SQ"],
              "leader": 0, "tricks": [3, 3], "scored": [150, 20]}
    pos = position("klaverjas", **fields)
    assert values(pos) == engine_values(pos) == {"S7": -189, "SK": -209}
    raw = position("klaverjas", objective="raw", **fields)
    assert values(raw) == engine_values(raw) == {"S7": -121, "SK": -91}


def test_pit_and_nat_on_tie():
    # SA takes the last trick, 21: the declarer's side 1 takes every trick, 162 and 100 for the pit
    pit = position("klaverjas", trump="H", declarer=1, hands=["S7", "SA", "S9", "C8"], tricks=[0, 7], scored=[0, 141])
    assert values(pit) == engine_values(pit) == {"S7": -262}
    # SA takes the last trick, 21, for side 1: 81 against the declarer's side 0's 81
    fields = {"trump": "H", "declarer": 0, "hands": ["S7", "SA", "S9", "C8"], "tricks": [3, 4], "scored": [81, 60]}
    tie = position("klaverjas", **fields)
    assert values(tie) == engine_values(tie) == {"S7": 0}  # a tie is made by default
    nat = position("klaverjas", options={"nat_on_tie": True}, **fields)
    assert values(nat) == engine_values(nat) == {"S7": -162}


@pytest.mark.parametrize("rules", ["rotterdam", "amsterdam"])
def test_void_without_trumps_plays_any_card(rules):
    assert legal(kj(rules=rules), "C8 D7", "SA") == canon("C8 D7")


# --- an opponent has trumped and cannot be overtrumped, through the engine (audit B) ---------------------

# Seat 1 led S7 and seat 2 (the declarer's side) trumped with H9; seat 3, void in spades,
# holds HA (below H9: J 9 A ...) and C8.
OPPONENT_TRUMPED = {"trump": "H", "declarer": 0, "hands": ["SK CA", "DT", "D8", "HA C8"], "trick": ["S7", "H9"],
                    "leader": 1, "tricks": [3, 3], "scored": [50, 40]}


@pytest.mark.parametrize(
    ("rules", "score", "raw"),
    [
        ("rotterdam", {"HA": -8}, {"HA": -8}),
        ("amsterdam", {"C8": 150}, {"C8": 14}),
        ("seed", {"C8": 150, "HA": -8}, {"C8": 14, "HA": -8}),
    ],
)
def test_an_opponents_trump_that_cannot_be_beaten(rules, score, raw):
    """Rotterdam: "beating the highest trump on the trick if you can, else with a lower
    trump": HA.  Amsterdam: an opponent winning, no higher trump: "any card except a
    trump lower than the highest trump on the trick": C8.  Seed: no higher trump held,
    any card.
    HA: H9 takes S7 H9 HA SK, 14 + 11 + 4 = 29 (side 0: 79); then D8 C8 CA DT to DT,
    11 + 10 + 10 last = 31 (side 1: 71).  Made, 71 - 79 = -8 for side 1.
    C8: H9 takes S7 H9 C8 SK, 18 (side 0: 68); then D8 led, seat 3 (an opponent
    winning, no trump on the trick) must trump with HA: D8 HA CA DT, 11 + 11 + 10 + 10
    = 42 (side 1: 82).  68 against 82: nat, side 1 scores 150; raw 82 - 68 = 14."""
    pos = position("klaverjas", options={"rules": rules}, **OPPONENT_TRUMPED)
    assert values(pos) == engine_values(pos) == score
    raw_pos = position("klaverjas", options={"rules": rules}, objective="raw", **OPPONENT_TRUMPED)
    assert values(raw_pos) == engine_values(raw_pos) == raw
