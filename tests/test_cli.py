"""The `plis` command line: analyse, hint, play-analysis, trumps and verify."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from solver import OptionError, Position, PositionError, analyse, analyse_play, load_position, trump_table, verify_puzzle
from solver.cli import main

from .besigue_random import random_deal
from .helpers import ROOT
from .test_features import EXAMPLE, deal_of, playout

PLIS = [sys.executable, "-c", "import sys; from solver.cli import main; sys.exit(main())"]  # the command, run from ROOT
SECOND = {**EXAMPLE, "options": {"rules": "rotterdam"}}
BAD_CARD = {**EXAMPLE, "hands": ["HJ H9 SX", "ST S8 CK D8", "H7 SK CQ DA", "HT S9 C8 DK"]}


def write_lines(path: Path, lines: list[object]) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def comparable(answer: Any) -> Any:
    """An answer without what may change from run to run: timings, node counts, and
    a line of best play and its points (any best line will do)."""
    if isinstance(answer, dict):
        return {k: comparable(v) for k, v in answer.items() if k not in ("time_ms", "nodes", "points", "line")}
    if isinstance(answer, list):
        return [comparable(v) for v in answer]
    return answer


# --- analyse -----------------------------------------------------------------------------


def test_analyse_answers_each_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, "", " \t\r", SECOND])  # blank lines are skipped
    status, out, _ = run(capsys, "analyse", str(source))
    assert status == 0 and len(out) == 2
    for line, position in zip(out, [EXAMPLE, SECOND]):
        assert comparable(json.loads(line)) == comparable(analyse(position).to_dict())


def test_a_line_of_other_blanks_is_an_error_not_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, "\u00a0", "\u2003 ", SECOND])  # no-break and em spaces
    status, out, err = run(capsys, "analyse", str(source))
    assert status == 1 and len(out) == 4
    for number in (2, 3):
        answer = json.loads(out[number - 1])
        assert answer["line"] == number and answer["error"]["reason"] == "INVALID_JSON"
    assert "2 of 4 lines failed" in err


def test_a_bad_line_gets_its_error_and_the_rest_go_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, BAD_CARD, "{not json", [1, 2], SECOND])
    status, out, err = run(capsys, "analyse", str(source))
    assert status == 1 and len(out) == 5
    answers = [json.loads(line) for line in out]
    assert answers[0]["value"] == -96 and answers[4]["best"] == analyse(SECOND).to_dict()["best"]
    assert answers[1] == {
        "line": 2,
        "error": {"field": "hands[0][2]", "reason": "INVALID_CARD", "message": answers[1]["error"]["message"]},
    }
    assert answers[2]["line"] == 3 and answers[2]["error"]["reason"] == "INVALID_JSON"
    assert answers[3]["line"] == 4 and answers[3]["error"]["field"] == "position"
    assert "3 of 5 lines failed" in err


def test_a_line_that_is_not_utf8_gets_its_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(json.dumps(EXAMPLE).encode() + b"\n\xff\xfe{}\n" + json.dumps(SECOND).encode() + b"\n")
    status, out, err = run(capsys, "analyse", str(source))
    answers = [json.loads(line) for line in out]
    assert status == 1 and len(answers) == 3 and answers[0]["value"] == -96 and "best" in answers[2]
    assert answers[1] == {
        "line": 2, "error": {"field": "position", "reason": "INVALID_JSON", "message": "not UTF-8 text (column 1)"}
    }
    assert "1 of 3 lines failed" in err


def test_json_nested_too_deeply_a_list_and_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.jsonl"
    lines = [json.dumps(EXAMPLE), "[" * 100_000 + "]" * 100_000, "[1]", json.dumps(SECOND), "[" + "9" * 5000 + "]"]
    source.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode() + b"\n")  # as some editors save
    status, out, err = run(capsys, "hint", str(source))
    answers = [json.loads(line) for line in out]
    assert status == 1 and len(answers) == 5 and answers[0]["best"] == ["S8"] and "best" in answers[3]
    assert answers[1]["error"] == {"field": "position", "reason": "INVALID_JSON",
                                   "message": "not valid JSON here: nested too deeply"}
    assert answers[2]["error"]["reason"] == "INVALID_POSITION" and "JSON object, got an array" in answers[2]["error"]["message"]
    # a number past Python's digits limit: was an INTERNAL error
    assert answers[4]["error"]["reason"] == "INVALID_JSON"
    assert "5,000 digits (at most 4,300 are read)" in answers[4]["error"]["message"]
    assert "3 of 5 lines failed" in err


def test_a_key_given_twice_is_the_lines_error_not_the_last_value_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twice = json.dumps(EXAMPLE)[:-1] + ', "trump": "S"}'  # which trump is meant?
    puzzle = json.dumps({"position": EXAMPLE, "claim": {"best": ["S8"]}})[:-2] + ', "best": ["ST"]}}'
    source = write_lines(tmp_path / "in.jsonl", [twice, EXAMPLE])
    status, out, err = run(capsys, "hint", str(source))
    assert status == 1 and json.loads(out[0])["error"] == {
        "field": "trump", "reason": "INVALID_JSON",
        "message": 'not valid JSON here: the key "trump" appears twice in one object',
    }  # fmt: skip
    assert json.loads(out[1])["best"] == ["S8"]
    # the error names where the key stands, not the whole line (it named `position`)
    nested = json.dumps({"position": {**EXAMPLE, "options": {"rules": "amsterdam"}}, "claim": {}})
    nested = nested.replace('"rules": "amsterdam"', '"rules": "amsterdam", "rules": "rotterdam"')
    status, out, err = run(capsys, "verify", str(write_lines(tmp_path / "puzzle.jsonl", [puzzle, nested])))
    errors = [json.loads(line)["error"] for line in out[:2]]
    assert status == 1 and [(e["field"], e["reason"]) for e in errors] == [
        ("claim.best", "INVALID_JSON"), ("position.options.rules", "INVALID_JSON"),
    ]  # fmt: skip
    assert 'the key "best" appears twice' in errors[0]["message"]


def test_a_file_taken_as_the_objective_is_a_usage_error_not_a_silent_read_of_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`plis analyse --objective FILE` (the name forgotten): the FILE was the objective,
    and the positions were read from standard input, waiting on a terminal, or nothing
    at all from an empty one, with status 0."""
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE])
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as stopped:
        run(capsys, "analyse", "--objective", str(source))
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert f"--objective must be one of all_tricks, points, pomme, raw, score, got '{source}'" in err
    assert "(a FILE? --objective takes an objective's name first)" in err


