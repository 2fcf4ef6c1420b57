"""The `plis` command line.

    plis analyse [FILE|-] [--objective O] [--exact MOVES] [--time-limit S] [--node-limit N] [--jobs N] [--pretty]
    plis hint [FILE|-] ...            the best move(s) and the value
    plis play-analysis [FILE|-] ...   deal + played: what each played card cost
    plis trumps [FILE|-] ...          deals before play: the value for every trump
    plis verify [FILE|-] ...          puzzles (position + claim): does each claim hold
    plis serve [--address HOST:PORT] ...   the gRPC service (service/server.py)

Reads positions as JSON Lines (FORMAT.md) and writes one JSON result per line.  A
bad line gets an error object on its output line, with its line number; the other
lines go on, and the exit status is 1 if any line failed.  With `--jobs N`, N lines
are solved at once, each in a thread with its own engine (the search runs without
the GIL), and the results still come out in the order of the lines.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any, NoReturn

from . import __version__
from .analysis import Hint, MoveValue, Result, analyse, check_limits, hint, preference
from .batch import check_jobs, ordered_map, thread_megabytes
from .besigue import BesiguePosition, is_declaration
from .cards import format_cards
from .errors import DuplicateKeyError, PlisError, PositionError, counted, json_hint, json_kind, load_json, table_megabytes
from .features import (
    PlayAnalysis,
    TrumpEntry,
    TrumpTable,
    Verdict,
    analyse_play,
    deal_before_play,
    puzzle_from_dict,
    trump_table,
    verify_puzzle,
)
from .games import GAMES, get_game
from .games.base import YES_NO_OBJECTIVES
from .leaf import leaf_weights
from .position import AnyPosition, load_position

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_IO = 3  # the positions could not be read, or the results not written
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
FLAGS = {  # the library's names for what the options give
    "time_limit": "--time-limit",
    "node_limit": "--node-limit",
    "tt_megabytes": "--tt-mb",
    "jobs": "--jobs",
    "exact_moves": "--exact",
    "first": "--first",
}
# a comma between moves, not one inside a Bésigue move's marks: SQ[besigue,four_queens]
MOVE_SEPARATOR = re.compile(r",(?![^\[]*\])")
PROGRESS_MIN_LINES = 20  # a progress bar only for files of many positions
EPILOG = """\
Each command but serve reads JSON Lines (FORMAT.md) from FILE or standard input and
writes one JSON result a line, or with --pretty a report for a person; `plis COMMAND
--help` gives its options. Exit status: 0 done, 1 a line failed (its error is its
output line) or, for verify, a claim did not hold or was left undecided; 2 a usage
error (a FILE that cannot be opened, no standard input or output, too); 3 reading the
positions or writing the results failed; 130 interrupted.

