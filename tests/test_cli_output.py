"""What a person reads from `plis`: the --pretty reports and the help texts."""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from solver import Position
from solver.analysis import Hint, MoveValue, Result
from solver.cli import build_parser, main, pretty_hint, pretty_result, pretty_trumps
from solver.features import TrumpEntry, TrumpTable

from .helpers import ROOT
from .test_features import EXAMPLE
from .test_plays import BELOTE
from .test_plays import JASS as PLAYS_JASS

JASS = {
    "game": "jass",
    "trump": "H",
    "hands": [
        "CK SK S6 HA HJ HT H8 H7 D6",
        "CT C6 S8 HQ H9 DK DJ DT D9",
        "C8 SQ SJ S9 S7 H6 DA DQ D7",
        "CA CQ CJ C9 C7 SA ST HK D8",
    ],
}
EXAMPLE_DEAL = ["HJ H9 HA SA ST CK C8 D7", "HT HK SK SQ CA C9 D9 D8", "HQ H8 S9 S8 CT CQ DA DT", "H7 SJ S7 CJ C7 DK DQ DJ"]
BASSADEWITZ = {
    "game": "bassadewitz",
    "hands": ["CA HK", "C7 H8", "C8 H9", "HA DT"],
    "leader": 0,
    "scored": [50, 30, 20, 9],
    "tricks": [3, 2, 1, 0],
}


def pretty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, *lines: object, options: tuple[str, ...] = ()
) -> tuple[int, list[str]]:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    status = main([command, "--pretty", *options, str(source)])
    return status, capsys.readouterr().out.splitlines()


