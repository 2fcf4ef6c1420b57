"""The command line's progress bar: shown on a terminal for a file of many lines, on
standard error only, and never changing the results (solver/cli.py `_progress`)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from solver.cli import PROGRESS_MIN_LINES, main

from .test_cli import BAD_CARD, EXAMPLE, SECOND, comparable, write_lines


class TerminalErr(io.StringIO):
    """A standard error that says it is a terminal, keeping what is written to it."""

    def isatty(self) -> bool:
        return True


def run_with_err(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], err: io.StringIO, *argv: str
) -> tuple[int, list[str]]:
    monkeypatch.setattr("sys.stderr", err)
    status = main(list(argv))
    return status, capsys.readouterr().out.splitlines()


def lines_of(count: int) -> list[object]:
    # one bad line among them: it is answered (its error) and counted like the others
    lines: list[object] = [EXAMPLE if i % 2 else SECOND for i in range(count)]
    lines[3] = BAD_CARD
    return lines


def test_a_terminal_gets_a_bar_that_counts_every_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    count = PROGRESS_MIN_LINES + 5
    source = write_lines(tmp_path / "in.jsonl", lines_of(count))
    terminal = TerminalErr()
    status, out = run_with_err(monkeypatch, capsys, terminal, "analyse", str(source))
    bar = terminal.getvalue()
    assert f"{count}/{count}" in bar and "pos" in bar
    assert f"0/{count}" in bar  # counted before the first answer
    assert f"plis: 1 of {count} lines failed" in bar
    assert status == 1 and len(out) == count

    # the results are those of a run without the bar, line for line
    plain = io.StringIO()
    status_plain, out_plain = run_with_err(monkeypatch, capsys, plain, "analyse", str(source))
    assert status_plain == status
    assert [comparable(json.loads(line)) for line in out] == [comparable(json.loads(line)) for line in out_plain]
    assert plain.getvalue() == f"plis: 1 of {count} lines failed\n"
    assert json.loads(out[3])["line"] == 4 and json.loads(out[3])["error"]["field"] == "hands[0][2]"


def test_no_bar_for_a_short_file_or_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    short = write_lines(tmp_path / "short.jsonl", [EXAMPLE] * (PROGRESS_MIN_LINES - 1))
    terminal = TerminalErr()
    status, out = run_with_err(monkeypatch, capsys, terminal, "analyse", str(short))
    assert status == 0 and len(out) == PROGRESS_MIN_LINES - 1
    assert terminal.getvalue() == ""

    # standard input that cannot be rewound is not counted first: no bar, every answer
    lines = "".join(json.dumps(line) + "\n" for line in lines_of(PROGRESS_MIN_LINES + 5))

    class Pipe(io.StringIO):
        def seekable(self) -> bool:
            return False

    monkeypatch.setattr("sys.stdin", Pipe(lines))
    terminal = TerminalErr()
    status, out = run_with_err(monkeypatch, capsys, terminal, "analyse")
    assert status == 1 and len(out) == PROGRESS_MIN_LINES + 5
    assert terminal.getvalue() == f"plis: 1 of {PROGRESS_MIN_LINES + 5} lines failed\n"


def test_the_bar_counts_lines_not_blanks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # blank lines are skipped, so they neither get an answer nor count toward the total
    lines: list[object] = []
    for _ in range(PROGRESS_MIN_LINES):
        lines += [EXAMPLE, "", " \t"]
    source = write_lines(tmp_path / "in.jsonl", lines)
    terminal = TerminalErr()
    status, out = run_with_err(monkeypatch, capsys, terminal, "analyse", str(source))
    assert status == 0 and len(out) == PROGRESS_MIN_LINES
    assert f"{PROGRESS_MIN_LINES}/{PROGRESS_MIN_LINES}" in terminal.getvalue()
