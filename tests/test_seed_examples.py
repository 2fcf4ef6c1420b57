"""The seeds' worked examples and RULES.md's rules that had no hand-checked test.

Each expectation is worked out by hand from the seed or RULES.md (the arithmetic is in
the comments) and asserted on the library's own answer: a position played to its end,
or `analyse`.  The examples and rules already checked by hand elsewhere are in
test_rules_*.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver import analyse
from solver.besigue import BesiguePosition
from solver.cards import deck
from solver.games import get_game

from .besigue_random import random_deal as random_besigue_deal
from .helpers import engine_values, play, position, random_playout


def besigue(**fields: Any) -> BesiguePosition:
    return BesiguePosition.from_dict({"game": "besigue", "trump": "H", **fields})


# --- every game: options, objectives, the first lead ------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "objectives"),
    [
        ("bassadewitz", {"jacks": "trumps", "scoring": "standard"}, ("points", "all_tricks")),
        ("jass", {"match_bonus": 100, "buur_exception": True}, ("score", "raw")),
        ("putz", {"players": 3, "buur_exception": True}, ("points", "pomme")),
        ("besigue", {"phase1": "seed"}, ("score", "raw")),
        ("klaverjas", {"rules": "rotterdam", "roem_order": "natural", "nat_on_tie": False}, ("score", "raw")),
        ("klaberjass", {"players": 2, "rules": "seed", "half_bate": "own"}, ("score", "raw")),
        ("belote", {}, ("score", "raw")),
    ],
)
def test_option_defaults_and_objectives_are_those_of_rules_md(game: str, options: dict[str, Any],
                                                                objectives: tuple[str, ...]) -> None:
    """RULES.md: each game's options with their defaults, and its objectives, default first."""
    rules = get_game(game)
    assert rules.check_options({}) == options
    assert rules.OBJECTIVES == objectives


DEALS: dict[str, tuple[dict[str, Any], int, str]] = {
    "bassadewitz": ({}, 4, "AKQJT987"),
    "jass": ({"trump": "H"}, 4, "AKQJT9876"),
    "putz": ({"trump": "H"}, 3, "AKQJT9876"),
    "klaverjas": ({"trump": "H", "declarer": 1}, 4, "AKQJT987"),
    "klaberjass": ({"trump": "H", "taker": 1}, 2, "AKQJT987"),
    "belote": ({"trump": "H"}, 4, "AKQJT987"),
}


@pytest.mark.parametrize("game", sorted(DEALS))
def test_seat_zero_leads_the_first_trick(game: str) -> None:
    """RULES.md: "Seat 0 leads" in every card game (seed 001: the dealer's left-hand
    player leads, even when his partner chose trump: here the contract seat is 1)."""
    fields, seats, ranks = DEALS[game]
    cards = [str(c) for c in deck(ranks)]
    size = 9 if game in ("jass", "putz", "klaberjass") else 8
    hands = [" ".join(cards[i * size:(i + 1) * size]) for i in range(seats)]
    start = position(game, deal=hands, played=[], **fields)
    assert start.to_move == 0 and start.leader == 0


# --- the engine on the rules tests' hand-checked values ----------------------------------------


