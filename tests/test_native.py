"""solver/native.h, what the engines need from the compiler and the system, on the
machines this one is not: the header compiles for Windows, macOS and Linux on x86-64
and ARM64, and its MSVC bit operations give the right bits.

Zig's C compiler (the `ziglang` package of the dev extra) cross-compiles with each
system's own headers, and builds the MSVC branch here with clang -fms-extensions.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ziglang", reason="Zig's C compiler: the ziglang package of the dev extra")

SOLVER = Path(__file__).resolve().parent.parent / "solver"
MS_BRANCH = ["-fms-extensions", "-DPLIS_MS_INTRINSICS=1"]  # the branch MSVC builds

# every function of the header, so that a call the system lacks fails to compile
USES_EVERYTHING = r"""
#include "native.h"
#include <stdio.h>
int main(void) {
    void* table = table_memory(1 << 20);
    void* large = table_memory((4 << 20) + 24);  /* a mapping of its own, not of whole pages */
    double started = plis_now();
    plis_prefetch(table);
    printf("%d %d %d %d\n", plis_ctz(8), plis_clz(1), plis_popcount(255), plis_now() >= started);
    table_free(table, 1 << 20);
    table_free(large, (4 << 20) + 24);
    return 0;
}
"""

# prints, for each 64-bit number read, its lowest set bit, leading zeros and count
BITS = r"""
#include "native.h"
#include <stdio.h>
int main(void) {
    unsigned long long x;
    while (scanf("%llu", &x) == 1)
        printf("%d %d %d\n", plis_ctz(x), plis_clz(x), plis_popcount(x));
    return 0;
}
"""


def zig_cc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "ziglang", "cc", f"-I{SOLVER}", "-Werror", "-Wno-unused-command-line-argument", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    ("target", "flags"),
    [
        ("x86_64-windows-gnu", MS_BRANCH),  # Windows on x86-64, as MSVC builds it
        ("aarch64-windows-gnu", MS_BRANCH),  # Windows on ARM64: no POPCNT, no _mm_prefetch
        ("x86_64-windows-gnu", []),  # MinGW's gcc
        ("x86_64-macos", []),
        ("aarch64-macos", []),
        ("x86_64-linux-gnu", []),
        ("aarch64-linux-gnu", []),
    ],
)
def test_the_header_compiles_for(target: str, flags: list[str], tmp_path: Path) -> None:
    (tmp_path / "uses.c").write_text(USES_EVERYTHING)
    compiled = zig_cc("-target", target, *flags, "-c", "uses.c", "-o", "uses.o", cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stderr


# tables of every kind of size: zeroed, aligned, writable to the end, freed by their size
TABLES = r"""
#include "native.h"
#include <stdio.h>
int main(void) {
    size_t sizes[] = {64, 4096, (2 << 20) - 64, 2 << 20, (2 << 20) + 24, (56 << 20) + 4160};
    for (int round = 0; round < 5; round++)  /* mapped and unmapped again and again */
        for (int i = 0; i < 6; i++) {
            unsigned char* table = (unsigned char*)table_memory(sizes[i]);
            if (table == NULL) return 1;
            for (size_t at = 0; at < sizes[i]; at += 61)
                if (table[at] != 0) return 2;
            if (table[sizes[i] - 1] != 0) return 2;
            if ((uintptr_t)table % (sizes[i] >= (2 << 20) ? (2 << 20) : 64) != 0) return 3;
            memset(table, 0xAB, sizes[i]);
            table_free(table, sizes[i]);
        }
    table_free(NULL, 0);
    table_free(NULL, 8 << 20);
    printf("ok\n");
    return 0;
}
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the POSIX branch, built by this machine's compiler")
def test_tables_are_zeroed_aligned_and_given_back(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    (tmp_path / "tables.c").write_text(TABLES)
    command = [compiler, "-O2", f"-I{SOLVER}", "tables.c", "-o", "tables"]
    built = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    run = subprocess.run([str(tmp_path / "tables")], capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout) == (0, "ok\n"), run.stderr


def test_the_msvc_bit_operations_give_the_right_bits(tmp_path: Path) -> None:
    (tmp_path / "bits.c").write_text(BITS)
    built = zig_cc("-O2", *MS_BRANCH, "-c", "bits.c", "-o", "bits.o", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    # linked by the system's compiler: Zig would first build a C library of its own
    linker = shutil.which("cc") or shutil.which("gcc")
    if linker is None:
        pytest.skip("no C compiler to link with")
    linked = subprocess.run([linker, "bits.o", "-o", "bits"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert linked.returncode == 0, linked.stderr
    rng = random.Random(7)
    numbers = [1, 2, 3, 1 << 31, 1 << 32, 1 << 63, (1 << 64) - 1, 0x8000000000000001]
    numbers += [1 << bit for bit in range(64)]
    numbers += [rng.getrandbits(64) | 1 << rng.randrange(64) for _ in range(2000)]
    numbers += [rng.getrandbits(rng.randrange(1, 65)) | 1 for _ in range(2000)]
    run = subprocess.run([str(tmp_path / "bits")], input="\n".join(map(str, numbers)), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    answers = [tuple(map(int, line.split())) for line in run.stdout.splitlines()]
    expected = [((x & -x).bit_length() - 1, 64 - x.bit_length(), bin(x).count("1")) for x in numbers]
    assert answers == expected