def test_more_jobs_than_memory_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE])
    status, out, err = run(capsys, "analyse", "--jobs", "1000000", str(source))
    assert status == 2 and not out and "--jobs: 1000000 threads with tables of up to 81 MB" in err


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--node-limit", "99999999999999999999999", "plis: --node-limit: must be at most"),
        ("--tt-mb", "100000000", "plis: --tt-mb: 100000000 MB is more than the memory"),
        ("--objective", "", "--objective must name one of the game's objectives, got an empty name"),
        ("--objective", "bogus", "--objective must be one of all_tricks, points, pomme, raw, score, got 'bogus'"),
    ],
)
def test_a_flag_out_of_range_is_a_usage_error_not_every_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, message: str
) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, SECOND])
    with pytest.raises(SystemExit) if flag == "--objective" else contextlib.nullcontext() as stopped:
        status, out, err = run(capsys, "hint", flag, value, str(source))
    if stopped is not None:  # argparse's own usage error
        assert stopped.value.code == 2
        out, err = [], capsys.readouterr().err
        status = 2
    assert status == 2 and not out and message in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_lines_fed_through_a_pipe_are_answered_as_they_come(jobs: str) -> None:
    """An app asking for hints during play writes a position and waits for its answer
    (more jobs read ahead, but an answer still does not wait for the next line)."""
    command = [*PLIS, "hint", "--jobs", jobs]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT) as child:
        assert child.stdin is not None and child.stdout is not None
        for _ in range(3):
            child.stdin.write(json.dumps(EXAMPLE) + "\n")
            child.stdin.flush()
            ready, _, _ = select.select([child.stdout], [], [], 60)
            assert ready, "no answer before the next line or the end of the input"
            assert json.loads(child.stdout.readline())["best"] == ["S8"]
        child.stdin.close()
        assert child.wait(60) == 0 and child.stdout.read() == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_long_search_and_keeps_the_answers_written(tmp_path: Path, jobs: str) -> None:
    """A whole Bésigue deal is beyond exact search: Ctrl-C must end it at once, quietly,
    with the answer to the line before it already out."""
    endless = random_deal(random.Random(1)).to_dict()
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, endless])
    command = [*PLIS, "hint", "--jobs", jobs, str(source)]
    # as a terminal would start it: a shell's background job (`pytest &` in a script)
    # ignores SIGINT, and a program started so inherits that and never sees the Ctrl-C
    default_sigint = functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL)
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                          preexec_fn=default_sigint) as child:  # fmt: skip
        assert child.stdout is not None and child.stderr is not None
        try:
            ready, _, _ = select.select([child.stdout], [], [], 60)
            assert ready
            assert json.loads(child.stdout.readline())["best"] == ["S8"]
            time.sleep(0.5)  # into the endless search
            assert child.poll() is None
            child.send_signal(signal.SIGINT)
            assert child.wait(10) == 130
        finally:
            child.kill()  # (a failed test must not leave the search running)
        assert child.stdout.read() == ""
        err = child.stderr.read()
        assert "plis: interrupted" in err and "Traceback" not in err


# `plis` as installed (pyproject's entry point), with a Ctrl-C while it loads the
# analysis modules: a finder the import asks on the way sends it, deterministically
INTERRUPTED_WHILE_LOADING = """
import os, signal, sys
class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "solver.analysis":
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, CtrlC())
from solver.__main__ import main
sys.argv[0] = "plis"
sys.exit(main())
"""


def test_ctrl_c_while_the_command_loads_ends_quietly(tmp_path: Path) -> None:
    """A Ctrl-C in the first few tenths of a second, while Python loads the engines and
    the games, printed Python's traceback: `plis` (solver.__main__) takes it as later."""
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE])
    default_sigint = functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL)
    entry = dict(line.split(" = ", 1) for line in (ROOT / "pyproject.toml").read_text().splitlines() if " = " in line)
    assert entry["plis"] == '"solver.__main__:main"'
    child = subprocess.run([sys.executable, "-c", INTERRUPTED_WHILE_LOADING, "hint", str(source)], capture_output=True,
                           text=True, cwd=ROOT, timeout=60, preexec_fn=default_sigint)  # fmt: skip
    assert (child.returncode, child.stdout, child.stderr) == (130, "", "plis: interrupted\n")
    done = subprocess.run([sys.executable, "-m", "solver", "hint", str(source)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["best"] == ["S8"]  # python -m solver is plis too


def test_analyse_pretty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, BAD_CARD])
    status, out, _ = run(capsys, "analyse", "--pretty", str(source))
    text = "\n".join(out)
    assert status == 1
    assert "klaverjas" in text and "<- to move" in text and "S8" in text and "-96" in text and "best" in text
    assert "line 2: error in hands[0][2]" in text


