"""What the process may use of the machine (solver.machine): a container's limits
(cgroup files, faked here in a temporary directory) bound the memory and cores that
the table-size and thread-count checks allow."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from solver import analyse, machine
from solver.batch import check_jobs
from solver.errors import OptionError, table_megabytes
from solver.machine import memory_megabytes, usable_cores

MACHINE_MB = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20


def fake_cgroup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, files: dict[str, str]) -> None:
    """Point solver.machine at v2 and v1 files under tmp_path, with `files`' contents
    (a name left out is a file that does not exist)."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(machine, "MEMORY_LIMIT_FILES", (str(tmp_path / "memory.max"), str(tmp_path / "v1/memory.limit_in_bytes")))
    monkeypatch.setattr(machine, "CPU_QUOTA_FILES", (str(tmp_path / "cpu.max"), str(tmp_path / "v1/cpu.cfs_quota_us")))


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({}, MACHINE_MB),  # no cgroup files: the machine's memory
        ({"memory.max": "max\n"}, MACHINE_MB),  # v2, no limit
        ({"memory.max": f"{512 * 2**20}\n"}, 512),  # v2, 512 MB
        ({"v1/memory.limit_in_bytes": "9223372036854771712\n"}, MACHINE_MB),  # v1's "no limit"
        ({"v1/memory.limit_in_bytes": f"{300 * 2**20 + 5}\n"}, 300),  # v1, 300 MB and some bytes
        ({"memory.max": f"{900 * 2**20}", "v1/memory.limit_in_bytes": f"{700 * 2**20}"}, 700),  # the lower
        ({"memory.max": "garbage 12"}, MACHINE_MB),  # unreadable: ignored
    ],
)
def test_memory_is_the_machines_or_the_containers_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, files: dict[str, str], expected: int
) -> None:
    fake_cgroup(monkeypatch, tmp_path, files)
    assert memory_megabytes() == min(expected, MACHINE_MB)


def affinity() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@pytest.mark.parametrize(
    ("files", "quota"),
    [
        ({}, None),
        ({"cpu.max": "max 100000\n"}, None),  # v2, no quota
        ({"cpu.max": "100000 100000\n"}, 1),  # v2, one core
        ({"cpu.max": "150000 100000\n"}, 2),  # v2, 1.5 cores: two threads
        ({"v1/cpu.cfs_quota_us": "-1\n", "v1/cpu.cfs_period_us": "100000\n"}, None),  # v1, no quota
        ({"v1/cpu.cfs_quota_us": "50000\n", "v1/cpu.cfs_period_us": "100000\n"}, 1),  # v1, half a core
        ({"cpu.max": "100000 0\n"}, None),  # a zero period: ignored
    ],
)
def test_cores_are_the_affinity_mask_within_the_quota(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, files: dict[str, str], quota: int | None
) -> None:
    fake_cgroup(monkeypatch, tmp_path, files)
    assert usable_cores() == (affinity() if quota is None else min(affinity(), math.ceil(quota)))


def test_a_containers_memory_limit_bounds_the_table_and_the_threads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_cgroup(monkeypatch, tmp_path, {"memory.max": f"{100 * 2**20}"})  # a 100 MB container
    assert table_megabytes(100) == 100
    with pytest.raises(OptionError, match=r"101 MB is more than the memory this process may use \(100 MB\)") as error:
        table_megabytes(101)
    assert error.value.field == "tt_megabytes"
    with pytest.raises(OptionError) as error:
        analyse({"game": "belote", "trump": "H", "hands": ["HJ", "H9", "HA", "HT"], "tricks": [4, 3]}, tt_megabytes=200)
    assert error.value.field == "tt_megabytes"
    assert check_jobs(2, table=50) == 2
    with pytest.raises(OptionError, match="3 threads with a table of 50 MB") as error:
        check_jobs(3, table=50)
    assert error.value.field == "jobs"


def test_a_containers_cpu_quota_sets_the_default_threads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_cgroup(monkeypatch, tmp_path, {"cpu.max": "100000 100000"})  # one core
    assert check_jobs(None, table=1) == 1
