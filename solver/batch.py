"""Many positions solved on several threads at once, the answers in the positions' order.

The search releases the GIL and each thread keeps engines of its own (analysis.engine_for),
so N threads analyse N positions in parallel on N cores, sharing nothing.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Generator, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Literal, TypeVar, overload

from .analysis import (
    DEFAULT_TT_MEGABYTES,
    LARGE_DEAL_TT_MEGABYTES,
    PositionLike,
    Result,
    analyse,
    as_position,
    check_limits,
    table_size,
    thread_engine,
    time_left,
)
from .errors import OptionError, PlisError, at_least_one, shown
from .machine import memory_megabytes, usable_cores

Item = TypeVar("Item")
Answer = TypeVar("Answer")

AHEAD = 2  # items started per thread before the oldest answer is waited for


def ordered_map(
    fn: Callable[[Item], Answer],
    items: Iterable[Item],
    jobs: int | None,
    background: bool = False,
    on_stop: Callable[[], None] | None = None,
) -> Generator[Answer, None, None]:
    """`fn` over `items`, `jobs` calls at a time in threads, the answers in the items' order.

    Each answer is given as soon as it and those before it are done, even while the
    next item is still awaited (a pipe an app writes one position at a time).  Items
    are taken, by a thread of their own, as they are needed (at most `AHEAD * jobs`
    ahead of the answers), so `items` may be a long or endless iterator.  An
    exception raised by `fn`, or by `items`, is raised at its item's place, after the
    answers before it.  Closing the iterator early (or an exception in the caller's
    loop) calls `on_stop`, which may make the running calls end soon, waits for
    them, and drops the items not yet started; a KeyboardInterrupt does not wait.

    With one job the calls run in the caller's thread, unless `background`: then in a
    thread of their own, so that the caller's thread stays free to take a Ctrl-C
    while a search runs (the search holds its thread until it ends).  `jobs` as
    `analyse_many` takes it: None or 0 is one thread per core (checked at once)."""
    threads = check_jobs(jobs, table=0)  # the tables are `fn`'s, sized by its caller
    return _ordered_map(fn, items, threads, background, on_stop)


def _ordered_map(
    fn: Callable[[Item], Answer],
    items: Iterable[Item],
    jobs: int,
    background: bool,
    on_stop: Callable[[], None] | None,
) -> Generator[Answer, None, None]:
    if jobs <= 1 and not background:
        for item in items:  # (not `yield from map`: a StopIteration of fn's would end the answers unseen)
            yield fn(item)
        return
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="plis-batch")
    started: queue.Queue[Future[Answer] | _Raised | None] = queue.Queue()  # None: no more items
    room = threading.Semaphore(AHEAD * max(1, jobs))
    stopping = threading.Event()

    def take_items() -> None:
        try:
            iterator = iter(items)
            while room.acquire() and not stopping.is_set():
                try:
                    item = next(iterator)
                except StopIteration:
                    return
                started.put(pool.submit(fn, item))
        except BaseException as exc:  # noqa: BLE001 - the items' own error, raised in its place
            started.put(_Raised(exc))
        finally:
            started.put(None)

    threading.Thread(target=take_items, name="plis-batch-items", daemon=True).start()
    wait = True
    finished = False
    try:
        while (entry := started.get()) is not None:
            if isinstance(entry, _Raised):
                raise entry.exc
            answer = entry.result()
            room.release()
            yield answer
        finished = True
    except KeyboardInterrupt:
        wait = False  # what runs in native code cannot be stopped from here
        raise
    finally:
        stopping.set()
        room.release()  # the item thread, if it waits for room, sees the stop
        if not finished and on_stop is not None:
            on_stop()
        pool.shutdown(wait=wait, cancel_futures=True)


class _Raised:
    """An exception of the items' iterator, carried to the answers' side."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


ESTIMATE_TT_MEGABYTES = 1  # the table of a thread's hint estimates (analysis._estimates)