@pytest.mark.parametrize(
    ("game", "fields", "expected"),
    [
        # test_rules_jass.py::test_reference_two_tricks_score
        ("jass", {"trump": "H", "hands": ["SA S6", "SK S7", "ST S8", "SQ S9"], "tricks": [4, 3], "scored": [50, 40]},
         {"SA": 19, "S6": 29}),
        # test_rules_jass.py::test_putz_reference_points_and_pomme
        ("putz", {"trump": "H", "hands": ["SA S6", "ST S7", "SK S8"], "tricks": [2, 3, 2], "scored": [5, 40, 40]},
         {"SA": 16, "S6": 21}),
        ("putz", {"trump": "H", "hands": ["SA S6", "ST S7", "SK S8"], "tricks": [2, 3, 2], "scored": [5, 40, 40],
                  "objective": "pomme"}, {"SA": False, "S6": True}),
        # test_rules_jass.py::test_putz_five_players_reference_points_and_pomme
        ("putz", {"trump": "H", "options": {"players": 5}, "hands": ["SA S6", "ST S7", "SK S8", "SQ S9", "SJ C6"],
                  "tricks": [1, 1, 1, 1, 1], "scored": [8, 0, 0, 0, 0]}, {"SA": 21, "S6": 8}),
        # test_rules_klaverjas.py::test_reference_score_and_raw
        ("klaverjas", {"trump": "H", "declarer": 0, "hands": ["SA S7", "HJ S8", "SK D7", "ST D8"], "tricks": [3, 3],
                       "scored": [70, 60]}, {"SA": 5, "S7": -185}),
        ("klaverjas", {"trump": "H", "declarer": 0, "hands": ["SA S7", "HJ S8", "SK D7", "ST D8"], "tricks": [3, 3],
                       "scored": [70, 60], "objective": "raw"}, {"SA": 5, "S7": -45}),
        # test_rules_klaberjass.py::test_reference_seed_against_pagat and ::test_reference_score_with_bate
        ("klaberjass", {"trump": "H", "taker": 0, "hands": ["SA HA", "H9 C8"], "tricks": [4, 3], "objective": "raw"},
         {"SA": -24, "HA": -46}),
        ("klaberjass", {"trump": "H", "taker": 0, "options": {"rules": "pagat"}, "hands": ["SA HA", "H9 C8"],
                        "tricks": [4, 3], "objective": "raw"}, {"SA": -4, "HA": -46}),
        ("klaberjass", {"trump": "H", "taker": 0, "hands": ["SA HA", "H9 C8"], "tricks": [4, 3], "scored": [90, 80]},
         {"SA": -216, "HA": -216}),
        ("klaberjass", {"trump": "H", "taker": 0, "options": {"rules": "pagat"}, "hands": ["SA HA", "H9 C8"],
                        "tricks": [4, 3], "scored": [90, 80]}, {"SA": 6, "HA": -216}),
        # test_rules_belote.py::test_reference_capot_needs_the_partner_discard
        ("belote", {"trump": "H", "hands": ["SA S7", "SK H7", "HJ C7", "D7 D8"], "tricks": [6, 0], "scored": [117, 0]},
         {"SA": 252, "S7": 120}),
        # test_rules_bassadewitz.py::test_reference_points_lowest_is_best, ::..._old_scoring, ::..._all_tricks
        ("bassadewitz", {"hands": ["S7 CJ", "S8 HA", "HT DA", "DT SK"], "tricks": [2, 2, 1, 1],
                         "scored": [10, 30, 40, 40]}, {"CJ": 58, "S7": 44}),
        ("bassadewitz", {"options": {"scoring": "old"}, "hands": ["S7 CJ", "S8 HA", "HT DA", "DT SK"],
                         "tricks": [2, 2, 1, 1], "scored": [10, 30, 40, 40]}, {"CJ": 48, "S7": 38}),
        ("bassadewitz", {"hands": ["CJ SA", "SJ HA", "HT DA", "DT SK"], "tricks": [6, 0, 0, 0],
                         "objective": "all_tricks"}, {"CJ": True, "SA": False}),
    ],
)
def test_the_engine_gives_the_hand_checked_values_of_the_rules_tests(game: str, fields: dict[str, Any],
                                                                      expected: dict[str, Any]) -> None:
    """These hand-worked values were asserted on the reference search only."""
    assert engine_values(position(game, **fields)) == expected


# --- Bassadewitz (seed 000) ------------------------------------------------------------------------


def test_all_tricks_is_lost_with_a_trick_taken_by_another_seat() -> None:
    """Seed 000: D wants "rafler toutes les levées" after A took the first trick; RULES.md
    `all_tricks` counts the tricks taken before the position (docs/rules-choices.md): the
    same two cards that win every trick from tricks [6, 0, 0, 0] (test_rules_bassadewitz)
    give `false` once seat 1 has a trick."""
    pos = position("bassadewitz", objective="all_tricks", hands=["CJ SA", "SJ HA", "HT DA", "DT SK"],
                   tricks=[5, 1, 0, 0])
    assert engine_values(pos) == {"CJ": False, "SA": False}


def test_old_scoring_hundred_points_count_the_trick_points() -> None:
    """Seed 000's old variant: A 5 and 1 a trick.  Seat 0 (94 points, 3 tricks) takes the
    last trick CA C7 C8 C9: 5 + 1 = 6, 100 in all without every trick: it pays 4 to each
    other seat and the pool stays (RULES.md; docs/rules-choices.md: the trick points count)."""
    pos = position("bassadewitz", options={"scoring": "old"}, hands=["CA", "C7", "C8", "C9"], tricks=[3, 2, 2, 0],
                   scored=[94, 3, 4, 0])
    end = play(pos, "CA C7 C8 C9")
    assert end.final_scores() == [100, 3, 4, 0]
    assert pos.rules.settlement_info(end.final_scores(), end.tricks) == {
        "from_pool": [0, 0, 0, 0], "between_players": [-12, 4, 4, 4], "pool_stays": True}