def test_analyse_says_fewer_points_are_better(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hint, play-analysis and verify said so; analyse, whose header was its own, did not."""
    status, out = pretty(tmp_path, capsys, "analyse", BASSADEWITZ)
    assert status == 0 and out[0].endswith("objective points  (fewer points are better)")


def test_each_report_names_whose_values_it_shows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    side = "  values for side 1 (seat 1 to move): its final score minus the other side's"
    for command in ("analyse", "hint"):
        status, out = pretty(tmp_path, capsys, command, EXAMPLE)
        assert status == 0 and side in out
    status, out = pretty(tmp_path, capsys, "verify", {"position": EXAMPLE, "claim": {"value": -96}})
    assert status == 0 and side in out
    status, out = pretty(tmp_path, capsys, "analyse", EXAMPLE, options=("--objective", "raw"))
    assert "  values for side 1 (seat 1 to move): its final raw points minus the other side's" in out
    status, out = pretty(tmp_path, capsys, "hint", BASSADEWITZ)
    assert "  values for seat 0: its own final points, fewer are better" in out
    status, out = pretty(tmp_path, capsys, "hint", {**BASSADEWITZ, "objective": "all_tricks"})
    assert "  values for seat 0: true if it can take every trick" in out
    played = {"game": "belote", "trump": "H", "deal": EXAMPLE_DEAL, "played": ["HJ"]}
    status, out = pretty(tmp_path, capsys, "play-analysis", played)
    assert status == 0 and out[1] == (
        "  before, after: values for the side of each card's seat: its final score minus the other side's"
    )


def test_a_limited_analysis_lines_up_and_says_what_its_best_is() -> None:
    position = Position.from_dict(JASS)
    unsolved = [MoveValue(move, None, -257, 257) for move in ("CK", "SK")]
    result = Result(
        0,
        0,
        "score",
        107,
        (MoveValue("HJ", 107), MoveValue("HA", 99), *unsolved),
        ("HJ",),
        None,
        False,
        300000,
        150.0,
        limit="nodes",
    )
    lines = pretty_result(position, result).splitlines()
    table = lines[lines.index("  move            value") + 1 :][:4]
    assert table == [
        "  HJ                107  best so far",
        "  HA                 99",
        "  CK        [-257, 257]",
        "  SK        [-257, 257]",
    ]  # the bounds ran past the column
    assert "  [a, b]: a move the limit left unsolved: its value lies between a and b" in lines
    assert "  best so far: the best move found before the limit: the position's value is at least 107" in lines
    assert lines[-1] == "  not exact: stopped by the node limit, 300000 nodes, 150.0 ms"  # was "the nodes limit"
    low = pretty_result(
        Position.from_dict(BASSADEWITZ),
        Result(
            0, 0, "points", 61, (MoveValue("CA", 61), MoveValue("HK", None, 50, 70)), ("CA",), None, False, 10, 1.0, limit="time"
        ),
    )
    assert "the position's value is at most 61" in low


def test_a_limited_hint_says_its_value_is_a_bound() -> None:
    text = pretty_hint(Position.from_dict(JASS), Hint(("HJ",), 107, False, 10, 1.0, limit="time"))
    assert (
        "  play HJ: value 107  (not exact: the best move found before the limit: the position's value is at least 107)"
        in text.splitlines()
    )
    text = pretty_hint(Position.from_dict(JASS), Hint((), None, False, 10, 1.0, limit="nodes"))
    assert "play ?: value ?  (not exact: a limit stopped the search before any move was solved)" in text
    guessed = Hint(("HJ",), None, False, 10, 1.0, estimate=46, limit="nodes", estimate_objective="raw", estimate_tricks=1)
    text = pretty_hint(Position.from_dict(JASS), guessed)
    assert "  play HJ: value ?  (not exact: a limit stopped the search; estimated 46 as raw, 1 trick ahead)" in text.splitlines()
    text = pretty_hint(Position.from_dict(JASS), Hint(("HJ",), None, False, 10, 1.0, estimate=46, estimate_tricks=3))
    assert "  play HJ: value ?  (not exact: a limit stopped the search; estimated 46, 3 tricks ahead)" in text.splitlines()
    text = pretty_hint(Position.from_dict(JASS), Hint(("HJ",), None, False, 10, 1.0, limit="time"))  # Bésigue's kind
    assert "play HJ: value ?  (not exact: a limit stopped the search; the move that scores the most at once)" in text
    # with the bounds its search proved
    bounded = Hint(("HJ",), None, False, 10, 1.0, estimate=46, estimate_tricks=3, limit="time", lower=41, upper=55)
    text = pretty_hint(Position.from_dict(JASS), bounded)
    assert "  play HJ: value [41, 55]  (not exact: a limit stopped the search; estimated 46, 3 tricks ahead)" in text
    assert bounded.to_dict()["lower"] == 41 and bounded.to_dict()["upper"] == 55
    assert "lower" not in Hint(("HJ",), 107, False, 10, 1.0, limit="time", lower=1, upper=2).to_dict()


def test_a_besigue_hint_to_declare_says_declare() -> None:
    """A trick winner's best move is a declaration (or a pass): it was shown as "play"."""
    from solver import hint, load_position

    declaring = load_position(json.loads((ROOT / "examples" / "besigue.jsonl").read_text().splitlines()[0]))
    found = hint(declaring)
    text = pretty_hint(declaring, found)
    assert found.best and all(move.startswith("meld:") or move in ("seven", "exchange7", "pass") for move in found.best)
    assert f"  declare {' or '.join(found.best)}: value {found.value}" in text.splitlines()
    playing = declaring.play(found.best[0])  # then both draw, and the winner leads a card
    text = pretty_hint(playing, hint(playing))
    assert any(line.startswith("  play ") for line in text.splitlines())
    passing = Hint(("pass",), -80, True, 10, 1.0)  # a winner with nothing to declare: not "declare pass"
    assert "  pass: value -80" in pretty_hint(declaring, passing).splitlines()


def test_a_limited_analysis_says_what_its_estimates_are() -> None:
    moves = (MoveValue("HJ", 20), MoveValue("HA", None, -157, 157, 12), MoveValue("CK", None, -157, 157, -30))
    result = Result(0, 0, "raw", 20, moves, ("HJ",), None, False, 10, 1.0, limit="time", estimate_tricks=3)
    lines = pretty_result(Position.from_dict(JASS), result).splitlines()
    assert "  HA         ~12 [-157, 157]" in lines
    assert "  ~: an estimate (not a bound): best play over 3 tricks, what follows guessed from the hands" in lines
    guided = Result(0, 0, "score", 20, moves, ("HJ",), None, False, 10, 1.0, limit="nodes", estimate_tricks=1,
                    estimate_objective="raw")
    lines = pretty_result(Position.from_dict(JASS), guided).splitlines()
    assert "  ~: an estimate (not a bound, as raw): best play over 1 trick, what follows guessed from the hands" in lines
    shared = Result(0, 0, "points", 20, moves, ("HJ",), None, False, 10, 1.0, limit="time", estimate_tricks=1)
    lines = pretty_result(Position.from_dict(BASSADEWITZ), shared).splitlines()  # paranoid: no leaf weights
    assert "  ~: an estimate (not a bound): best play over 1 trick, what follows shared evenly" in lines
    # looking as far as the deal goes (a trick begun counts as one), nothing follows
    late = Position.from_dict(EXAMPLE)
    assert late.tricks_left == 4
    to_end = Result(0, 0, "raw", 20, moves, ("HJ",), None, False, 10, 1.0, limit="nodes", estimate_tricks=4)
    lines = pretty_result(late, to_end).splitlines()
    assert "  ~: an estimate (not a bound): best play over 4 tricks, to the end of the deal" in lines
    short = Result(0, 0, "raw", 20, moves, ("HJ",), None, False, 10, 1.0, limit="nodes", estimate_tricks=3)
    assert "best play over 3 tricks, what follows guessed from the hands" in pretty_result(late, short)


def test_lines_of_best_play_are_readable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = pretty(tmp_path, capsys, "analyse", EXAMPLE)
    assert status == 0 and "  line: S8 SK S9 | HJ D8 H7 HT | S7 ST CQ DK | CK DA C8 H9" in out  # parted by tricks
    besigue = json.loads((ROOT / "examples" / "besigue.jsonl").read_text().splitlines()[0])
    status, out = pretty(tmp_path, capsys, "analyse", besigue)
    # a declaration's cards were not told from the cards played after it
    assert status == 0 and "  line: meld:sequence:HA HK HQ HJ HT, C9, CJ, pass, C7, C8" in "\n".join(out)


def test_a_pretty_batch_sets_off_a_lines_error_as_it_does_a_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(f"{json.dumps(EXAMPLE)}\n{{bad\n{json.dumps(EXAMPLE)}\n")
    status = main(["hint", "--pretty", str(source)])
    out = capsys.readouterr().out.split("\n\n")  # a blank line after each answer
    assert status == 1 and len(out) == 4 and out[-1] == ""
    assert out[1].startswith("line 2: error in position: not valid JSON")
    assert out[0].rsplit("\n", 1)[0] == out[2].rsplit("\n", 1)[0]  # the same report, but its nodes and time
    assert re.search(r"\n  exact, \d+ nodes, [\d.]+ ms$", out[0])


def test_a_pretty_hint_and_verdict_say_which_limit_stopped_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # as the other reports' last lines do (they said "a limit", not which, nor the nodes)
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(EXAMPLE) + "\n")
    assert main(["hint", "--pretty", "--node-limit", "1", str(source)]) == 0
    assert re.search(r"\n  not exact: stopped by the node limit, \d+ nodes, [\d.]+ ms\n", capsys.readouterr().out)
    source.write_text(json.dumps({"position": EXAMPLE, "claim": {"best": ["S8"]}}) + "\n")
    assert main(["verify", "--pretty", "--time-limit", "1e-9", str(source)]) == 1
    assert re.search(r"\n  not exact: stopped by the time limit, \d+ nodes, [\d.]+ ms\n", capsys.readouterr().out)


