"""Errors raised by plis. Every one is a ``ValueError`` that names the field at fault."""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from .machine import memory_megabytes, spare_megabytes

FIELD_MOST, MESSAGE_MOST = 200, 500  # characters of an error's field and message


def clipped(text: str, most: int) -> str:
    """`text`, cut after `most` characters, saying how long it was."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text):,} characters)"


def shown(value: Any) -> str:
    """`value` as an error message quotes it: as JSON spells it (true, null, "text"),
    since most input is JSON, else its repr; cut short if long (an int too long to write
    out, as Python refuses to, is described)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON's (a set, an object, a loop), or a long int
        try:
            text = repr(value)
        except ValueError:
            return "an integer of thousands of digits"
    return clipped(text, 80)


def counted(count: int, noun: str) -> str:
    """`3 cards`, `1 card`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def json_kind(value: Any) -> str:
    """What `value` is, for "must be an object, got ...": a JSON scalar as JSON spells
    it (null, true, 3, "text"), an array, an object, or else its Python type."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return shown(value)
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a value of Python type {type(value).__name__}"


def key_field(key: Any, within: str = "") -> str:
    """The field path of an object's key, `within.key`. A key that would not read as one
    name (empty, spaces, a dot, a bracket) is written as JSON: `options.""`, `"trump "`."""
    text = str(key)
    if not text or any(ch.isspace() or not ch.isprintable() or ch in '."[]' for ch in text):
        text = json.dumps(text)
    return f"{within}.{text}" if within else text


def _folded(text: str) -> str:
    """`text` as a name is compared for a suggestion: lower case, without accents, blanks
    and dashes as underscores ("Bésigue" and "besigue", "four queens" and "four_queens")."""
    text = unicodedata.normalize("NFKD", text.strip().lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return "_".join(text.replace("-", " ").split())


def meant(value: Any, choices: Iterable[Any], aliases: Mapping[str, str] | None = None, cutoff: float = 0.7) -> str:
    """For an error's message: `; did you mean "x"?` where `value`, a text, is close to
    one of `choices` (another case, accents, a typo within difflib's `cutoff`, one of
    `aliases`, which map folded names to choices), or is a number or true/false written
    as text; else ""."""
    if not isinstance(value, str) or len(value) > 100:  # (no name is that long: no time spent on one)
        return ""
    choices = list(choices)
    folded = _folded(value)
    for choice in choices:
        if not isinstance(choice, str) and shown(choice) == folded:  # "4" for 4, "true" for true
            return f"; did you mean {shown(choice)}, without quotes?"
    names = {_folded(choice): choice for choice in choices if isinstance(choice, str)}
    if aliases and folded in aliases:
        return f"; did you mean {shown(aliases[folded])}?"
    close = [folded] if folded in names else difflib.get_close_matches(folded, list(names), n=1, cutoff=cutoff)
    return f"; did you mean {shown(names[close[0]])}?" if close else ""


# the suits' names (RULES.md, "Common notation") and symbols, folded: a trump's "did you mean"
SUIT_NAMES = {
    **dict.fromkeys(("clubs", "club", "trefle", "eicheln", "eichel", "♣", "♧"), "C"),
    **dict.fromkeys(("spades", "spade", "pique", "schilten", "schilte", "♠", "♤"), "S"),
    **dict.fromkeys(("hearts", "heart", "coeur", "cœur", "rosen", "rose", "♥", "♡"), "H"),
    **dict.fromkeys(("diamonds", "diamond", "carreau", "schellen", "schelle", "♦", "♢"), "D"),
}


class PlisError(ValueError):
    """Base class: bad input. ``field`` names the part of the input at fault."""

    reason = "INVALID_ARGUMENT"
    index: int | None = None  # the place in `played` of the move at fault, when replaying

    def __init__(self, field: str, message: str) -> None:
        # clipped: an error must not repeat megabytes of bad input back
        self.field = clipped(field, FIELD_MOST)
        self.message = clipped(message, MESSAGE_MOST)
        super().__init__(f"{self.field}: {self.message}")

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "reason": self.reason, "message": self.message}

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy would call __init__ with `args`, the one text: rebuild the error
        # as it stands instead (a process pool's worker that raised one broke the pool)
        return _rebuilt, (type(self), self.args, self.__dict__)


