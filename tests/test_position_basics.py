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
        for line in lines:
            assert load_position(json.loads(line)) == load_position(json.loads(line))


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
