"""Klaberjass: RULES.md, "Klaberjass" (seed 004).  Trump is hearts unless said otherwise."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solver import analyse
from solver.errors import IllegalMoveError, PositionError

from .helpers import canon, cards, engine_values, legal, make_rules, play, position, random_deal, random_playout, values, winner


def kb(**options):
    return make_rules("klaberjass", "H", 0, **options)


# --- who may play what -----------------------------------------------------------------------------------


def test_seed_rules_follow_else_any_card():
    r = kb()
    assert legal(r, "S7 H7 C8", "SA") == canon("S7")
    assert legal(r, "H7 C8", "SA") == canon("H7 C8")  # "il peut jouer une autre carte, incluant des cartes d'atout"
    assert legal(r, "H7 HJ S8", "HA") == canon("H7 HJ")  # trump lead: any trump, no need to beat


def test_pagat_rules():
    r = kb(rules="pagat")
    assert legal(r, "S7 H7 C8", "SA") == canon("S7")
    assert legal(r, "H7 C8", "SA") == canon("H7")  # void: must trump
    assert legal(r, "H7 HJ S8", "HA") == canon("HJ")  # trump lead: beat if you can
    assert legal(r, "H7 HT S8", "HA") == canon("H7 HT")  # cannot beat the Ace: any trump


def test_pagat_four_players_overtrump():
    r = kb(players=4, rules="pagat")
    assert legal(r, "HA HJ C8", "SA H9") == canon("HJ")
    assert legal(r, "HA H7 C8", "SA H9") == canon("HA H7")  # cannot overtrump: still trump
    assert legal(kb(players=4), "HA HJ C8", "SA H9") == canon("HA HJ C8")  # seed rules: any card


def test_trick_winner_two_and_four_players():
    assert winner(kb(), "SA H7") == 1
    assert winner(kb(), "S7 SA") == 1
    assert winner(kb(), "HA H9") == 1  # trump J 9 A T K Q 8 7
    assert winner(kb(), "ST SK") == 0  # plain A T K Q J 9 8 7
    assert winner(kb(players=4), "SK ST CA H7") == 3


def test_points_and_four_player_total():
    r = kb()
    assert [r.points(c) for c in cards("HJ H9 HA HT HK HQ H8 H7")] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [r.points(c) for c in cards("SA ST SK SQ SJ S9 S8 S7")] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert sum(r.points(c) for c in r.deck) == 152
    assert r.trick_value(cards("S7 C7"), last=True) == 10


def test_random_four_player_deals_score_162():
    # no roem, no pit in Klaberjass: every 4-player deal is 152 + 10
    rng = random.Random(4)
    rules = kb(players=4)
    for _ in range(20):
        pos = position("klaberjass", trump="H", taker=0, options={"players": 4}, hands=random_deal(rules, rng))
        end = random_playout(pos, rng)
        assert sum(end.tricks) == 8 and sum(end.scored) == 162


# --- bella and sequences -------------------------------------------------------------------------------------


def bonuses(hands, trump="H", players=2):
    return make_rules("klaberjass", trump, 0, players=players).deal_bonuses([cards(h) for h in hands])


def test_bella():
    assert bonuses(["HK HQ S7", "C7 D9 S9"]) == [20, 0]
    assert bonuses(["HK S7 C9", "HQ D9 S9"]) == [0, 0]  # split between the players: no bella
    assert bonuses(["SK SQ C9", "HQ D9 S8"], trump="S") == [20, 0]


def test_bella_four_players_for_the_team():
    assert bonuses(["S7", "C7", "C9", "HK HQ"], players=4) == [0, 20]
    assert bonuses(["HK S7", "C7", "HQ C9", "D7"], players=4) == [0, 0]  # K and Q with partners: no holder


def test_sequence_higher_top_card_wins():
    # seed 004's example (Q J T is below A K Q), here in two suits: only the A K Q scores
    assert bonuses(["HQ HJ HT", "SA SK SQ"], trump="C") == [0, 20]


def test_sequence_value_before_top_card():
    assert bonuses(["S7 S8 S9 ST", "DA DK DQ"], trump="C") == [50, 0]  # 4 cards beat 3 with a higher top
    assert bonuses(["S7 S8 S9 ST SJ", "DA DK DQ DJ"], trump="C") == [0, 50]  # 5 cards are 50 too; then Ace top


def test_sequence_top_card_before_trump():
    # same value (20): the Ace-high plain run beats the King-high trump run, which
    # the trump would only decide on equal tops; seat 0 keeps its bella
    assert bonuses(["HK HQ HJ", "SA SK SQ"], trump="H") == [20, 20]


def test_a_run_of_five_or_more_is_one_sequence_worth_50():
    assert bonuses(["S7 S8 S9 ST SJ", "DK DQ DJ"], trump="C") == [50, 0]  # 5 cards: 50, beats a 3-run
    assert bonuses(["S7 S8 S9 ST SJ SQ SK SA", "DK DQ DJ"], trump="C") == [50, 0]  # all 8: still one, 50


def test_sequence_tie_trump_wins():
    # same value and top card: the trump sequence wins; the holder also has the bella
    assert bonuses(["SK SQ SJ", "HK HQ HJ"], trump="H") == [0, 40]


def test_sequence_tie_without_trump_nobody_scores():
    assert bonuses(["SK SQ SJ", "DK DQ DJ"], trump="H") == [0, 0]


def test_sequence_winner_scores_all_its_sequences():
    assert bonuses(["SA SK SQ D7 D8 D9", "CK CQ CJ"], trump="H") == [40, 0]


def test_sequence_order_is_a_k_q_j_t_9_8_7():
    assert bonuses(["HT HJ HQ", "C7 D9 S9"], trump="C") == [20, 0]  # T J Q is a run
    assert bonuses(["H9 HJ HQ", "C7 D9 S9"], trump="C") == [0, 0]  # 9 J Q is not
    assert bonuses(["HJ H9 HA", "C7 D9 S9"], trump="H") == [0, 0]  # trump rank J 9 A does not count


def test_sequences_four_players_partner_counts():
    # side 0 holds the best (A top) and scores its partner's 7 8 9 too; side 1's K Q J scores nothing
    assert bonuses(["SA SK SQ", "CK CQ CJ", "D7 D8 D9", "H7"], players=4) == [40, 0]
    # side 1's four-card run beats side 0's
    assert bonuses(["SA SK SQ", "C7 C8 C9 CT", "D7 D8 D9", "H7"], players=4) == [0, 50]
    # best sequences tie (K top, no trump): nobody scores, whatever else is held
    assert bonuses(["SK SQ SJ", "DK DQ DJ", "C7 C8 C9", "H7"], players=4) == [0, 0]


DEAL = [
    "HK HQ SA SK SQ C7 C9 D7 D9",  # bella, and A K Q of spades
    "HA HT H9 CK CQ CJ D8 DT DQ",  # K Q J of clubs: below the Ace-high run
]


def test_deal_and_played_adds_bella_and_sequences():
    pos = position("klaberjass", trump="H", taker=0, deal=DEAL, played=[], scored=[5, 0])
    assert pos.scored == (45, 0)  # 5 given + 20 bella + 20 sequence
    pos = position("klaberjass", trump="H", taker=0, deal=DEAL, played=["SA", "DQ"])
    assert pos.scored == (40 + 11 + 3, 0) and pos.leader == 0


def test_deal_and_played_rejects_an_illegal_card():
    # pagat: seat 1 has no spade but holds trumps, so its CK on SA is illegal
    with pytest.raises(IllegalMoveError) as info:
        position("klaberjass", trump="H", taker=0, options={"rules": "pagat"}, deal=DEAL, played=["SA", "CK"])
    assert info.value.index == 1 and info.value.field == "played[1]"


# --- the contract: bate and half bate ---------------------------------------------------------------------


def test_settle():
    r = kb()
    assert r.settle([90, 80], "score") == [90, 80]  # the taker is above: each his own
    assert r.settle([80, 90], "score") == [0, 170]  # bate
    assert r.settle([81, 81], "score") == [0, 81]  # half bate, own
    assert kb(half_bate="seed").settle([81, 81], "score") == [0, 40]  # half of 81, rounded down
    assert r.settle([80, 90], "raw") == [80, 90]


def test_settle_taker_on_side_one():
    r = make_rules("klaberjass", "H", 1)
    assert r.settle([90, 80], "score") == [170, 0]
    assert r.settle([80, 90], "score") == [80, 90]
    assert r.settle([85, 85], "score") == [85, 0]


def test_settle_four_players_taker_seat_two():
    r = make_rules("klaberjass", "H", 2, players=4)  # seat 2 is side 0
    assert r.settle([80, 90], "score") == [0, 170]


def _last_trick(scored, **options):
    # seat 0's SA takes the last trick: 11 + 10
    pos = position("klaberjass", trump="H", taker=0, options=options, hands=["SA", "S7"], tricks=[4, 4], scored=scored)
    return play(pos, "SA S7")


def test_made_through_play():
    end = _last_trick([70, 80])  # 91 against 80
    assert end.final_scores() == [91, 80] and end.value_for(0) == 11


def test_bate_through_play():
    end = _last_trick([50, 81])  # 71 against 81
    assert end.final_scores() == [0, 152] and end.value_for(0) == -152


def test_half_bate_through_play():
    end = _last_trick([60, 81])  # 81 against 81
    assert end.final_scores() == [0, 81] and end.value_for(0) == -81
    assert end.with_objective("raw").value_for(0) == 0
    seed = _last_trick([60, 81], half_bate="seed")
    assert seed.final_scores() == [0, 40] and seed.value_for(1) == 40


# --- the reference search ----------------------------------------------------------------------------------


def test_reference_seed_against_pagat():
    # 2 players, 2 tricks. SA: under seed rules seat 1 throws C8 and keeps H9 for our HA:
    #   we get 11, it gets HA H9 + 10 = 35: -24.  Under pagat it must trump at once: it gets 25,
    #   then our HA takes its C8 lead: 21 - 25 = -4.
    # HA: H9 takes it (25), and the C8 lead wins over our SA (21 more): -46 either way.
    hands = ["SA HA", "H9 C8"]
    seed = position("klaberjass", trump="H", taker=0, hands=hands, tricks=[4, 3], objective="raw")
    pagat = position("klaberjass", trump="H", taker=0, options={"rules": "pagat"}, hands=hands, tricks=[4, 3], objective="raw")
    assert values(seed) == {"SA": -24, "HA": -46}
    assert values(pagat) == {"SA": -4, "HA": -46}


def test_reference_score_with_bate():
    # the same hands with 90 against 80 scored, objective score:
    # pagat, SA: seat 1 must trump: 90 + 21 = 111 against 80 + 25 = 105, made: +6.
    # seed, SA: seat 1 throws C8: 101 against 115, bate: seat 1 scores 216.  HA: 90 against 126, bate.
    hands = ["SA HA", "H9 C8"]
    seed = position("klaberjass", trump="H", taker=0, hands=hands, tricks=[4, 3], scored=[90, 80])
    pagat = position("klaberjass", trump="H", taker=0, options={"rules": "pagat"}, hands=hands, tricks=[4, 3], scored=[90, 80])
    assert values(seed) == {"SA": -216, "HA": -216}
    assert values(pagat) == {"SA": 6, "HA": -216}


# --- score objective: totals that add up to less than 0 ------------------------------------------


def test_score_with_totals_adding_up_below_zero_is_refused():
    # seat 1 (taker) led CQ, seat 0 must follow with C7; 12 points to come, final totals
    # adding up to -146: a bate (seat 0 scoring -146) is what the taker wants, which the
    # engine's search of the raw difference cannot see (it said -10; best play gives -14)
    fields = dict(options={"players": 2}, trump="S", taker=1, hands=["C7 HJ D8", "S8 H9"], trick=["CQ"], leader=1,
                  tricks=[2, 4])
    raw = position("klaberjass", **fields, scored=[-80, -81], objective="raw")
    assert values(replace(raw, objective="score")) == {"C7": -14}  # the reference search, past the check
    with pytest.raises(PositionError) as caught:
        position("klaberjass", **fields, scored=[-80, -81])
    assert caught.value.field == "scored"
    with pytest.raises(PositionError):
        position("klaberjass", **fields, scored=[-80, -81], objective="raw").with_objective("score")
    # the deal form: the sum is checked at the start of play
    with pytest.raises(PositionError):
        position("klaberjass", trump="H", taker=0, deal=["HA HK HQ HJ HT H9 H8 H7 SA", "SK SQ SJ ST S9 S8 S7 CA CK"],
                 scored=[-100, -100])


def test_score_with_negative_scored_adding_up_to_zero_or_more_matches_the_reference():
    # where the final totals add up to 0 or more the settlement rises with the raw
    # difference, so the engine's values hold even with a negative entry
    rng = random.Random("klaberjass-negative")
    checked = 0
    while checked < 60:
        players = rng.choice([2, 4])
        r = kb(players=players, half_bate=rng.choice(["own", "seed"]))
        deck = list(r.deck)
        rng.shuffle(deck)
        k = rng.randint(1, 3)
        tricks = [0, 0]
        for _ in range(r.hand_size - k):
            tricks[rng.randrange(2)] += 1
        scored = [rng.randint(-120, 60), rng.randint(-120, 60)]
        hands = [" ".join(map(str, deck[i * k:(i + 1) * k])) for i in range(players)]
        try:
            pos = position("klaberjass", options=r.options, trump="H", taker=rng.randrange(players), hands=hands,
                           leader=rng.randrange(players), tricks=tricks, scored=scored)
        except PositionError as refused:
            assert refused.field == "scored" and sum(scored) < 0
            continue
        assert {m.move: m.value for m in analyse(pos).moves} == values(pos)
        checked += 1


@pytest.mark.parametrize(("half_bate", "expected"), [("own", -81), ("seed", -40)])
def test_half_bate_through_the_engine(half_bate, expected):
    """The last trick: the taker's SA takes S7, 11 and 10 for the last trick: 60 + 21 = 81
    against 81, a tie, a half bate: the taker scores 0.  `own`: the opponent scores its
    own 81 (-81); `seed`: half the taker's total, rounded down, 40 (-40)."""
    pos = position("klaberjass", trump="H", taker=0, options={"half_bate": half_bate}, hands=["SA", "S7"],
                   tricks=[4, 4], scored=[60, 81])
    assert values(pos) == engine_values(pos) == {"SA": expected}