def test_the_trump_table_names_the_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = {"game": "klaverjas", "options": {"rules": "amsterdam"}, "hands": EXAMPLE_DEAL}
    status, out = pretty(tmp_path, capsys, "trumps", deal)
    # the options as the input spells them (was nat_on_tie=False)
    assert status == 0 and out[0] == "klaverjas  rules=amsterdam, roem_order=natural, nat_on_tie=false  objective score"
    # what the values count, on a line of its own as in the other reports, and each declaring side's best leads
    assert out[1] == "  values for side 0 (seat 0 leads): its final score minus the other side's"
    assert out[2].split() == "trump side 0 declares side 1 declares best leads (side 0 / side 1 declares)".split()
    assert all(" / " in row for row in out[3:7])
    # each value under the side that declares, each row under its trump
    entries = tuple(TrumpEntry(t, side, 10 * i + side, (f"{t}A",) if side else (), None, True)
                    for i, t in enumerate("CSHD") for side in (0, 1))  # fmt: skip
    rows = pretty_trumps(TrumpTable("klaverjas", "score", entries, True, 10, 1.0)).splitlines()[3:7]
    assert [row.split() for row in rows] == [
        ["C", "0", "1", "?", "/", "CA"],
        ["S", "10", "11", "?", "/", "SA"],
        ["H", "20", "21", "?", "/", "HA"],
        ["D", "30", "31", "?", "/", "DA"],
    ]
    unknown = TrumpTable("belote", "score", (TrumpEntry("C", None, None, (), None, False),), False, 10, 1.0)
    assert pretty_trumps(unknown).splitlines()[3] == "  C               ?"  # no blanks after it
    # what a limit left of an entry: its bounds and estimate, in a column wide enough
    limited = (TrumpEntry("C", None, None, (), None, False, -41, 157, 12, None, 2),
               TrumpEntry("S", None, 30, ("SA",), None, True),
               TrumpEntry("H", None, None, (), None, False, -157, 7, -108, None, 2))  # fmt: skip
    lines = pretty_trumps(TrumpTable("belote", "score", limited, False, 10, 1.0)).splitlines()
    assert lines[2:6] == [  # the estimates in one column and the bounds in the next (they ran together)
        "  trump                 value  best leads",
        "  C            ~12 [-41, 157]",
        "  S             30             SA",
        "  H          ~-108 [-157, 7]",
    ]
    assert lines[6] == "  [a, b]: a limit left the value unknown: it lies between a and b"
    # how far they looked: the entries' own count (it said "the next tricks" whatever they were)
    assert lines[7].startswith("  ~: an estimate (not a bound): best play over 2 tricks, ")
    deeper = (limited[0], limited[1], replace(limited[2], estimate_tricks=3))
    lines = pretty_trumps(TrumpTable("belote", "score", deeper, False, 10, 1.0)).splitlines()
    assert lines[7].startswith("  ~: an estimate (not a bound): best play over 2 to 3 tricks, ")
    as_raw = (replace(limited[0], estimate_objective="raw"),)
    assert "(not a bound, as raw)" in pretty_trumps(TrumpTable("belote", "score", as_raw, False, 10, 1.0))


