"""The source distribution holds every file of the repository a user needs: the .proto
that clients in other languages are generated from, the tests with their helpers, the
benchmarks and examples (MANIFEST.in). It is built from a copy of the tracked files.
The runtime dependencies are those the installed packages import."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest

from .helpers import ROOT, needs_git_checkout

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: tomli, which pytest itself depends on there
    import tomli as tomllib

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
        info = tar.extractfile(top + "PKG-INFO")
        assert info is not None
        metadata = info.read().decode().splitlines()
    shipped = {name for name in shipped if not name.startswith("plis.egg-info/")}
    assert "proto/plis/v1/plis.proto" in shipped
    # the license the metadata names, with its text: MIT asks that the notice go with every copy
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    assert "LICENSE" in shipped and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert shipped - GENERATED == tracked - NOT_SHIPPED


INSTALLED = ("solver", "service")  # the packages of the wheel ([tool.setuptools] packages)
DEVELOPER_TOOLS = {"service/gen_proto.py"}  # run from a checkout, with the dev extra's grpcio-tools


def _pyproject() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)


def _imported_outside(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """The modules from outside the standard library and `packages` that their code
    imports (at the top or inside a function), each with the candidates it names: a
    `from X import a` names X and X.a, which is a module or not."""
    imported: dict[str, set[str]] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.relative_to(ROOT).as_posix() in DEVELOPER_TOOLS:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    named = {alias.name: {alias.name} for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    named = {node.module: {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}}
                else:
                    continue
                for module, candidates in named.items():
                    top = module.partition(".")[0]
                    if top not in sys.stdlib_module_names and top not in packages:
                        imported.setdefault(module, set()).update(candidates)
    return imported


def _origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # X.a where a is not a module
        return None
    return os.path.realpath(spec.origin) if spec is not None and spec.origin not in (None, "namespace") else None


def test_the_runtime_dependencies_are_what_the_installed_packages_import() -> None:
    """Every dependency in pyproject.toml is imported by solver or service, and every
    module they import from outside the standard library is a dependency's: an unused
    one costs each user an install (numpy, 70 MB, was one), a missing one an ImportError."""
    requirements = _pyproject()["project"]["dependencies"]
    names = [re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0] for requirement in requirements]
    files = {}
    for name in names:
        distribution = importlib.metadata.distribution(name)
        files[name] = {os.path.realpath(distribution.locate_file(file)) for file in distribution.files or ()}
    used: set[str] = set()
    for module, candidates in sorted(_imported_outside(INSTALLED).items()):
        owners = {name for name in names for origin in map(_origin, candidates) if origin in files[name]}
        assert owners, f"{module} is imported by the installed packages but is no dependency's"
        used |= owners
    assert [name for name in names if name not in used] == [], "dependencies that solver and service never import"


def test_gen_proto_outside_a_checkout_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The wheel ships service/gen_proto.py but not proto/: run from an install, it said
    nothing useful (grpc_tools missing, or a path in site-packages)."""
    from service import gen_proto

    monkeypatch.setattr(gen_proto, "PROTO_ROOT", tmp_path / "proto")
    assert gen_proto.main(["--check"]) == 2
    assert "run it from a checkout of plis" in capsys.readouterr().err
