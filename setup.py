"""Builds the Cython engine.  PLIS_DEBUG=1 builds for a debugger (-O0 -g) with
Cython's checks on Python objects (not on C arrays) and Python's division."""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("PLIS_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}


def compile_args(compiler_type: str) -> list[str]:
    """Optimising flags in the compiler's own spelling: MSVC's on Windows, else gcc's
    and clang's (POPCNT, which every x86-64 processor since 2008 has, on x86-64)."""
    if compiler_type == "msvc":
        return ["/Od", "/Zi"] if DEBUG else ["/O2"]
    if DEBUG:
        return ["-O0", "-g"]
    return ["-O3"] + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else [])


class BuildExt(build_ext):
    """Gives each extension the flags of the compiler it is built with."""

    def build_extensions(self) -> None:
        for extension in self.extensions:
            extension.extra_compile_args = compile_args(self.compiler.compiler_type)
        super().build_extensions()


extensions = [
    Extension("solver._engine", ["solver/_engine.pyx"]),
    Extension("solver._besigue", ["solver/_besigue.pyx"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives), cmdclass={"build_ext": BuildExt})
