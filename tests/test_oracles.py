"""The oracle measuring tool (benchmarks/oracles.py) and its patch."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.oracles import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_the_oracle_patch_still_applies_to_the_engine() -> None:
    check = subprocess.run(["git", "apply", "--check", "benchmarks/oracles.patch"], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_a_build_without_oracles_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ceiling", "--game", "belote", "--deals", "1"]) == 2
    assert "apply benchmarks/oracles.patch" in capsys.readouterr().err