def test_analyse_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(EXAMPLE) + "\n"))
    status, out, _ = run(capsys, "analyse", "-", "--objective", "raw")
    assert status == 0 and json.loads(out[0])["objective"] == "raw"
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(EXAMPLE) + "\n"))
    status, out, _ = run(capsys, "analyse")  # no file: standard input
    assert status == 0 and json.loads(out[0])["value"] == -96


def test_analyse_limits_and_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = {"game": "klaverjas", "trump": "H", "declarer": 0, "hands": deal_of("klaverjas", 2, "H")}
    source = write_lines(tmp_path / "in.jsonl", [full])
    status, out, _ = run(capsys, "analyse", "--node-limit", "5000", str(source))
    answer = json.loads(out[0])
    assert status == 0 and answer["exact"] is False and answer["limit"] == "nodes"
    status, _, err = run(capsys, "analyse", str(tmp_path / "missing.jsonl"))
    assert status == 2 and "cannot read" in err
    with pytest.raises(SystemExit) as info:
        main(["analyse", "--node-limit", "many"])
    assert info.value.code == 2
    assert main([]) == 2


def test_jobs_answer_in_the_order_of_the_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the complete deals first: with threads, the small lines after them finish first
    deals = [{"game": "klaverjas", "trump": "H", "declarer": 0, "hands": deal_of("klaverjas", seed, "H")} for seed in (2, 3)]
    lines: list[object] = [*deals, EXAMPLE, BAD_CARD, "{not json", SECOND, EXAMPLE]
    source = write_lines(tmp_path / "in.jsonl", lines)
    status, alone, err_alone = run(capsys, "analyse", str(source))
    status_jobs, together, err_jobs = run(capsys, "analyse", "--jobs", "3", str(source))
    assert status == status_jobs == 1 and len(together) == len(lines)
    assert [comparable(json.loads(line)) for line in together] == [comparable(json.loads(line)) for line in alone]
    assert [json.loads(line).get("line") for line in together] == [None, None, None, 4, 5, None, None]
    assert "2 of 7 lines failed" in err_alone and "2 of 7 lines failed" in err_jobs


def test_jobs_count_every_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = [{"position": EXAMPLE, "claim": {"best": ["S8"], "value": -96}}] * 6
    puzzles += [{"position": EXAMPLE, "claim": {"best": ["ST"]}}] * 3
    source = write_lines(tmp_path / "in.jsonl", puzzles)
    status, out, _ = run(capsys, "verify", "--jobs", "0", str(source))
    assert status == 1 and len(out) == 10
    summary = {"puzzles": 9, "hold": 6, "fail": 3, "undecided": 0, "unique": 9, "unique_play": 9,
               "unique_unknown": 0, "errors": 0}
    assert json.loads(out[-1])["summary"] == summary


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--jobs", "-1"), ("--jobs", "two"), ("--tt-mb", "0"), ("--tt-mb", "1.5"), ("--time-limit", "-1"),
        ("--time-limit", "0"), ("--time-limit", "nan"), ("--time-limit", "soon"), ("--node-limit", "0"),
    ],
)  # fmt: skip
def test_jobs_limits_and_table_size_usage_errors(option: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["analyse", option, value])
    assert info.value.code == 2 and f"{option} must be" in capsys.readouterr().err


# --- analyse --exact ------------------------------------------------------------------------------

# four tricks left; values by a full analysis: SQ 94 (best), SK 92, SA 78, HQ -212
KLAVERJAS_END = {
    "game": "klaverjas", "options": {"rules": "rotterdam"}, "trump": "H", "declarer": 0,
    "hands": ["SA SK SQ HQ", "CQ C8 C7 HJ", "CJ CT H7 D7", "CA CK C9 DQ"], "leader": 0, "scored": [103, 25], "tricks": [3, 1],
}  # fmt: skip
# fewer points are better: S9 and S8 59 (best), DK 63, HJ 66
BASSADEWITZ_END = {
    "game": "bassadewitz", "hands": ["SK HQ DA DJ", "S9 S8 HJ DK", "CK CJ C7 ST", "SA SJ S7 D9"], "leader": 1,
    "scored": [0, 44, 21, 0], "tricks": [0, 3, 1, 0],
}  # fmt: skip


def exact_and_full(tmp_path: Path, capsys: pytest.CaptureFixture[str], position: dict[str, Any], moves: str
                   ) -> tuple[dict[str, Any], dict[str, int]]:
    """`plis analyse --exact moves` on one line, and each move's value by a plain `plis analyse`."""
    source = str(write_lines(tmp_path / "in.jsonl", [position]))
    status, out, _ = run(capsys, "analyse", source)
    assert status == 0
    full = {m["move"]: m["value"] for m in json.loads(out[0])["moves"]}
    status, out, _ = run(capsys, "analyse", "--exact", moves, source)
    assert status == 0 and len(out) == 1
    return json.loads(out[0]), full


