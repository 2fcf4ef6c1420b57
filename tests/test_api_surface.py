"""The public API as a library user meets it: wrong types give a `PlisError` naming
the argument, errors survive pickling, reprs paste back, results compare by content.

Late positions only: every search here takes a millisecond or less.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import solver
from solver import (
    Card,
    CardError,
    Claim,
    IllegalMoveError,
    OptionError,
    PlisError,
    Position,
    PositionError,
    TrumpEntry,
    TrumpTable,
    analyse,
    analyse_play,
    load_position,
    trump_table,
    verify_puzzle,
)
from solver.errors import DuplicateKeyError
from solver.features import ClaimError

from .besigue_random import random_position

DEAL = ["CJ C9 SA ST HK H9 DA DQ", "CT SK SQ S9 HT H7 DK D8", "CA CQ S8 S7 HQ DT D9 D7", "CK C8 C7 SJ HA HJ H8 DJ"]
# the first legal card at each turn, 24 cards: two tricks left
PLAYED = "CJ CT CA CK CQ C8 C9 DK SK S8 SJ SA ST SQ S7 DJ C7 DA S9 HQ HK HT DT HA".split()
LATE_DEAL = {"game": "belote", "trump": "D", "deal": DEAL, "played": PLAYED}
LATE = {"game": "belote", "trump": "D", "hands": ["H9 DQ", "H7 D8", "D9 D7", "HJ H8"], "leader": 2,
        "scored": [93, 40], "tricks": [4, 2]}


# --- Card ------------------------------------------------------------------------------


@pytest.mark.parametrize("suit, rank", [(1, "J"), ("H", None), (b"H", "J"), (["H"], "J"), ("H", 10)])
def test_card_of_parts_that_are_not_text_is_a_card_error(suit: object, rank: object) -> None:
    with pytest.raises(CardError) as info:
        Card(suit, rank)  # type: ignore[arg-type]
    assert info.value.field == "card"


def test_card_of_letters_still_checked() -> None:
    assert Card("H", "J") == Card.parse("HJ")
    with pytest.raises(CardError, match="'HX'"):
        Card("H", "X")


# --- errors survive pickle and copy (a process pool sends a worker's error back pickled) ---


@pytest.mark.parametrize(
    "error",
    [
        PositionError("hands[1]", "holds 3 cards"),
        CardError("trick[0]", "'X' is not a card"),
        OptionError("tt_megabytes", "must be a whole number"),
        IllegalMoveError("played[3]", "seat 1 may not play HJ", 3),
        ClaimError("claim.best", "names no move"),
    ],
)
def test_errors_pickle_and_copy(error: PlisError) -> None:
    error.field = f"position.{error.field}"  # as the service renames it
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(again) is type(error)
        assert (again.field, again.message, again.index, str(again)) == (error.field, error.message, error.index, str(error))
        assert again.to_dict() == error.to_dict()


def test_a_long_error_is_not_clipped_twice_by_pickle() -> None:
    error = PositionError("hands", "x" * 2000)
    again = pickle.loads(pickle.dumps(error))
    assert again.message == error.message and str(again) == str(error)


def test_duplicate_key_error_pickles() -> None:
    error = DuplicateKeyError("options.rules", "rules")
    again = pickle.loads(pickle.dumps(error))
    assert (again.path, str(again)) == (error.path, str(error))


def test_error_of_a_process_pool_worker_reaches_the_caller() -> None:
    # pickle.loads(pickle.dumps(...)) of an error raised by the library, as a pool does
    with pytest.raises(PlisError) as info:
        analyse({"game": "belote", "trump": "X", "hands": []})
    again = pickle.loads(pickle.dumps(info.value))
    assert isinstance(again, PositionError) and again.field == "trump"


# --- reprs --------------------------------------------------------------------------------


def test_rules_repr_names_game_trump_and_options() -> None:
    rules = load_position(LATE).rules
    assert repr(rules) == "Belote(options={}, trump='D', contract_seat=None)"
    klaverjas = load_position({"game": "klaverjas", "trump": "H", "declarer": 1, "deal": DEAL}).rules
    assert repr(klaverjas) == (
        "Klaverjas(options={'rules': 'rotterdam', 'roem_order': 'natural', 'nat_on_tie': False}, trump='H', contract_seat=1)"
    )


@pytest.mark.parametrize("data", [LATE, LATE_DEAL])
def test_position_repr_pastes_back(data: dict[str, object]) -> None:
    position = Position.from_dict(data)
    text = repr(position)
    assert text.startswith("Position.from_dict({") and " object at 0x" not in text
    again = eval(text, {"Position": Position})
    assert again == position and again.deal == position.deal and again.played == position.played


# --- solve= must be a function ---------------------------------------------------------------


@pytest.mark.parametrize("solve", [True, 0, "analyse", [], 1.5])
def test_solve_that_is_not_a_function_is_an_option_error(solve: object) -> None:
    calls = [
        lambda: analyse_play(LATE_DEAL, first=20, solve=solve),  # type: ignore[arg-type]
        lambda: trump_table({"game": "belote", "deal": DEAL}, solve=solve),  # type: ignore[arg-type]
        lambda: verify_puzzle(LATE, {"best": ["D9"]}, solve=solve),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(OptionError) as info:
            call()
        assert info.value.field == "solve"


def test_solve_given_is_used() -> None:
    seen = []

    def solve(*args: object, **kwargs: object) -> solver.Result:
        seen.append(1)
        return analyse(*args, **kwargs)  # type: ignore[arg-type]

    assert verify_puzzle(LATE, {"best": ["D9"]}, solve=solve).holds
    assert seen


# --- claims name moves as analyse's exact_moves does: "HJ" or a Card ----------------------------------


def test_claim_best_may_be_cards() -> None:
    position = load_position(LATE)
    verdict = verify_puzzle(position, {"best": position.legal_moves()[:1]})
    assert verdict.holds and verdict.claimed[0].move == "D9"
    assert Claim.from_dict(Claim(best=(Card.parse("D9"),))) == Claim(best=("D9",))  # type: ignore[arg-type]


def test_claim_best_of_other_objects_still_refused() -> None:
    with pytest.raises(ClaimError, match="claim.best"):
        verify_puzzle(LATE, {"best": [1]})


# --- results compare by what they say, not by how long the search took ------------------------------


def test_results_of_the_same_question_are_equal() -> None:
    assert verify_puzzle(LATE, {"best": ["D9"]}) == verify_puzzle(LATE, {"best": ["D9"]})
    assert analyse_play(LATE_DEAL, first=20) == analyse_play(LATE_DEAL, first=20)
    deal = {"game": "belote", "deal": DEAL}
    assert trump_table(deal) == trump_table(deal)
    first, again = analyse(LATE_DEAL), analyse(LATE_DEAL, engine=solver.Engine(1))  # a fresh table: other nodes
    assert first == again and (first.nodes, first.time_ms) != (again.nodes, again.time_ms)
    assert first != analyse(LATE_DEAL, objective="raw")


def test_hint_estimates_must_be_true_or_false() -> None:
    for estimates in ("no", 0, None, 1.0):
        with pytest.raises(OptionError) as info:
            solver.hint(LATE, estimates=estimates)  # type: ignore[arg-type]
        assert info.value.field == "estimates"
    assert solver.hint(LATE, estimates=False).best == solver.hint(LATE).best


def test_an_unknown_lever_is_told_with_the_names_it_is_near() -> None:
    with pytest.raises(OptionError, match=r"unknown lever 'lead_killer' \(did you mean lead_killers"):
        analyse(LATE, engine_options={"lead_killer": 0})
    with pytest.raises(OptionError, match="the levers are solver.compile.ENGINE_OPTIONS"):
        analyse(LATE, engine_options={"zzz": 0})


def test_levers_for_a_besigue_position_are_refused() -> None:
    """The levers are the card-game engine's: the Bésigue search has none to switch."""
    with pytest.raises(OptionError, match="the Bésigue search has no levers") as info:
        analyse(random_position(random.Random(5), 0), engine_options={"lead_killers": 0})
    assert info.value.field == "engine_options"


