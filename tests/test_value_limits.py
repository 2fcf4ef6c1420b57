"""`scored` and integer options at the limits the input accepts: the engines' values stay
exact there (they must never reach their infinity), and one step beyond is an error."""

from __future__ import annotations

import random

import pytest

from solver import BesiguePosition, CardError, Engine, OptionError, PositionError, analyse, load_position
from solver.besigue import reference_values as besigue_reference_values
from solver.compile import SETTLE_NAT, build_spec
from solver.errors import MATCH_BONUS_LIMIT, VALUE_LIMIT
from solver.position import NAT_KEY_LIMIT
from solver.reference import reference_values

from .besigue_random import play_until, random_deal
from .randompos import CONFIGS, position_count, random_positions


def at_the_limits(position, rng: random.Random):
    """`position` with each side's `scored` at +-VALUE_LIMIT (or, for Klaverjas's
    score objective, the largest total its table key allows), and Jass's match bonus
    at its limit."""
    data = position.to_dict()
    if data["game"] == "jass":
        data["options"] = {**data.get("options", {}), "match_bonus": MATCH_BONUS_LIMIT}
    scored = [rng.choice((VALUE_LIMIT, -VALUE_LIMIT)) for _ in position.scored]
    data["scored"] = scored
    if data["game"] == "klaberjass" and position.objective == "score" and sum(scored) < 0:
        data["scored"] = [VALUE_LIMIT, -VALUE_LIMIT]  # its totals may not add up to less than 0
    if data["game"] == "klaverjas" and position.objective == "score":
        assert build_spec(position)["settle"] == SETTLE_NAT
        data["scored"] = [largest_nat_total(data)] * len(scored)
    return load_position(data)


def largest_nat_total(data: dict) -> int:
    """The largest `scored` Klaverjas's score objective accepts here: found by asking."""
    for total in range(NAT_KEY_LIMIT, -1, -1):
        try:
            load_position({**data, "scored": [total] * len(data["scored"])})
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


@pytest.mark.parametrize("objective", ["score", "raw"])
def test_jass_values_with_a_match_still_possible_at_the_limits(objective: str) -> None:
    """The largest values there are: one side at +VALUE_LIMIT, the other at -VALUE_LIMIT,
    every trick so far to one side, so that it can still make the match and its bonus."""
    rng = random.Random(f"match-{objective}")
    engine = Engine(4)
    largest = 0
    for _ in range(40):
        cards = [suit + rank for suit in "CSHD" for rank in "AKQJT9876"]
        rng.shuffle(cards)
        left = rng.choice((2, 3))
        sweeper = rng.randrange(2)
        scored = [VALUE_LIMIT, -VALUE_LIMIT] if rng.random() < 0.5 else [-VALUE_LIMIT, VALUE_LIMIT]
        position = load_position({
            "game": "jass", "trump": rng.choice(("C", "S", "H", "D", "obenabe", "undeufe")),
            "options": {"match_bonus": MATCH_BONUS_LIMIT}, "objective": objective,
            "hands": [" ".join(cards[seat * left:(seat + 1) * left]) for seat in range(4)],
            "leader": rng.randrange(4), "scored": scored,
            "tricks": [9 - left, 0] if sweeper == 0 else [0, 9 - left],
        })
        expected = {str(card): value for card, value in reference_values(position).items()}
        got = {m.move: m.value for m in analyse(position, engine=engine).moves}
        assert got == expected, position.to_dict()
        largest = max(largest, *(abs(v) for v in got.values()))
    # the bound is reached: a match with both scores at their limits
    assert largest > 2 * VALUE_LIMIT + MATCH_BONUS_LIMIT


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
    with pytest.raises(OptionError, match=f"from 0 to {MATCH_BONUS_LIMIT}"):
        load_position({"game": "jass", "trump": "H", "options": {"match_bonus": MATCH_BONUS_LIMIT + 1},
                       "hands": ["HJ", "HA", "H7", "HK"], "tricks": [4, 4]})


def test_klaverjas_score_totals_the_key_cannot_hold() -> None:
    base = {"game": "klaverjas", "options": {"rules": "rotterdam"}, "trump": "H", "declarer": 1,
            "hands": ["CT S8", "SQ DA", "S9 H7", "CQ SJ"], "leader": 2, "tricks": [6, 0]}
    for scored, field in (([-1, 12], "scored[0]"), ([12, 4000], "scored[1]")):
        with pytest.raises(PositionError) as info:
            load_position({**base, "scored": scored})
        assert info.value.field == field
    # the raw objective adds the totals and has no such key, until asked for the score
    raw = load_position({**base, "scored": [-1, 4000], "objective": "raw"})
    assert analyse(raw).exact
    with pytest.raises(PositionError) as info:
        analyse(raw, objective="score")
    assert info.value.field == "scored[0]"
    deck = [suit + rank for suit in "CSHD" for rank in "AKQJT987"]
    deal = [" ".join(deck[seat::4]) for seat in range(4)]
    played = {key: value for key, value in base.items() if key not in ("hands", "leader", "tricks")}
    assert load_position({**played, "deal": deal, "played": ["CA"], "scored": [2233, 0]}).objective == "score"
    with pytest.raises(PositionError) as info:  # a deal and its play: checked at the start
        load_position({**played, "deal": deal, "played": ["CA"], "scored": [2234, 0]})
    assert info.value.field == "scored[0]"


def test_besigue_rejects_a_card_not_in_its_pack() -> None:
    data = {"game": "besigue", "trump": "S", "hands": ["CQ SA SK ST S8 HT H9 DQ D7", "S6 DK S7 HJ SK S7 HJ CJ CT"],
            "talon": [], "scored": [80, 120], "tricks": [13, 10]}
    with pytest.raises(CardError) as info:
        load_position(data)
    assert info.value.field == "hands[1]"
    assert "S6 is not a card of this game" in str(info.value)


def test_besigue_values_at_the_scored_limits_match_the_reference() -> None:
    rng = random.Random("limits-besigue")
    checked = 0
    while checked < 12:
        position = play_until(rng, random_deal(rng), rng.choice([0, 2, 4]))
        while not position.talon and position.tricks_left > 3:
            position = position.play(rng.choice(position.legal_moves()))
        if len(position.talon) > 4 or position.tricks_left > 3:
            continue
        for scored in ([VALUE_LIMIT, -VALUE_LIMIT], [-VALUE_LIMIT, VALUE_LIMIT]):
            extreme = BesiguePosition.from_dict({**position.to_dict(), "scored": scored})
            expected = {str(move): value for move, value in besigue_reference_values(extreme).items()}
            assert {m.move: m.value for m in analyse(extreme).moves} == expected, extreme.to_dict()
            checked += 1
