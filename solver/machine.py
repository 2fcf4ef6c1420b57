"""What this process may use of the machine: its memory and its cores.

In a container or a limited systemd slice (a cgroup with a memory limit or a CPU
quota), or under a CPU affinity mask, the machine's totals overstate both: a table
sized to the machine's memory would get the process killed, and one thread per core
of the host would only queue.

Both are read once per process (the files take about 0.1 ms to read, and the service
asks for each call); a limit changed while the process runs is not seen.  The memory
free now (`available_megabytes`, `spare_megabytes` for a table about to be made) is
read each time."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterator
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
SELF_CGROUP = Path("/proc/self/cgroup")  # lines "hierarchy:controllers:path"
MEMINFO = Path("/proc/meminfo")  # lines "MemAvailable:   123456 kB"


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except (OSError, UnicodeDecodeError):
        return []


def _own_cgroups(controller: str) -> Iterator[tuple[Path, str, bool]]:
    """(mount, path, whether v2) of this process's cgroups that can limit
    `controller`: the unified (v2) hierarchy, mounted at the root or under `unified`,
    and the v1 hierarchy of that controller."""
    try:
        lines = SELF_CGROUP.read_text().splitlines()
    except OSError:
        return
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hierarchy, controllers, path = parts
        if hierarchy == "0" and controllers == "":
            for mount in (CGROUP_ROOT, CGROUP_ROOT / "unified"):
                yield mount, path, True
        elif controller in controllers.split(","):
            yield CGROUP_ROOT / controllers, path, False


def _limit_files(controller: str, v2_name: str, v1_name: str) -> Iterator[Path]:
    """The limit files that bound this process: its own cgroup's and every ancestor's
    up to the mount (a parent's limit binds its children too).  In a container the
    process's cgroup is the mount itself."""
    for mount, path, v2 in _own_cgroups(controller):
        directory = mount / path.lstrip("/")
        while True:
            yield directory / (v2_name if v2 else v1_name)
            if directory == mount or mount not in directory.parents:
                break
            directory = directory.parent


@functools.cache
def memory_megabytes() -> int:
    """The memory this process may use, in MB: the machine's, or the lowest cgroup
    limit above the process when lower ("max", and v1's near-2^63 "no limit", leave
    the machine's)."""
    megabytes = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    for path in _limit_files("memory", "memory.max", "memory.limit_in_bytes"):
        words = _words(path)
        if len(words) == 1 and words[0].isdigit():
            megabytes = min(megabytes, int(words[0]) // 2**20)
    return max(1, megabytes)


def available_megabytes() -> int:
    """The memory free for this process now, in MB: the system's estimate of what can
    be had without swapping (MemAvailable), and within each cgroup limit above the
    process what it does not use yet; `memory_megabytes()` where neither can be read.
    Read afresh each call: it changes as the process and others allocate."""
    megabytes = memory_megabytes()
    for line in _lines(MEMINFO):
        words = line.split()
        if len(words) == 3 and words[0] == "MemAvailable:" and words[1].isdigit() and words[2] == "kB":
            megabytes = min(megabytes, int(words[1]) // 1024)
    for limit_file in _limit_files("memory", "memory.max", "memory.limit_in_bytes"):
        limit = _words(limit_file)
        used_name = "memory.current" if limit_file.name == "memory.max" else "memory.usage_in_bytes"
        used = _words(limit_file.with_name(used_name))
        if len(limit) == 1 and limit[0].isdigit() and len(used) == 1 and used[0].isdigit():
            megabytes = min(megabytes, max(0, int(limit[0]) - int(used[0])) // 2**20)
    return megabytes


def spare_megabytes() -> int:
    """What a table about to be made may take: nine tenths of the memory free now, the
    rest left to the process itself.  A table is zeroed when made, every page touched:
    one larger than what is free would get the process killed by the system (out of
    memory) rather than refused."""
    return available_megabytes() * 9 // 10


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _cpu_quota() -> float | None:
    """The lowest CPU quota above the process, in cores, if there is one."""
    quotas = []
    for path in _limit_files("cpu", "cpu.max", "cpu.cfs_quota_us"):
        words = _words(path)
        if path.name == "cpu.max":  # "max 100000", or "150000 100000": 1.5 cores
            if len(words) == 2 and words[0].isdigit() and words[1].isdigit() and int(words[1]) > 0:
                quotas.append(int(words[0]) / int(words[1]))
        else:  # v1: a quota in µs per period, -1 for none
            period = _words(path.with_name("cpu.cfs_period_us"))
            if len(words) == 1 and words[0].isdigit() and len(period) == 1 and period[0].isdigit() and int(period[0]) > 0:
                quotas.append(int(words[0]) / int(period[0]))
    return min(quotas) if quotas else None


@functools.cache
def usable_cores() -> int:
    """The cores this process may run on: its affinity mask, within its cgroups' CPU
    quota (rounded up: a quota of 1.5 cores keeps two threads busy)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    quota = _cpu_quota()
    if quota is not None and quota > 0:
        cores = min(cores, math.ceil(quota))
    return max(1, cores)