def test_old_scoring_sweep_is_104_and_is_paid_not_paying() -> None:
    """Old variant, seat 0 with 7 tricks and 98 points takes the last: CA 5 + 1 = 104, the
    whole deal (4 x 24 + 8).  It took every trick: 4 from each other seat, and its 104
    points do not make it pay."""
    pos = position("bassadewitz", options={"scoring": "old"}, hands=["CA", "C7", "C8", "C9"], tricks=[7, 0, 0, 0],
                   scored=[98, 0, 0, 0])
    end = play(pos, "CA C7 C8 C9")
    assert end.final_scores() == [104, 0, 0, 0]
    assert pos.rules.settlement_info(end.final_scores(), end.tricks) == {
        "from_pool": [0, 0, 0, 0], "between_players": [12, -4, -4, -4], "pool_stays": True}


# --- Jass and Putz (seed 001) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "tricks", "expected"),
    [
        # a trump game: SA wins for side 0, 11 + 5 for the last trick
        ("H", [4, 4], 16),
        ("H", [8, 0], 116),  # and the match bonus: side 0 took all 9 tricks
        # obenabe: SA wins, S8 is worth 8: 8 + 11 + 5
        ("obenabe", [4, 4], 24),
        ("obenabe", [8, 0], 124),
        # undeufe: S6 is the highest spade, for side 1; S8 8, S6 11, SA 0, C6 11, + 5 = 35
        ("undeufe", [4, 4], -35),
        ("undeufe", [8, 0], -35),  # side 0 took 8 tricks, not 9: no match bonus for anyone
    ],
)
def test_one_last_trick_in_each_trump_mode(trump: str, tricks: list[int], expected: int) -> None:
    """RULES.md, Jass: ranks and points of a trump game, obenabe and undeufe, last trick 5,
    match bonus 100 (seed 001: "Le dernier pli vaut 5 points")."""
    pos = position("jass", trump=trump, hands=["S8", "S6", "SA", "C6"], tricks=tricks)
    assert engine_values(pos) == {"S8": expected}
    assert play(pos, "S8 S6 SA C6").value_for(0) == expected


def test_stock_and_weis_come_in_scored_not_from_the_deal() -> None:
    """RULES.md: in a deal + played position the solver adds belote, bella, sequences and
    the retourne 7, but Jass's Stöck (trump K and Q in one hand) and Weis come in `scored`:
    seat 0's HK HQ and its four-card spade run add nothing by themselves."""
    deal = ["HK HQ SA SK SQ SJ ST S9 S8", "HA HT H9 H8 H7 H6 S7 S6 CA",
            "CK CQ CJ CT C9 C8 C7 C6 HJ", "DA DK DQ DJ DT D9 D8 D7 D6"]
    assert position("jass", trump="H", deal=deal, played=[]).scored == (0, 0)
    assert position("jass", trump="H", deal=deal, played=[], scored=[20, 0]).scored == (20, 0)


def test_putz_three_players_the_kitty_is_out_of_play() -> None:
    """RULES.md, Putz: "3 players: 9 cards each; the other 9 (the kitty) are out of play".
    With the nine diamonds in the kitty (11 + 4 + 3 + 2 + 10 = 30 points) a deal is worth
    152 - 30 + 5 for the last trick = 127, however it is played."""
    rng = random.Random("putz-3")
    cards = [str(c) for c in deck("AKQJT9876") if c.suit != "D"]
    for _ in range(10):
        rng.shuffle(cards)
        pos = position("putz", trump="H", hands=[" ".join(cards[i * 9:(i + 1) * 9]) for i in range(3)])
        end = random_playout(pos, rng)
        assert sum(end.tricks) == 9 and sum(end.scored) == 127


def test_putz_five_players_the_turned_card_is_out_of_play() -> None:
    """RULES.md, Putz: "5 players: 7 cards each; the 36th card, turned for trump, is out of
    play".  With the HJ turned (hearts trump, 20 points) a deal is 152 - 20 + 5 = 137."""
    rng = random.Random("putz-5")
    cards = [str(c) for c in deck("AKQJT9876") if str(c) != "HJ"]
    for _ in range(10):
        rng.shuffle(cards)
        pos = position("putz", trump="H", options={"players": 5},
                       hands=[" ".join(cards[i * 7:(i + 1) * 7]) for i in range(5)])
        end = random_playout(pos, rng)
        assert sum(end.tricks) == 7 and sum(end.scored) == 137