@pytest.mark.parametrize(
    ("position", "moves", "named", "fewer_is_better"),
    [(KLAVERJAS_END, "SA", {"SA"}, False), (BASSADEWITZ_END, " HJ ", {"HJ"}, True), (KLAVERJAS_END, "", set(), False)],
)
def test_exact_values_the_best_and_the_named_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], position: dict[str, Any], moves: str, named: set[str],
    fewer_is_better: bool,
) -> None:
    answer, full = exact_and_full(tmp_path, capsys, position, moves)
    best_value = min(full.values()) if fewer_is_better else max(full.values())
    assert answer["exact"] is True and answer["value"] == best_value
    assert set(answer["best"]) == {move for move, value in full.items() if value == best_value}
    assert {m["move"] for m in answer["moves"]} == set(full)
    unvalued = [m for m in answer["moves"] if m["value"] is None]
    assert unvalued, "every move valued: not the quicker search"
    for m in answer["moves"]:
        if m["move"] in named or m["move"] in answer["best"]:
            assert m["value"] == full[m["move"]]
        elif m["value"] is not None:  # a move that led until a better one came keeps its value
            assert m["value"] == full[m["move"]]
        else:  # a bound showing it worse than the best, and true
            assert m["lower"] <= full[m["move"]] <= m["upper"]
            assert m["lower"] > best_value if fewer_is_better else m["upper"] < best_value


def test_exact_pretty_shows_the_bound_that_makes_a_move_worse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = str(write_lines(tmp_path / "in.jsonl", [KLAVERJAS_END, BASSADEWITZ_END]))
    status, out, _ = run(capsys, "analyse", "--exact", "", "--pretty", source)
    assert status == 0
    assert "  SK         <= 93" in out  # SK is 92, one step below SQ's 94 bounds it
    assert "  DK         >= 60" in out  # fewer points are better: DK is 63, best 59
    assert out.count("  <=, >=: a bound only (--exact): the move is worse than the best, not valued exactly") == 2


def test_exact_a_move_not_legal_is_that_lines_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # SA is legal in the Klaverjas positions only, XX in none
    source = str(write_lines(tmp_path / "in.jsonl", [KLAVERJAS_END, BASSADEWITZ_END, KLAVERJAS_END]))
    status, out, err = run(capsys, "analyse", "--exact", "SQ,SA", source)
    answers = [json.loads(line) for line in out]
    assert status == 1 and len(answers) == 3 and "1 of 3 lines failed" in err
    assert comparable(answers[0]) == comparable(answers[2])
    assert {m["move"]: m["value"] for m in answers[0]["moves"]}["SA"] == 78
    assert answers[1]["line"] == 2 and answers[1]["error"]["field"] == "--exact[0]"
    assert answers[1]["error"]["reason"] == "ILLEGAL_MOVE" and "SQ is not a legal move here" in answers[1]["error"]["message"]
    status, out, _ = run(capsys, "analyse", "--exact", "SA, XX", "--pretty", source)
    assert status == 1 and "line 1: error in --exact[1]: \"XX\" is not a card" in "\n".join(out)
    # a move named twice is a slip (for another move, most likely), not passed over
    status, out, _ = run(capsys, "analyse", "--exact", "SA,SA", str(write_lines(tmp_path / "one.jsonl", [KLAVERJAS_END])))
    error = json.loads(out[0])["error"]
    assert status == 1 and error == {"field": "--exact[1]", "reason": "BAD_OPTION", "message": "names SA twice"}


@pytest.mark.parametrize("moves", ["SA,,SK", "SA,", ",SA", " , "])
def test_exact_an_empty_move_is_a_usage_error(moves: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["analyse", "--exact", moves])
    captured = capsys.readouterr()
    assert info.value.code == 2 and not captured.out
    assert f"argument --exact: --exact must list moves separated by commas, got an empty one in {moves!r}" in captured.err


def test_exact_reads_besigue_moves_with_commas_in_their_marks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Bésigue move's marks are separated by commas too: only commas outside brackets
    part the moves.  (Bésigue's own search values every move all the same.)"""
    position = {
        "game": "besigue", "options": {"phase1": "seed"}, "trump": "S",
        "hands": ["CQ C9 C8 SQ SJ S9 HT DA DQ", "CA C8 C7 C7 SQ S8 S8 HQ DK"], "talon": ["H7", "SK", "D8", "DT", "CA", "S7"],
        "leader": 0, "scored": [180, 100], "tricks": [10, 10], "exchanged": True, "dealer": 0,
        "melded": [[{"card": "CQ", "kinds": ["four_queens", "marriage"]}, {"card": "SQ", "kinds": ["besigue", "four_queens"]}],
                   [{"card": "SQ", "kinds": ["marriage"]}]],
    }  # fmt: skip
    source = str(write_lines(tmp_path / "in.jsonl", [position]))
    status, out, _ = run(capsys, "analyse", "--exact", "SQ[besigue,four_queens], CQ[four_queens,marriage],C9", source)
    assert status == 0 and comparable(json.loads(out[0])) == comparable(analyse(position).to_dict())
    status, out, _ = run(capsys, "analyse", "--exact", "C9,meld:four_queens:CQ SQ", source)
    error = json.loads(out[0])["error"]
    assert status == 1 and error["field"] == "--exact[1]" and error["reason"] == "ILLEGAL_MOVE"


# --- hint, play-analysis, trumps, verify ------------------------------------------------------------


def test_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, BAD_CARD])
    status, out, _ = run(capsys, "hint", str(source))
    assert status == 1
    assert comparable(json.loads(out[0])) == {"best": ["S8"], "value": -96, "exact": True}
    status, out, _ = run(capsys, "hint", "--node-limit", "100000", str(source))
    assert comparable(json.loads(out[0])) == {"best": ["S8"], "value": -96, "exact": True}
    assert json.loads(out[1])["error"]["reason"] == "INVALID_CARD"
    status, out, _ = run(capsys, "hint", "--pretty", str(source))
    assert "play S8: value -96" in "\n".join(out)