examples:
  plis analyse --pretty examples/klaverjas.jsonl
  plis hint --time-limit 0.5 < examples/deals.jsonl
  plis play-analysis --first 20 --pretty examples/played.jsonl"""


def main(argv: list[str] | None = None) -> int:
    # with stderr closed (`2>&-`), messages are dropped rather than sent into the results
    err = sys.stderr if sys.stderr is not None else open(os.devnull, "w")  # noqa: SIM115
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # told by the command, with its usage (argparse's own names the whole command line's)
        _unknown_arguments(getattr(args, "command", parser), unknown)
    if hasattr(args, "command"):
        refuse_repeated_options(args.command, sys.argv[1:] if argv is None else argv)
    if hasattr(args, "run"):  # a command that reads no positions (serve)
        return int(args.run(args))
    if not hasattr(args, "handler"):
        parser.print_help(err)
        return EXIT_USAGE
    out = sys.stdout
    if out is None:  # `>&-`
        print("plis: cannot write the results: there is no standard output", file=err)
        return EXIT_USAGE
    if isinstance(out, io.TextIOWrapper):  # a --pretty report may quote a field name no encoding can write
        out.reconfigure(errors="backslashreplace")
    try:
        # bytes that are not UTF-8 are kept (as surrogates) for answer_line to report
        # with their line, so one bad line does not stop the batch; a byte-order mark
        # that some editors write at the start is skipped; only a line feed ends a
        # line (a lone carriage return is JSON whitespace inside one)
        if args.file == "-":
            source = sys.stdin
            if source is None:  # `<&-`
                print("plis: cannot read the positions: there is no standard input", file=err)
                return EXIT_USAGE
            if isinstance(source, io.TextIOWrapper):
                source.reconfigure(encoding="utf-8-sig", errors="surrogateescape", newline="\n")
        else:
            source = open(args.file, encoding="utf-8-sig", errors="surrogateescape", newline="\n")  # noqa: SIM115
    except OSError as exc:
        print(f"plis: cannot read {args.file}: {exc.strerror}", file=err)
        return EXIT_USAGE
    summary = args.summary() if hasattr(args, "summary") else None
    handler = args.handler(args) if summary is None else args.handler(args, summary)
    try:
        # what holds for every line is checked once, as a usage error (not every line's)
        check_limits(args.time_limit, args.node_limit)
        if args.tt_mb is not None:
            table_megabytes(args.tt_mb)
        jobs = check_jobs(args.jobs or None, thread_megabytes(args.tt_mb))  # --jobs 0: one per core
    except PlisError as exc:
        source.close()
        print(f"plis: {option_field(exc.field)}: {exc.message}", file=err)
        return EXIT_USAGE
    try:
        status = run_batch(
            source,
            out,
            err,
            handler,
            pretty=args.pretty,
            summary=summary,
            jobs=jobs,
            background=True,
            line_field=getattr(args, "line_field", "position"),
        )
    except KeyboardInterrupt:
        # Ctrl-C: the answers written so far stay; the searches still running
        # (in native code, which no signal stops) end with the process
        with contextlib.suppress(OSError):
            out.flush()
        _leave(EXIT_INTERRUPTED, "plis: interrupted", err)
    except OutputError as exc:
        # the reader went away (`plis analyse ... | head`): quietly; else say why
        quiet = isinstance(exc.__cause__, BrokenPipeError)
        _leave(EXIT_IO, None if quiet else f"plis: cannot write the results: {exc}", err)
    except InputError as exc:  # (each answer was flushed as it was written)
        _leave(EXIT_IO, f"plis: cannot read {args.file}: {exc} (the answers before it are written)", err)
    source.close()
    return status


def _leave(status: int, message: str | None, err: IO[str]) -> NoReturn:
    """End the process at once: a search still running in another thread (native code,
    which nothing else stops) or a thread still reading an open pipe would hold it."""
    with contextlib.suppress(OSError, ValueError):
        if message:
            print(message, file=err)
        err.flush()
    with contextlib.suppress(OSError):
        # a closed pipe's unwritten bytes would fail again at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os._exit(status)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plis",
        description="Double-dummy analysis of point-trick card games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,  # the epilog's lines as written
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"plis {__version__}")
    commands = parser.add_subparsers(title="commands")
    analyse_cmd = _command(commands, "analyse", "value every legal move of each position")
    _common(analyse_cmd, objective=True)
    analyse_cmd.add_argument(
        "--exact",
        type=_move_list,
        default=None,
        metavar="MOVES",
        help='value exactly the best moves and these only (comma-separated, e.g. HJ,S9; "": none); '
        "the others are only shown worse, with a bound: much faster on big deals",
    )
    analyse_cmd.set_defaults(handler=_analyse_handler)

    hint_cmd = _command(commands, "hint", "the best move(s) of each position and its value")
    _common(hint_cmd, objective=True)
    # said at once: argparse would take its moves for the FILE and blame that
    hint_cmd.add_argument("--exact", type=_not_for_hint, help=argparse.SUPPRESS)
    hint_cmd.set_defaults(handler=_hint_handler)

    play_cmd = _command(
        commands, "play-analysis", "positions given as deal + played: the value before and after each card, and what it lost"
    )
    _common(play_cmd, objective=True)
    play_cmd.add_argument(
        "--first",
        type=_at_least("--first", 0, "0 or more"),
        default=0,
        metavar="I",
        help="analyse played cards from index I on (default: 0, the first)",
    )
    play_cmd.set_defaults(handler=_play_handler)

    trumps_cmd = _command(commands, "trumps", "deals before play: the value for each trump (and declaring side)")
    _common(trumps_cmd, objective=True)
    trumps_cmd.set_defaults(handler=_trumps_handler)

    verify_cmd = _command(
        commands,
        "verify",
        'puzzles {"position": {...}, "claim": {"best": [...], "value": V, "unique": true}} (or the position\'s '
        "fields with claim beside them; unique_play: true claims one best play, equivalent cards as one): does "
        "each claim hold",
    )
    _common(verify_cmd, what="puzzles")
    # said at once, where argparse would report an unknown option of the whole command line
    verify_cmd.add_argument("--objective", type=_no_objective, help=argparse.SUPPRESS)
    # each line is a puzzle, not a position: a line that is no JSON object is blamed on that
    verify_cmd.set_defaults(handler=_verify_handler, summary=PuzzleSummary, line_field="puzzle")

    serve_cmd = _command(commands, "serve", 'run the gRPC analysis service (README, "Service")')
    from service.config import add_serve_arguments

    add_serve_arguments(serve_cmd)
    serve_cmd.set_defaults(run=_serve)
    for command in commands.choices.values():
        command.allow_abbrev = False  # `--time` is no --time-limit: a later option could make it ambiguous
    return parser


def _command(commands: Any, name: str, summary: str) -> argparse.ArgumentParser:
    """A subcommand whose --help starts with what it does (`plis --help` lists the same)."""
    command: argparse.ArgumentParser = commands.add_parser(name, help=summary, description=summary)
    command.set_defaults(command=command)
    return command


def _unknown_arguments(command: argparse.ArgumentParser, unknown: list[str]) -> NoReturn:
    """A usage error for arguments no option takes, with the option a typo likely meant.
    Where some are options, only those are named: the others are what the unknown
    option's value pushed out of place (`--time 1 FILE`: 1 taken for the FILE)."""
    unknown = [token for token in unknown if token.startswith("-") and token != "-"] or unknown
    message = f"unrecognized arguments: {' '.join(unknown)}"
    options = [name for action in command._actions for name in action.option_strings if action.help != argparse.SUPPRESS]
    meant = difflib.get_close_matches(unknown[0].partition("=")[0], options, n=1)
    if unknown[0].startswith("-") and meant:
        message += f" (did you mean {meant[0]}?)"
    command.error(message)


def refuse_repeated_options(command: argparse.ArgumentParser, argv: list[str]) -> None:
    """A usage error for an option given twice (`--time-limit 1 --time-limit 2`):
    argparse keeps the last, which may not be the one meant; as a key given twice in a
    position's JSON, it is refused."""
    actions = {name: action for action in command._actions for name in action.option_strings}
    seen: dict[int, str] = {}
    tokens = iter(argv)
    for token in tokens:
        if token == "--":  # the rest are operands
            break
        name, has_value, _ = token.partition("=")
        action = actions.get(name)
        if action is None:
            continue
        if id(action) in seen:
            shown = name if seen[id(action)] == name else f"{seen[id(action)]} and {name}"
            command.error(f"{shown} given twice: give it once")
        seen[id(action)] = name
        if action.nargs is None and not has_value:
            next(tokens, None)  # its value, even one that starts with "-"


def _no_objective(text: str) -> str:
    raise argparse.ArgumentTypeError("not taken by verify: each puzzle's position gives its own objective")


def _not_for_hint(text: str) -> str:
    raise argparse.ArgumentTypeError("not taken by hint, which values only the best moves: use plis analyse --exact")


