"""Jass (Schieber) and Putz: RULES.md, "Jass, Schieber" and "Putz" (seed 001)."""

from __future__ import annotations

import random

import pytest

from .helpers import (
    canon,
    cards,
    engine_values,
    legal,
    make_rules,
    play,
    position,
    random_deal,
    random_playout,
    values,
    winner,
)

# --- who may play what: trump games ---------------------------------------------------------------


@pytest.fixture
def hearts():
    return make_rules("jass", "H")


def test_plain_lead_follow_or_trump_at_any_time(hearts):
    # seed: "il peut en jouer un à tout moment, même s'il possédait la couleur": spade or any trump
    assert legal(hearts, "S7 H6 C9 DA", "SA") == canon("S7 H6")


def test_plain_lead_void_any_card(hearts):
    # no spade: any card, trumps included
    assert legal(hearts, "H6 C9 DA", "SA") == canon("H6 C9 DA")


def test_plain_lead_trump_above_the_trump_on_the_trick_is_allowed(hearts):
    # H6 trumped; HA is above H6, so spade or HA
    assert legal(hearts, "S7 HA C9", "S6 H6") == canon("S7 HA")


def test_no_undertrumping_while_following(hearts):
    # H9 trumped; HA ranks below H9 in trump (J 9 A ...), so only the spade or HJ
    assert legal(hearts, "S7 HA HJ C9", "SA H9") == canon("S7 HJ")


def test_no_undertrumping_when_void(hearts):
    # void in spades: any card except HQ, which is below the HK on the trick
    assert legal(hearts, "HQ C9 DA", "SA HK") == canon("C9 DA")


def test_no_undertrumping_even_on_partners_trump(hearts):
    # seat 3 plays; its partner seat 1 trumped with HK: HQ is still an undertrump
    assert legal(hearts, "HQ CA", "SA HK D7") == canon("CA")


def test_undertrumping_allowed_when_hand_is_all_trumps(hearts):
    # "sauf s'il n'a que cette possibilité": every card is a trump, so any of them
    assert legal(hearts, "HQ H6", "SA HK") == canon("HQ H6")


def test_undertrump_limit_is_the_highest_trump_on_the_trick(hearts):
    # trumps H6 and HK on the trick: HQ is above H6 but below HK, so forbidden (jass-kit would allow it)
    assert legal(hearts, "HQ C9", "SA H6 HK") == canon("C9")
    assert legal(hearts, "HA C9", "SA H6 HK") == canon("HA C9")  # HA is above HK


def test_trump_lead_must_follow_without_overtrumping(hearts):
    # trump led: any trump, a lower one too (no obligation to beat H7)
    assert legal(hearts, "H6 HA S9", "H7") == canon("H6 HA")


def test_trump_lead_without_trumps_any_card(hearts):
    assert legal(hearts, "S9 C6 DA", "H7") == canon("S9 C6 DA")


def test_buur_exception_on(hearts):
    # the only trump is the Jack (Buur): it need not be played
    assert legal(hearts, "HJ S9 C6", "H7") == canon("HJ S9 C6")


def test_buur_exception_off():
    rules = make_rules("jass", "H", buur_exception=False)
    assert legal(rules, "HJ S9 C6", "H7") == canon("HJ")


def test_buur_exception_needs_the_jack_to_be_the_only_trump(hearts):
    # HJ and H6: a trump must be played, either of them
    assert legal(hearts, "HJ H6 S9", "H7") == canon("HJ H6")


def test_buur_exception_is_only_for_the_jack(hearts):
    # the only trump is the Nine: it must be played
    assert legal(hearts, "H9 S9 C6", "H7") == canon("H9")


@pytest.mark.parametrize("trump", ["obenabe", "undeufe"])
def test_obenabe_undeufe_follow_suit(trump):
    rules = make_rules("jass", trump)
    assert legal(rules, "S7 H6 HJ", "SA") == canon("S7")  # hearts are no trump: follow spades
    assert legal(rules, "H6 HJ C9", "SA") == canon("H6 HJ C9")  # void: any card
    assert legal(rules, "S7 H6 HJ", "SA H9") == canon("S7")  # no undertrump rule, just follow


# --- who wins a trick ------------------------------------------------------------------------------


