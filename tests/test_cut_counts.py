"""The move-order counting tool (benchmarks/cut_counts.py) and its patch."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.cut_counts import kind_name, main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_the_counting_patch_still_applies_to_the_engine() -> None:
    check = subprocess.run(["git", "apply", "--check", "benchmarks/cut_counts.patch"], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_a_build_without_counters_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "belote", "--positions", "1"]) == 2
    assert "apply benchmarks/cut_counts.patch" in capsys.readouterr().err


def test_kind_names_decode_the_patchs_kinds() -> None:
    # the patch's node_kind: 2 + ((place - 1) * 2 + maximising) * 12 + winner * 4 + follows * 2 + trump_led
    assert kind_name(0) == "lead, min"
    assert kind_name(1) == "lead, max"
    assert kind_name(2 + 0 * 12 + 0 * 4 + 1 * 2 + 0) == "card 2, min, opponent winning, follows, plain led"
    assert kind_name(2 + (2 * 2 + 1) * 12 + 2 * 4 + 0 * 2 + 1) == "card 4, max, own side winning, void, trump led"