def _serve(args: argparse.Namespace) -> int:
    from service.config import set_grpc_verbosity

    set_grpc_verbosity(args.log_level)  # before gRPC loads: it reads its log level then
    from service.server import serve_command  # loads gRPC only for this command

    return serve_command(args)


def _objectives_help() -> str:
    """Each game's objectives, for --objective's help: "score or raw (belote, ...)"."""
    games: dict[tuple[str, ...], list[str]] = {}
    for name in GAMES:
        games.setdefault(tuple(get_game(name).OBJECTIVES), []).append(name)
    kinds = "; ".join(f"{' or '.join(objectives)} ({', '.join(names)})" for objectives, names in games.items())
    return f"the game's objective (RULES.md): {kinds}; default: the game's first"


def _common(cmd: argparse.ArgumentParser, objective: bool = False, what: str = "positions") -> None:
    cmd.add_argument("file", nargs="?", default="-", help=f"JSON Lines file of {what}, or - for standard input (the default)")
    if objective:
        cmd.add_argument("--objective", type=_objective_name, help=_objectives_help())
    cmd.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="stop each search after this long (default: none); the result is then marked not exact",
    )
    cmd.add_argument(
        "--node-limit",
        type=_at_least("--node-limit", 1, "at least 1"),
        default=None,
        metavar="N",
        help="stop each search after about N nodes (default: none); the result is then marked not exact",
    )
    cmd.add_argument(
        "--tt-mb",
        type=_at_least("--tt-mb", 1, "at least 1 (megabytes)"),
        default=None,
        metavar="MB",
        help="transposition table size in megabytes (default: 8, or 64 for a position of more than 32 cards; Bésigue 8)",
    )
    cmd.add_argument(
        "--jobs",
        type=_at_least("--jobs", 0, "0 (one per core) or more"),
        default=1,
        metavar="N",
        help="solve N lines at once, each thread with its own table (default: 1; 0: one per core); results stay in order",
    )
    cmd.add_argument("--pretty", action="store_true", help="a readable report instead of JSON")


