"""What the process may use of the machine (solver.machine): a container's limits
(cgroup trees, faked here in a temporary directory) bound the memory and cores that
the table-size and thread-count checks allow."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver import analyse, machine
from solver.batch import check_jobs
from solver.errors import OptionError, table_megabytes
from solver.machine import memory_megabytes, usable_cores

MACHINE_MB = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20


@pytest.fixture(autouse=True)
def read_afresh() -> Iterator[None]:
    """solver.machine reads the limits once per process: each test reads its own fake
    tree, and the tests after these read the real one again."""
    memory_megabytes.cache_clear()
    usable_cores.cache_clear()
    yield
    memory_megabytes.cache_clear()
    usable_cores.cache_clear()


def fake_cgroup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, own: str, files: dict[str, str]) -> None:
    """Point solver.machine at a cgroup tree under tmp_path: `own` is the process's
    /proc/self/cgroup, `files` the limit files (by path under the tree's root)."""
    root = tmp_path / "cgroup"
    root.mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (tmp_path / "self").write_text(own)
    monkeypatch.setattr(machine, "CGROUP_ROOT", root)
    monkeypatch.setattr(machine, "SELF_CGROUP", tmp_path / "self")


MB = 2**20
V1_NO_LIMIT = "9223372036854771712\n"


@pytest.mark.parametrize(
    ("own", "files", "expected"),
    [
        ("", {}, MACHINE_MB),  # no cgroups: the machine's memory
        ("0::/\n", {"memory.max": "max\n"}, MACHINE_MB),  # v2, no limit
        ("0::/\n", {"memory.max": f"{512 * MB}\n"}, 512),  # a v2 container
        # a systemd slice with MemoryMax: the parent's limit binds the scope below it
        ("0::/user.slice/app.scope\n", {"user.slice/memory.max": f"{1024 * MB}", "user.slice/app.scope/memory.max": "max"}, 1024),
        ("0::/a/b\n", {"a/memory.max": f"{900 * MB}", "a/b/memory.max": f"{600 * MB}"}, 600),  # the lowest
        # v1: the process's own cgroup and the hierarchy's root
        (
            "4:memory:/docker/abc\n",
            {"memory/docker/abc/memory.limit_in_bytes": f"{300 * MB + 5}", "memory/memory.limit_in_bytes": V1_NO_LIMIT},
            300,
        ),
        ("4:memory:/\n", {"memory/memory.limit_in_bytes": V1_NO_LIMIT}, MACHINE_MB),  # v1's "no limit"
        # hybrid: v2 mounted under unified beside v1's memory hierarchy
        ("4:memory:/x\n0::/x\n", {"unified/x/memory.max": f"{700 * MB}", "memory/x/memory.limit_in_bytes": f"{900 * MB}"}, 700),
        ("0::/\n", {"memory.max": "garbage 12"}, MACHINE_MB),  # unreadable: ignored
        ("4:cpu:/x\n", {"cpu/x/memory.limit_in_bytes": f"{100 * MB}"}, MACHINE_MB),  # not the memory hierarchy
    ],
)
def test_memory_is_the_machines_or_the_cgroups_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, own: str, files: dict[str, str], expected: int
) -> None:
    fake_cgroup(monkeypatch, tmp_path, own, files)
    assert memory_megabytes() == min(expected, MACHINE_MB)


