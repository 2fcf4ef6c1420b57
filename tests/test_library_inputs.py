"""What Python callers hand the library beyond JSON: tuples, positions built directly
or changed with `dataclasses.replace`, and the arguments of its helpers.  Each case
here was a finding of the fifty-fifth session's audit: a crash, an error that named
the wrong thing, or bad input taken silently."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from solver import (
    BesiguePosition,
    CardError,
    OptionError,
    PlisError,
    Position,
    PositionError,
    analyse,
    analyse_many,
    load_position,
    trump_table,
)
from solver.analysis import estimate_unsolved
from solver.batch import ordered_map
from solver.errors import json_kind, parse_json

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(name: str, line: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text().splitlines()[line])
    return data


KV = example("klaverjas.jsonl")  # four cards each, HJ H9 S7 in seat 0's hand, SA led
BESIGUE_DECLARE = example("besigue.jsonl", 0)  # seat 0 to declare, four talon cards
BESIGUE = example("besigue.jsonl", 1)  # phase 1, six talon cards, melds face up


def test_tuples_are_taken_where_lists_are() -> None:
    """The library hands out tuples (`Position.scored`, `.hands`); a dict built from them
    was refused with `must be a list of 2 integers ..., got [45, 16]`."""
    as_lists = analyse(KV)
    as_tuples = analyse({**KV, "scored": (45, 16), "tricks": (3, 1), "trick": ("SA",), "hands": tuple(KV["hands"])})
    assert (as_tuples.value, as_tuples.best) == (as_lists.value, as_lists.best)
    melded = tuple(tuple(entry | {"kinds": tuple(entry["kinds"])} for entry in seat) for seat in BESIGUE["melded"])
    besigue = {**BESIGUE, "melded": melded, "sevens": (0, 0), "talon": tuple(BESIGUE["talon"])}
    assert load_position(besigue) == load_position(BESIGUE)


@pytest.mark.parametrize("name", ["to_declare", "melded", "sevens"])
def test_a_besigue_field_given_as_null_is_an_error_naming_it(name: str) -> None:
    """As docs/rules-choices.md has it for every field but scored and tricks; a null
    `to_declare` was read as none, and the error then blamed `tricks`."""
    with pytest.raises(PositionError) as error:
        load_position({**BESIGUE_DECLARE, name: None})
    assert error.value.field == name
    assert "null" in error.value.message


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"leader": 7}, "leader", "must be a seat from 0 to 3, got 7"),  # crashed the engine (exit 139)
        ({"leader": True}, "leader", "got true"),
        ({"scored": (1,)}, "scored", "must be a list of 2 integers"),
        ({"tricks": (9, 9)}, "tricks", "add up to 18, more than the 8 tricks"),
        ({"objective": "points"}, "objective", "klaverjas objectives are score, raw"),
        ({"trick": ("SA",)}, "trick[0]", 'must be a Card (Card.parse), got "SA"'),
        ({"hands": ()}, "hands", "must hold 4 hands"),
    ],
)
def test_a_position_changed_with_replace_is_checked_when_analysed(change: dict[str, Any], field: str, message: str) -> None:
    position = Position.from_dict(KV)
    changed = replace(position, **change)
    with pytest.raises(PlisError) as error:
        analyse(changed)
    assert (error.value.field, message in error.value.message) == (field, True), str(error.value)
    with pytest.raises(PlisError):
        changed.checked()


def test_a_position_changed_with_replace_is_valued_when_valid() -> None:
    position = Position.from_dict(KV)
    swapped = replace(position, scored=(16, 45))  # valid: checked, then analysed as from_dict's
    assert analyse(swapped).value == analyse({**KV, "scored": [16, 45]}).value
    assert swapped.checked() is swapped


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda p: {"talon": p.talon * 20}, "talon"),  # crashed the Bésigue engine (exit 139)
        (lambda p: {"talon": p.talon[:-1]}, "talon"),  # odd
        (lambda p: {"leader": 2}, "leader"),
        (lambda p: {"to_declare": 5}, "to_declare"),
        (lambda p: {"exchanged": 1}, "exchanged"),
        (lambda p: {"dealer": None}, "dealer"),
        (lambda p: {"hands": (p.hands[0],)}, "hands"),
        (lambda p: {"hands": (p.hands[0], p.hands[1] + p.hands[1][:3])}, "hands[1]"),  # 12 cards
        (lambda p: {"hands": (p.hands[0], p.hands[0]), "trick": (p.hands[0][0].card,)}, "trick"),  # three copies
        (lambda p: {"hands": (p.hands[0], ("CA",))}, "hands[1][0]"),
        (lambda p: {"objective": "points"}, "objective"),
        (lambda p: {"hands": (p.hands[0], p.hands[1][:4])}, "hands[1]"),  # the engine's plain ValueError
        (lambda p: {"to_declare": 0, "talon": ()}, "to_declare"),  # an IndexError
        (lambda p: {"to_declare": 0, "trick": (p.talon[0],)}, "trick"),
    ],
)
def test_a_besigue_position_changed_with_replace_is_checked_when_analysed(change: Any, field: str) -> None:
    position = load_position(BESIGUE)
    with pytest.raises(PlisError) as error:
        analyse(replace(position, **change(position)), node_limit=1000)
    assert error.value.field == field, str(error.value)


def test_a_besigue_position_with_fewer_cards_in_hand_is_still_valued() -> None:
    """The counts against the talon are not checked for a position built directly: the
    engine values such small positions (the tests' own) as it does the others."""
    position = load_position(BESIGUE)
    small = replace(position, hands=(position.hands[0][:3], position.hands[1][:3]))
    assert isinstance(small, BesiguePosition)
    assert analyse(small).value is not None
    with pytest.raises(PositionError):  # from_dict holds the counts
        load_position(small.to_dict())


def test_melds_are_none_where_no_declaration_is_pending() -> None:
    """`melds()` raised a bare AssertionError (a TypeError under python -O)."""
    playing = load_position(BESIGUE)
    assert isinstance(playing, BesiguePosition)
    assert playing.melds() == []
    declaring = load_position(BESIGUE_DECLARE)
    assert isinstance(declaring, BesiguePosition)
    assert declaring.melds()  # a marriage of hearts at least


@pytest.mark.parametrize(
    ("time_limit", "message"),
    [
        (True, "got true"),  # was taken as 1 second
        (0, "above 0"),  # was taken, every entry unsolved
        (-0.5, "above 0"),
        ("x", 'got "x"'),  # a TypeError from the arithmetic
        ([], "got []"),
        (float("-inf"), "got -Infinity"),  # the message said NaN
    ],
)
def test_the_trump_tables_time_limit_is_checked(time_limit: Any, message: str) -> None:
    with pytest.raises(OptionError) as error:
        trump_table(example("to-bid.jsonl"), time_limit=time_limit)
    assert error.value.field == "time_limit"
    assert message in error.value.message


def test_the_trump_tables_entries_are_found_by_trump_in_either_case() -> None:
    belote = trump_table(example("to-bid.jsonl", 0), node_limit=2000, estimates=False)
    assert belote.value("h") == belote.value("H")
    klaverjas = trump_table(example("to-bid.jsonl", 1), node_limit=2000, estimates=False)
    assert klaverjas.value("s", 1) == klaverjas.value("S", 1)
    with pytest.raises(OptionError) as error:
        klaverjas.value("H", True)  # equals 1, but is no side
    assert error.value.field == "declaring_side"


@pytest.mark.parametrize("jobs", [None, 0, 1, 2])
def test_ordered_map_takes_jobs_as_analyse_many_does(jobs: int | None) -> None:
    assert list(ordered_map(lambda x: x * x, range(7), jobs)) == [x * x for x in range(7)]


@pytest.mark.parametrize("jobs", [-1, 2.5, True, "2"])
def test_ordered_map_refuses_what_analyse_many_refuses(jobs: Any) -> None:
    with pytest.raises(OptionError) as error:
        ordered_map(lambda x: x, range(3), jobs)  # at the call, not at the first answer
    assert error.value.field == "jobs"
    with pytest.raises(OptionError):
        analyse_many([KV], jobs=jobs)


def test_analyse_many_takes_its_options_as_keywords() -> None:
    """`analyse_many(positions, 2)` made 2 the objective, an error at each position."""
    with pytest.raises(TypeError):
        analyse_many([KV], "raw")  # type: ignore[misc]
    assert next(analyse_many([KV], objective="raw")).objective == "raw"
    with pytest.raises(OptionError, match=r'errors: must be "raise" or "return", got "ignore"'):
        analyse_many([KV], errors="ignore")  # type: ignore[call-overload]


def test_estimate_unsolved_checks_its_arguments_in_besigue_too() -> None:
    with pytest.raises(OptionError) as error:
        estimate_unsolved(BESIGUE, None)  # type: ignore[arg-type]
    assert error.value.field == "result"
    limited = analyse(BESIGUE, node_limit=500, estimates=False)
    assert estimate_unsolved(BESIGUE, limited) is limited  # its estimates are its search's


def test_load_position_takes_json_text() -> None:
    assert load_position(json.dumps(KV)) == load_position(KV)
    assert load_position(json.dumps(BESIGUE).encode()) == load_position(BESIGUE)


def test_json_text_is_utf8_with_or_without_a_byte_order_mark() -> None:
    text = json.dumps(KV)
    assert parse_json("\ufeff" + text) == KV  # as a file read with utf-8-sig: was refused as text
    assert parse_json(b"\xef\xbb\xbf" + text.encode()) == KV
    with pytest.raises(PositionError, match="not UTF-8 text"):
        parse_json(text.encode("utf-16"))  # json.loads took it


@pytest.mark.parametrize("moves", [{}, {"HJ": 1}, "HJ", b"HJ"])
def test_exact_moves_must_be_a_list(moves: Any) -> None:
    with pytest.raises(OptionError) as error:
        analyse(KV, exact_moves=moves)
    assert error.value.field == "exact_moves"


def test_a_python_value_is_named_by_its_type() -> None:
    assert json_kind(object()) == "a value of Python type object"  # was "a object"
    assert json_kind(b"x") == "a value of Python type bytes"
    assert json_kind((1, 2)) == "an array"


def test_besigue_counts_are_spelled_in_the_singular_for_one() -> None:
    with pytest.raises(PositionError, match="holds 1 card; the talon holds an even number"):
        load_position({**BESIGUE, "talon": ["S7"]})
    with pytest.raises(CardError):  # not a card of the game
        load_position({**BESIGUE, "talon": ["S6", "S7"]})


@pytest.mark.parametrize(("name", "line"), [("played.jsonl", 0), ("besigue.jsonl", 3)])
def test_a_replayed_position_is_taken_as_checked_and_passes_the_check(name: str, line: int) -> None:
    """A position read as deal + played is made by legal moves from a checked deal: it is
    not checked again; changed by `replace`, it passes the check (its deal kept)."""
    position = load_position(example(name, line))
    assert position.deal is not None and position._checked  # marked by the replay
    assert position.checked() is position
    changed = replace(position, scored=position.scored)
    assert changed.checked() is changed and changed.deal == position.deal


@pytest.mark.parametrize(
    ("name", "line", "change"),
    [
        ("played.jsonl", 0, lambda p: {"played": p.played[:6]}),  # its hands after 10 cards, its played 6
        ("played.jsonl", 0, lambda p: {"hands": p.hands[::-1]}),
        ("besigue.jsonl", 3, lambda p: {"played": p.played[:20]}),
        ("besigue.jsonl", 3, lambda p: {"talon": p.talon[2:], "hands": p.hands}),
    ],
)
def test_a_replayed_position_changed_out_of_step_with_its_deal_is_refused(name: str, line: int, change: Any) -> None:
    """A position read as deal + played, changed by `replace` so that its deal and played
    no longer lead to its hands: analysed as its hands said, but its play analysed (and
    the service's client sent it) as its deal said, two positions and no error."""
    data = example(name, line)
    if name == "played.jsonl":
        data = {**data, "played": data["played"][:10]}
    position = load_position(data)
    changed = replace(position, **change(position))
    for call in (lambda p: p.checked(), lambda p: analyse(p, node_limit=1000)):
        with pytest.raises(PositionError) as error:
            call(changed)
        assert error.value.field == "played", str(error.value)
    assert replace(position, played=position.played).checked().played == position.played  # in step: taken


def test_positions_played_from_a_checked_one_stay_checked() -> None:
    """So that a play analysis does not replay its deal again at each card."""
    position = load_position(example("played.jsonl"))
    start = position.start_of_deal()
    after = start.play(start.legal_moves()[0])
    assert start._checked and after._checked and after.checked() is after


@pytest.mark.parametrize("make", ["Engine", "BesigueEngine"])
@pytest.mark.parametrize("flag", ["no", 0, None])
def test_cancel_before_start_must_be_true_or_false(make: str, flag: Any) -> None:
    import solver

    engine = getattr(solver, make)(1)
    with pytest.raises(OptionError) as info:
        engine.cancel(before_start=flag)  # "no" was taken as true: every later search stopped
    assert info.value.field == "before_start" and engine.cancels == 0
    engine.cancel(before_start=True)
    engine.forget_cancel()
    assert engine.cancels == 1
