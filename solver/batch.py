"""Many positions solved on several threads at once, the answers in the positions' order.

The search releases the GIL and each thread keeps engines of its own (analysis.engine_for),
so N threads analyse N positions in parallel on N cores, sharing nothing.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Generator, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Literal, TypeVar

from .analysis import (
    LARGE_DEAL_TT_MEGABYTES,
    PositionLike,
    Result,
    analyse,
    check_limits,
    table_size,
)
from .errors import OptionError, PlisError, at_least_one
from .machine import memory_megabytes, usable_cores

Item = TypeVar("Item")
Answer = TypeVar("Answer")

AHEAD = 2  # items started per thread before the oldest answer is waited for


def ordered_map(
    fn: Callable[[Item], Answer], items: Iterable[Item], jobs: int, background: bool = False
) -> Generator[Answer, None, None]:
    """`fn` over `items`, `jobs` calls at a time in threads, the answers in the items' order.

    Each answer is given as soon as it and those before it are done, even while the
    next item is still awaited (a pipe an app writes one position at a time).  Items
    are taken, by a thread of their own, as they are needed (at most `AHEAD * jobs`
    ahead of the answers), so `items` may be a long or endless iterator.  An
    exception raised by `fn`, or by `items`, is raised at its item's place, after the
    answers before it.  Closing the iterator early waits for the calls already
    running and drops the items not yet started; a KeyboardInterrupt does not wait.

    With one job the calls run in the caller's thread, unless `background`: then in a
    thread of their own, so that the caller's thread stays free to take a Ctrl-C
    while a search runs (the search holds its thread until it ends)."""
    if jobs <= 1 and not background:
        yield from map(fn, items)
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
    try:
        while (entry := started.get()) is not None:
            if isinstance(entry, _Raised):
                raise entry.exc
            answer = entry.result()
            room.release()
            yield answer
    except KeyboardInterrupt:
        wait = False  # the running searches cannot be stopped from here
        raise
    finally:
        stopping.set()
        room.release()  # the item thread, if it waits for room, sees the stop
        pool.shutdown(wait=wait, cancel_futures=True)


class _Raised:
    """An exception of the items' iterator, carried to the answers' side."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def check_jobs(jobs: int | None, table: int = LARGE_DEAL_TT_MEGABYTES) -> int:
    """The number of threads asked for, checked; None means one per core.  Each thread
    has tables of its own, of `table` MB at most (by default, the largest the library
    picks): together they must fit in the memory this process may use."""
    threads = usable_cores() if jobs is None else at_least_one("jobs", jobs, "threads", " (or None: one per core)")
    memory = memory_megabytes()
    if table <= memory < threads * table:  # (a table too large alone is tt_megabytes' error)
        raise OptionError(
            "jobs",
            f"{threads} threads with a table of {table} MB each need more than the memory this process may use ({memory} MB)",
        )
    return threads


def analyse_many(
    positions: Iterable[PositionLike],
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
    if isinstance(positions, (str, bytes, bytearray, Mapping)) or not isinstance(positions, Iterable):
        kind = type(positions).__name__
        raise OptionError("positions", f"must be an iterable of positions (one position: analyse), got {kind}")
    threads = check_jobs(jobs, table_size(tt_megabytes, LARGE_DEAL_TT_MEGABYTES))
    if errors not in ("raise", "return"):
        raise OptionError("errors", f"must be 'raise' or 'return', got {errors!r}")

    def one(position: PositionLike) -> Result | PlisError:
        try:
            return analyse(position, objective=objective, time_limit=time_limit, node_limit=node_limit, tt_megabytes=tt_megabytes)
        except PlisError as exc:
            if errors == "raise":
                raise
            return exc

    return ordered_map(one, positions, threads)
