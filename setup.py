"""Builds the Cython engine.  PLIS_DEBUG=1 turns on bounds checks and assertions."""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PLIS_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}

COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"] + (["-mpopcnt"] if platform.machine() == "x86_64" else [])

extensions = [
    Extension("solver._engine", ["solver/_engine.pyx"], extra_compile_args=COMPILE_ARGS),
    Extension("solver._besigue", ["solver/_besigue.pyx"], extra_compile_args=COMPILE_ARGS),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
