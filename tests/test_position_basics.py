"""Positions as values: equality, and how leniently names and cards are read."""

from __future__ import annotations

import json

import pytest

from solver import CardError, Position, PositionError, load_position
from solver.cards import Card

from .test_features import EXAMPLE


def test_positions_read_from_the_same_dict_are_equal() -> None:
    first, second = Position.from_dict(EXAMPLE), Position.from_dict(EXAMPLE)
    assert first == second and hash(first) == hash(second)
    assert Position.from_dict(first.to_dict()) == first
    assert first.play("S8") == second.play("S8") != first
    assert Position.from_dict({**EXAMPLE, "options": {"rules": "rotterdam"}}) != first
    assert len({first, second, first.play("S8")}) == 2
    with open("examples/besigue.jsonl") as lines:
        besigue = [json.loads(line) for line in lines]
    for data in besigue:
        position = load_position(data)
        assert position == load_position(json.loads(json.dumps(data))) and hash(position) == hash(load_position(data))
        assert Position.from_dict(EXAMPLE) != position
        now = position.to_dict()  # the hands form (a deal's replay needs its own talon order)
        assert load_position(now) == position
        if len(position.talon) > 2:  # the order of the draws (the last card, the retourne, kept): another position
            reordered = load_position({**now, "talon": now["talon"][-2::-1] + now["talon"][-1:]})
            assert reordered != position and reordered.talon != position.talon
        assert load_position({**now, "scored": [1 + s for s in now["scored"]]}) != position
    # the example positions differ from one another
    assert len({load_position(data) for data in besigue}) == len(besigue) == 4


@pytest.mark.parametrize(
    ("game", "fields"),
    [
        ("belote", {"trump": "H"}),
        ("klaberjass", {"trump": "S", "taker": 1}),
        ("jass", {"trump": "C", "options": {"match_bonus": 100}}),
    ],
)
def test_a_replayed_position_reads_back_from_its_deal_form(game: str, fields: dict) -> None:
    """to_deal_dict gives back what was read, even where play took `scored` past the
    10,000 that the hands form allows (to_dict's form is then refused)."""
    from .test_features import deal_of

    deal = deal_of(game, 5)
    start = Position.from_dict({"game": game, **fields, "deal": deal, "played": [], "scored": [10_000, -10_000]})
    position, moves = start, []
    while len(moves) < 2 * start.rules.n_players + 1:  # two tricks and a card
        card = position.legal_moves()[-1]
        moves.append(str(card))
        position = position.play(card)
    replayed = Position.from_dict({"game": game, **fields, "deal": deal, "played": moves, "scored": [10_000, -10_000]})
    data = replayed.to_deal_dict()
    assert data["deal"] == deal and data["played"] == moves and data["scored"] == [10_000, -10_000]
    again = Position.from_dict(data)
    assert again == replayed == position and again.played == replayed.played
    assert again.start_of_deal() == start
    if replayed.scored[0] > 10_000:  # points taken by side 0
        with pytest.raises(PositionError) as info:
            Position.from_dict(replayed.to_dict())
        assert info.value.field == "scored[0]"
    with pytest.raises(PositionError) as info:
        Position.from_dict(EXAMPLE).to_deal_dict()
    assert info.value.field == "deal"


@pytest.mark.parametrize(("given", "trump"), [("h", "H"), ("H", "H"), ("Obenabe", "obenabe"), ("UNDEUFE", "undeufe")])
def test_trumps_in_either_case(given: str, trump: str) -> None:
    hands = ["HJ H9", "HA HK", "SA SK", "CA CK"]
    position = Position.from_dict({"game": "jass", "trump": given, "hands": hands, "tricks": [4, 3]})
    assert position.rules.trump == trump


def test_a_trump_that_only_unicode_case_folding_would_match_is_refused() -> None:
    with pytest.raises(PositionError) as info:
        Position.from_dict({"game": "jass", "trump": "obenabe\u0130", "hands": ["HJ", "HA", "SA", "CA"], "tricks": [4, 4]})
    assert info.value.field == "trump"


@pytest.mark.parametrize("token", ["\ufb05", "\u017fj", "H\u00a0J", "HJJ", ""])
def test_only_ascii_card_names(token: str) -> None:
    """str.upper() reads the ligature "st" as ST and the long s as S: not cards."""
    with pytest.raises(CardError):
        Card.parse(token)
    assert Card.parse(" hj ") == Card.parse("HJ") and str(Card.parse("h10")) == "HT"


def test_playing_what_is_not_a_card_is_a_card_error() -> None:
    position = Position.from_dict(EXAMPLE)
    for move in (5, None, "XX"):
        with pytest.raises(CardError) as info:
            position.play(move)  # type: ignore[arg-type]
        assert info.value.field == "move"
