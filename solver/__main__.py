"""The `plis` command and `python -m solver`: the command line (solver.cli), loaded
here, so that a Ctrl-C while it loads (a few tenths of a second: the engines, NumPy,
the games) ends as one later does, "plis: interrupted" and status 130, not with
Python's traceback."""

import sys

INTERRUPTED = 130  # solver.cli.EXIT_INTERRUPTED, which this must not import first


def main() -> int:
    try:
        from .cli import main as run

        return run()
    except KeyboardInterrupt:
        if sys.stderr is not None:
            print("plis: interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