def affinity() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@pytest.mark.parametrize(
    ("own", "files", "quota"),
    [
        ("", {}, None),
        ("0::/\n", {"cpu.max": "max 100000\n"}, None),  # v2, no quota
        ("0::/\n", {"cpu.max": "100000 100000\n"}, 1),  # v2, one core
        ("0::/\n", {"cpu.max": "150000 100000\n"}, 2),  # 1.5 cores: two threads
        ("0::/a/b\n", {"a/cpu.max": "100000 100000", "a/b/cpu.max": "300000 100000"}, 1),  # the parent's binds
        ("3:cpu,cpuacct:/d\n", {"cpu,cpuacct/d/cpu.cfs_quota_us": "50000\n", "cpu,cpuacct/d/cpu.cfs_period_us": "100000\n"}, 1),
        ("3:cpu:/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),  # v1, no quota
        ("0::/\n", {"cpu.max": "100000 0\n"}, None),  # a zero period: ignored
    ],
)
def test_cores_are_the_affinity_mask_within_the_quota(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, own: str, files: dict[str, str], quota: int | None
) -> None:
    fake_cgroup(monkeypatch, tmp_path, own, files)
    assert usable_cores() == (affinity() if quota is None else min(affinity(), math.ceil(quota)))


def test_a_containers_memory_limit_bounds_the_table_and_the_threads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_cgroup(monkeypatch, tmp_path, "0::/\n", {"memory.max": f"{100 * MB}"})  # a 100 MB container
    assert table_megabytes(90) == 90  # nine tenths of it: the rest for the process itself
    with pytest.raises(OptionError, match=r"101 MB is more than the memory this process may use \(100 MB\)") as error:
        table_megabytes(101)
    assert error.value.field == "tt_megabytes"
    with pytest.raises(OptionError) as error:
        analyse({"game": "belote", "trump": "H", "hands": ["HJ", "H9", "HA", "HT"], "tricks": [4, 3]}, tt_megabytes=200)
    assert error.value.field == "tt_megabytes"
    assert check_jobs(2, table=50) == 2
    with pytest.raises(OptionError, match="3 threads with tables of up to 50 MB") as error:
        check_jobs(3, table=50)
    assert error.value.field == "jobs"


def test_a_containers_cpu_quota_sets_the_default_threads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_cgroup(monkeypatch, tmp_path, "0::/\n", {"cpu.max": "100000 100000"})  # one core
    assert check_jobs(None, table=1) == 1


@pytest.mark.parametrize(
    ("meminfo", "own", "files", "expected"),
    [
        ("MemTotal: 9999999 kB\nMemAvailable:    1048576 kB\n", "", {}, 1024),  # the system's estimate
        ("", "", {}, None),  # unreadable: the memory the process may use
        ("MemAvailable: lots kB\n", "", {}, None),  # not a number: ignored
        # a v2 container of 1000 MB that uses 400: 600 left, below the system's 1024
        ("MemAvailable: 1048576 kB\n", "0::/\n", {"memory.max": f"{1000 * MB}", "memory.current": f"{400 * MB}"}, 600),
        # v1: the limit less the usage
        (
            "MemAvailable: 1048576 kB\n",
            "4:memory:/d\n",
            {"memory/d/memory.limit_in_bytes": f"{800 * MB}", "memory/d/memory.usage_in_bytes": f"{300 * MB}"},
            500,
        ),
        # no limit ("max"), or a limit without its usage: the system's estimate
        ("MemAvailable: 1048576 kB\n", "0::/\n", {"memory.max": "max", "memory.current": f"{400 * MB}"}, 1024),
        ("MemAvailable: 1048576 kB\n", "0::/\n", {"memory.max": f"{900 * MB}"}, 900),  # the limit still binds
        # over the limit already (a v1 limit can be set below the usage): nothing free
        ("MemAvailable: 1048576 kB\n", "0::/\n", {"memory.max": f"{100 * MB}", "memory.current": f"{300 * MB}"}, 0),
    ],
)
def test_the_memory_free_now_is_the_systems_estimate_within_each_cgroup_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, meminfo: str, own: str, files: dict[str, str], expected: int | None
) -> None:
    fake_cgroup(monkeypatch, tmp_path, own, files)
    (tmp_path / "meminfo").write_text(meminfo)
    monkeypatch.setattr(machine, "MEMINFO", tmp_path / "meminfo")
    assert machine.available_megabytes() == (memory_megabytes() if expected is None else expected)


def test_a_table_larger_than_the_memory_free_now_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A table is zeroed when made: one of 24000 MB on a 24 GB machine got the process
    killed by the system (out of memory) instead of an error."""
    (tmp_path / "meminfo").write_text("MemAvailable: 1048576 kB\n")  # 1024 MB free: 921 to spare
    monkeypatch.setattr(machine, "MEMINFO", tmp_path / "meminfo")
    assert table_megabytes(921) == 921
    with pytest.raises(OptionError, match=r"922 MB is more than the memory free now \(about 921 MB to spare\)") as error:
        table_megabytes(922)
    assert error.value.field == "tt_megabytes"
    from solver import Engine

    with pytest.raises(OptionError) as error:
        Engine(5000)
    assert error.value.field == "tt_megabytes"
    with pytest.raises(OptionError) as error:
        analyse({"game": "belote", "trump": "H", "hands": ["HJ", "H9", "HA", "HT"], "tricks": [4, 3]}, tt_megabytes=2000)
    assert error.value.field == "tt_megabytes"


def test_the_server_refuses_tables_larger_than_the_memory_free_now(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.server import main as serve_main

    (tmp_path / "meminfo").write_text("MemAvailable: 1048576 kB\n")
    monkeypatch.setattr(machine, "MEMINFO", tmp_path / "meminfo")
    assert serve_main(["--tt-memory-mb", "1000", "--address", "localhost:0"]) == 2
    assert "--tt-memory-mb 1000 is more than the memory free now (about 921 MB to spare)" in capsys.readouterr().err
    # 8 processes of about 50 MB each beside 600 MB of tables: 1000 MB, more than 921
    assert serve_main(["--tt-memory-mb", "600", "--processes", "8", "--address", "localhost:0"]) == 2
    assert "--processes 8 would need about 1000 MB" in (err := capsys.readouterr().err)
    assert "more than the memory free now (about 921 MB to spare)" in err
