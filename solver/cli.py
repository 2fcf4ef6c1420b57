"""The `plis` command line.

    plis analyse [FILE|-] [--objective O] [--time-limit S] [--node-limit N] [--pretty]

Reads positions as JSON Lines (FORMAT.md) and writes one JSON result per line.  A
bad line gets an error object on its output line, with its line number; the other
lines go on, and the exit status is 1 if any line failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

from .analysis import DEFAULT_TT_MEGABYTES, Result, analyse
from .cards import format_cards
from .errors import PlisError
from .position import Position

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE = 0, 1, 2
PROGRESS_MIN_LINES = 20  # a progress bar only for files of many positions


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "handler"):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        source = open(args.file, encoding="utf-8") if args.file != "-" else sys.stdin  # noqa: SIM115
    except OSError as exc:
        print(f"plis: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    with source:
        return run_batch(source, sys.stdout, sys.stderr, args.handler(args), pretty=args.pretty)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="plis", description="Double-dummy analysis of point-trick card games.")
    commands = parser.add_subparsers(title="commands")
    analyse_cmd = commands.add_parser("analyse", help="value every legal move of each position")
    _common(analyse_cmd)
    analyse_cmd.add_argument("--objective", help="one of the game's objectives (RULES.md); default: the game's first")
    analyse_cmd.set_defaults(handler=_analyse_handler)
    return parser


def _common(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("file", nargs="?", default="-", help="JSON Lines file of positions, or - for standard input")
    cmd.add_argument("--time-limit", type=float, default=None, metavar="SECONDS", help="stop each search after this long")
    cmd.add_argument("--node-limit", type=int, default=None, metavar="N", help="stop each search after N nodes")
    cmd.add_argument("--tt-mb", type=int, default=DEFAULT_TT_MEGABYTES, metavar="MB", help="transposition table size")
    cmd.add_argument("--pretty", action="store_true", help="a readable report instead of JSON")


Handler = Callable[[dict[str, Any]], tuple[dict[str, Any], str]]


def _analyse_handler(args: argparse.Namespace) -> Handler:
    def handle(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        position = Position.from_dict(data)
        result = analyse(
            position,
            objective=args.objective,
            time_limit=args.time_limit,
            node_limit=args.node_limit,
            tt_megabytes=args.tt_mb,
        )
        if args.objective:
            position = position.with_objective(args.objective)
        return result.to_dict(), pretty_result(position, result)

    return handle


def read_lines(source: IO[str]) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(source, 1):
        if line.strip():
            yield number, line


def run_batch(source: IO[str], out: IO[str], err: IO[str], handle: Handler, pretty: bool = False) -> int:
    """Answer each line; a failing line gets an error object and the batch goes on."""
    lines = list(read_lines(source))
    progress = _progress(len(lines), err)
    failed = 0
    for number, line in lines:
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise PlisError("position", f"each line must be a JSON object, got {type(data).__name__}")
            answer, text = handle(data)
        except json.JSONDecodeError as exc:
            failed += 1
            answer, text = _error(number, "position", "INVALID_JSON", f"not valid JSON: {exc.msg} (column {exc.colno})")
        except PlisError as exc:
            failed += 1
            answer, text = _error(number, exc.field, exc.reason, exc.message, getattr(exc, "index", None))
        except Exception as exc:  # noqa: BLE001 - one bad line must not stop the batch
            failed += 1
            answer, text = _error(number, "position", "INTERNAL", f"{type(exc).__name__}: {exc}")
        if pretty:
            out.write(text + "\n")
        else:
            out.write(json.dumps(answer) + "\n")
        out.flush()
        if progress is not None:
            progress.update(1)
    if progress is not None:
        progress.close()
    if failed:
        print(f"plis: {failed} of {len(lines)} lines failed", file=err)
    return EXIT_SOME_FAILED if failed else EXIT_OK


def _progress(total: int, err: IO[str]) -> Any:
    if total < PROGRESS_MIN_LINES or not err.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, file=err, unit="pos")


def _error(number: int, field: str, reason: str, message: str, index: int | None = None) -> tuple[dict[str, Any], str]:
    error: dict[str, Any] = {"field": field, "reason": reason, "message": message}
    if index is not None:
        error["index"] = index
    return {"line": number, "error": error}, f"line {number}: error in {field}: {message}"


def pretty_result(position: Position, result: Result) -> str:
    """A report for a person: the hands, the trick, and the moves with their values."""
    rules = position.rules
    head = [rules.name]
    if rules.trump is not None:
        head.append(f"trump {rules.trump}")
    if rules.options:
        head.append(", ".join(f"{k}={v}" for k, v in rules.options.items()))
    if rules.CONTRACT_FIELD is not None:
        head.append(f"{rules.CONTRACT_FIELD} {rules.contract_seat}")
    head.append(f"objective {result.objective}")
    lines = ["  ".join(head)]
    for seat, hand in enumerate(position.hands):
        marker = "  <- to move" if seat == position.to_move else ""
        lines.append(f"  seat {seat} (side {rules.side_of(seat)}): {format_cards(hand) or '-'}{marker}")
    if position.trick:
        lines.append(f"  trick: {' '.join(str(c) for c in position.trick)} (led by seat {position.leader})")
    lines.append(f"  scored {list(position.scored)}, tricks {list(position.tricks)}")
    lines.append(f"  {'move':<8}{'value':>8}")
    for move in result.moves:
        if move.value is None:
            shown = f"[{move.lower}, {move.upper}]"
        else:
            shown = str(move.value).lower() if isinstance(move.value, bool) else str(move.value)
        flag = "  best" if move.move in result.best else ""
        lines.append(f"  {move.move:<8}{shown:>8}{flag}")
    status = "exact" if result.exact else f"not exact: stopped by the {result.limit} limit"
    if result.points is not None:
        lines.append(f"  final points on a best line: {list(result.points)}")
        lines.append(f"  line: {' '.join(result.line)}")
    lines.append(f"  {status}, {result.nodes} nodes, {result.time_ms:.1f} ms")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
