"""`analyse(..., exact_moves=...)`: the best moves, the value and the named moves
exact, every other move shown worse than the best, checked against the reference
search; and the analyses built on it (play analysis, trump table, puzzles) against
a full analysis of each position."""

from __future__ import annotations

import json
import random

import pytest

from solver import (
    CardError,
    Engine,
    IllegalMoveError,
    OptionError,
    Position,
    analyse,
    analyse_play,
    load_position,
    verify_puzzle,
)
from solver.analysis import has_transform, preference
from solver.features import start_of_deal
from solver.reference import reference_values

from .helpers import assert_line_reaches_the_value, make_rules, random_deal
from .randompos import CONFIGS, position_count, random_positions

PER_VALUE = 12


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_exact_moves_match_the_reference(game: str) -> None:
    rng = random.Random(game)
    engine = Engine(4)
    count = focused = 0
    for position in random_positions(game, PER_VALUE, seed=5, max_tricks=4):
        expected = {str(card): value for card, value in reference_values(position).items()}
        legal = sorted(expected)
        named = rng.sample(legal, rng.randint(0, min(2, len(legal))))
        result = analyse(position, engine=engine, exact_moves=named)
        count += 1
        top = max(preference(position, v) for v in expected.values())
        best = {m for m, v in expected.items() if preference(position, v) == top}
        assert result.exact and set(result.best) == best, position.to_dict()
        assert preference(position, result.value) == top
        for move in result.moves:
            if move.value is not None:
                assert move.value == expected[move.move], (position.to_dict(), move)
                continue
            # left unvalued: never a named or a best move, and its bounds hold it
            # and show it worse than the best
            focused += 1
            assert not has_transform(position) and move.move not in named and move.move not in best
            assert move.lower is not None and move.upper is not None
            assert move.lower <= expected[move.move] <= move.upper, (position.to_dict(), move)
            worst_end = move.upper if preference(position, 1) > preference(position, 0) else move.lower
            assert preference(position, worst_end) < top, (position.to_dict(), move)
        # the line of best play is kept: it reaches the value and the points
        assert_line_reaches_the_value(position, result)
        # every move named: every move exact, those merged with an equivalent card too
        every = analyse(position, engine=engine, exact_moves=legal)
        assert {m.move: m.value for m in every.moves} == expected, position.to_dict()
    assert count == position_count(game, PER_VALUE)
    assert focused > 0  # (Klaberjass's score has a transform, its raw objective none)


def test_a_named_card_merged_with_an_equivalent_one_is_valued() -> None:
    # S9 and S8 are equivalent (adjacent in play, no points): the search values S9
    # for both, and S9 is not a best move, so S9 must be valued exactly for S8
    position = Position.from_dict({
        "game": "jass", "trump": "H", "options": {"buur_exception": False}, "objective": "raw",
        "hands": ["CJ SK DK", "SA HK H9", "SQ S9 S8 DA", "CA CQ S6"], "trick": ["CK", "HJ", "D9"],
        "leader": 3, "scored": [51, 6], "tricks": [2, 3],
    })
    expected = {str(card): value for card, value in reference_values(position).items()}
    result = analyse(position, engine=Engine(1), exact_moves=["S8"])
    values = {m.move: m.value for m in result.moves}
    assert "S8" not in result.best and values["S8"] == values["S9"] == expected["S8"]


def test_exact_moves_are_checked() -> None:
    position = Position.from_dict({"game": "belote", "trump": "H", "hands": ["HT SA", "HJ SK", "HQ S9", "H7 S7"],
                                  "tricks": [4, 2]})
    cases = [("HJ", OptionError, "exact_moves"), (["ZZ"], CardError, "exact_moves[0]"),
             (["SA", "HJ"], IllegalMoveError, "exact_moves[1]"), ([7], CardError, "exact_moves[0]")]
    for moves, error, field in cases:
        with pytest.raises(error) as info:
            analyse(position, exact_moves=moves)
        assert info.value.field == field
    # checked too where every move is valued anyway (Klaberjass score, Bésigue)
    klaberjass = Position.from_dict({"game": "klaberjass", "trump": "H", "taker": 0, "hands": ["HT SA", "HJ SK"],
                                     "tricks": [4, 3]})
    with pytest.raises(IllegalMoveError) as info:
        analyse(klaberjass, exact_moves=["HJ"])
    assert info.value.field == "exact_moves[0]"
    with open("examples/besigue.jsonl") as lines:
        besigue = load_position(json.loads(lines.readline()))
    with pytest.raises(IllegalMoveError) as info:
        analyse(besigue, exact_moves=["pass", "ZZ"])
    assert info.value.field == "exact_moves[1]"
    # Card objects too, as Position.play takes them
    by_card = analyse(position, exact_moves=position.legal_moves())
    assert all(m.value is not None for m in by_card.moves)
    # cards are read as everywhere else ("sa", "H10")
    full = {m.move: m.value for m in analyse(position).moves}
    for named, card in ((["sa"], "SA"), (("H10",), "HT")):
        result = analyse(position, exact_moves=named)
        assert next(m.value for m in result.moves if m.move == card) == full[card]


