"""The source distribution holds every file of the repository a user needs: the .proto
that clients in other languages are generated from, the tests with their helpers, the
benchmarks and examples (MANIFEST.in). It is built from a copy of the tracked files."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from .helpers import ROOT, needs_git_checkout

NOT_SHIPPED = {".ci/run", ".gitignore"}  # CI's script and git's own file
GENERATED = {"PKG-INFO", "setup.cfg", "solver/_engine.c", "solver/_besigue.c"}


@needs_git_checkout
def test_the_source_distribution_holds_every_tracked_file(tmp_path: Path) -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    tracked = {name for name in listed.splitlines() if (ROOT / name).is_file()}  # a file deleted but not committed
    source = tmp_path / "source"
    for name in tracked:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    build = subprocess.run(
        [sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path / "dist")], cwd=source, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stderr[-2000:]
    (archive,) = (tmp_path / "dist").glob("plis-*.tar.gz")
    with tarfile.open(archive) as tar:
        top = archive.name.removesuffix(".tar.gz") + "/"
        shipped = {member.name.removeprefix(top) for member in tar.getmembers() if member.isfile()}
    shipped = {name for name in shipped if not name.startswith("plis.egg-info/")}
    assert "proto/plis/v1/plis.proto" in shipped
    assert shipped - GENERATED == tracked - NOT_SHIPPED
