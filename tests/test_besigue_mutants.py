"""Bésigue positions that kill plausible engine bugs the rest of the suite let through.

Each test was found by mutation testing (a small change to solver/_besigue.pyx, built in
a scratch copy): with the change the engine's value differs from the reference search's,
and no other Bésigue test failed.  The docstrings name the change.  The positions are
small (fewer cards than a real deal, as in tests/besigue_random.small_position), so they
are built here from the fields of a position dict rather than by `from_dict`, which
checks a real deal's hand sizes.
"""

from __future__ import annotations

from typing import Any

from solver import analyse
from solver._besigue import BesigueEngine
from solver.besigue import BesiguePosition, _marked_hands, engine_state, reference_future, reference_values
from solver.cards import parse_cards
from solver.games.besigue import Besigue


def _position(data: dict[str, Any]) -> BesiguePosition:
    """A small position from the fields of a position dict (options, trump, hands,
    talon, trick, leader, melded, sevens, exchanged, to_declare)."""
    rules = Besigue(Besigue.check_options(data.get("options", {})), data["trump"], None)
    plain = (parse_cards(data["hands"][0], "hands[0]"), parse_cards(data["hands"][1], "hands[1]"))
    hands = _marked_hands(rules, plain, data.get("melded"), data.get("sevens"))
    return BesiguePosition(rules, hands, tuple(parse_cards(data.get("talon", []), "talon")),
                           tuple(parse_cards(data.get("trick", []), "trick")), data.get("leader", 0),
                           exchanged=data.get("exchanged", False), to_declare=data.get("to_declare"))


def _check(data: dict[str, Any], expected: dict[str, int], future: int, levers: dict[str, int] | None = None) -> None:
    """The reference and the engine (one search of the root, then every move) agree,
    with the engine's default levers and with `levers` (BesigueEngine.options) set."""
    position = _position(data)
    assert reference_values(position) == expected
    assert reference_future(position) == future
    for options in ({}, levers or {}):
        engine = BesigueEngine(1)
        engine.options.update(options)
        assert engine.search(engine_state(position))["value"] == future, options
        engine = BesigueEngine(1)
        engine.options.update(options)
        assert {m.move: m.value for m in analyse(position, engine=engine).moves} == expected, options


def test_an_exchange_leaves_the_winner_free_to_meld_the_retourne() -> None:
    """Kills the exchange of the trump 7 ending the declaration step (`do_draws` after
    D_EXCHANGE): seat 0, winning the trick, swaps S7 for the retourne SQ and melds it
    with DJ at once (RULES.md: the retourne may join a meld in the same step)."""
    data = {
        "options": {"phase1": "standard"},
        "trump": "S",
        "hands": ["S7 DJ", "CK DJ D7"],
        "talon": ["HA", "SK", "HQ", "SQ"],
        "trick": ["HT"],
        "leader": 0,
        "melded": [[{"card": "DJ", "kinds": ["four_jacks"]}], []],
    }
    _check(data, {"CK": -60, "DJ": -60, "D7": -60}, 60)


def test_four_kings_all_melded_before_are_no_meld() -> None:
    """Kills `gen_fours` dropping its fresh-card test (`if not fresh: n -= 1`): the four
    kings, each already in a marriage, were declared again for 80 at the last step."""
    data = {
        "options": {"phase1": "seed"},
        "trump": "H",
        "hands": ["CK SK HK DK HA", "CA C9 C7 S8 S9"],
        "talon": ["D8", "HT"],
        "leader": 0,
        "melded": [[{"card": c, "kinds": ["marriage"]} for c in ("CK", "SK", "HK", "DK")], []],
    }
    _check(data, {"CK[marriage]": 20, "SK[marriage]": 20, "HK[marriage]": 20, "DK[marriage]": 20, "HA": 0}, 20)


def test_marks_still_count_before_the_last_draw() -> None:
    """Kills `make_key` leaving out the marks at two talon cards (`p.talon_len > 2`
    for `> 0`): which CK is led decides whether the other can still marry CQ in the
    last declaration, and the two trick positions shared an entry (-20 for 0)."""
    data = {
        "options": {"phase1": "seed"},
        "trump": "H",
        "hands": ["CK CK CQ", "S8 S9 D8"],
        "talon": ["D9", "HA"],
        "leader": 0,
        "melded": [[{"card": "CK", "kinds": ["marriage"]}], []],
    }
    _check(data, {"CK": -20, "CK[marriage]": 0, "CQ": -20}, 0)


def test_the_exchanged_flag_is_part_of_the_key() -> None:
    """Kills `make_key` leaving out the exchanged flag: exchanging H7 for the retourne HK
    then playing HK, or playing H7 itself, leaves the same hands and talon length, but
    the last card drawn is H7 in one line and HK in the other."""
    data = {
        "options": {"phase1": "seed"},
        "trump": "H",
        "hands": ["CJ H7", "HJ DQ"],
        "talon": ["SA", "HK", "CK", "SA", "SJ", "HK"],
        "leader": 1,
    }
    _check(data, {"HJ": -20, "DQ": -20}, 20)


def test_the_marks_of_both_copies_are_part_of_the_key() -> None:
    """Kills `make_key` packing the first copy's marks for the second copy too (the
    copies are sorted by marks, so an unmarked and a scored S7 keyed as two unmarked
    ones): with the lever `probe_declare`, seat 1's declaration step holding both S7s
    shared an entry with the same step after one seven was scored: the root came out 40 for 50
    (the line of best play then found no move keeping the value).  The default levers
    did not show it."""
    data = {
        "options": {"phase1": "standard"},
        "trump": "S",
        "hands": ["SA SK HQ DJ", "CJ S7 S7 H8"],
        "talon": ["CT", "SQ", "SK", "S9"],
        "leader": 1,
    }
    _check(data, {"CJ": -50, "S7": -60, "H8": -50}, 50, {"probe_declare": 1})