def test_play_analysis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {"game": "klaberjass", "trump": "H", "taker": 0, "deal": deal_of("klaberjass", 3)}
    data["played"] = playout(data, 3, 10)
    illegal = {**data, "played": data["played"][:1] + ["XX"]}
    source = write_lines(tmp_path / "in.jsonl", [data, illegal, EXAMPLE])
    status, out, _ = run(capsys, "play-analysis", str(source))
    assert status == 1
    answer = json.loads(out[0])
    assert comparable(answer) == comparable(analyse_play(data).to_dict())
    assert json.loads(out[1])["error"]["field"] == "played[1]"
    assert json.loads(out[2])["error"]["field"] == "deal"
    status, out, _ = run(capsys, "play-analysis", "--first", "8", "--pretty", str(source))
    text = "\n".join(out)
    assert "before" in text and "lost" in text and data["played"][9] in text


def test_play_analysis_first_negative_is_a_usage_error_and_past_the_end_names_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {"game": "klaberjass", "trump": "H", "taker": 0, "deal": deal_of("klaberjass", 3)}
    data["played"] = playout(data, 3, 10)
    source = write_lines(tmp_path / "in.jsonl", [data])
    with pytest.raises(SystemExit) as info:  # wrong for every line: once, not each line's error
        main(["play-analysis", "--first", "-1", str(source)])
    assert info.value.code == 2 and "--first must be 0 or more, got -1" in capsys.readouterr().err
    status, out, _ = run(capsys, "play-analysis", "--first", "11", str(source))  # 10 cards played
    assert status == 1 and json.loads(out[0])["error"]["field"] == "--first"


def test_play_analysis_pretty_counts_the_cards_that_lost() -> None:
    from solver.cli import pretty_play
    from solver.features import PlayAnalysis, PlayedCard

    position = Position.from_dict(EXAMPLE)
    good = PlayedCard(0, 1, 1, "S8", -96, -96, 0, ("S8",), False)
    bad = PlayedCard(1, 2, 0, "SK", 96, 80, 16, ("H7",), False)
    worse = PlayedCard(2, 3, 1, "S9", -80, -100, 20, ("DK",), False)
    one = pretty_play(position, PlayAnalysis("score", (good, bad), True, 10, 1.0))
    assert "  1 card lost something; the costliest: SK (card 1, seat 2), 16" in one
    two = pretty_play(position, PlayAnalysis("score", (good, bad, worse), True, 10, 1.0))
    assert "  2 cards lost something; the costliest: S9 (card 2, seat 3), 20" in two
    # a row a card: index, seat, card, before, after, lost, the best cards
    rows = [line.split() for line in two.splitlines() if line.split()[2:3] in (["S8"], ["SK"], ["S9"])]
    assert rows == [["0", "1", "S8", "-96", "-96", "0", "S8"], ["1", "2", "SK", "96", "80", "16", "H7", "<-", "mistake"],
                    ["2", "3", "S9", "-80", "-100", "20", "DK", "<-", "mistake"]]  # fmt: skip
    assert "no card lost anything" in pretty_play(position, PlayAnalysis("score", (good,), True, 10, 1.0))


def test_trumps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = {"game": "klaberjass", "deal": deal_of("klaberjass", 4)}
    source = write_lines(tmp_path / "in.jsonl", [deal, {"game": "bassadewitz", "deal": deal_of("bassadewitz", 1)}])
    status, out, _ = run(capsys, "trumps", str(source))
    assert status == 1
    assert comparable(json.loads(out[0])) == comparable(trump_table(deal).to_dict())
    assert json.loads(out[1])["error"]["field"] == "game"
    status, out, _ = run(capsys, "trumps", "--pretty", str(source))
    assert "side 0 declares" in "\n".join(out)


def test_verify_with_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = [
        {"position": EXAMPLE, "claim": {"best": ["S8"], "value": -96}},
        {**EXAMPLE, "claim": {"best": ["S8"], "unique": True}},
    ]
    source = write_lines(tmp_path / "in.jsonl", puzzles)
    status, out, _ = run(capsys, "verify", str(source))
    assert status == 0 and len(out) == 3
    assert comparable(json.loads(out[0])) == comparable(verify_puzzle(EXAMPLE, {"best": ["S8"], "value": -96}).to_dict())
    summary = {"puzzles": 2, "hold": 2, "fail": 0, "undecided": 0, "unique": 2, "unique_play": 2,
               "unique_unknown": 0, "errors": 0}
    assert json.loads(out[2]) == {"summary": summary}

    failing = puzzles + [{"position": EXAMPLE, "claim": {"best": ["ST"]}}, {"position": EXAMPLE, "claim": {"best": ["CK"]}}]
    source = write_lines(tmp_path / "in2.jsonl", failing)
    status, out, _ = run(capsys, "verify", str(source))
    assert status == 1
    assert json.loads(out[2])["holds"] is False
    assert json.loads(out[3])["error"] == {
        "field": "claim.best[0]",
        "reason": "ILLEGAL_MOVE",
        "message": json.loads(out[3])["error"]["message"],
    }
    summary = {"puzzles": 3, "hold": 2, "fail": 1, "undecided": 0, "unique": 3, "unique_play": 3,
               "unique_unknown": 0, "errors": 1}
    assert json.loads(out[4])["summary"] == summary
    status, out, _ = run(capsys, "verify", "--pretty", str(source))
    text = "\n".join(out)
    assert "HOLDS" in text and "DOES NOT HOLD" in text and "3 puzzles: 2 hold, 1 fail" in text