def test_trick_winner_trump_game(hearts):
    assert winner(hearts, "SA S6 HQ SK") == 2  # the only trump wins
    assert winner(hearts, "SK SA H6 H9") == 3  # H9 above H6
    assert winner(hearts, "HA H9 HJ HK") == 2  # Jack highest trump
    assert winner(hearts, "HT HQ H8 H6") == 1  # trump order J 9 A K Q T: the Queen beats the Ten
    assert winner(hearts, "HA H9 HK HQ") == 1  # Nine (Nell) beats the Ace
    assert winner(hearts, "S6 ST SJ SQ") == 3  # plain A K Q J T
    assert winner(hearts, "S6 CA S7 DA") == 2  # off-suit Aces do not win


def test_trick_winner_obenabe():
    rules = make_rules("jass", "obenabe")
    assert winner(rules, "S6 SA HA ST") == 1
    assert winner(rules, "SJ ST SQ S9") == 2  # Q above J above T


def test_trick_winner_undeufe():
    rules = make_rules("jass", "undeufe")
    assert winner(rules, "S7 S6 SA H6") == 1  # the Six is the highest
    assert winner(rules, "SA SK CA DA") == 1  # the King beats the Ace
    assert winner(rules, "ST SJ S9 S8") == 3  # 8 above 9 above T above J


# --- card points and totals --------------------------------------------------------------------------


def test_card_points_trump_and_plain(hearts):
    pts = {str(c): hearts.points(c) for c in cards("HJ H9 HA HK HQ HT H8 H7 H6 SJ S9 SA SK SQ ST S8 S7 S6")}
    assert pts == {
        "HJ": 20, "H9": 14, "HA": 11, "HK": 4, "HQ": 3, "HT": 10, "H8": 0, "H7": 0, "H6": 0,
        "SJ": 2, "S9": 0, "SA": 11, "SK": 4, "SQ": 3, "ST": 10, "S8": 0, "S7": 0, "S6": 0,
    }  # fmt: skip


def test_card_points_obenabe_undeufe():
    oben = make_rules("jass", "obenabe")
    unde = make_rules("jass", "undeufe")
    assert [oben.points(c) for c in cards("SA SK SQ SJ ST S9 S8 S7 S6")] == [11, 4, 3, 2, 10, 0, 8, 0, 0]
    assert [unde.points(c) for c in cards("SA SK SQ SJ ST S9 S8 S7 S6")] == [0, 4, 3, 2, 10, 0, 8, 0, 11]


@pytest.mark.parametrize("trump", ["C", "S", "H", "D", "obenabe", "undeufe"])
def test_deck_adds_up_to_157(trump):
    # 152 in the cards (62 + 3 x 30 with a trump; 4 x 38 otherwise) and 5 for the last trick
    rules = make_rules("jass", trump)
    assert sum(rules.points(c) for c in rules.deck) == 152
    assert rules.trick_value(cards("C7 S7 H7 D7"), last=True) == 5  # Sevens are 0 in every mode


@pytest.mark.parametrize("trump", ["C", "S", "H", "D", "obenabe", "undeufe"])
def test_random_full_deals_score_157_or_257(trump):
    # a deal is 157 points, plus the match bonus of 100 when one team took all 9 tricks
    rng = random.Random(trump)
    rules = make_rules("jass", trump)
    for _ in range(20):
        end = random_playout(position("jass", trump=trump, hands=random_deal(rules, rng)), rng)
        assert sum(end.tricks) == 9
        assert sum(end.scored) == (257 if 9 in end.tricks else 157)


# --- match bonus -------------------------------------------------------------------------------------


def _last_trick(tricks, **options):
    # seat 0 leads HJ and wins: 20 card points + 5 for the last trick
    return position("jass", trump="H", options=options, hands=["HJ", "S6", "H6", "C6"], tricks=tricks, scored=[100, 0])


def test_match_bonus_default():
    end = play(_last_trick([8, 0]), "HJ S6 H6 C6")
    assert end.scored == (100 + 25 + 100, 0)  # team 0 took all 9 tricks
    assert end.value_for(0) == 225


def test_match_bonus_custom_value():
    end = play(_last_trick([8, 0], match_bonus=50), "HJ S6 H6 C6")
    assert end.scored == (175, 0)


def test_match_bonus_zero():
    end = play(_last_trick([8, 0], match_bonus=0), "HJ S6 H6 C6")
    assert end.scored == (125, 0)


def test_no_match_bonus_without_all_nine_tricks():
    end = play(_last_trick([7, 1]), "HJ S6 H6 C6")
    assert end.scored == (125, 0)
    assert end.tricks == (8, 1)


# --- the reference search ----------------------------------------------------------------------------