# --- Bésigue (seed 002) ---------------------------------------------------------------------------

OPPONENT = "CA CK DA DK CQ DQ CJ DJ"  # no trump (hearts), nothing to declare


def declaring(hand: str, talon: list[str]) -> BesiguePosition:
    """Seat 0 won the last phase-1 trick and declares; it holds `hand` (8 cards)."""
    return besigue(hands=[hand, OPPONENT], talon=talon, to_declare=0,
                   tricks=[12, (46 - len(talon)) // 2 + 1 - 12])


@pytest.mark.parametrize("hand", ["CT ST HT DT C9 S9 H9 D9", "C8 S8 H8 D8 C7 S7 D7 S7", "CT CT ST ST C9 C9 S9 S9"])
def test_four_tens_nines_eights_or_sevens_are_no_meld(hand: str) -> None:
    """Seed 002: "Les carrés de 10, de 9, de 8 et de 7 n'ont aucune valeur" (duplicates
    too: any four cards of a rank)."""
    assert declaring(hand, ["SJ", "DA", "SA", "H9"]).legal_moves() == ["pass"]


def test_the_trump_marriage_first_and_the_sequence_later_is_40_more() -> None:
    """Seed 002's advice: laying the trump marriage first, to form the sequence later,
    risks 250 points "pour avoir voulu marquer 40 points supplémentaires".  Here it works:
    the marriage 40; then SA led and DA under it (same rank: the leader wins), 10 + 10
    brisques; then the sequence from the married K and Q, 250: 40 + 20 + 250 = 310."""
    pos = declaring("HK HQ HA HT HJ SA C8 C9", ["SJ", "DT", "S9", "D9", "C8", "H9"])
    pos = pos.play("meld:marriage:HK HQ")
    assert list(pos.scored) == [40, 0]
    pos = pos.play("SA").play("DA")
    assert pos.to_declare == 0
    assert pos.legal_moves() == ["meld:sequence:HA HK[marriage] HQ[marriage] HJ HT", "pass"]
    assert list(pos.play("meld:sequence:HA HK[marriage] HQ[marriage] HJ HT").scored) == [310, 0]


def test_the_loser_of_the_last_phase1_trick_takes_the_retourne() -> None:
    """Seed 002: when the talon runs out, "le joueur dont c'est le tour de prendre une
    carte s'empare de la retourne": the winner draws SJ, the loser the retourne H9."""
    after = declaring("SA C8 C9 S9 D9 C7 S8 D8", ["SJ", "H9"]).play("pass")
    assert after.phase == 2 and not after.talon
    assert "SJ" in [str(c) for c in after.hands[0]] and "H9" in [str(c) for c in after.hands[1]]


def test_the_dealer_is_seat_1_unless_given() -> None:
    """RULES.md: `dealer` default seat 1: seat 0, its opponent, leads the first trick, and
    a turned-up 7 scores 10 for seat 1."""
    pack = [str(c) for c in deck("AKQJT987")] * 2
    hands = [pack[0:16:2] + ["HA"], pack[1:16:2] + ["HT"]]
    for card in hands[0] + hands[1] + ["H7"]:
        pack.remove(card)
    start = BesiguePosition.from_dict({"game": "besigue", "trump": "H", "deal": [" ".join(h) for h in hands],
                                       "talon": pack + ["H7"], "played": []})
    assert start.to_move == 0 and list(start.scored) == [0, 10]


def test_keep_the_strongest_trump_for_the_last_trick() -> None:
    """Seed 002's advice for phase 2: "conserver son plus fort Atout pour la fin, afin
    d'essayer de réaliser la dernière levée et marquer les Dix de der".  Two tricks left,
    hearts trump, seat 0 leads.  HA first: H9 must follow (it cannot win), 10 to seat 0;
    then C8 must take C7 and the last trick: 10 - 10 = 0.  C7 first: C8 must take it (no
    points), seat 1 leads H9 and the HA takes it with the last trick: 20."""
    position = besigue(hands=["HA C7", "H9 C8"], talon=[], tricks=[15, 15], leader=0)
    result = analyse(position)
    assert [(m.move, m.value) for m in result.moves] == [("C7", 20), ("HA", 0)]
    assert result.line == ("C7", "C8", "H9", "HA") and result.points == (20, 0)


@pytest.mark.parametrize("seed", range(4))
def test_a_deal_without_declarations_is_170_points(seed: int) -> None:
    """Seed 002, "Fin du coup": 10 for each brisque won and 10 for the last trick; two
    packs hold 8 Aces and 8 Tens: 160 + 10 = 170, and 10 more for the dealer when the
    retourne is a 7.  Every declaration passed: nothing else scores."""
    rng = random.Random(seed)
    pos = random_besigue_deal(rng)
    retourne_seven = pos.talon[-1].rank == "7"
    while not pos.is_over:
        pos = pos.play("pass" if pos.to_declare is not None else rng.choice(pos.legal_moves()))
    assert sum(pos.tricks) == 32
    assert sum(pos.scored) == 170 + (10 if retourne_seven else 0)


# --- Klaverjas (seed 003) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roem_order", "objective", "expected"),
    [
        # rank order J 9 A T: a run of 4, 50: side 1 has 70 + 55 + 10 + 50 = 185 against 60:
        # nat, side 1 scores 245; raw 60 - 185
        ("rank", "score", -245),
        ("rank", "raw", -125),
        # natural order: 9 T J is a run of 3, 20, the Ace apart: 70 + 65 + 20 = 155: nat, 215; raw 60 - 155
        ("natural", "score", -215),
        ("natural", "raw", -95),
    ],
)
def test_seed_example_ten_ace_nine_jack_of_trump_through_the_engine(roem_order: str, objective: str,
                                                                     expected: int) -> None:
    """Seed 003: "dix, as, neuf, valet de carreau avec un atout carreau" as the last trick:
    DJ (seat 3) wins DT 10 + DA 11 + D9 14 + DJ 20 = 55, and 10 for the last trick."""
    pos = position("klaverjas", trump="D", declarer=0, options={"roem_order": roem_order}, objective=objective,
                   hands=["DT", "DA", "D9", "DJ"], tricks=[4, 3], scored=[60, 70])
    assert engine_values(pos) == {"DT": expected}


def test_a_nat_gives_the_declarers_roem_to_the_defenders() -> None:
    """Seed 003, "dedans": the defenders get everything, "également les points
    supplémentaires des éventuelles combinaisons".  The declarers' SA takes SQ S7 SA SK,
    3 + 0 + 11 + 4 + 10 = 28 with 20 roem (Q K A): 20 + 48 = 68 against 100: nat, the
    defenders score 168 (-168); raw 68 - 100 = -32."""
    fields = {"trump": "H", "declarer": 0, "hands": ["SQ", "S7", "SA", "SK"], "tricks": [4, 3], "scored": [20, 100]}
    assert engine_values(position("klaverjas", **fields)) == {"SQ": -168}
    assert engine_values(position("klaverjas", objective="raw", **fields)) == {"SQ": -32}


# Seat 0 led SA, seat 1 followed S7; seat 2 (seat 0's partner, winning) has no spade.
PARTNER_WINS = {"trump": "H", "declarer": 0, "hands": ["D7", "DA", "H7 C8", "S8 CA"], "trick": ["SA", "S7"],
                "leader": 0, "tricks": [3, 3], "scored": [70, 60]}


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ("rotterdam", {"H7": -173}),
        ("amsterdam", {"C8": 53, "H7": -173}),
        ("seed", {"C8": 53, "H7": -173}),
    ],
)
def test_the_partner_may_keep_its_trump_except_in_rotterdam(rules: str, expected: dict[str, int]) -> None:
    """H7: seat 2 trumps its partner's SA (11 for side 0) and must lead C8, which seat 3's
    CA takes with DA: 11 + 11 + 10 = 32.  81 against 92: nat, side 1 scores 173.
    C8 (Amsterdam: partner winning, any card; seed: no trump on the trick, any card): SA
    wins 11; seat 0 leads D7, DA, seat 2 trumps with H7, CA: 22 + 10 for side 0.
    70 + 43 = 113 against 60, made: 53."""
    pos = position("klaverjas", options={"rules": rules}, **PARTNER_WINS)
    assert engine_values(pos) == expected