def test_verify_names_a_puzzles_position_fields_by_their_path_in_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**EXAMPLE, "hands": ["HJ H9", *EXAMPLE["hands"][1:]]}  # seat 0 short of a card
    lines = [{"position": bad, "claim": {"value": 1}}, {**bad, "claim": {"value": 1}}, {"position": bad, "claim": {}}]
    status, out, _ = run(capsys, "verify", str(write_lines(tmp_path / "in.jsonl", lines)))
    assert status == 1
    # the position is read first, as the service reads it (there: position.hands[0] too)
    fields = [json.loads(line)["error"]["field"] for line in out[:3]]
    assert fields == ["position.hands[0]", "hands[0]", "position.hands[0]"]


def test_verify_blames_a_line_that_is_no_json_object_on_the_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the line is a puzzle; these errors named `position`, which it holds
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"position": {oops\n[1]\n\xff{}\n')
    status, out, err = run(capsys, "verify", str(source))
    errors = [json.loads(line)["error"] for line in out[:3]]
    assert status == 1 and [(e["field"], e["reason"]) for e in errors] == [
        ("puzzle", "INVALID_JSON"), ("puzzle", "INVALID_POSITION"), ("puzzle", "INVALID_JSON"),
    ]  # fmt: skip
    assert errors[1]["message"] == "each line must be a JSON object, got an array"
    assert json.loads(out[3])["summary"]["errors"] == 3 and "3 of 3 lines failed" in err


def test_pretty_says_who_a_paranoid_value_is_for_and_which_way_is_better(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    putz = write_lines(tmp_path / "putz.jsonl", [{"game": "putz", "trump": "H", "deal": deal_of("putz", 1)}])
    status, out, _ = run(capsys, "trumps", "--pretty", str(putz))
    assert status == 0 and "values for seat 0" in out[1]  # was "side 0": each seat is for itself
    deal = {"game": "bassadewitz", "deal": deal_of("bassadewitz", 1)}
    bassadewitz = write_lines(tmp_path / "bassadewitz.jsonl", [{**deal, "played": playout(deal, 1, 3)}])
    status, out, _ = run(capsys, "play-analysis", "--pretty", str(bassadewitz))
    assert status == 0 and "objective points  (fewer points are better)" in out[0]
    with pytest.raises(OptionError) as info:
        trump_table({"game": "belote", "deal": deal_of("belote", 1)}, jobs=True)  # type: ignore[arg-type]
    assert info.value.field == "jobs"  # was taken as one thread


# --- Bésigue ---------------------------------------------------------------------------------------


def test_besigue_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from .besigue_random import random_position

    rng = random.Random(6)
    positions = [random_position(rng, 4).to_dict(), random_position(rng, 6, stop="declare").to_dict()]
    bad = {**positions[0], "melded": [[{"card": "SQ", "kinds": ["sequence"]}], []]}
    source = write_lines(tmp_path / "besigue.jsonl", [*positions, bad])
    status, out, _ = run(capsys, "analyse", str(source))
    assert status == 1 and len(out) == 3
    for line, position in zip(out, positions):
        assert comparable(json.loads(line)) == comparable(analyse(position).to_dict())
    assert json.loads(out[2])["error"]["field"].startswith("melded[0][0]")
    status, out, _ = run(capsys, "analyse", "--pretty", str(write_lines(tmp_path / "one.jsonl", positions[1:])))
    assert status == 0 and "declares" in "\n".join(out) and "talon:" in "\n".join(out)


def test_version_is_the_installed_packages(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"plis {version('plis')}\n"


@pytest.mark.parametrize(
    ("scored", "settlement"),
    [
        # seat 0 takes CA and HK (15): 65, 30, 20, 9; fewest 5 chips, next 4, next 3
        ([50, 30, 20, 9], "chips from the pool [0, 3, 4, 5]"),
        # seat 0 ends on 114 without every trick: pays 4 to each, the pool stays
        ([99, 10, 5, 0], "the pool stays, between the players [-12, 4, 4, 4]"),
    ],
)
def test_pretty_bassadewitz_reports_the_chips(tmp_path: Path, capsys: pytest.CaptureFixture[str], scored: list[int],
                                              settlement: str) -> None:
    last_trick = {"game": "bassadewitz", "hands": ["CA", "C7", "C8", "HK"], "leader": 0, "scored": scored,
                  "tricks": [3, 2, 2, 0]}
    status, out, _ = run(capsys, "analyse", "--pretty", str(write_lines(tmp_path / "in.jsonl", [last_trick])))
    assert status == 0 and f"  settlement on that line: {settlement}" in out


def test_pretty_shows_the_estimates_of_a_limited_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = random_deal(random.Random(1)).to_dict()  # a whole Bésigue deal: nothing solved in a moment
    source = str(write_lines(tmp_path / "in.jsonl", [deal]))
    status, out, _ = run(capsys, "analyse", "--pretty", "--time-limit", "0.2", source)
    assert status == 0 and any(line.startswith("  ~: an estimate (not a bound): best play over") for line in out)
    assert any(line.endswith("what follows guessed from the hands") for line in out)
    assert any("~" in line and "[" in line for line in out)  # a move's estimate beside its bounds
    status, out, _ = run(capsys, "hint", "--pretty", "--time-limit", "0.2", source)
    assert status == 0 and any("; estimated " in line for line in out)


# --- input and output that fail ------------------------------------------------------


def _plis_in_shell(redirects: str, *args: str) -> subprocess.CompletedProcess[str]:
    """plis run by a shell with its streams redirected (`2>&-`: stderr closed)."""
    command = " ".join(["'" + part.replace("'", "'\\''") + "'" for part in [*PLIS, *args]])
    return subprocess.run(["sh", "-c", f"{command} {redirects}"], capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_results_that_cannot_be_written_end_with_a_message_not_a_traceback(tmp_path: Path, jobs: str) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE] * 3)
    done = _plis_in_shell("> /dev/full", "hint", "--jobs", jobs, str(source))
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert done.stderr.startswith("plis: cannot write the results: No space left on device")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_reader_that_goes_away_ends_plis_even_while_its_input_stays_open(jobs: str) -> None:
    """`plis hint` fed by an app that stops reading: it used to wait for the next line
    (or the end of the input) before it could end, and took no Ctrl-C meanwhile."""
    command = [*PLIS, "hint", "--jobs", jobs]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    ) as child:
        assert child.stdin is not None and child.stdout is not None and child.stderr is not None
        try:
            child.stdin.write(json.dumps(EXAMPLE) + "\n")
            child.stdin.flush()
            assert json.loads(child.stdout.readline())["best"] == ["S8"]
            child.stdout.close()
            child.stdin.write(json.dumps(EXAMPLE) + "\n")  # its answer finds no reader
            child.stdin.flush()
            assert child.wait(30) == 3  # the input still open
        finally:
            child.kill()
        assert child.stderr.read() == ""  # quietly, as `| head` expects


def test_closed_standard_streams(tmp_path: Path) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE, BAD_CARD])
    done = _plis_in_shell("2>&-", "hint", str(source))  # the results were lost without a word
    assert done.returncode == 1 and [json.loads(line).get("best") for line in done.stdout.splitlines()] == [["S8"], None]
    done = _plis_in_shell(">&-", "hint", str(source))
    assert done.returncode == 2 and done.stderr == "plis: cannot write the results: there is no standard output\n"
    done = _plis_in_shell("<&-", "hint")
    assert done.returncode == 2 and done.stderr == "plis: cannot read the positions: there is no standard input\n"
    done = _plis_in_shell("2>&- >&-", "hint", "/no/such/file")  # the message was written into the results
    assert done.returncode == 2 and done.stdout == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/mem: Linux")