def _rebuilt(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    """An error of `cls` with these `args` and attributes, its __init__ not called."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class UnknownGameError(PlisError):
    """A `game` that is not one of `solver.GAMES` (or none given)."""

    reason = "UNKNOWN_GAME"


class OptionError(PlisError):
    """An option, limit or argument the game or the call does not take."""

    reason = "BAD_OPTION"


def at_least_one(field: str, value: Any, unit: str, note: str = "") -> int:
    """`value`, if it is a whole number of `unit` of at least 1; else an OptionError
    naming `field` (`note` says what else it may be)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(field, f"must be a whole number of {unit}, at least 1{note}; got {shown(value)}")
    return value


def above_zero(field: str, value: Any, unit: str, note: str = "") -> float:
    """`value`, if it is a number of `unit` above 0 (not NaN); else an OptionError
    naming `field` (`note` says what else it may be)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise OptionError(field, f"must be a number of {unit} above 0{note}, got {shown(value)}")
    try:
        float(value)
    except OverflowError:  # an int past any float: the search's clock could not count it
        raise OptionError(field, f"must be a number of {unit} a float can hold{note}, got {shown(value)}") from None
    return value


def check_flag(name: str, flag: Any) -> None:
    """An OptionError naming `name` unless `flag` is True or False ("no" would be true)."""
    if not isinstance(flag, bool):
        raise OptionError(name, f"must be True or False, got {shown(flag)}")


def checked_objective(game: Any, objective: Any) -> str:
    """`objective` if it is one of `game`'s (a Rules class or instance), else a
    PositionError naming `objective`."""
    if objective not in game.OBJECTIVES:
        raise PositionError(
            "objective",
            f"{game.name} objectives are {', '.join(game.OBJECTIVES)}, got {shown(objective)}{meant(objective, game.OBJECTIVES)}",
        )
    return str(objective)


def ended_deal_side(position: Any, side: Any) -> None:
    """For a finished deal's value: an OptionError naming `side` unless it is one of
    the game's sides (a seat in the games of each for himself), a PositionError before
    the end (the value of a deal still in play is the search's to give)."""
    n_sides = position.rules.n_sides
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < n_sides:
        raise OptionError("side", f"must be a side of the game, 0 to {n_sides - 1}, got {shown(side)}")
    if not position.is_over:
        raise PositionError("position", "the deal is not over: its value is the search's (analyse)")


def table_megabytes(value: Any) -> int:
    """A transposition table's size in MB, checked: a whole number from 1 to the
    memory this process may use, and to nine tenths of the memory free now
    (solver.machine); else an OptionError naming `tt_megabytes`."""
    size = at_least_one("tt_megabytes", value, "megabytes")
    memory = memory_megabytes()
    if size > memory:
        raise OptionError("tt_megabytes", f"{shown(size)} MB is more than the memory this process may use ({memory} MB)")
    spare = spare_megabytes()
    if size > spare:
        raise OptionError("tt_megabytes", f"{shown(size)} MB is more than the memory free now (about {spare} MB to spare)")
    return size


# `scored` and integer options are bounded so that every value the engines can reach
# stays below their infinity (30,000): a larger one would come out silently wrong.  A
# value is at most one side's `scored` less the other's (20,000), plus what a deal can
# add: Jass's match bonus too, so that is bounded lower (20,000 + 5,000 + 157 < 30,000)
VALUE_LIMIT = 10_000
MATCH_BONUS_LIMIT = 5_000
VALUE_REACH = 30_000  # the engines' infinity: with the input so bounded, no value reaches it


def ints_per_side(value: Any, name: str, n: int, per: str, allow_negative: bool) -> tuple[int, ...]:
    """`value`: a list of `n` integers, one per `per` (side or seat), each of at most
    VALUE_LIMIT in size; None means zeros. Else a PositionError naming the entry."""
    if value is None:
        return (0,) * n
    if not isinstance(value, (list, tuple)) or len(value) != n:  # a tuple from Python callers
        raise PositionError(name, f"must be a list of {n} integers, one per {per}, got {shown(value)}")
    lowest = -VALUE_LIMIT if allow_negative else 0
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int) or not lowest <= v <= VALUE_LIMIT:
            raise PositionError(f"{name}[{i}]", f"must be an integer from {lowest} to {VALUE_LIMIT}, got {shown(v)}")
    return tuple(value)


class CardError(PlisError):
    """A token that is not a card of the game."""

    reason = "INVALID_CARD"


class DuplicateCardError(PlisError):
    """A card given more often than the pack holds it (Bésigue: more than twice)."""

    reason = "DUPLICATE_CARD"


class PositionError(PlisError):
    """A position whose fields do not fit together (sizes, seats, missing fields)."""

    reason = "INVALID_POSITION"


def refuse_unknown_keys(
    data: Mapping[Any, Any], known: Iterable[str], error: type[PlisError] = PositionError, within: str = "", told: str = ""
) -> None:
    """An `error` naming the first key of `data` (as text, sorted: a dict built in Python
    may have keys that are not strings) not in `known`, its path `within.key`; `told`
    is added to the message."""
    known = set(known)
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise error(key_field(unknown[0], within), f"unknown field {shown(unknown[0])}{told}")


class DuplicateKeyError(ValueError):
    """A JSON object that gives a key twice; ``path`` names the key where it stands
    (``claim.best``, ``options.rules``): which of the two values is meant is unclear."""

    def __init__(self, path: str, key: str) -> None:
        self.path = path
        super().__init__(f"the key {shown(key)} appears twice in one object")

    __reduce__ = PlisError.__reduce__


class _Twice:
    """Stands in the parsed data for an object that gave ``key`` twice."""

    def __init__(self, key: str) -> None:
        self.key = key


class _UniqueKeys:
    """json's `object_pairs_hook`: an object as a dict, or a `_Twice` where a key repeats
    (found afterwards, so that the error can name its path: the hook cannot see it)."""

    def __init__(self) -> None:
        self.repeated = False

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any] | _Twice:
        data: dict[str, Any] = {}
        for key, value in pairs:
            if key in data:
                self.repeated = True
                return _Twice(key)
            data[key] = value
        return data