def test_the_puzzle_summary_counts_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = {"position": EXAMPLE, "claim": {"value": -96}}
    status, out = pretty(tmp_path, capsys, "verify", puzzle, {"position": EXAMPLE, "claim": {"value": None}})
    assert status == 1 and out[-1] == (
        "1 puzzle: 1 hold, 0 fail, 0 undecided; 1 with a unique winning move, 1 with one winning play; 1 line in error"
    )


LIMITED_PUZZLE = {  # a Jass position whose claim a 5000-node search shows wrong without solving the position
    "position": {
        "game": "jass", "options": {"match_bonus": 0, "buur_exception": False}, "trump": "D",
        "hands": ["CT C7 SQ S8 S6 HT", "C8 SK S7 HA HK D9", "CQ C9 C6 ST S9 DK DT", "SA HQ H9 DA DQ D6"],
        "trick": ["HJ", "H8", "H7"], "leader": 3, "scored": [41, 35], "tricks": [1, 1], "objective": "raw",
    },
    "claim": {"best": ["C9"]},
}  # fmt: skip


def test_a_limited_verdict_shows_what_showed_the_claim_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It printed `not best: C9 ?` and nothing of what beat it (the fifty-fifth audit)."""
    from solver import analyse

    exact = analyse(LIMITED_PUZZLE["position"])
    status, out = pretty(tmp_path, capsys, "verify", LIMITED_PUZZLE, options=("--node-limit", "5000"))
    assert status == 1 and "DOES NOT HOLD" in out[2] and out[3] == "  value ?, best ? (uniqueness unknown)"
    c9 = next(m for m in exact.moves if m.move == "C9")
    assert out[4].startswith("  not best: C9 [") and c9.value is not None
    low, high = (int(x) for x in out[4].removeprefix("  not best: C9 [").rstrip("]").split(", "))
    assert low <= c9.value <= high < exact.value  # bounds, sound, that put it below the best
    move, value = out[5].removeprefix("  best found before the limit: ").split()
    assert int(value) > high and int(value) == next(m.value for m in exact.moves if m.move == move)
    assert out[-1] == (
        "1 puzzle: 0 hold, 1 fail, 0 undecided; 0 with a unique winning move, 0 with one winning play (1 unknown); "
        "0 lines in error"
    )


def test_a_claim_of_no_best_move_is_told_the_best_instead(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"also best: HJ" read as if SA, claimed, were best too."""
    hands = ["HJ SA", "H9 C7", "S8 D7", "S7 DA"]
    position = {"game": "belote", "trump": "H", "hands": hands, "scored": [50, 46], "tricks": [3, 3]}
    _, out = pretty(tmp_path, capsys, "verify", {"position": position, "claim": {"best": ["SA"]}},
                    {"position": position, "claim": {"best": ["SA", "HJ"]}})  # fmt: skip
    assert out[4:6] == ["  not best: SA 20", "  best instead: HJ"]
    assert out[2] == '  claim {"best": ["SA"]}: DOES NOT HOLD (wrong: best)'  # which part of the claim failed
    _, out = pretty(tmp_path, capsys, "verify", {"position": position, "claim": {"best": ["SA"], "value": 60, "unique": False}})
    assert out[2] == '  claim {"best": ["SA"], "value": 60, "unique": false}: DOES NOT HOLD (wrong: best, value and unique)'
    assert "  also best: HJ" not in out and "  best instead" not in out[6:]


