"""The transposition table's size: its default by the position, its checks, and the
engines a thread keeps (solver.analysis)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from solver import analyse, hint, load_position
from solver.analysis import DEFAULT_TT_MEGABYTES, LARGE_DEAL_TT_MEGABYTES, _engine, default_tt_megabytes
from solver.errors import OptionError
from solver.features import analyse_play, verify_puzzle

from .test_features import deal_of

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def jass(played: int = 0) -> dict[str, Any]:
    hands = deal_of("jass", 1, "H")
    deal = {"game": "jass", "trump": "H", "deal": hands, "played": []}
    position = load_position(deal)
    for _ in range(played):
        deal["played"].append(str(position.legal_moves()[0]))
        position = load_position(deal)
    return deal


@pytest.mark.parametrize(
    ("data", "megabytes"),
    [
        (jass(), LARGE_DEAL_TT_MEGABYTES),  # 36 cards to play
        (jass(played=3), LARGE_DEAL_TT_MEGABYTES),  # 33: the first trick's last card to come
        (jass(played=4), DEFAULT_TT_MEGABYTES),  # 32
        ({"game": "putz", "trump": "S", "options": {"players": 5}, "hands": deal_of("putz", 1, "S", players=5)}, 64),
        ({"game": "putz", "trump": "S", "hands": deal_of("putz", 1, "S")}, 8),  # 27 cards
        ({"game": "belote", "trump": "S", "hands": deal_of("belote", 1, "S")}, 8),
        (json.loads((EXAMPLES / "besigue.jsonl").read_text().splitlines()[1]), 8),
    ],
)
def test_the_default_size_grows_only_for_more_than_32_cards(data: dict[str, Any], megabytes: int) -> None:
    assert (DEFAULT_TT_MEGABYTES, LARGE_DEAL_TT_MEGABYTES) == (8, 64)
    assert default_tt_megabytes(load_position(data)) == megabytes


def test_a_thread_keeps_an_engine_per_size_and_drops_the_least_recently_used_of_three() -> None:
    def engines_of_a_new_thread(*sizes: int) -> list[Any]:
        found: list[Any] = []
        thread = threading.Thread(target=lambda: found.extend(_engine(size) for size in sizes))
        thread.start()
        thread.join()
        return found

    one, two, one_again, three, one_still = engines_of_a_new_thread(1, 2, 1, 3, 1)
    assert one_again is one  # kept, with its table
    assert [e.tt_megabytes for e in (one, two, three)] == [1, 2, 3]
    assert one_still is one  # a third size dropped 2, used longest ago (1 was made first)
    other = engines_of_a_new_thread(1, 2, 1, 3, 1)
    assert all(e is not f for e in other for f in (one, two, three))  # nothing shared between threads

    one, two, three, two_again, one_anew = engines_of_a_new_thread(1, 2, 3, 2, 1)
    assert two_again is two and one_anew is not one  # 3 dropped 1, the least recently used


def test_a_large_deal_is_searched_in_the_large_table() -> None:
    sizes: list[int] = []

    def solve() -> None:
        from solver import analysis

        analyse(jass(played=1), node_limit=3000)
        analyse(jass(played=4), node_limit=3000)
        sizes.extend(analysis._local.engines)

    thread = threading.Thread(target=solve)
    thread.start()
    thread.join()
    assert sizes == [LARGE_DEAL_TT_MEGABYTES, DEFAULT_TT_MEGABYTES]


@pytest.mark.parametrize("size", [0, -8, 2.5, True, "8"])
def test_a_bad_table_size_is_an_option_error(size: Any) -> None:
    position = load_position({"game": "belote", "trump": "S", "hands": deal_of("belote", 1, "S")})
    calls = [
        lambda: analyse(position, tt_megabytes=size),
        lambda: hint(position, tt_megabytes=size),
        lambda: verify_puzzle(position, {"best": [str(position.legal_moves()[0])]}, tt_megabytes=size),
        lambda: analyse_play(jass(played=4), tt_megabytes=size),
    ]
    for call in calls:
        with pytest.raises(OptionError) as info:
            call()
        assert info.value.field == "tt_megabytes" and "at least 1" in info.value.message