def thread_megabytes(tt_megabytes: int | None) -> int:
    """The most a thread of a batch keeps in tables, for positions of every game:
    a card-game engine for each default size (8 and 64 MB) or one of `tt_megabytes`,
    a Bésigue engine (8 MB or `tt_megabytes`), and the hint estimates' table."""
    if tt_megabytes is None:
        return LARGE_DEAL_TT_MEGABYTES + 2 * DEFAULT_TT_MEGABYTES + ESTIMATE_TT_MEGABYTES
    return 2 * tt_megabytes + ESTIMATE_TT_MEGABYTES


def check_jobs(jobs: int | None, table: int = LARGE_DEAL_TT_MEGABYTES) -> int:
    """The number of threads asked for, checked; None or 0 (as `--jobs 0`) means one per core.  Each thread
    has tables of its own, of `table` MB at most (by default, the largest the library
    picks; `thread_megabytes` for a batch of any game): together they must fit in the
    memory this process may use."""
    per_core = jobs is None or (jobs == 0 and type(jobs) is int)
    threads = usable_cores() if per_core else at_least_one("jobs", jobs, "threads", " (or 0 or None: one per core)")
    memory = memory_megabytes()
    if threads > 1 and memory < threads * table:  # (a table too large alone is tt_megabytes' error)
        raise OptionError(
            "jobs",
            f"{threads} threads with tables of up to {table} MB each need more than the memory this process may use"
            f" ({memory} MB)",
        )
    return threads


def check_positions(positions: Any) -> None:
    """An OptionError naming `positions` unless it is an iterable of positions: one
    position (a dict, its JSON text, a Position) would be taken apart, each key or
    character answered as a position."""
    if isinstance(positions, (str, bytes, bytearray, Mapping)) or not isinstance(positions, Iterable):
        kind = type(positions).__name__
        raise OptionError("positions", f"must be an iterable of positions (one position: analyse), got {kind}")


@overload
def analyse_many(
    positions: Iterable[PositionLike],
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    jobs: int | None = None,
    errors: Literal["raise"] = "raise",
) -> Generator[Result, None, None]: ...


@overload
def analyse_many(
    positions: Iterable[PositionLike],
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    jobs: int | None = None,
    errors: Literal["return"],
) -> Generator[Result | PlisError, None, None]: ...


def analyse_many(
    positions: Iterable[PositionLike],
    *,
    objective: str | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_megabytes: int | None = None,
    jobs: int | None = None,
    errors: Literal["raise", "return"] = "raise",
) -> Generator[Result | PlisError, None, None]:
    """`analyse` every position, `jobs` at once (default: one thread per core), the
    results in the positions' order, each as soon as it and those before it are done.

    A position that is not valid raises its error at its place, after the results
    before it (`errors="raise"`), or stands in the results as its error object
    (`errors="return"`), the others still analysed.  The limits apply to each
    position; each thread has its own tables of `tt_megabytes`."""
    check_limits(time_limit, node_limit)  # what holds for every position, checked at once
    check_positions(positions)
    if tt_megabytes is not None:
        table_size(tt_megabytes, LARGE_DEAL_TT_MEGABYTES)
    threads = check_jobs(jobs, thread_megabytes(tt_megabytes))
    if errors not in ("raise", "return"):
        raise OptionError("errors", f"must be \"raise\" or \"return\", got {shown(errors)}")
    searching: dict[int, Any] = {}  # each thread's engine while it searches
    stopped = False
    lock = threading.Lock()

    def one(position: PositionLike) -> Result | PlisError:
        try:
            pos = as_position(position)
            started = time.perf_counter()  # a new thread's table is set up within the limit, as in analyse
            engine = thread_engine(pos, tt_megabytes)
            with lock:
                searching[threading.get_ident()] = engine
                if stopped:  # a search that starts just after the stop stops at once
                    engine.cancel(before_start=True)
            return analyse(
                pos, objective=objective, time_limit=time_left(time_limit, started), node_limit=node_limit,
                tt_megabytes=tt_megabytes, engine=engine,
            )  # fmt: skip
        except PlisError as exc:
            if errors == "raise":
                raise
            return exc
        finally:
            with lock:
                searching.pop(threading.get_ident(), None)

    def stop_searches() -> None:
        # the batch's own threads end with it: their engines may stay cancelled
        nonlocal stopped
        with lock:
            stopped = True
            for engine in searching.values():
                engine.cancel(before_start=True)

    return ordered_map(one, positions, threads, on_stop=stop_searches)