def test_a_play_analysis_that_decided_nothing_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said "no card lost anything" with every card's loss unknown."""
    played = {"game": "belote", "trump": "H", "deal": EXAMPLE_DEAL, "played": ["C8", "CA", "CQ", "C7"]}
    _, out = pretty(tmp_path, capsys, "play-analysis", played, options=("--node-limit", "1"))
    assert "  no card known to have lost anything; 4 cards undecided (a limit stopped their searches)" in out
    _, out = pretty(tmp_path, capsys, "play-analysis", played)
    assert "  1 card lost something; the costliest: C7 (card 3, seat 3), 4" in out  # solved: nothing undecided
    assert not any("undecided" in line for line in out)


def test_verify_refuses_an_objective_itself(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["verify", "--objective", "raw"])
    err = capsys.readouterr().err
    # was the whole command line's "unrecognized arguments: --objective"
    assert info.value.code == 2 and "plis verify: error: argument --objective: not taken by verify" in err


def test_hint_refuses_exact_itself(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["hint", "--exact", "S8", "examples/klaverjas.jsonl"])
    err = capsys.readouterr().err
    # was "unrecognized arguments: --exact examples/klaverjas.jsonl": S8 taken for the FILE
    assert info.value.code == 2 and "plis hint: error: argument --exact: not taken by hint" in err


def test_help_says_what_each_command_does_and_each_default() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name, command in commands.items():
        assert command.description, name  # `plis hint --help` showed the usage alone
    text = " ".join(commands["analyse"].format_help().split())
    for default in ("(default: none)", "(default: 1; 0: one per core)", "in megabytes", "standard input (the default)"):
        assert default in text
    assert "(default: 0" in " ".join(commands["play-analysis"].format_help().split())
    assert "points or pomme (putz)" in text  # --objective lists each game's objectives
    assert "JSON Lines file of puzzles" in " ".join(commands["verify"].format_help().split())
    top = parser.format_help()
    assert "Exit status: 0 done, 1 a line failed" in top and "plis analyse --pretty examples/klaverjas.jsonl" in top