def test_a_card_played_after_the_last_trick_is_refused() -> None:
    over = Position.from_dict(LATE_DEAL)
    while not over.is_over:
        over = over.play(over.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="HJ: the deal is over") as info:
        over.play("HJ", "played", 32)
    assert (info.value.field, info.value.index) == ("played", 32)


def test_results_that_differ_are_not_equal() -> None:
    assert verify_puzzle(LATE, {"best": ["D9"]}) != verify_puzzle(LATE, {"best": ["D7"], "unique": True})
    # the same objective, exact both: only the cards differ (the last four, or the last three)
    assert analyse_play(LATE_DEAL, first=20) != analyse_play(LATE_DEAL, first=21)
    # two deals of one game: only the entries differ (seats 0 and 1 swap hands)
    other = {"game": "belote", "deal": [DEAL[1], DEAL[0], *DEAL[2:]]}
    assert trump_table({"game": "belote", "deal": DEAL}) != trump_table(other)


# --- TrumpTable.value ----------------------------------------------------------------------------------


def test_trump_table_value_of_no_entry_names_the_argument() -> None:
    entries = tuple(TrumpEntry(t, side, 10 * side, (), None, True) for t in "CSHD" for side in (0, 1))
    table = TrumpTable("klaverjas", "score", entries, True, 0, 0.0)
    assert table.value("H", 1) == 10
    with pytest.raises(OptionError) as info:
        table.value("H")
    assert info.value.field == "declaring_side" and "0 or 1" in info.value.message
    assert isinstance(info.value, KeyError)  # as before: a lookup that finds nothing
    with pytest.raises(OptionError) as info:
        table.value("X", 0)
    assert info.value.field == "trump" and "C, S, H, D" in info.value.message
    belote = TrumpTable("belote", "score", tuple(TrumpEntry(t, None, 0, (), None, True) for t in "CSHD"), True, 0, 0.0)
    with pytest.raises(OptionError) as info:
        belote.value("H", 0)
    assert info.value.field == "declaring_side" and "None" in info.value.message