def _path_of_twice(data: Any) -> tuple[str, str]:
    """The path and key of the first `_Twice` in parsed data (without recursion: the
    data may be nested as deeply as the parser allows)."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, _Twice):
            return key_field(item.key, path), item.key
        if isinstance(item, dict):
            stack.extend((key_field(key, path), value) for key, value in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", value) for i, value in reversed(list(enumerate(item))))
    raise AssertionError("a repeated key was seen but not found")


INT_DIGITS_MOST = 4300  # Python's own limit on reading an int (sys.get_int_max_str_digits)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > INT_DIGITS_MOST:
        raise ValueError(f"an integer of {len(text.lstrip('-')):,} digits (at most {INT_DIGITS_MOST:,} are read)")
    return int(text)


def load_json(text: str | bytes | bytearray) -> Any:
    """``json.loads``, but a key given twice is a `DuplicateKeyError` naming where.
    Bytes are UTF-8 (json.loads would also take UTF-16 and UTF-32); a byte order mark
    first is let pass, in bytes or text, as a file read with utf-8-sig lets it."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8-sig")
    elif text.startswith("\ufeff"):
        text = text[1:]
    hook = _UniqueKeys()
    data = json.loads(text, object_pairs_hook=hook, parse_constant=_not_json, parse_int=_json_int)
    if hook.repeated:
        raise DuplicateKeyError(*_path_of_twice(data))
    return data


def json_hint(error: json.JSONDecodeError) -> str:
    """What a JSON error likely comes from, where Python's message does not say: a
    comma before a closing bracket, text cut short, or single quotes; else ""."""
    before, after = error.doc[: error.pos].rstrip(), error.doc[error.pos :].lstrip()
    if before.endswith(",") and after[:1] in ("}", "]"):
        return f"; JSON allows no comma before {after[0]}"
    if not after and not error.msg.startswith("Unterminated"):
        return "; the text ends before the JSON object is closed"
    if after[:1] == "'":
        return "; JSON takes double quotes (\"HJ\", not 'HJ')"
    return ""


def parse_json(text: str | bytes | bytearray) -> Any:
    """JSON text as Python data; bad JSON is a `PositionError` naming `position`, or the
    path of a key given twice."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise PositionError("position", f"expected JSON text (str or bytes), got {type(text).__name__}")
    try:
        return load_json(text)
    except DuplicateKeyError as exc:
        raise PositionError(exc.path, str(exc)) from None
    except json.JSONDecodeError as exc:
        where = f"at line {exc.lineno} column {exc.colno}"
        raise PositionError("position", f"not valid JSON: {exc.msg} {where}{json_hint(exc)}") from None
    except UnicodeDecodeError as exc:
        raise PositionError("position", f"not UTF-8 text (byte {exc.start + 1})") from None
    except RecursionError:  # Python's parser recurses once per level of nesting
        raise PositionError("position", "not valid JSON here: nested too deeply") from None
    except ValueError as exc:  # NaN, an integer of too many digits
        raise PositionError("position", f"not valid JSON here: {exc}") from None


class IllegalMoveError(PlisError):
    """A move that the rules forbid; ``index`` is its place in ``played`` when replaying."""

    reason = "ILLEGAL_MOVE"

    def __init__(self, field: str, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(field, message)
