"""The tools that need a measuring build of the engine (benchmarks/cut_counts.py,
benchmarks/oracles.py): their patches still apply, and a normal build is refused."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from benchmarks import cut_counts, oracles

from .helpers import ROOT, needs_git_checkout


@needs_git_checkout
@pytest.mark.parametrize("patch", ["benchmarks/cut_counts.patch", "benchmarks/oracles.patch"])
def test_the_patch_still_applies_to_the_engine(patch: str) -> None:
    check = subprocess.run(["git", "apply", "--check", patch], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize(
    ("main", "argv", "patch"),
    [
        (cut_counts.main, ["--game", "belote", "--positions", "1"], "cut_counts.patch"),
        (oracles.main, ["ceiling", "--game", "belote", "--deals", "1"], "oracles.patch"),
    ],
)
def test_a_normal_build_is_refused(
    main: Callable[[list[str]], int], argv: list[str], patch: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert f"apply benchmarks/{patch}" in capsys.readouterr().err