PLAYED = [
    # game, trump, options, first card valued: games whose objective has no
    # transform, so that play analysis takes the focused search
    ("belote", "S", {}, 0),
    ("jass", "H", {}, 16),
    ("jass", "undeufe", {}, 20),
    ("putz", "C", {}, 9),
    ("bassadewitz", None, {}, 12),
    ("klaverjas", "D", {"rules": "amsterdam"}, 12),
]


@pytest.mark.parametrize(("game", "trump", "options", "first"), PLAYED)
def test_play_analysis_agrees_with_a_full_analysis_of_each_position(
    game: str, trump: str | None, options: dict, first: int
) -> None:
    rng = random.Random(f"{game}-{trump}")
    data: dict = {"game": game, "options": options, "deal": random_deal(make_rules(game, trump, **options), rng)}
    if trump is not None:
        data["trump"] = trump
    if game == "klaverjas":
        data["declarer"] = 1
    pos = start_of_deal(Position.from_dict({**data, "played": []}))
    played = []
    while pos.legal_moves():
        card = rng.choice(pos.legal_moves())
        played.append(str(card))
        pos = pos.play(card)
    data["played"] = played
    analysis = analyse_play(data, first=first, engine=Engine(8))
    assert analysis.exact and [c.card for c in analysis.cards] == played[first:]
    pos = start_of_deal(Position.from_dict(data))
    for card in played[:first]:
        pos = pos.play(card)
    mistakes = 0
    for card in analysis.cards:
        full = analyse(pos, engine=Engine(1))
        assert card.before == full.value and card.best == full.best
        assert card.after == next(m.value for m in full.moves if m.move == card.card)
        assert card.lost == preference(pos, full.value) - preference(pos, card.after) >= 0
        assert card.forced == (len(full.moves) == 1)
        mistakes += card.lost > 0
        pos = pos.play(card.card)
    assert mistakes > 0  # random play: the cards that lose are valued too


def test_a_puzzle_reports_the_claimed_moves_exactly() -> None:
    rng = random.Random(3)
    position = Position.from_dict({"game": "jass", "trump": "S", "hands": random_deal(make_rules("jass", "S"), rng)})
    for _ in range(20):  # into the fifth trick: four tricks left
        position = position.play(rng.choice(position.legal_moves()))
    full = analyse(position)
    values = {m.move: m.value for m in full.moves}
    claimed = [m.move for m in full.moves][-2:]  # the two worst
    verdict = verify_puzzle(position, {"best": claimed})
    assert verdict.exact and verdict.value == full.value and verdict.best == full.best
    assert [(m.move, m.value) for m in verdict.claimed] == [(m, values[m]) for m in claimed]
    assert verdict.best_holds == all(m in full.best for m in claimed)


@pytest.mark.parametrize("game", ["jass", "putz", "klaverjas"])
def test_exact_moves_under_a_node_limit_keep_sound_bounds(game: str) -> None:
    # deep enough for the limit (checked every 4,096 nodes) to stop the search; the
    # full analysis, held against the reference elsewhere, gives the true values
    limited = 0
    for position in random_positions(game, 1, seed=6, min_tricks=6, max_tricks=7):
        expected = {m.move: m.value for m in analyse(position, engine=Engine(8)).moves}
        named = [str(position.legal_moves()[0])]
        for node_limit in (1, 10_000):
            result = analyse(position, engine=Engine(1), exact_moves=named, node_limit=node_limit)
            limited += not result.exact
            for move in result.moves:
                if move.value is not None:
                    assert move.value == expected[move.move]
                else:
                    assert move.lower is not None and move.upper is not None
                    assert move.lower <= expected[move.move] <= move.upper, (position.to_dict(), move)
    assert limited > 0