# Seat 0 led HA (trump), seat 1 H7; seat 2 holds H9 and HT, seat 3 HJ and SA.
TRUMP_LEAD = {"trump": "H", "declarer": 0, "hands": ["D7", "D8", "H9 HT", "HJ SA"], "trick": ["HA", "H7"],
              "leader": 0, "tricks": [3, 3], "scored": [66, 60]}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, {"H9": -202}),
        ({"rules": "seed"}, {"HT": 0, "H9": -202}),
        ({"rules": "seed", "nat_on_tie": True}, {"HT": -202, "H9": -202}),
    ],
)
def test_seed_rules_beat_only_the_previous_trump(options: dict[str, Any], expected: dict[str, int]) -> None:
    """Rotterdam: beat the highest trump, HA: only H9.  HJ takes HA H7 H9, 11 + 14 + 20 = 45;
    then SA led, HT trumps it: 11 + 10 + 10 = 31.  66 + 31 = 97 against 105: nat, -202.
    Seed rules: beat the previous card, H7: HT too.  HJ takes 11 + 10 + 20 = 41; H9 trumps
    SA: 11 + 14 + 10 = 35.  101 against 101: made ("autant ou plus"), 0; with nat_on_tie,
    nat: -202."""
    pos = position("klaverjas", options=options, **TRUMP_LEAD)
    assert engine_values(pos) == expected