def test_reference_two_tricks_score():
    # Worked by hand (team 0 = seats 0, 2; all spades, plain order A K Q J T ...):
    # SA: seat 1 keeps SK for trick 2, seat 2 drops ST, seat 3 keeps SQ: we take SA S7 ST S9 = 21,
    #     they take S6 SK S8 SQ +5 = 12: (50 + 21) - (40 + 12) = 19.
    # S6: seat 1 plays SK at once, seat 2 keeps ST, seat 3 drops SQ: they take 7, we take
    #     SA S7 ST S9 +5 = 26: (50 + 26) - (40 + 7) = 29.
    pos = position(
        "jass",
        trump="H",
        hands=["SA S6", "SK S7", "ST S8", "SQ S9"],
        tricks=[4, 3],
        scored=[50, 40],
    )
    assert values(pos) == {"SA": 19, "S6": 29}
    assert values(pos.with_objective("raw")) == {"SA": 19, "S6": 29}  # score is raw in Jass


# --- Putz ----------------------------------------------------------------------------------------------


def test_putz_sides_and_trick_of_three():
    rules = make_rules("putz", "H")
    assert rules.n_players == 3 and rules.n_sides == 3 and rules.hand_size == 9
    assert winner(rules, "SA H6 SK") == 1  # trump wins
    assert legal(rules, "S7 HA HJ C9", "SA H9") == canon("S7 HJ")  # same no-undertrump rule as jass


def test_putz_five_players():
    rules = make_rules("putz", "H", players=5)
    assert rules.n_players == 5 and rules.n_sides == 5 and rules.hand_size == 7
    assert winner(rules, "SA SK H6 H7 CA") == 3  # H7 above H6


def test_putz_buur_exception_option():
    assert legal(make_rules("putz", "H"), "HJ S9", "H7") == canon("HJ S9")
    assert legal(make_rules("putz", "H", buur_exception=False), "HJ S9", "H7") == canon("HJ")


def test_putz_last_trick_five_and_no_match_bonus():
    # seat 0 wins the last trick with HJ: 20 + 5, and no bonus although it took all 9 tricks
    pos = position("putz", trump="H", hands=["HJ", "S6", "C6"], tricks=[8, 0, 0], scored=[100, 0, 0])
    end = play(pos, "HJ S6 C6")
    assert end.scored == (125, 0, 0)
    assert end.value_for(0) == 125


def test_putz_reference_points_and_pomme():
    # Seat 0 (5 points) against the other two, 2 tricks left, all spades, no trumps held:
    # SA: they play S7 and S8 under it, then win S6 with SK/ST: seat 0 gets 11 -> 16.
    # S6: they throw ST and SK on it (one of them wins), seat 0's SA then takes S7 S8 +5: 16 -> 21.
    pos = position(
        "putz",
        trump="H",
        hands=["SA S6", "ST S7", "SK S8"],
        tricks=[2, 3, 2],
        scored=[5, 40, 40],
    )
    assert values(pos) == {"SA": 16, "S6": 21}  # highest is best
    assert values(pos.with_objective("pomme")) == {"SA": False, "S6": True}  # 21 is enough


@pytest.mark.parametrize("before, pomme", [(12, True), (11, False)])
def test_putz_pomme_is_21_or_more(before, pomme):
    # seat 0's SK takes the last trick: 4 + 5, so it ends with before + 9
    pos = position("putz", trump="H", objective="pomme", hands=["SK", "S6", "S7"], tricks=[3, 3, 2], scored=[before, 0, 0])
    end = play(pos, "SK S6 S7")
    assert end.scored[0] == before + 9
    assert end.value_for(0) is pomme


def test_putz_five_players_reference_points_and_pomme():
    # Seat 0 (8 points) against four others, 2 tricks left, no trump held.
    # SA: the others must follow spades and give S7 S8 S9 and seat 4's forced SJ (2):
    #   8 + 11 + 2 = 21, and seat 0's S6 then loses to ST.
    # S6: seat 4 wins it with SJ over S7 S8 S9, leads C6, which nobody can follow or
    #   trump: seat 0's SA falls to it, and seat 0 stays on 8.
    pos = position(
        "putz",
        trump="H",
        options={"players": 5},
        hands=["SA S6", "ST S7", "SK S8", "SQ S9", "SJ C6"],
        tricks=[1, 1, 1, 1, 1],
        scored=[8, 0, 0, 0, 0],
    )
    assert values(pos) == {"SA": 21, "S6": 8}
    assert values(pos.with_objective("pomme")) == {"SA": True, "S6": False}