def test_a_file_that_cannot_be_read_ends_with_a_message_not_a_traceback() -> None:
    done = subprocess.run([*PLIS, "hint", "/proc/self/mem"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert done.stderr.startswith("plis: cannot read /proc/self/mem: Input/output error")


def test_a_pretty_report_writes_a_field_no_encoding_can(tmp_path: Path) -> None:
    """A key written as a lone surrogate escape: the report quotes it in its error and
    used to stop the batch with a UnicodeEncodeError."""
    source = write_lines(tmp_path / "in.jsonl", ['{"game": "belote", "\\ud800": 1}', EXAMPLE])
    done = subprocess.run([*PLIS, "hint", "--pretty", str(source)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert 'line 1: error in "\\ud800": unknown field' in done.stdout and "play S8: value -96" in done.stdout


def test_a_lone_carriage_return_does_not_end_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON takes a carriage return as whitespace: a file's line was split at one (not
    standard input's)."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(json.dumps(EXAMPLE).replace(", ", ",\r ").encode() + b"\r\n" + json.dumps(SECOND).encode() + b"\n")
    status, out, _ = run(capsys, "hint", str(source))
    assert status == 0 and [json.loads(line)["best"] for line in out] == [["S8"], ["S8"]]


def test_a_line_too_long_is_its_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from solver.cli import LONGEST_LINE

    long = json.dumps({**EXAMPLE, "padding": "x" * LONGEST_LINE})
    source = write_lines(tmp_path / "in.jsonl", [long, EXAMPLE])
    status, out, _ = run(capsys, "hint", str(source))
    assert status == 1 and json.loads(out[0])["error"] == {
        "field": "position", "reason": "INVALID_JSON", "message": f"longer than {LONGEST_LINE:,} characters",
    }  # fmt: skip
    assert json.loads(out[1])["best"] == ["S8"]


@pytest.mark.parametrize("command", ["analyse", "hint", "play-analysis", "trumps"])
def test_an_objective_not_the_games_names_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    line = {"game": "belote", "trump": "H", "deal": deal_of("belote", 2), "played": []}
    source = write_lines(tmp_path / "in.jsonl", [line])
    status, out, _ = run(capsys, command, "--objective", "points", str(source))  # Putz's and Bassadewitz's
    error = json.loads(out[0])["error"]
    assert status == 1 and error["field"] == "--objective" and "points" in error["message"]
    # the line's own objective is still the line's
    source = write_lines(tmp_path / "in.jsonl", [{**line, "objective": "bogus"}])
    status, out, _ = run(capsys, command, str(source))
    assert status == 1 and json.loads(out[0])["error"]["field"] == "objective"


def test_an_option_is_not_taken_from_its_first_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE])
    with pytest.raises(SystemExit) as info:
        main(["hint", "--time", "1", str(source)])
    err = capsys.readouterr().err
    # only the option is named (it had "--time <FILE>": 1 taken for the FILE, the file left over)
    assert info.value.code == 2 and err.endswith("error: unrecognized arguments: --time (did you mean --time-limit?)\n")


@pytest.mark.parametrize(
    "arguments, named",
    [
        (["hint", "--time-limit", "1", "--time-limit", "2"], "--time-limit given twice"),
        (["analyse", "--node-limit=5", "--pretty", "--node-limit", "9"], "--node-limit given twice"),
        (["verify", "--pretty", "--pretty"], "--pretty given twice"),
        (["play-analysis", "--first", "1", "--first=2"], "--first given twice"),
        (["serve", "--workers", "1", "--workers", "2"], "--workers given twice"),
    ],
)
def test_an_option_given_twice_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], named: str
) -> None:
    """argparse kept the last value given, which may not be the one meant (as a key
    given twice in a position's JSON, it is refused)."""
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE])
    with pytest.raises(SystemExit) as info:
        main(arguments if arguments[0] == "serve" else [*arguments, str(source)])
    assert info.value.code == 2 and f"error: {named}: give it once" in capsys.readouterr().err


