"""Mutated positions: whatever a caller sends, the library answers or raises a PlisError.

Valid positions of every game (Bésigue's too, in both forms) are mutated at random (fields dropped,
values swapped for junk of every JSON type, cards shuffled or replaced, entries
appended), then read, analysed, hinted, verified, played on and (a deal) analysed
card by card and for every trump, with small limits. Any other
exception (a TypeError, an OverflowError, an engine's internal check) is a bug: bad
input must get an error that names its field. This found the unbounded `scored` and
`match_bonus` (wrong values near the engine's infinity), Bésigue hands that held a
Six, and a deal whose bonuses were read before its cards were checked.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from solver import PlisError, analyse, analyse_play, hint, load_position, trump_table, verify_puzzle

from .besigue_random import play_until, random_deal
from .randompos import CONFIGS, random_positions
from .test_features import deal_of, playout

MUTATIONS = 4000
JUNK: list[Any] = [
    None, True, False, 0, -1, 1, 3, 99, 10**12, -(10**12), 1.5, "", "x", "H", "obenabe", "HJ", "HJ HJ", "ZZ",
    "H10", "S6", "♥J", [], [None], [[]], {}, {"a": 1}, {"": 1}, ["HJ"], [0, 0], [0, 0, 0, 0, 0], [-1, 5], ["HJ H9", "", "", ""],
    "\x00", [1.5, 2], [True, False],
]  # fmt: skip
FIELDS = [
    "options", "trump", "leader", "scored", "tricks", "objective", "deal", "played", "declarer", "taker", "talon",
    "melded", "sevens", "exchanged", "dealer", "to_declare", "hands", "trick", "unknown", "", "trump ",
]  # fmt: skip
TOKENS = ["HJ", "S6", "CA", "D7", "X9", "HT", "H10", "hj"]


def junk(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(JUNK))  # a copy: a list placed twice must not grow into itself


DEAL_FORMS = (
    ("belote", {"trump": "H"}), ("klaverjas", {"trump": "S", "declarer": 1}), ("klaberjass", {"trump": "D", "taker": 0}),
    ("jass", {"trump": "obenabe"}), ("putz", {"trump": "C", "options": {"players": 3}}), ("bassadewitz", {}),
)  # fmt: skip


def valid_positions() -> list[dict[str, Any]]:
    """Positions of every game in both forms: the hands now, and a deal with the cards
    played since (late in the deal, so that a play analysis is quick)."""
    found = [p.to_dict() for game in sorted(CONFIGS) for p in random_positions(game, 1, "fuzz", 4, 1)]
    for game, fields in DEAL_FORMS:
        data: dict[str, Any] = {"game": game, **fields}
        data["deal"] = deal_of(game, 1, data.get("trump"), **data.get("options", {}))
        data["played"] = playout(data, 1, sum(len(hand.split()) for hand in data["deal"]) - 6)
        found.append(data)
    rng = random.Random("fuzz-besigue")
    for talon_left in (40, 10, 0):
        found.append(play_until(rng, random_deal(rng), talon_left).to_dict())
    found.append(play_until(rng, random_deal(rng), 0, 3).to_deal_dict())
    return found


def mutate(rng: random.Random, data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        target: Any = data
        inner = [k for k, v in data.items() if isinstance(v, (list, dict)) and v]
        if inner and rng.random() < 0.4:
            target = data[rng.choice(inner)]
        keys = list(range(len(target))) if isinstance(target, list) else list(target)
        if not keys:
            continue
        key = rng.choice(keys)
        roll = rng.random()
        if roll < 0.15 and isinstance(target, dict):
            del target[key]
        elif roll < 0.6:
            target[key] = junk(rng)
        elif roll < 0.75 and isinstance(target, list):
            target.append(junk(rng))
        elif roll < 0.85 and isinstance(target[key], str) and target[key].split():
            cards = target[key].split()
            rng.shuffle(cards)
            cards[0] = rng.choice(TOKENS) if rng.random() < 0.5 else cards[0]
            target[key] = " ".join(cards)
        else:
            data[rng.choice(FIELDS)] = junk(rng)
    return data


def answers_or_names_the_field(call: Any, *args: Any, **kwargs: Any) -> bool:
    """True if `call` answered, False if it raised a PlisError naming a field."""
    try:
        call(*args, **kwargs)
    except PlisError as error:
        assert error.field and error.message
        return False
    return True


@pytest.mark.parametrize("seed", range(2))
def test_mutated_positions_answer_or_name_the_field(seed: int) -> None:
    rng = random.Random(f"fuzz-{seed}")
    bases = valid_positions()
    loaded = 0
    for _ in range(MUTATIONS):
        data = json.loads(json.dumps(mutate(rng, rng.choice(bases))))  # as a JSON caller sends it
        try:
            position = load_position(data)
        except PlisError as error:
            assert error.field and error.message
            continue
        loaded += 1
        answers_or_names_the_field(analyse, position, node_limit=3000)
        answers_or_names_the_field(hint, position, node_limit=3000)
        claim = {"best": [rng.choice(JUNK + [str(m) for m in position.legal_moves()])], "value": rng.choice(JUNK)}
        answers_or_names_the_field(verify_puzzle, position, claim, node_limit=3000)
        answers_or_names_the_field(position.play, rng.choice(JUNK + TOKENS))
        if "played" in data:
            answers_or_names_the_field(analyse_play, data, node_limit=3000)
            answers_or_names_the_field(trump_table, data, node_limit=300)
        limits = {"time_limit": rng.choice([None, 0, -1, float("nan"), "x", 0.5]), "node_limit": rng.choice([0, -5, 2**70, 3000])}
        assert not answers_or_names_the_field(analyse, position, tt_megabytes=rng.choice([0, -1, "x", 10**9]), **limits)
    assert loaded > MUTATIONS // 25  # enough mutations still load to reach the search