@pytest.mark.parametrize(
    ("rules", "score", "raw"),
    [("pagat", {"H7": -152}, {"H7": -10}), ("seed", {"D8": 32, "H7": -152}, {"D8": 32, "H7": -10})],
)
def test_four_players_a_partners_winning_card_and_the_trump_obligation(rules, score, raw):
    """Audit B, 4 players, the taker seat 0.  Seat 0 led SA, seat 1 followed S7; seat 2
    (its partner, winning) is void in spades and holds H7 D8.  pagat: "if you cannot
    follow, trump if you can", partner winning or not: H7.  seed: any card.
    H7: it takes SA S7 H7 S8, 11 (side 0: 71); seat 2 leads D8, seat 3's DA takes
    D8 DA C7 C8, 11 + 10 for the last trick (side 1: 81).  Bate: side 1 scores 152;
    raw 71 - 81 = -10.  D8: SA takes SA S7 D8 S8, 11; SA's seat leads C7, seat 2's H7
    trumps C7 C8 H7 DA, 11 + 10: side 0 92 against 60, made: 32."""
    fields = {"trump": "H", "taker": 0, "options": {"players": 4, "rules": rules},
              "hands": ["C7", "C8", "H7 D8", "S8 DA"], "trick": ["SA", "S7"], "leader": 0, "tricks": [3, 3],
              "scored": [60, 60]}
    pos = position("klaberjass", **fields)
    assert values(pos) == engine_values(pos) == score
    raw_pos = position("klaberjass", objective="raw", **fields)
    assert values(raw_pos) == engine_values(raw_pos) == raw