def test_the_service_module_refuses_an_option_given_twice(capsys: pytest.CaptureFixture[str]) -> None:
    from service.server import main as serve_main

    with pytest.raises(SystemExit) as info:
        serve_main(["--grace", "1", "--address", "localhost:0", "--grace", "2"])
    assert info.value.code == 2 and "error: --grace given twice: give it once" in capsys.readouterr().err


def test_an_option_value_that_looks_like_the_option_is_not_a_repeat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A value after its option is its value (here a bad one), and after "--" come operands."""
    source = write_lines(tmp_path / "in.jsonl", [EXAMPLE])
    with pytest.raises(SystemExit) as info:
        main(["analyse", "--exact", "--exact", str(source)])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "argument --exact:" in err and "given twice" not in err
    status, out, _ = run(capsys, "hint", "--time-limit", "5", "--", str(source))
    assert status == 0 and json.loads(out[0])["best"] == ["S8"]


def test_bad_json_says_what_it_likely_comes_from(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A comma before a closing bracket, single quotes: Python's own message ("Expecting
    property name enclosed in double quotes") does not say so; the error does."""
    lines = ['{"game": "jass", "trump": "H",}', '{"game": "jass", "hands": ["CK", "SK",]}', "{'game': 'jass'}"]
    source = write_lines(tmp_path / "in.jsonl", lines)
    status, out, _ = run(capsys, "hint", str(source))
    errors = [json.loads(line)["error"] for line in out]
    assert status == 1 and [error["field"] for error in errors] == ["position"] * 3
    # Python 3.13's parser names a trailing comma itself ("Illegal trailing comma before
    # end of object"); older ones said "Expecting property name ...", and the hint says it
    trailing = ("Illegal trailing comma before end of object", "Illegal trailing comma before end of array")
    assert errors[0]["message"].endswith("; JSON allows no comma before }") or trailing[0] in errors[0]["message"]
    assert errors[1]["message"].endswith("; JSON allows no comma before ]") or trailing[1] in errors[1]["message"]
    assert errors[2]["message"].endswith("""; JSON takes double quotes ("HJ", not 'HJ')""")
    with pytest.raises(PositionError, match=f"JSON allows no comma before }}|{trailing[0]}") as info:
        load_position('{"game": "jass",}')
    assert info.value.field == "position"


def test_played_given_as_one_string_says_how_to_write_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = {"game": "belote", "trump": "H", "deal": deal_of("belote", 2), "played": "SA ST"}
    source = write_lines(tmp_path / "in.jsonl", [line])
    status, out, _ = run(capsys, "analyse", str(source))
    error = json.loads(out[0])["error"]
    assert status == 1 and error["field"] == "played"
    assert error["message"] == 'must be a list of cards, as ["HJ", "H9"], got "SA ST"'


def test_bad_json_is_placed_on_its_own_line_not_after_the_line_feed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line feed that ends a line was parsed with it: a line cut short was blamed on
    column 1 (of the "second line" json saw after it), and an unclosed string on an
    invalid control character; the last line of a file, without its line feed, said
    where and what."""
    source = tmp_path / "in.jsonl"
    source.write_text('{"game": "jass", "trump": "H"\n{"game": "jass\n{"game": "jass", "trump": "H"')
    status, lines, _ = run(capsys, "hint", str(source))
    messages = [json.loads(line)["error"]["message"] for line in lines]
    assert status == 1 and messages == [
        "not valid JSON: Expecting ',' delimiter (column 30); the text ends before the JSON object is closed",
        "not valid JSON: Unterminated string starting at column 10",
        "not valid JSON: Expecting ',' delimiter (column 30); the text ends before the JSON object is closed",
    ]