def test_an_unknown_option_is_told_by_its_command_with_the_option_meant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["analyse", "--pretyy"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.startswith("usage: plis analyse ")  # was the whole command line's usage
    assert err.endswith("plis analyse: error: unrecognized arguments: --pretyy (did you mean --pretty?)\n")


def test_a_yes_no_trump_entry_whose_bounds_meet_is_true_or_false(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped by a limit with its bounds met, a pomme entry's value was the bound's 1
    (JSON `"value": 1`, --pretty `1`) where the other entries say true or false."""
    deal = {
        "game": "putz",
        "options": {"players": 3},
        "deal": ["CJ CT C9 C8 SA S9 HT DQ DJ", "C6 SQ S7 S6 HK HQ H7 D7 D6", "C7 ST HA H9 DA DK DT D9 D8"],
        "objective": "pomme",
    }
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(deal) + "\n")
    assert main(["trumps", "--node-limit", "8000", str(source)]) == 0
    table = json.loads(capsys.readouterr().out)["table"]
    met = [e for e in table if not e["exact"] and "lower" not in e]
    assert met, "no entry whose bounds met: the node limit no longer reaches one"
    assert all(isinstance(e["value"], bool) for e in table if e["value"] is not None)
    assert main(["trumps", "--pretty", "--node-limit", "8000", str(source)]) == 0
    rows = {line.split()[0]: line.split()[1] for line in capsys.readouterr().out.splitlines()[3:7]}
    assert set(rows.values()) <= {"true", "false", "?"} | {v for v in rows.values() if v.startswith("~")}


def test_the_trump_tables_estimates_say_how_they_count_what_follows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Putz's estimates share the points after them evenly (analyse and the README say
    so); the trump table's legend said they were guessed from the hands, for every game."""
    putz = {
        "game": "putz",
        "options": {"players": 3},
        "deal": ["C9 C8 C6 SJ S7 HK H7 DT D8", "CA CK CT C7 HJ H8 DQ D9 D6", "CQ SA ST S8 S6 HT H6 DK DJ"],
    }
    status, out = pretty(tmp_path, capsys, "trumps", putz, options=("--node-limit", "1"))
    legend = [line for line in out if line.startswith("  ~:")]
    assert status == 0 and legend and legend[0].endswith("what follows shared evenly")
    status, out = pretty(tmp_path, capsys, "trumps", {"game": "belote", "deal": EXAMPLE_DEAL}, options=("--node-limit", "1"))
    legend = [line for line in out if line.startswith("  ~:")]
    assert status == 0 and legend and legend[0].endswith("what follows guessed from the hands")


def test_a_forced_move_under_a_limit_reads_best(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seat 1 holds one spade, the suit led: its only legal card is the best whatever
    the node limit left of its value (it read as no best, then as `best so far`)."""
    source = tmp_path / "forced.json"
    source.write_text(json.dumps({
        "game": "klaverjas", "trump": "H", "declarer": 0, "leader": 0, "trick": ["SA"], "scored": [40, 20],
        "tricks": [3, 1], "hands": ["HJ H9 SQ", "ST CK D8 C7", "H7 SK CQ DA", "HT S9 C8 DK"],
    }))
    assert main(["analyse", "--node-limit", "1", str(source)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["best"] == ["ST"] and result["value"] is None and result["limit"] == "nodes"
    assert main(["analyse", "--pretty", "--node-limit", "1", str(source)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\n  ST +\[-?\d+, -?\d+\]  best, the only legal move\n", out) and "best so far" not in out
    # two legal cards that play the same (S8 and S7, nothing between): best, not "best so far"
    source.write_text(json.dumps({**BELOTE, "played": ["SQ"]}))
    assert main(["analyse", "--pretty", "--node-limit", "1", "--tt-mb", "1", str(source)]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"\n  S[87] +~-?\d+ \[-?\d+, -?\d+\]  best, the legal cards all play the same", out)) == 2
    assert "best so far" not in out


def test_yes_no_bounds_read_false_and_true() -> None:
    """A pomme move a limit left unsolved has the bounds 0 and 1 in the JSON; --pretty
    shows them as the values it shows, `[false, true]` (it read `[0, 1]` beside `true`)."""
    position = Position.from_dict({
        "game": "putz", "options": {"players": 3}, "objective": "pomme", "trump": "C",
        "hands": ["CA CT SA SK SQ S8 HK DQ D8", "CQ C9 ST S7 H9 H8 DT D9 D7", "CK SJ S9 HQ HJ H7 H6 DK DJ"],
    })
    moves = (MoveValue("CA", True), MoveValue("S8", None, 0, 1, 29))
    result = Result(0, 0, "pomme", True, moves, ("CA",), None, False, 10, 1.0, limit="nodes", estimate_tricks=1,
                    estimate_objective="points")
    assert result.to_dict()["moves"][1] == {"move": "S8", "value": None, "lower": 0, "upper": 1, "estimate": 29}
    lines = pretty_result(position, result).splitlines()
    assert "  S8         ~29 [false, true]" in lines and "  CA        true                best so far" in lines
    text = pretty_hint(position, Hint(("S8",), None, False, 10, 1.0, estimate=29, limit="time", lower=0, upper=1))
    assert "  play S8: value [false, true]  (not exact:" in text
    assert "[0, 1]" not in text


def test_a_verdict_shows_which_best_cards_are_one_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S9 and S7 (S8 gone) are one play: the report says so, and names S9, which the claim
    left out, as S7's twin rather than as a second answer."""
    puzzle = {**PLAYS_JASS, "claim": {"best": ["S7"], "unique_play": True}}
    status, out = pretty(tmp_path, capsys, "verify", puzzle)
    assert status == 0 and "  the same play: S9 = S7 (one best play)" in out
    assert "  also best: S9 (one play with S7)" in out
    assert out[-1].endswith("0 with a unique winning move, 1 with one winning play; 0 lines in error")