# --- hand-checked values (an audit's list of rules tested only by random comparison) ---------------------


@pytest.mark.parametrize(
    ("trump", "trick"),
    [
        ("H", "HK HA S6 C6"), ("H", "HQ HK S6 C6"), ("H", "H8 HT S6 C6"), ("H", "H7 H8 S6 C6"), ("H", "H6 H7 S6 C6"),
        ("H", "SK SA C6 D6"), ("H", "SQ SK C6 D6"), ("H", "S9 ST C6 D6"), ("H", "S8 S9 C6 D6"), ("H", "S7 S8 C6 D6"),
        ("obenabe", "SK SA C6 D6"), ("obenabe", "SQ SK C6 D6"), ("obenabe", "SJ SQ C6 D6"), ("obenabe", "S7 S8 C6 D6"),
        ("obenabe", "S6 S7 C6 D6"),
        ("undeufe", "S8 S7 C6 D6"), ("undeufe", "SQ SJ C6 D6"), ("undeufe", "SK SQ C6 D6"), ("undeufe", "SA SK C6 D6"),
    ],
)
def test_each_rank_beats_the_one_below_it(trump, trick):
    """Adjacent ranks of trumps (A above K, T above 8...), plain suits, obenabe and undeufe: the second card wins."""
    assert winner(make_rules("jass", trump), trick) == 1


@pytest.mark.parametrize(("buur_exception", "expected"), [(True, {"SA": -12, "H6": -22}), (False, {"SA": -12, "H6": -18})])
def test_the_buur_exception_inside_the_search(buur_exception, expected):
    """Hearts trump, seat 0 to lead with 2 tricks left.  After H6, seat 1 may keep its
    Buur (the exception) and discard S7: H9 takes 14, then HJ takes C6 C7 SA and the
    last trick's 5 (36 against 14: -22).  Without the exception HJ must follow: it
    takes 34, then SA takes 11 + 5 (-18).  After SA, seat 1 trumps with HJ (31), seat 2
    may not undertrump and discards C6, and H9 takes the last trick (19): -12."""
    pos = position("jass", trump="H", options={"buur_exception": buur_exception},
                   hands=["H6 SA", "HJ S7", "H9 C6", "S8 C7"], tricks=[3, 4])
    assert values(pos) == expected
    assert engine_values(pos) == expected


def test_no_undertrumping_with_two_trumps_on_the_trick_in_the_search():
    """SA led, H6 and HK played: seat 3, void in spades, holds HQ C9 and may not play HQ
    under HK.  HK (seat 2, side 0) takes 11 + 4 = 15; HQ takes the last trick, 3 + 5 = 8,
    for seat 3's side 1: -7."""
    pos = position("jass", trump="H", hands=["D6", "D7", "D8", "HQ C9"], trick=["SA", "H6", "HK"], leader=0, tricks=[4, 3])
    assert [str(c) for c in pos.legal_moves()] == ["C9"]
    assert values(pos) == engine_values(pos) == {"C9": -7}


@pytest.mark.parametrize(
    ("tricks", "options", "expected"),
    [
        ([4, 3], {}, {"HA": 42, "H6": 12}),
        ([7, 0], {}, {"HA": 142, "H6": 12}),
        ([7, 0], {"match_bonus": 37}, {"HA": 79, "H6": 12}),
        ([7, 0], {"match_bonus": 0}, {"HA": 42, "H6": 12}),
    ],
)
def test_a_hand_of_trumps_may_undertrump_and_the_match_bonus_in_the_search(tricks, options, expected):
    """Audit B.  SA led, seat 1 trumped with HK; seat 2, void in spades, holds only
    trumps, HA (above HK) and H6 ("unless every card in your hand is a trump": the
    undertrump is allowed).  HA: it takes SA HK HA S7, 11 + 4 + 11 = 26, then H6 takes
    D7 CA D6, 11 + 5 for the last trick = 16: 42 against 0.  H6: HK takes 15 for side
    1, then D6 led, HA takes D6 D7 CA, 11 + 11 + 5 = 27: 27 - 15 = 12.  With every
    trick before taken by side 0, HA makes the match: 42 + match_bonus (100, 37, 0)."""
    pos = position("jass", trump="H", options=options, hands=["CA", "D6", "HA H6", "S7 D7"], trick=["SA", "HK"],
                   leader=0, tricks=tricks)
    assert values(pos) == engine_values(pos) == expected