# --- the package ---------------------------------------------------------------------------------------


def test_every_public_name_is_listed_and_found() -> None:
    assert sorted(solver.__all__) == sorted(solver._EXPORTS)  # the two lists of solver/__init__.py agree
    for name in solver.__all__:
        assert name in dir(solver) and getattr(solver, name) is not None


# --- value_for: a finished deal's value, for a side the game has ---------------------------


def test_value_for_checks_its_side_and_that_the_deal_is_over() -> None:
    end = load_position(LATE)
    while not end.is_over:
        end = end.play(end.legal_moves()[0])
    assert end.value_for(0) == -end.value_for(1) == end.final_scores()[0] - end.final_scores()[1]
    for side in (2, -1, True, "0", 0.0, None):
        with pytest.raises(OptionError) as info:
            end.value_for(side)  # type: ignore[arg-type]
        assert info.value.field == "side"
    with pytest.raises(PositionError, match="not over"):
        load_position(LATE).value_for(0)


def test_a_card_the_game_has_not_is_an_invalid_card_when_played() -> None:
    """C6 in a 32-card game: not a card of the game (INVALID_CARD), as in a hand; it was
    'seat 2 does not hold C6', an illegal move."""
    with pytest.raises(CardError, match="C6 is not a card of this game"):
        load_position(LATE).play("C6")
    with pytest.raises(CardError) as info:
        load_position({**LATE_DEAL, "played": [*PLAYED[:3], "C6"]})
    assert info.value.field == "played[3]" and info.value.index == 3 and info.value.reason == "INVALID_CARD"
    besigue = random_position(random.Random(1), 4)
    with pytest.raises(CardError, match="C6 is not a card of this game"):
        besigue.play("C6")


# --- the compiled engines' stubs say what the modules hold ------------------------------------


@pytest.mark.parametrize("module, name", [("_engine", "Engine"), ("_besigue", "BesigueEngine")])
def test_the_stub_of_a_compiled_engine_lists_its_members(module: str, name: str) -> None:
    """A type checker reads solver/_engine.pyi instead of the compiled module: a member
    added to or removed from the .pyx without the stub would be wrong to users' mypy."""
    import ast
    import importlib
    from pathlib import Path

    stub = ast.parse((Path(solver.__file__).parent / f"{module}.pyi").read_text())
    (cls,) = [node for node in stub.body if isinstance(node, ast.ClassDef) and node.name == name]
    stubbed = {node.name for node in cls.body if isinstance(node, ast.FunctionDef)}
    stubbed |= {node.target.id for node in cls.body if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    compiled = getattr(importlib.import_module(f"solver.{module}"), name)
    members = {m for m in dir(compiled) if not m.startswith("__")} | {"__init__"}
    assert stubbed == members


def test_trump_table_names_its_deal_argument_when_it_is_not_a_position() -> None:
    with pytest.raises(PositionError) as info:
        trump_table(5)  # type: ignore[arg-type]
    assert info.value.field == "deal" and "got int" in info.value.message
    with pytest.raises(PositionError) as info:
        analyse(5)  # type: ignore[arg-type]
    assert info.value.field == "position"


def test_the_calls_take_their_options_as_keywords_in_one_order() -> None:
    """`hint(position, 0.05)` was a time limit, `analyse(position, "raw")` an objective:
    the two orders differed.  Every option is now a keyword, as in the client."""
    import inspect

    from solver import analyse, analyse_play, hint, trump_table, verify_puzzle

    common = ["objective", "time_limit", "node_limit", "tt_megabytes", "engine"]
    for call, required in ((analyse, 1), (hint, 1), (analyse_play, 1), (trump_table, 1), (verify_puzzle, 2)):
        parameters = list(inspect.signature(call).parameters.values())
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters[:required]), call.__name__
        assert all(p.kind is p.KEYWORD_ONLY for p in parameters[required:]), call.__name__
        assert [p.name for p in parameters if p.name in common] == common, call.__name__
    with pytest.raises(TypeError):
        hint(LATE, 0.05)  # type: ignore[misc]