# --- Klaberjass (seed 004) -----------------------------------------------------------------------


def test_two_players_leave_fourteen_cards_out_of_play() -> None:
    """RULES.md: 2 players hold 9 cards each, the other 14 are out of play; bella and
    sequences come from the deal.  Hearts trump: seat 0's cards are worth HK 4 + HQ 3 +
    SA 11 + SK 4 + SQ 3 = 25, seat 1's HA 11 + HT 10 + H9 14 + CK 4 + CQ 3 + CJ 2 + DT 10
    + DQ 3 = 57; with 10 for the last trick, seat 0's bella 20 and its A K Q of spades 20
    (above seat 1's K Q J of clubs), any play ends on 25 + 57 + 10 + 40 = 132."""
    deal = ["HK HQ SA SK SQ C7 C9 D7 D9", "HA HT H9 CK CQ CJ D8 DT DQ"]
    rng = random.Random("klaberjass-2")
    for rules in ("seed", "pagat"):
        for _ in range(10):
            start = position("klaberjass", trump="H", taker=0, options={"rules": rules}, deal=deal, played=[],
                             objective="raw")
            end = random_playout(start, rng)
            assert sum(end.tricks) == 9 and sum(end.scored) == 132


def test_analyse_reports_the_hand_checked_points_of_a_made_contract() -> None:
    """The `points` of a result are the final scores along a best line: Klaberjass, the
    taker's SA takes S7, 11 + 10: 70 + 21 = 91 against 80, made, each his own."""
    result = analyse(position("klaberjass", trump="H", taker=0, hands=["SA", "S7"], tricks=[4, 4], scored=[70, 80]))
    assert result.value == 11 and result.points == (91, 80)


def test_format_md_example_by_hand() -> None:
    """FORMAT.md's example (Amsterdam, hearts trump, seat 1 to play on SA), by hand.
    S8: SA S8 SK S9 for side 0, 15.  HJ D8 H7 HT (seat 2 and 3 must follow trumps), 30.
    Seat 0 keeps H9 and leads S7: ST wins CQ and DK, 10 + 3 + 4 = 17 for side 1.  CK led:
    DA, C8, and seat 0, void in clubs, trumps with H9: 4 + 11 + 14 + 10 = 39.  Side 0:
    45 + 84 = 129, side 1: 16 + 17 = 33, -96.  (Leading H9 before S7 lets the ST take
    the last trick, 27: only 74 for side 0.)  ST instead: 25 on the first trick, and S8
    takes only S7 CQ DK, 7: 45 + 94 = 139 against 23, -116.  No trick holds roem."""
    pos = position("klaverjas", options={"rules": "amsterdam"}, trump="H", declarer=0,
                   hands=["HJ H9 S7", "ST S8 CK D8", "H7 SK CQ DA", "HT S9 C8 DK"], trick=["SA"], leader=0,
                   scored=[45, 16], tricks=[3, 1])
    result = analyse(pos)
    assert {m.move: m.value for m in result.moves} == {"S8": -96, "ST": -116}
    assert result.points == (129, 33)
    line = "S8 SK S9 HJ D8 H7 HT S7 ST CQ DK CK DA C8 H9"
    assert play(pos, line).final_scores() == [129, 33]
