"""What this process may use of the machine: its memory and its cores.

In a container (a cgroup with a memory limit or a CPU quota) or under a CPU affinity
mask, the machine's totals overstate both: a table sized to the machine's memory
would get the process killed, and one thread per core of the host would queue."""

from __future__ import annotations

import math
import os
from pathlib import Path

# cgroup v2, then v1: the limits of the process's own cgroup as a container sees it
MEMORY_LIMIT_FILES = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
CPU_QUOTA_FILES = ("/sys/fs/cgroup/cpu.max", "/sys/fs/cgroup/cpu/cpu.cfs_quota_us")


def _read(path: str) -> list[str]:
    try:
        return Path(path).read_text().split()
    except (OSError, UnicodeDecodeError):
        return []


def memory_megabytes() -> int:
    """The memory this process may use, in MB: the machine's, or its cgroup's limit
    when lower ("max", or v1's near-2^63 "no limit", leave the machine's)."""
    megabytes = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    for path in MEMORY_LIMIT_FILES:
        words = _read(path)
        if len(words) == 1 and words[0].isdigit():
            megabytes = min(megabytes, int(words[0]) // 2**20)
    return max(1, megabytes)


def _cpu_quota() -> float | None:
    """The cgroup's CPU quota in cores, if it has one."""
    v2 = _read(CPU_QUOTA_FILES[0])  # "max 100000" or "150000 100000"
    if len(v2) == 2 and v2[0].isdigit() and v2[1].isdigit() and int(v2[1]) > 0:
        return int(v2[0]) / int(v2[1])
    v1 = _read(CPU_QUOTA_FILES[1])  # -1: none
    period = _read(str(Path(CPU_QUOTA_FILES[1]).with_name("cpu.cfs_period_us")))
    if len(v1) == 1 and v1[0].isdigit() and len(period) == 1 and period[0].isdigit() and int(period[0]) > 0:
        return int(v1[0]) / int(period[0])
    return None


def usable_cores() -> int:
    """The cores this process may run on: its affinity mask, within its cgroup's CPU
    quota (rounded up: a quota of 1.5 cores keeps two threads busy)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    quota = _cpu_quota()
    if quota is not None and quota > 0:
        cores = min(cores, math.ceil(quota))
    return max(1, cores)