def _at_least(option: str, least: int, meaning: str) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least`."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} must be an integer, got {text!r}") from None
        if number < least:
            raise argparse.ArgumentTypeError(f"{option} must be {meaning}, got {number}")
        return number

    return parse


def _objective_name(text: str) -> str:
    """An argparse type: the name of some game's objective (which names are the line's
    game's is checked with each line).  A name no game has is refused at once: it may
    be the FILE taken as the option's value (`--objective FILE`), the positions then
    read from standard input."""
    if not text.strip():
        raise argparse.ArgumentTypeError("--objective must name one of the game's objectives, got an empty name")
    names = sorted({objective for name in GAMES for objective in get_game(name).OBJECTIVES})
    if text not in names:
        file = " (a FILE? --objective takes an objective's name first)" if os.path.exists(text) else ""
        raise argparse.ArgumentTypeError(f"--objective must be one of {', '.join(names)}, got {text!r}{file}")
    return text


def _move_list(text: str) -> list[str]:
    """An argparse type: moves separated by commas, as the JSON results write them
    (whether each is legal is checked with each line); blank: no move."""
    if not text.strip():
        return []
    moves = [move.strip() for move in MOVE_SEPARATOR.split(text)]
    if not all(moves):
        raise argparse.ArgumentTypeError(f"--exact must list moves separated by commas, got an empty one in {text!r}")
    return moves


def option_field(field: str) -> str:
    """The command line's name for a library field: `--tt-mb` for `tt_megabytes`,
    `--exact[1]` for `exact_moves[1]`."""
    name, bracket, rest = field.partition("[")
    return FLAGS[name] + bracket + rest if name in FLAGS else field


def _seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--time-limit must be a number of seconds, got {text!r}") from None
    if not seconds > 0:  # NaN too
        raise argparse.ArgumentTypeError(f"--time-limit must be above 0, got {text}")
    return seconds


Handler = Callable[[dict[str, Any]], tuple[dict[str, Any], str]]


@contextlib.contextmanager
def _naming_options(objective: str | None = None) -> Iterator[None]:
    """A line's error about what an option gave (not the line's own fields) names the
    option, as the command line spells it; `objective` given, an error about the
    objective is about `--objective` (the line's own is read before)."""
    try:
        yield
    except PlisError as exc:
        exc.field = "--objective" if objective and exc.field == "objective" else option_field(exc.field)
        raise


def _analyse_handler(args: argparse.Namespace) -> Handler:
    def handle(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        position = load_position(data)
        with _naming_options(args.objective):  # an --objective not the game's, a move of --exact not legal here
            if args.objective:
                position = position.with_objective(args.objective)
            result = analyse(
                position,
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                tt_megabytes=args.tt_mb,
                exact_moves=args.exact,
            )
        return result.to_dict(), pretty_result(position, result)

    return handle


def _hint_handler(args: argparse.Namespace) -> Handler:
    def handle(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        position = load_position(data)
        if args.objective:
            with _naming_options(args.objective):
                position = position.with_objective(args.objective)
        found = hint(position, time_limit=args.time_limit, node_limit=args.node_limit, tt_megabytes=args.tt_mb)
        return found.to_dict(), pretty_hint(position, found)

    return handle


def _play_handler(args: argparse.Namespace) -> Handler:
    def handle(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        position = load_position(data)
        with _naming_options(args.objective):  # --first past this line's played cards, --objective
            analysis = analyse_play(
                position,
                objective=args.objective,
                time_limit=args.time_limit,
                node_limit=args.node_limit,
                tt_megabytes=args.tt_mb,
                first=args.first,
            )
        return analysis.to_dict(), pretty_play(position, analysis)

    return handle


def _trumps_handler(args: argparse.Namespace) -> Handler:
    def handle(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        deal = deal_before_play(data)  # the line's own errors, named as its fields
        with _naming_options(args.objective):
            table = trump_table(
                deal, objective=args.objective, time_limit=args.time_limit, node_limit=args.node_limit, tt_megabytes=args.tt_mb
            )
        return table.to_dict(), pretty_trumps(table, deal)

    return handle


class PuzzleSummary:
    """Counts verdicts for the last line of `plis verify`."""

    def __init__(self) -> None:
        self.counts = {
            "puzzles": 0, "hold": 0, "fail": 0, "undecided": 0, "unique": 0, "unique_play": 0, "unique_unknown": 0,
        }  # fmt: skip
        self._lock = threading.Lock()  # with --jobs, verdicts come from several threads

    def add(self, verdict: Verdict) -> None:
        key = {True: "hold", False: "fail", None: "undecided"}[verdict.holds]
        with self._lock:
            self.counts["puzzles"] += 1
            self.counts[key] += 1
            self.counts["unique"] += bool(verdict.unique)
            self.counts["unique_play"] += bool(verdict.unique_play)
            self.counts["unique_unknown"] += verdict.unique is None

    def __call__(self, lines: int, failed: int) -> tuple[dict[str, Any], str, bool]:
        counts = dict(self.counts, errors=failed)
        unknown = f" ({counts['unique_unknown']} unknown)" if counts["unique_unknown"] else ""  # a limit stopped them
        text = (
            f"{counted(counts['puzzles'], 'puzzle')}: {counts['hold']} hold, {counts['fail']} fail, "
            f"{counts['undecided']} undecided; {counts['unique']} with a unique winning move, "
            f"{counts['unique_play']} with one winning play{unknown}; "
            f"{counted(failed, 'line')} in error"
        )
        return {"summary": counts}, text, counts["fail"] == 0 and counts["undecided"] == 0


def _verify_handler(args: argparse.Namespace, summary: PuzzleSummary) -> Handler:
    def handle(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        position, claim = puzzle_from_dict(data)
        verdict = verify_puzzle(position, claim, time_limit=args.time_limit, node_limit=args.node_limit, tt_megabytes=args.tt_mb)
        summary.add(verdict)
        return verdict.to_dict(), pretty_verdict(position, claim.to_dict(), verdict)

    return handle


# what JSON counts as whitespace; a line of other blanks (a no-break space) is not
# blank but bad JSON, and gets its error rather than being skipped unseen
JSON_WHITESPACE = " \t\r\n"


LONGEST_LINE = 1 << 20  # characters: far more than any position; a longer line is its error


class InputError(Exception):
    """The positions could not be read (an OSError while reading)."""


class OutputError(Exception):
    """The results could not be written (an OSError while writing)."""


def read_lines(source: IO[str]) -> Iterator[tuple[int, str]]:
    """The lines that are not blank, numbered from 1.  A line longer than LONGEST_LINE
    is given as TOO_LONG, so that no line needs more memory than that."""
    number = 0
    try:
        while line := source.readline(LONGEST_LINE + 1):
            number += 1
            if len(line) > LONGEST_LINE and not line.endswith("\n"):
                while (rest := source.readline(LONGEST_LINE)) and not rest.endswith("\n"):
                    pass  # the rest of the long line, read and dropped
                yield number, TOO_LONG
            elif line.strip(JSON_WHITESPACE):
                yield number, line
    except OSError as exc:
        raise InputError(exc.strerror or str(exc)) from exc


TOO_LONG = "\0"  # stands for a line past LONGEST_LINE (a NUL is never a line of JSON)


def _write(out: IO[str], text: str) -> None:
    try:
        out.write(text + "\n")
        out.flush()
    except OSError as exc:
        raise OutputError(exc.strerror or str(exc)) from exc


Summary = Callable[[int, int], tuple[dict[str, Any], str, bool]]


def run_batch(
    source: IO[str],
    out: IO[str],
    err: IO[str],
    handle: Handler,
    pretty: bool = False,
    summary: Summary | None = None,
    jobs: int = 1,
    background: bool = False,
    line_field: str = "position",
) -> int:
    """Answer each line; a failing line gets an error object and the batch goes on.

    With `jobs` > 1, that many lines are answered at once in threads; each answer is
    written as soon as it and every line before it are done, so the output keeps the
    lines' order and a stopped batch keeps what it wrote.  `summary(lines, failed)`,
    if given, returns a last line (JSON and text) and whether the batch succeeded; a
    batch that did not also exits with status 1.

    Lines are read as they are needed: fed through a pipe one at a time, each is
    answered before the next arrives (an app asking for hints during play), with any
    number of jobs.  A file is counted first only when a progress bar is shown.
    `background` solves in other threads even with one job, leaving this one free to
    take a Ctrl-C (ordered_map).  `line_field` names what a line is, for the errors
    of a line that is not a JSON object.
    """
    progress = _progress(source, err)
    failed = answered = 0
    answers = ordered_map(lambda numbered: answer_line(*numbered, handle, line_field), read_lines(source), jobs, background)
    try:
        for answer, text, ok in answers:
            answered += 1
            failed += not ok
            _write(out, text if pretty else json.dumps(answer))
            if progress is not None:
                progress.update(1)
    finally:
        # on a Ctrl-C or an error, the answers are left unclosed: closing would wait
        # for the running searches, and the caller ends the process at once instead
        if progress is not None:
            progress.close()
    succeeded = True
    if summary is not None:
        answer, text, succeeded = summary(answered, failed)
        _write(out, text if pretty else json.dumps(answer))
    if failed:
        print(f"plis: {failed} of {answered} lines failed", file=err)
    return EXIT_SOME_FAILED if failed or not succeeded else EXIT_OK


def answer_line(number: int, line: str, handle: Handler, line_field: str = "position") -> tuple[dict[str, Any], str, bool]:
    """One line's answer (JSON and text) and whether it succeeded; never raises.
    `line_field` is what a line is ("position", "puzzle"): the field of the errors
    that are about the whole line."""
    if line is TOO_LONG:
        return (*_error(number, line_field, "INVALID_JSON", f"longer than {LONGEST_LINE:,} characters"), False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (*_error(number, line_field, "INVALID_JSON", f"not UTF-8 text (column {exc.start + 1})"), False)
    try:
        try:
            # without the line feed that ends the line: json would count it as a second
            # line (a line cut short was "column 1") or, inside a string, a control character
            data = load_json(line[:-1] if line.endswith("\n") else line)
        except RecursionError:  # Python's parser recurses once per level of nesting
            return (*_error(number, line_field, "INVALID_JSON", "not valid JSON here: nested too deeply"), False)
        except DuplicateKeyError as exc:
            return (*_error(number, exc.path, "INVALID_JSON", f"not valid JSON here: {exc}"), False)
        except ValueError as exc:
            if isinstance(exc, json.JSONDecodeError):
                raise
            # NaN or Infinity, an integer of too many digits
            return (*_error(number, line_field, "INVALID_JSON", f"not valid JSON here: {exc}"), False)
        if not isinstance(data, dict):
            raise PositionError(line_field, f"each line must be a JSON object, got {json_kind(data)}")
        answer, text = handle(data)
        return answer, text, True
    except json.JSONDecodeError as exc:
        where = f"at column {exc.colno}" if exc.msg.endswith(" at") else f"(column {exc.colno})"  # "starting at"
        message = f"not valid JSON: {exc.msg.removesuffix(' at')} {where}{json_hint(exc)}"
        return (*_error(number, line_field, "INVALID_JSON", message), False)
    except PlisError as exc:
        return (*_error(number, exc.field, exc.reason, exc.message, getattr(exc, "index", None)), False)
    except Exception as exc:  # noqa: BLE001 - one bad line must not stop the batch
        return (*_error(number, line_field, "INTERNAL", f"{type(exc).__name__}: {exc}"), False)


def _progress(source: IO[str], err: IO[str]) -> Any:
    """A progress bar on a terminal, for a file of many lines (counted, then rewound:
    a pipe cannot be read twice)."""
    if not err.isatty() or not source.seekable():
        return None
    start = source.tell()
    total = sum(1 for _ in read_lines(source))
    source.seek(start)
    if total < PROGRESS_MIN_LINES:
        return None
    from tqdm import tqdm

    return tqdm(total=total, file=err, unit="pos")


def _error(number: int, field: str, reason: str, message: str, index: int | None = None) -> tuple[dict[str, Any], str]:
    error: dict[str, Any] = {"field": field, "reason": reason, "message": message}
    if index is not None:
        error["index"] = index
    # ends as a report does, so that a pretty batch sets each answer off by a blank line
    return {"line": number, "error": error}, f"line {number}: error in {field}: {message}\n"


def pretty_result(position: AnyPosition, result: Result) -> str:
    """A report for a person: the hands, the trick, and the moves with their values."""
    rules = position.rules
    lines = _header(position, result.objective)
    for seat in range(rules.n_players):
        marker = "  <- to move" if seat == position.to_move else ""
        lines.append(f"  seat {seat} (side {rules.side_of(seat)}): {_hand_text(position, seat)}{marker}")
    if isinstance(position, BesiguePosition):
        lines.append(f"  talon: {' '.join(str(c) for c in position.talon) or '-'}")
        if position.to_declare is not None:
            lines.append(f"  seat {position.to_declare} won the trick and declares")
    if position.trick:
        lines.append(f"  trick: {' '.join(str(c) for c in position.trick)} (led by seat {position.leader})")
    lines.append(f"  scored {list(position.scored)}, tricks {list(position.tricks)}")
    lines.append(f"  {_values_for(position, result.objective)}")
    cells = [_bounds_text(move, result) if move.value is None else (_shown(move.value), "") for move in result.moves]
    shown = _aligned(cells)
    width = max([8] + [len(m.move) + 2 for m in result.moves])
    value_width = max([8] + [len(text) + 2 for text in shown])  # bounds are wider than values
    lines.append(f"  {'move':<{width}}{'value':>{value_width}}")
    forced = len(result.moves) == 1
    # legal cards that all play the same: best whatever the limit, as a forced move
    one_play = result.one_play
    best = "  best" if result.exact or one_play else "  best so far"
    for move, text in zip(result.moves, shown):
        also = ", the only legal move" if forced else ", the legal cards all play the same" if one_play else ""
        flag = best + also if move.move in result.best else ""
        lines.append(f"  {move.move:<{width}}{text:>{value_width}}{flag}".rstrip())
    if any(value.startswith(("<", ">")) for value, _ in cells):
        lines.append("  <=, >=: a bound only (--exact): the move is worse than the best, not valued exactly")
    if any(bounds for _, bounds in cells):
        lines.append("  [a, b]: a move the limit left unsolved: its value lies between a and b")
    if result.estimate_tricks is not None:
        lines.append(f"  ~: {_estimate_text(position, result.estimate_tricks, result.estimate_objective)}")
    if not result.exact and result.best and not one_play:
        lines.append(f"  best so far: {_solved_best(position, result.objective, result.value)}")
    if result.points is not None:
        lines.append(f"  final points on a best line: {list(result.points)}")
        lines.append(f"  line: {_line_text(position, len(position.trick), result.line)}")
        if result.settlement is not None:
            lines.append(f"  settlement on that line: {_settlement_text(result.settlement)}")
    lines.append(f"  {_exactness(result.exact, result.limit)}, {result.nodes} nodes, {result.time_ms:.1f} ms")
    return "\n".join(lines) + "\n"


LIMITS = {"time": "time limit", "nodes": "node limit", "cancelled": "engine's cancel"}  # a Result's limit, in words


def _exactness(exact: bool, limit: str | None) -> str:
    """"exact", or which limit stopped the search ("not exact" where none is known)."""
    if exact:
        return "exact"
    return f"not exact: stopped by the {LIMITS.get(limit, limit)}" if limit else "not exact"


def _counts(position: AnyPosition, objective: str) -> tuple[bool, str]:
    """What a value counts (RULES.md, "Value of a position"), and whether it is a
    seat's own (else its side's)."""
    if objective == "all_tricks":
        return True, "true if it can take every trick"
    if objective == "pomme":
        return True, "true if it can reach 21 points"
    if position.rules.individual:
        return True, "its own final points" + (", fewer are better" if position.rules.lowest_is_best else "")
    return False, f"its final {'raw points' if objective == 'raw' else 'score'} minus the other side's"


def _values_for(position: AnyPosition, objective: str) -> str:
    """Whose values a report of one position shows, and what they count."""
    own, what = _counts(position, objective)
    seat = position.to_move
    return f"values for {f'seat {seat}' if own else f'side {position.rules.side_of(seat)} (seat {seat} to move)'}: {what}"


def _solved_best(position: AnyPosition, objective: str, value: int | bool | None) -> str:
    """What a limited search's best move tells of the position's value (README,
    "Command line": the best of the moves solved, or one shown better than them,
    and a bound on the position's value)."""
    found = "the best move found before the limit"
    if isinstance(value, bool) or value is None:
        return found
    lowest = position.rules.lowest_is_best and objective == "points"
    return f"{found}: the position's value is {'at most' if lowest else 'at least'} {value}"


def _line_text(position: AnyPosition, index: int, line: Sequence[str]) -> str:
    """A line of best play for a person: a card game's parted by tricks (`index` cards
    of the deal played before it); Bésigue's moves by commas, as a declaration has
    spaces of its own (`meld:marriage:HK HQ`)."""
    if isinstance(position, BesiguePosition):
        return ", ".join(line)
    players = position.rules.n_players
    cut = (players - index % players) % players or players  # the cards left to the trick
    tricks = [line[:cut]] + [line[i : i + players] for i in range(cut, len(line), players)]
    return " | ".join(" ".join(trick) for trick in tricks if trick)


def _estimate_text(position: AnyPosition, tricks: int, objective: str | None) -> str:
    """What a result's estimates are: how far they look, how they count what follows."""
    if isinstance(position, BesiguePosition):
        rest = "what follows guessed from the hands"
    elif tricks >= position.tricks_left:
        rest = "to the end of the deal"
    elif leaf_weights(position.rules) is not None:
        rest = "what follows guessed from the hands"
    else:
        rest = "what follows shared evenly"
    of = f", as {objective}" if objective else ""
    return f"an estimate (not a bound{of}): best play over {counted(tricks, 'trick')}, {rest}"


def _bounds_text(move: MoveValue, result: Result) -> tuple[str, str]:
    """A move left without a value, as (value column, bounds column): in an exact result
    (`--exact`), only shown worse than the best, so its bound on that side (`<= -25`, or
    `>= 60` where fewer points are better); else any estimate, and both bounds a limit left."""
    value, lower, upper = result.value, move.lower, move.upper
    if result.exact and value is not None:
        if upper is not None and upper < value:
            return f"<= {upper}", ""
        if lower is not None and lower > value:
            return f">= {lower}", ""
    return _unsolved_cell(move.estimate, lower, upper, result.objective)


def _unsolved_cell(estimate: int | None, lower: int | None, upper: int | None, objective: str) -> tuple[str, str]:
    """(any estimate, the bounds) of a value a limit left unknown."""
    return ("" if estimate is None else f"~{estimate}"), _bounds(lower, upper, objective)


def _value_or_bounds(value: Any, lower: int | None, upper: int | None, objective: str) -> str:
    """A value, or where a limit left it unknown but bounded, its bounds `[a, b]`."""
    return _bounds(lower, upper, objective) if value is None and lower is not None else _shown(value)


def _bounds(lower: int | None, upper: int | None, objective: str) -> str:
    """`[a, b]`; a yes/no's as its values are shown, `[false, true]` (the JSON's 0 and 1)."""
    if objective in YES_NO_OBJECTIVES and lower is not None and upper is not None:
        return f"[{_shown(bool(lower))}, {_shown(bool(upper))}]"
    return f"[{lower}, {upper}]"


def _aligned(cells: Sequence[tuple[str, str]]) -> list[str]:
    """(value or estimate, bounds) cells as texts of one width.  Where some cell has both,
    the values right-aligned and the bounds after them left-aligned, so that both line
    up down the column; else each cell's one text right-aligned."""
    if not any(value and bounds for value, bounds in cells):
        texts = [value or bounds for value, bounds in cells]
        return [text.rjust(max(map(len, texts))) for text in texts]
    value_width = max(len(value) for value, _ in cells)
    bounds_width = max(len(bounds) for _, bounds in cells)
    return [f"{value:>{value_width}} {bounds:<{bounds_width}}" for value, bounds in cells]


def _settlement_text(info: Mapping[str, Any]) -> str:
    """A result's settlement (RULES.md: Bassadewitz's chips, never searched), in words."""
    text = f"chips from the pool {info['from_pool']}" if not info["pool_stays"] else "the pool stays"
    if any(info["between_players"]):
        text += f", between the players {info['between_players']}"
    return text


def _hand_text(position: AnyPosition, seat: int) -> str:
    if isinstance(position, BesiguePosition):
        return " ".join(str(c) for c in position.hands[seat]) or "-"
    return format_cards(position.hands[seat]) or "-"


def _shown(value: Any) -> str:
    if value is None:
        return "?"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _options_text(options: Mapping[str, Any]) -> str:
    """`rules=amsterdam, nat_on_tie=true`: the options as the input spells them."""
    return ", ".join(f"{k}={_shown(v)}" for k, v in options.items())


def _header(position: AnyPosition, objective: str) -> list[str]:
    rules = position.rules
    head = [rules.name]
    if rules.trump is not None:
        head.append(f"trump {rules.trump}")
    if rules.options:
        head.append(_options_text(rules.options))
    if rules.CONTRACT_FIELD is not None:
        head.append(f"{rules.CONTRACT_FIELD} {rules.contract_seat}")
    head.append(f"objective {objective}")
    if rules.lowest_is_best and objective == "points":
        head.append("(fewer points are better)")
    return ["  ".join(head)]


def pretty_hint(position: AnyPosition, found: Hint) -> str:
    lines = _header(position, position.objective)
    lines.append(f"  seat {position.to_move} to move: {_hand_text(position, position.to_move)}")
    if position.trick:
        lines.append(f"  trick: {' '.join(str(c) for c in position.trick)} (led by seat {position.leader})")
    lines.append(f"  {_values_for(position, position.objective)}")
    status = "" if found.exact else "  (not exact: a limit stopped the search before any move was solved)"
    if found.estimate is not None:  # nothing solved in time: the move chosen by estimates
        of = f" as {found.estimate_objective}" if found.estimate_objective else ""
        tricks = found.estimate_tricks
        ahead = f", {counted(tricks, 'trick')} ahead" if tricks else ""
        status = f"  (not exact: a limit stopped the search; estimated {found.estimate}{of}{ahead})"
    elif not found.exact and found.best and found.value is None:  # Bésigue near its end
        status = "  (not exact: a limit stopped the search; the move that scores the most at once)"
    elif not found.exact and found.best:
        # the best move solved, or one shown better (its value then a bound on it)
        status = f"  (not exact: {_solved_best(position, position.objective, found.value)})"
    # named without a value: what its search proved
    value = _value_or_bounds(found.value, found.lower, found.upper, position.objective)
    # a Bésigue trick winner declares (meld:..., seven, exchange7) or passes: no card is played
    verb = "declare " if found.best and all(is_declaration(move) for move in found.best) else "play "
    if found.best == ("pass",):  # no "declare pass"
        verb = ""
    lines.append(f"  {verb}{' or '.join(found.best) or '?'}: value {value}{status}")
    lines.append(f"  {_exactness(found.exact, found.limit)}, {found.nodes} nodes, {found.time_ms:.1f} ms")
    return "\n".join(lines) + "\n"


def pretty_play(position: AnyPosition, analysis: PlayAnalysis) -> str:
    lines = _header(position, analysis.objective)
    own, what = _counts(position, analysis.objective)
    lines.append(f"  before, after: values for {'each card' if own else 'the side of each card'}'s seat: {what}")
    width = max([5] + [len(c.card) + 1 for c in analysis.cards])  # Bésigue moves are longer
    lines.append(f"  {'#':>3}  {'seat':>4}  {'card':<{width}}{'before':>8}{'after':>8}{'lost':>6}  best")
    for c in analysis.cards:
        mark = "  <- forced" if c.forced else ("  <- mistake" if c.lost or c.lost_at_least else "")
        lost = f">={c.lost_at_least}" if c.lost_at_least else _shown(c.lost)
        lines.append(
            f"  {c.index:>3}  {c.seat:>4}  {c.card:<{width}}{_shown(c.before):>8}{_shown(c.after):>8}{lost:>6}"
            f"  {' '.join(c.best)}{mark}".rstrip()  # (no best moves when a limit stopped the card's search)
        )
        if c.line:  # what the mistake gave away: best play from before it
            lines.append(f"  {'':>3}  {'':>4}  best play from here: {_line_text(position, c.index, c.line)}")
    mistakes = analysis.mistakes
    # a card whose loss no search decided: it may have lost something
    undecided = sum(1 for c in analysis.cards if c.lost is None and not c.lost_at_least)
    searches = "its search" if undecided == 1 else "their searches"
    unknown = f"; {counted(undecided, 'card')} undecided (a limit stopped {searches})" if undecided else ""
    if mistakes:
        worst = max(mistakes, key=lambda c: c.lost or c.lost_at_least or 0)
        amount = worst.lost if worst.lost else f"at least {worst.lost_at_least}"
        costliest = f"{worst.card} (card {worst.index}, seat {worst.seat}), {amount}"
        lines.append(f"  {counted(len(mistakes), 'card')} lost something; the costliest: {costliest}{unknown}")
    elif undecided:
        lines.append(f"  no card known to have lost anything{unknown}")
    else:
        lines.append("  no card lost anything")
    if any(c.before is None or c.after is None for c in analysis.cards):
        lines.append("  ?: a limit stopped that search")
    if any(c.lost_at_least for c in analysis.cards):
        lines.append("  >=: lost at least that much (a limit stopped the search; the best move found was that much better)")
    lines.append(f"  {_exactness(analysis.exact, analysis.limit)}, {analysis.nodes} nodes, {analysis.time_ms:.1f} ms")
    return "\n".join(lines) + "\n"


def pretty_trumps(table: TrumpTable, deal: AnyPosition | None = None) -> str:
    who = "seat" if get_game(table.game).individual else "side"  # each seat for itself in Putz
    head = [table.game]
    if deal is not None and deal.rules.options:  # a batch may mix Rotterdam and Amsterdam deals
        head.append(_options_text(deal.rules.options))
    values_for = f"values for {who} {table.side} (seat 0 leads)"
    if deal is not None:  # what they count, as the other reports say
        values_for += f": {_counts(deal, table.objective)[1]}"
    lines = ["  ".join([*head, f"objective {table.objective}"]), f"  {values_for}"]
    cells = [_entry_text(e, table.objective) for e in table.entries]
    shown = dict(zip([(e.trump, e.declaring_side) for e in table.entries], _aligned(cells)))
    width = max(len(text) for text in shown.values()) + 2
    contract = any(e.declaring_side is not None for e in table.entries)
    if contract:
        width = max(width, 17)
        lines.append(f"  {'trump':<9}{'side 0 declares':>{width}}{'side 1 declares':>{width}}"
                     "   best leads (side 0 / side 1 declares)")  # fmt: skip
        for trump in dict.fromkeys(e.trump for e in table.entries):
            leads = " / ".join(" ".join(e.best) or "?" for side in (0, 1) for e in table.entries
                               if e.trump == trump and e.declaring_side == side)  # fmt: skip
            lines.append(f"  {trump:<9}{shown[trump, 0]:>{width}}{shown[trump, 1]:>{width}}   {leads}")
    else:
        width = max(width, 8)
        lines.append(f"  {'trump':<9}{'value':>{width}}  best leads")
        for e in table.entries:
            lines.append(f"  {e.trump:<9}{shown[e.trump, None]:>{width}}  {' '.join(e.best)}".rstrip())
    if any(e.value is None and e.lower is not None for e in table.entries):
        lines.append("  [a, b]: a limit left the value unknown: it lies between a and b")
    guides = {e.estimate_objective for e in table.entries if e.estimate is not None}
    if guides:
        what = ", ".join(f"as {g}" for g in sorted(g for g in guides if g)) or None
        lines.append(f"  ~: an estimate (not a bound{f', {what}' if what else ''}): best play over"
                     f" {_trump_estimate_tricks(table)}, {_trump_estimates_rest(table, deal)}")  # fmt: skip
    lines.append(f"  {_exactness(table.exact, table.limit)}, {table.nodes} nodes, {table.time_ms:.1f} ms")
    return "\n".join(lines) + "\n"


def _trump_estimate_tricks(table: TrumpTable) -> str:
    """How many tricks the estimated entries looked ahead: `3 tricks`, or where they
    differ (each entry's deadline its own) `1 to 3 tricks`."""
    counts = sorted({e.estimate_tricks for e in table.entries if e.estimate is not None and e.estimate_tricks})
    if not counts:
        return "the next tricks"
    if len(counts) == 1:
        return counted(counts[0], "trick")
    return f"{counts[0]} to {counts[-1]} tricks"


def _trump_estimates_rest(table: TrumpTable, deal: AnyPosition | None) -> str:
    """How the estimated entries count the points after the tricks they look at: as
    `_estimate_text` says of a position (Putz's shared evenly, not guessed from the hands)."""
    game = get_game(table.game)
    kinds = set()
    for e in table.entries:
        if e.estimate is None:
            continue
        options = deal.rules.options if deal is not None else game.check_options({})
        rules = game(options, e.trump, None if e.declaring_side is None else e.declaring_side)
        kinds.add("shared evenly" if leaf_weights(rules) is None else "guessed from the hands")
    return "what follows " + " or ".join(sorted(kinds, reverse=True))


def _entry_text(entry: TrumpEntry, objective: str) -> tuple[str, str]:
    """A trump table entry's value, or what a limit left of it: any estimate, and bounds."""
    if entry.value is not None or entry.lower is None:
        return _shown(entry.value), ""
    return _unsolved_cell(entry.estimate, entry.lower, entry.upper, objective)


def pretty_verdict(position: AnyPosition, claim: dict[str, Any], verdict: Verdict) -> str:
    word = {True: "HOLDS", False: "DOES NOT HOLD", None: "UNDECIDED (a limit stopped the search)"}[verdict.holds]
    if verdict.holds is False:  # which parts of the claim failed
        failed = [part for part, holds in (("best", verdict.best_holds), ("value", verdict.value_holds)) if holds is False]
        for part in ("unique", "unique_play"):
            found = getattr(verdict, part)
            if isinstance(claim.get(part), bool) and found is not None and claim[part] != found:
                failed.append(part)
        if failed:
            word += f" (wrong: {', '.join(failed[:-1]) + ' and ' if failed[:-1] else ''}{failed[-1]})"
    lines = _header(position, verdict.objective)
    lines.append(f"  {_values_for(position, verdict.objective)}")
    lines.append(f"  claim {json.dumps(claim)}: {word}")
    lines.append(
        f"  value {_shown(verdict.value)}, best {' '.join(verdict.best) or '?'}"
        f" ({'unique' if verdict.unique else 'not unique' if verdict.unique is not None else 'uniqueness unknown'})"
    )
    same = [" = ".join(play) for play in verdict.best_plays if len(play) > 1]
    if same:  # best cards that play the same
        lines.append(f"  the same play: {', '.join(same)} ({'one' if verdict.unique_play else 'not one'} best play)")
    if verdict.wrong:
        # a claimed move a limit left unsolved: the bounds that showed it worse
        wrong = [m for m in verdict.claimed if m.move in verdict.wrong]
        shown = ", ".join(f"{m.move} {_value_or_bounds(m.value, m.lower, m.upper, verdict.objective)}" for m in wrong)
        lines.append(f"  not best: {shown}")
    if verdict.missing:
        # beside claimed moves that are best, or in place of claimed moves none of which is
        also = "best instead" if set(verdict.wrong) >= {m.move for m in verdict.claimed} else "also best"
        claimed = {m.move for m in verdict.claimed}
        twins = {m: [c for c in play if c in claimed] for play in verdict.best_plays for m in play}
        # a claimed card's twin (the same play) is best as the card is: say so, not a second answer
        missing = [f"{m} (one play with {' '.join(twins[m])})" if twins.get(m) else m for m in verdict.missing]
        lines.append(f"  {also}: {' '.join(missing)}")
    if verdict.holds is False and verdict.value is None and verdict.result is not None:
        # a limit stopped the search, but what it had solved already shows the claim wrong
        solved = [(m.move, m.value) for m in verdict.result.moves if m.value is not None]
        if solved:
            move, value = max(solved, key=lambda solved_move: preference(position, solved_move[1]))
            lines.append(f"  best found before the limit: {move} {_shown(value)}")
    lines.append(f"  {_exactness(verdict.exact, verdict.limit)}, {verdict.nodes} nodes, {verdict.time_ms:.1f} ms")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
