"""`scored` and integer options at the limits the input accepts: the engine's values stay
exact there (they must never reach its infinity), and one step beyond is an error."""

from __future__ import annotations

import dataclasses
import random

import pytest

from solver import CardError, Engine, OptionError, PositionError, analyse, load_position
from solver.compile import NAT_KEY_LIMIT, SETTLE_NAT, build_spec
from solver.errors import VALUE_LIMIT
from solver.reference import reference_values

from .randompos import CONFIGS, position_count, random_positions


def at_the_limits(position, rng: random.Random):
    """`position` with each side's `scored` at +-VALUE_LIMIT (or, for Klaverjas's
    score objective, the largest total its table key allows), and Jass's match bonus
    at VALUE_LIMIT."""
    data = position.to_dict()
    if data["game"] == "jass":
        data["options"] = {**data.get("options", {}), "match_bonus": VALUE_LIMIT}
    scored = [rng.choice((VALUE_LIMIT, -VALUE_LIMIT)) for _ in position.scored]
    data["scored"] = scored
    if data["game"] == "klaverjas" and position.objective == "score":
        plain = dataclasses.replace(position, scored=(0,) * len(position.scored))
        spec = build_spec(plain)
        assert spec["settle"] == SETTLE_NAT
        data["scored"] = [largest_nat_total(plain)] * len(scored)
    return load_position(data)


def largest_nat_total(position) -> int:
    """The largest `scored` Klaverjas's score objective accepts here: found by asking."""
    for total in range(NAT_KEY_LIMIT, -1, -1):
        try:
            build_spec(dataclasses.replace(position, scored=(total,) * len(position.scored)))
        except PositionError:
            continue
        return total
    raise AssertionError("no total accepted")


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_values_at_the_input_limits_match_the_reference(game: str) -> None:
    rng = random.Random(f"limits-{game}")
    engine = Engine(4)
    checked = 0
    for position in random_positions(game, 6, seed="limits", max_tricks=3):
        extreme = at_the_limits(position, rng)
        expected = {str(card): value for card, value in reference_values(extreme).items()}
        got = {m.move: m.value for m in analyse(extreme, engine=engine).moves}
        assert got == expected, extreme.to_dict()
        checked += 1
    assert checked == position_count(game, 6)


def test_scored_beyond_the_limit_names_the_entry() -> None:
    base = {"game": "belote", "trump": "H", "hands": ["HJ H9", "HA ST", "H7 SK", "HK SQ"], "tricks": [4, 2]}
    with pytest.raises(PositionError) as info:
        load_position({**base, "scored": [0, VALUE_LIMIT + 1]})
    assert info.value.field == "scored[1]"
    with pytest.raises(PositionError) as info:
        load_position({**base, "scored": [-VALUE_LIMIT - 1, 0]})
    assert info.value.field == "scored[0]"
    assert analyse({**base, "scored": [VALUE_LIMIT, -VALUE_LIMIT]}).exact


def test_match_bonus_beyond_the_limit() -> None:
    with pytest.raises(OptionError) as info:
        load_position({"game": "jass", "trump": "H", "options": {"match_bonus": 10**12},
                       "hands": ["HJ", "HA", "H7", "HK"], "tricks": [4, 4]})
    assert info.value.field == "options.match_bonus"


def test_klaverjas_score_totals_the_key_cannot_hold() -> None:
    base = {"game": "klaverjas", "options": {"rules": "rotterdam"}, "trump": "H", "declarer": 1,
            "hands": ["CT S8", "SQ DA", "S9 H7", "CQ SJ"], "leader": 2, "tricks": [6, 0]}
    for scored, field in (([-1, 12], "scored[0]"), ([12, 4000], "scored[1]")):
        with pytest.raises(PositionError) as info:
            analyse({**base, "scored": scored})
        assert info.value.field == field
    # the raw objective adds the totals and has no such key
    assert analyse({**base, "scored": [-1, 4000], "objective": "raw"}).exact


def test_besigue_rejects_a_card_not_in_its_pack() -> None:
    data = {"game": "besigue", "trump": "S", "hands": ["CQ SA SK ST S8 HT H9 DQ D7", "S6 DK S7 HJ SK S7 HJ CJ CT"],
            "talon": [], "scored": [80, 120], "tricks": [13, 10]}
    with pytest.raises(CardError) as info:
        load_position(data)
    assert info.value.field == "hands[1]"
    assert "S6 is not a card of this game" in str(info.value)
