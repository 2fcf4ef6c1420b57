"""The plis gRPC service: an asyncio server whose searches run in worker threads.

    plis serve --address localhost:50051 [--workers N] [--tt-memory-mb MB]
               [--max-batch N] [--tls-cert FILE --tls-key FILE] [--token-file FILE]

- The event loop only receives calls and sends answers; every search runs in a
  pool of `workers` threads, and the engine releases the GIL while it searches, so
  the searches of different calls use every core.  `workers` bounds the concurrent
  searches; calls beyond it wait their turn, and beyond `max_pending` calls in all
  the server answers RESOURCE_EXHAUSTED.
- Each worker thread has `tt_memory_mb / workers` MB of transposition tables: a
  Bésigue engine's (8 MB, at most half of it) and a card-game engine's (the rest).
  That bounds the table memory of the whole server.
- Deadlines: a search gets the call's remaining time as its time limit and the
  call ends with DEADLINE_EXCEEDED when it runs out.  Cancellation: a search runs
  in slices (growing to at most `MAX_SLICE` seconds, the last taking what is left
  when that is less than two; the table keeps what a slice solved, so the next
  slice goes on from there; with a node limit, in one piece,
  so that its answer is the library's) and stops between slices once
  its call is cancelled; the search running is also stopped at once, inside its
  slice, and so is one about to start (Engine.cancel, BesigueEngine.cancel, with
  before_start).
- Bad input: INVALID_ARGUMENT with a google.rpc.Status holding one ErrorInfo
  (reason, field) in the `grpc-status-details-bin` trailer.
- `processes` > 1 runs that many such servers on one port (SO_REUSEPORT), for
  loads of small positions whose Python work, not their search, is the cost.
- Standard health checking (grpc.health.v1) and server reflection; graceful
  shutdown on SIGINT/SIGTERM (NOT_SERVING, then `grace` seconds for the calls in
  flight, then their searches are cancelled and they end with UNAVAILABLE; a
  second signal cuts the grace short).
- Optional TLS and an optional token, checked on every call (`authorization:
  Bearer <token>` metadata; UNAUTHENTICATED without it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import functools
import hmac
import inspect
import logging
import math
import multiprocessing
import os
import queue
import signal
import socket
import ssl
import stat
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import grpc
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from solver._engine import MOST_PARKED_DEALS
from solver.analysis import (
    DEFAULT_TT_MEGABYTES,
    Hint,
    Result,
    _engine,
    analyse,
    estimate_engine,
    estimate_unsolved,
    favourite_by_estimates,
    hint,
    require_a_move,
)
from solver.besigue import BesiguePosition
from solver.besigue_solve import besigue_engine
from solver.cards import Card
from solver.errors import PlisError, counted
from solver.features import Claim, analyse_play, check_first, start_of_deal, trump_table, verify_puzzle
from solver.position import AnyPosition, Position, load_position

from . import convert
from .config import ServerConfig, add_serve_arguments, config_from_args, is_loopback
from .plis.v1 import plis_pb2 as pb
from .plis.v1 import plis_pb2_grpc as pb_grpc

log = logging.getLogger("plis.service")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Solver"].full_name  # plis.v1.Solver
ERROR_DOMAIN = "plis"
STATUS_DETAILS_KEY = "grpc-status-details-bin"
LEAST_HINT_TIME = 1e-6  # seconds: a hint that only names its estimates' move
FIRST_SLICE = 0.05  # seconds; a cancel stops the search at once, not at the end of its slice
MAX_SLICE = 1.0
# a request with a time limit gets its answer this long before the call's deadline (at
# most a fifth of the time left), so that the answer reaches the client in time
ANSWER_MARGIN = 0.05
DEADLINE_MARGIN = 0.02  # seconds before a call's deadline when its searches stop (at most a fifth of its time)
MOST_FIELD_CHARS, MOST_MESSAGE_CHARS = 200, 1000  # of an error's field and message
MAX_CARDS = 64  # as many as any deal holds (Bésigue's two packs)
DEALS_KEPT = MOST_PARKED_DEALS + 1  # an engine's current deal and those it parks
SHUTDOWN_MARGIN = 0.25  # seconds before the grace ends when the searches still running stop
# the bytes of the requests of all calls pending together (a position is under 1 KB, a
# batch of 1,000 under 1 MB; gRPC takes messages of up to 4 MB, each held, decoded, at
# about three times that while its call waits for a worker): beyond, RESOURCE_EXHAUSTED.
# Each entry of a request's lists counts `ENTRY_BYTES` more: decoded, an entry of two bytes
# takes some 60 (4 MB of empty ones took 130 MB a call, 16 calls 2.2 GB)
MOST_PENDING_BYTES = 64 * 1024 * 1024
ENTRY_BYTES = 64
# the most entries of a repeated field in a request (a position's hands, played, options...,
# a claim's best, exact_moves' moves), far beyond any game's (64 cards; Bésigue's played,
# cards and declarations, under 100), by field where lower: `melded` has an entry a seat,
# a seat's `cards` one a card face up.  Beyond, INVALID_ARGUMENT before the call waits
MOST_ENTRIES = 256
MOST_ENTRIES_OF = {"plis.v1.Position.melded": 8, "plis.v1.MeldedCards.cards": MAX_CARDS}
# the reason an oversized field is refused with, by the first part of its path
OVERSIZED_REASONS = {"claim": "INVALID_CLAIM", "exact_moves": "BAD_OPTION"}
# health Watch streams open at once, at most (each holds some 11 KB for as long as its
# client keeps it: 20,000 took a server to 218 MB); beyond, RESOURCE_EXHAUSTED
MOST_WATCHES = 1000

T = TypeVar("T")
S = TypeVar("S", Result, Hint)


# --- the workers' engines --------------------------------------------------------------


@dataclass(frozen=True)
class CardDeal:
    """A card-game position's game and, per seat, the cards it holds or has put on the
    trick: a later position of the same deal holds a part of each."""

    game: str
    seats: tuple[frozenset[Card], ...]

    @property
    def cards_left(self) -> int:
        return sum(len(seat) for seat in self.seats)

    def same_deal(self, other: DealMark) -> bool:
        """Whether the two positions may be of one deal: each seat's cards in one hold the other's."""
        if not isinstance(other, CardDeal) or other.game != self.game or len(other.seats) != len(self.seats):
            return False
        pairs = list(zip(self.seats, other.seats))
        return all(a <= b for a, b in pairs) or all(b <= a for a, b in pairs)


@dataclass(frozen=True)
class BesigueDeal:
    """What a Bésigue engine's table assumes of a position's deal (its trump and
    options), the deal's start where the position gives it (deal, talon and played),
    its talon but for the last card (the retourne, or the trump 7 exchanged for it),
    and the cards not yet played (hands, trick, talon; an exchange moves none out).
    A later position of one deal has the same start, or else the end of that talon and
    a part of those cards (which tells deals apart less well: every deal's first
    position holds all 64 cards, and a talon spent matches any)."""

    signature: tuple[Any, ...]
    start: tuple[Any, ...] | None
    talon: tuple[Card, ...]
    cards: Counter[Card]

    @property
    def cards_left(self) -> int:
        return self.cards.total()

    def same_deal(self, other: DealMark) -> bool:
        if not isinstance(other, BesigueDeal) or other.signature != self.signature:
            return False
        if self.start is not None and other.start is not None:
            return self.start == other.start
        short, long = sorted((self.talon, other.talon), key=len)
        if long[len(long) - len(short) :] != short:
            return False
        return self.cards <= other.cards or other.cards <= self.cards


DealMark = CardDeal | BesigueDeal


def deal_mark(position: AnyPosition | None) -> DealMark | None:
    """What tells `position`'s deal from others' (None for no position: a deal unknown)."""
    if position is None:
        return None
    if isinstance(position, BesiguePosition):
        rules = position.rules
        cards = Counter(copy.card for hand in position.hands for copy in hand)
        cards.update(position.trick)
        cards.update(position.talon)
        signature = (rules.trump_suit, tuple(sorted(rules.options.items())))
        start = None
        if position.deal is not None and position.deal_talon is not None:
            start = (tuple(tuple(sorted(hand)) for hand in position.deal), position.deal_talon)
        return BesigueDeal(signature, start, position.talon[:-1], cards)
    seats = len(position.hands)
    held = [set(hand) for hand in position.hands]
    for offset, card in enumerate(position.trick):
        held[(position.leader + offset) % seats].add(card)
    return CardDeal(position.rules.name, tuple(frozenset(seat) for seat in held))


def _same_deal(one: DealMark | None, other: DealMark | None) -> bool:
    return one is not None and other is not None and one.same_deal(other)


def _searched_by_besigue(mark: DealMark | None) -> bool:
    """Which of a worker's engines searches the deal: Bésigue's, or the card games'
    (None, a deal unknown, is a trump table's)."""
    return isinstance(mark, BesigueDeal)


class EngineSlot:
    """One worker's engines, the card games' and Bésigue's, and, for each, the last
    positions it searched, a deal each."""

    def __init__(self, tt_megabytes: int, besigue_tt_megabytes: int = DEFAULT_TT_MEGABYTES) -> None:
        from solver._engine import Engine

        # made with the server, not at a first call: its tables take up to a few hundred
        # ms to set up, which that call's time limit and time_ms would not show
        self.engine: Any = Engine(tt_megabytes)
        self.besigue_tt_megabytes = besigue_tt_megabytes
        self._besigue: Any = None  # made at the slot's first Bésigue call: most servers see none
        # by engine (True: Bésigue's), the deals searched, the latest last; None: a deal unknown
        self.deals: dict[bool, list[DealMark | None]] = {False: [], True: []}

    @property
    def besigue(self) -> Any:
        """The worker's Bésigue engine."""
        if self._besigue is None:
            from solver._besigue import BesigueEngine

            self._besigue = BesigueEngine(self.besigue_tt_megabytes)
        return self._besigue

    def match(self, mark: DealMark | None) -> tuple[int, int] | None:
        """Whether its engine keeps `mark`'s deal: None if not, else how many other
        deals it searched since a position of this one's (0: it was the last), and
        how many cards lie between that position and `mark`'s: of two engines that
        may both hold the deal, the nearer position is the likelier to be its (a
        Bésigue position given without its start, late in a deal, may fit another
        deal's first positions too)."""
        for age, seen in enumerate(reversed(self.deals[_searched_by_besigue(mark)])):
            if seen is not None and mark is not None and seen.same_deal(mark):
                return age, abs(seen.cards_left - mark.cards_left)
        return None

    def spareness(self, besigue: bool) -> tuple[bool, int]:
        """How unlikely the tables of one of its engines (True: Bésigue's) are to be
        wanted again, least first: unused first, then by the cards left in the last
        position searched (a deal unknown: as a whole deal's)."""
        deals = self.deals[besigue]
        if not deals:
            return False, 0
        return True, deals[-1].cards_left if deals[-1] is not None else MAX_CARDS

    def searches(self, mark: DealMark | None) -> None:
        """Note the position the slot is about to search."""
        engine = _searched_by_besigue(mark)
        kept = [seen for seen in self.deals[engine] if not _same_deal(seen, mark)]  # None: never the same
        self.deals[engine] = (kept + [mark])[-DEALS_KEPT:]


class EnginePool:
    """The engines of the workers, a slot (a card-game engine and a Bésigue one) a
    worker, their tables kept from call to call.  A call takes a free slot: the one
    whose engine searched a position of the same deal most recently if there is one,
    so an app asking for a hint at every card finds the tables its last hint filled
    (an engine that searches another deal parks the deals it left, up to 32, but
    their entries give way to the new deal's: this holds fully while there are no
    more such deals at once than engines).  Else the one whose engine's tables are
    least likely to be wanted again: one never used, or whose deal was nearest its
    end (a finished deal's last hint), the one unused longest of those."""

    def __init__(self, count: int, tt_megabytes: int, besigue_tt_megabytes: int = DEFAULT_TT_MEGABYTES) -> None:
        self._free = [EngineSlot(tt_megabytes, besigue_tt_megabytes) for _ in range(count)]  # the last used last
        self._lock = threading.Lock()

    def take(self, position: AnyPosition | None) -> EngineSlot:
        mark = deal_mark(position)
        besigue = _searched_by_besigue(mark)
        with self._lock:
            if not self._free:  # each worker takes one at most: a bug
                raise RuntimeError("more engines taken than there are workers")
            found = [(match, -i) for i, slot in enumerate(self._free) if (match := slot.match(mark)) is not None]
            # the deal's latest engine (of equals, the nearest position, then the one
            # used last), else the sparest
            slot = self._free[-min(found)[1]] if found else min(self._free, key=lambda free: free.spareness(besigue))
            self._free.remove(slot)
        slot.searches(mark)  # None: a deal unknown here (a trump table's) now holds its tables
        return slot

    def give_back(self, slot: EngineSlot) -> None:
        with self._lock:
            self._free.append(slot)


# --- stopping searches ------------------------------------------------------------------


class Cancelled(Exception):
    """The call was cancelled, or (`shutdown`) the server is shutting down."""

    def __init__(self, shutdown: bool = False) -> None:
        super().__init__("the server is shutting down" if shutdown else "the call was cancelled")
        self.shutdown = shutdown


class DeadlineReached(Exception):
    """The call's deadline passed before its searches were done."""


class Guard:
    """The deadline and the cancellation of one call, for all of its searches.

    `analyse` has the signature of `solver.analyse`, so it can stand in for it in
    `analyse_play`, `trump_table` and `verify_puzzle` (their `solve` argument).
    """

    def __init__(
        self,
        deadline: float | None,
        tt_megabytes: int,
        besigue_tt_megabytes: int = DEFAULT_TT_MEGABYTES,
        engines: EnginePool | None = None,
    ) -> None:
        self.deadline = deadline  # time.monotonic() seconds, or None
        self.request_bytes = 0  # the size of the call's request, while it is pending
        # a request with a time limit that the deadline cuts short answers by then, for
        # all its searches (a trump table's later trumps too: inexact, not too late)
        self.answer_by = None if deadline is None else deadline - min(ANSWER_MARGIN, (deadline - time.monotonic()) / 5)
        self.tt_megabytes = tt_megabytes
        self.besigue_tt_megabytes = besigue_tt_megabytes
        # the server's engines (None: each thread's own, of `tt_megabytes`), and those
        # this call's works took, by thread, until each work gives its back
        self._pool = engines
        self._taken: dict[int, EngineSlot] = {}
        self._cancelled = threading.Event()
        self._shutdown = False
        # the engines of the searches running for this call (a batch runs one a
        # worker): a cancel stops them at once, not at the end of their slices.  The
        # lock keeps a cancel from reaching an engine once its search is over (the
        # worker's next call may use that engine)
        self._engines: list[Any] = []
        self._lock = threading.Lock()

    def cancel(self, shutdown: bool = False) -> None:
        with self._lock:
            self._shutdown = self._shutdown or shutdown
            self._cancelled.set()
            for engine in self._engines:
                engine.cancel(before_start=True)  # its search may be about to start

    def worker_engine(self, position: AnyPosition | None = None) -> Any:
        """The engine of the worker thread calling, with the table each worker may have
        (`tt_memory_mb / workers`): the library's functions are given it, or they would
        keep engines of their own sizes beside it, past the server's memory bound.  The
        first call of a work takes it from the pool, by `position`'s deal where given;
        it is the work's until `give_back`."""
        if self._pool is None:
            return _engine(self.tt_megabytes)
        thread = threading.get_ident()
        slot = self._taken.get(thread)
        if slot is None:
            slot = self._taken[thread] = self._pool.take(position)
        return slot.engine

    def give_back(self) -> None:
        """Returns the engine the calling thread's work took, if any, to the pool."""
        slot = self._taken.pop(threading.get_ident(), None)
        if slot is not None and self._pool is not None:
            self._pool.give_back(slot)

    def work(self, work: Callable[[Guard], T]) -> T:
        """`work(self)`, in a worker thread, giving back the engine it took; nothing
        if the call ended while it waited for the worker (its client or its deadline)."""
        try:
            if self.cancelled:
                raise Cancelled(self._shutdown)
            return work(self)
        finally:
            self.give_back()

    def search_engine(self, position: AnyPosition, engine: Any = None) -> Any:
        """The engine a search of `position` runs on, so that a cancel reaches it:
        for Bésigue, the worker's Bésigue engine (without a pool, the thread's, of the
        worker's Bésigue table size), else `engine` or the worker's."""
        if isinstance(position, BesiguePosition):
            if self._pool is None:
                return besigue_engine(self.besigue_tt_megabytes)
            self.worker_engine(position)  # takes the work's slot, by the deal, if it has none
            return self._taken[threading.get_ident()].besigue
        return engine if engine is not None else self.worker_engine(position)

    def _search(self, engine: Any, search: Callable[[], T]) -> T:
        """`search()`, run on `engine`, which a cancel meanwhile stops, even one that
        lands before the search has started; so does the thread's engine for
        estimates, which the library's calls use beside it."""
        engines = (engine, estimate_engine())
        with self._lock:
            if self._cancelled.is_set():  # cancelled before the engines were listed
                raise Cancelled(self._shutdown)
            self._engines.extend(engines)
        try:
            return search()
        finally:
            with self._lock:
                for listed in engines:
                    self._engines.remove(listed)
                    listed.forget_cancel()  # the worker's next call searches afresh

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def own_end(self, started: float, time_limit: float | None) -> float | None:
        """When a search with `time_limit` started at `started` (time.monotonic) stops
        and answers: at its limit, or `answer_by` if that comes first (an inexact
        answer, as the limit gives, rather than DEADLINE_EXCEEDED)."""
        if not time_limit:
            return None
        end = started + time_limit
        return end if self.answer_by is None else min(end, self.answer_by)

    def check(self) -> None:
        if self._cancelled.is_set():
            raise Cancelled(self._shutdown)
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise DeadlineReached()

    def run(
        self,
        search: Callable[[float | None, int | None], S],
        time_limit: float | None,
        node_limit: int | None,
        timed_out: Callable[[S], bool] = lambda answer: answer.limit == "time",  # type: ignore[union-attr]
    ) -> S:
        """`search(time_limit, node_limit)` in slices until it is done, within the deadline.

        `search` returns a `Result` or a `Hint`; `timed_out(answer)` says whether the
        slice's time limit stopped it.  The last slice's answer is returned, with the
        nodes of all slices.  With a node limit, one search until the deadline: each
        slice would start the search again and spend the nodes anew, so the answer
        would not be the library's (a cancel stops it inside anyway).
        """
        started = time.monotonic()
        own_end = self.own_end(started, time_limit)
        nodes = 0
        slice_length = FIRST_SLICE
        while True:
            self.check()
            now = time.monotonic()
            ends = [end for end in (own_end, self.deadline) if end is not None]
            stop_at = min(ends) if ends else None
            length = None if node_limit else slice_length
            if length is not None and stop_at is not None and stop_at - now < 2 * length:
                length = None  # the rest in one slice: a shorter last one would search little
            this = length if stop_at is None else max(1e-6, min(length or math.inf, stop_at - now))
            budget = max(1, node_limit - nodes) if node_limit else None
            answer = search(this, budget)
            nodes += answer.nodes
            if self.cancelled:  # stopped in the slice: not an answer
                raise Cancelled(self._shutdown)
            if not timed_out(answer):  # solved, or the node limit
                break
            now = time.monotonic()
            if own_end is not None and (self.deadline is None or own_end <= self.deadline):
                # the request's own time limit: an inexact answer, as the library gives;
                # also where this slice had all of it (the library may stop a little
                # short, its estimates done: a slice more would make them again, worse)
                if now >= own_end or (length is None and stop_at == own_end):
                    break
            if self.deadline is not None and now >= self.deadline:
                raise DeadlineReached()
            slice_length = min(slice_length * 2, MAX_SLICE)
        return replace(answer, nodes=nodes, time_ms=(time.monotonic() - started) * 1000.0)

    def analyse(
        self,
        position: AnyPosition,
        time_limit: float | None = None,
        node_limit: int | None = None,
        engine: Any = None,
        objective: str | None = None,
        exact_moves: tuple[str, ...] | None = None,
    ) -> Result:
        """`solver.analyse` within the call's deadline, stopping between slices if cancelled."""
        engine = self.search_engine(position, engine)
        own_end = self.own_end(time.monotonic(), time_limit)

        besigue = isinstance(position, BesiguePosition)

        def search(limit: float | None, nodes: int | None) -> Result:
            # the unsolved moves' estimates: once, at the end (Bésigue's search makes its own)
            last = besigue or self.last_slice(limit, nodes, own_end)
            return self._search(
                engine,
                lambda: analyse(
                    position, objective=objective, time_limit=limit, node_limit=nodes, engine=engine,
                    exact_moves=exact_moves, estimates=last,
                ),
            )

        answer = self.run(search, time_limit, node_limit)
        if exact_moves is None and answer.estimate_tricks is None:
            # a slice without estimates ended past the limit (it waited for the GIL): the
            # unsolved moves' estimates all the same, a trick ahead (estimate_unsolved
            # leaves alone the answers analyse makes none for: exact, cancelled, Bésigue...)
            answer = estimate_unsolved(position if objective is None else position.with_objective(objective), answer)
        return answer

    def favourite(self, position: Position, deadline: float | None, most_tricks: int | None = None) -> Any:
        """`solver.analysis.favourite_by_estimates` (a trump table entry's estimates),
        ending by the time the call must answer, stopped by a cancel.  `deadline` is
        on `time.perf_counter`'s clock, as the library's.  Past the answer time it still
        looks a trick ahead (under a millisecond): the entry's search has answered."""
        if self.cancelled:
            raise Cancelled(self._shutdown)
        if deadline is not None and self.answer_by is not None:
            left = min(deadline - time.perf_counter(), self.answer_by - time.monotonic())
            deadline = time.perf_counter() + left if left > 0 else None  # None: a trick ahead only
        found = self._search(self.worker_engine(position), lambda: favourite_by_estimates(position, deadline, most_tricks))
        if self.cancelled:
            raise Cancelled(self._shutdown)
        return found

    def last_slice(self, limit: float | None, nodes: int | None, own_end: float | None) -> bool:
        """Whether a slice of `limit` seconds from now (with a budget of `nodes`) is the
        call's last that answers: a node-limited call's one search, or the slice that
        reaches the request's own end, `own_end`.  Only that one makes estimates.  A
        call with neither limit answers exactly or not at all (its deadline ends it
        with DEADLINE_EXCEEDED): estimates would be lost."""
        if nodes is not None or limit is None:
            return True
        return own_end is not None and time.monotonic() + limit >= own_end - 0.001

    def hint(self, position: AnyPosition, time_limit: float | None = None, node_limit: int | None = None) -> Hint:
        """`solver.hint` within the call's deadline."""
        engine = self.search_engine(position)
        own_end = self.own_end(time.monotonic(), time_limit)

        def search(limit: float | None, nodes: int | None) -> Hint:
            last = self.last_slice(limit, nodes, own_end)  # estimates only in the last slice: the earlier ones go on in the next
            return self._search(
                engine, lambda: hint(position, time_limit=limit, node_limit=nodes, engine=engine, estimates=last)
            )

        # not exact: stopped by time, unless the node limit was spent
        answer = self.run(
            search, time_limit, node_limit, timed_out=lambda answer: not answer.exact and answer.nodes < (node_limit or math.inf)
        )
        if not answer.best and answer.limit in ("time", "nodes"):
            # a slice without estimates ended past the limit (it waited for the GIL): a
            # move all the same, by the estimates a trick or so ahead, as the library's
            started = time.monotonic()
            named = self._search(engine, lambda: hint(position, time_limit=LEAST_HINT_TIME, engine=engine))
            answer = replace(named, nodes=answer.nodes + named.nodes, limit=answer.limit,
                             time_ms=answer.time_ms + (time.monotonic() - started) * 1000.0)
        return answer


# --- the service ---------------------------------------------------------------------------


class Oversized(Exception):
    """A repeated field of a request that holds more entries than the server reads."""

    def __init__(self, field: str, entries: int, most: int) -> None:
        super().__init__(f"{field}: holds {entries:,} entries, more than this server reads ({most})")
        self.field, self.entries, self.most = field, entries, most


def request_entries(message: Any, path: str = "") -> int:
    """The entries of the repeated fields of `message` (a request, or a part of one), its
    parts' too; `Oversized` for the first field that holds more than `MOST_ENTRIES`
    (`MOST_ENTRIES_OF`).  A batch's `positions` are bounded by `--max-batch` instead."""
    entries = 0
    for field, value in message.ListFields():
        name = path + field.name
        if field.is_repeated:
            entries += len(value)
            most = None if field.full_name == "plis.v1.AnalyseBatchRequest.positions" else (
                MOST_ENTRIES_OF.get(field.full_name, MOST_ENTRIES)
            )
            if most is not None and len(value) > most:
                raise Oversized(name, len(value), most)
            if field.message_type is not None and not field.message_type.GetOptions().map_entry:
                entries += sum(request_entries(item, f"{name}[{i}].") for i, item in enumerate(value))
        elif field.message_type is not None:
            entries += request_entries(value, name + ".")
    return entries


class InvalidRequest(Exception):
    """A PlisError, with the path of its field in the request."""

    def __init__(self, error: PlisError, prefix: str = "") -> None:
        super().__init__(str(error))
        self.error = error
        self.field = prefix + error.field


def _position(message: pb.Position, to_play: bool = True, verb: str = "analyse") -> AnyPosition:
    """The request's position; `to_play`: one with a move to make (not a deal that is
    over), checked here so that the error names its path in the request (and, as the
    library's, says what there is no move to: `verb`)."""
    try:
        position = load_position(convert.position_to_dict(message))
        if to_play:
            require_a_move(position, verb)
    except PlisError as exc:
        raise InvalidRequest(exc, "position.") from None
    return position


def _limits(message: pb.SearchLimits) -> tuple[float | None, int | None]:
    try:
        return convert.limits_from_message(message)
    except PlisError as exc:
        raise InvalidRequest(exc) from None


def _clip(text: str, most: int) -> str:
    """`text`, cut to `most` characters where longer (an error may echo a long bad value)."""
    return text if len(text) <= most else text[: most - 1] + "…"


def _error_status(code: grpc.StatusCode, reason: str, field: str, message: str, index: int | None = None) -> status_pb2.Status:
    # the status goes in the trailers, twice: a long echo of a bad value would pass
    # gRPC's limit on their size (8 KB), and the client would get RESOURCE_EXHAUSTED
    field, message = _clip(field, MOST_FIELD_CHARS), _clip(message, MOST_MESSAGE_CHARS)
    metadata = {"field": field}
    if index is not None:
        metadata["index"] = str(index)
    info = error_details_pb2.ErrorInfo(reason=reason, domain=ERROR_DOMAIN, metadata=metadata)
    status = status_pb2.Status(code=code.value[0], message=f"{field}: {message}")
    status.details.add().Pack(info)
    return status


async def _abort_cancelled(context: grpc.aio.ServicerContext, cancelled: Cancelled) -> None:
    """A call stopped by a cancel, or by the server's shutdown: UNAVAILABLE then, which a
    client may retry elsewhere (the Python clients do)."""
    code = grpc.StatusCode.UNAVAILABLE if cancelled.shutdown else grpc.StatusCode.CANCELLED
    await context.abort(code, str(cancelled))


async def _abort(context: grpc.aio.ServicerContext, code: grpc.StatusCode, status: status_pb2.Status) -> None:
    await context.abort(code, status.message, trailing_metadata=((STATUS_DETAILS_KEY, status.SerializeToString()),))


class SolverServicer(pb_grpc.SolverServicer):
    """The RPCs of plis.proto; each runs its searches in the worker pool."""

    def __init__(self, config: ServerConfig, pool: ThreadPoolExecutor) -> None:
        self.config = config
        self.pool = pool
        self.engines = EnginePool(config.worker_count, config.tt_megabytes, config.besigue_tt_megabytes)
        self.pending = 0
        self.pending_bytes = 0
        self.guards: set[Guard] = set()

    # -- plumbing
    def _guard(self, context: grpc.aio.ServicerContext) -> Guard:
        remaining = context.time_remaining()
        most = self.config.max_call_seconds  # the server's own bound on a call's time, if any
        if most is not None and (remaining is None or remaining > most):
            remaining = most  # as if the call's deadline were then
        deadline = None
        if remaining is not None:
            # the searches stop a little before the call's deadline, so that
            # DEADLINE_EXCEEDED is this server's status, sent before gRPC ends the call
            # itself (sent after it, under load, gRPC logged an ExecuteBatchError)
            deadline = time.monotonic() + remaining - min(DEADLINE_MARGIN, remaining / 5)
        return Guard(deadline, self.config.tt_megabytes, self.config.besigue_tt_megabytes, self.engines)

    async def _admit(self, context: grpc.aio.ServicerContext, request: Any) -> Guard:
        """The call's guard, counted as pending with its request's bytes (the caller's
        `finally` lets it go); RESOURCE_EXHAUSTED when the server already holds as many
        calls as it takes, or as many bytes of requests (one call is always taken; each
        entry of a request's lists counts `ENTRY_BYTES` more).  INVALID_ARGUMENT first for
        a list longer than any position's."""
        try:
            entries = request_entries(request)  # (RequestDecodeInterceptor refused it already)
        except Oversized as exc:
            await _abort(context, grpc.StatusCode.INVALID_ARGUMENT, _oversized_status(exc))
        if self.pending >= self.config.max_pending:
            message = f"{self.config.max_pending} calls pending already, the most this server takes"
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message)
        size = request.ByteSize() + ENTRY_BYTES * entries
        if self.pending and self.pending_bytes + size > MOST_PENDING_BYTES:
            message = (
                f"the calls pending hold {self.pending_bytes:,} bytes of requests already (an entry of a list "
                f"counted as {ENTRY_BYTES}); this one's "
                f"{size:,} would pass the most this server holds ({MOST_PENDING_BYTES:,})"
            )
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message)
        guard = self._guard(context)
        guard.request_bytes = size
        self.pending_bytes += size
        self.pending += 1
        self.guards.add(guard)
        return guard

    async def _call(self, context: grpc.aio.ServicerContext, work: Callable[[Guard], T], request: Any) -> T:
        """Run `work(guard)` in the pool and turn its failures into the call's status."""
        guard = await self._admit(context, request)
        running: list[asyncio.Future[T]] = []
        try:
            loop = asyncio.get_running_loop()
            running.append(loop.run_in_executor(self.pool, guard.work, work))
            running[0].add_done_callback(_retrieved)  # the call may end before it does
            # shielded: a call its client or its deadline ends must not cancel its work in
            # the pool, which would stay queued there, holding the request, until a worker
            # takes it; it is let through at once (the guard is cancelled) and the call
            # counts as pending until then
            return await asyncio.shield(running[0])
        except (InvalidRequest, PlisError) as exc:
            # a PlisError found past the request's checks (none known) is bad input all the same
            request_error = exc if isinstance(exc, InvalidRequest) else InvalidRequest(exc)
            error = request_error.error
            status = _error_status(
                grpc.StatusCode.INVALID_ARGUMENT, error.reason, request_error.field, error.message, getattr(error, "index", None)
            )
            await _abort(context, grpc.StatusCode.INVALID_ARGUMENT, status)
            raise  # not reached: abort raises
        except DeadlineReached:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed before the search was done")
            raise
        except Cancelled as exc:
            await _abort_cancelled(context, exc)
            raise
        except Exception as exc:  # a bug, not bad input: say so, keep serving
            if isinstance(exc, grpc.aio.AbortError):
                raise
            log.exception("internal error")
            message = _clip(f"internal error: {type(exc).__name__}: {exc}", MOST_MESSAGE_CHARS)
            await context.abort(grpc.StatusCode.INTERNAL, message)
            raise
        finally:
            guard.cancel()  # a cancelled call's search stops at once (a finished one has none)
            self._let_go(guard, running)

    def _let_go(self, guard: Guard, works: Iterable[asyncio.Future[Any]]) -> None:
        """The call's place among the pending calls (and its request's bytes) goes once
        none of its `works` is left in the pool: a call that ended while they waited for
        a worker (its client or its deadline) still holds its request there."""
        left = [work for work in works if not work.done()]
        if left:
            left[0].add_done_callback(lambda _: self._let_go(guard, left[1:]))
            return
        self.guards.discard(guard)
        self.pending -= 1
        self.pending_bytes -= guard.request_bytes

    def cancel_all(self, shutdown: bool = False) -> None:
        for guard in list(self.guards):
            guard.cancel(shutdown)

    # -- the RPCs
    async def Analyse(self, request: pb.AnalyseRequest, context: grpc.aio.ServicerContext) -> pb.AnalyseResponse:
        def work(guard: Guard) -> pb.AnalyseResponse:
            position = _position(request.position)
            time_limit, node_limit = _limits(request.limits)
            exact_moves = None
            if request.HasField("exact_moves"):
                exact_moves = tuple(request.exact_moves.moves)
                try:
                    convert.checked_exact_moves(position, exact_moves)
                except PlisError as exc:
                    raise InvalidRequest(exc) from None
            result = guard.analyse(position, time_limit=time_limit, node_limit=node_limit, exact_moves=exact_moves)
            return pb.AnalyseResponse(result=convert.result_message(result))

        return await self._call(context, work, request)

    async def Hint(self, request: pb.HintRequest, context: grpc.aio.ServicerContext) -> pb.HintResponse:
        def work(guard: Guard) -> pb.HintResponse:
            position = _position(request.position, verb="suggest")
            time_limit, node_limit = _limits(request.limits)
            return convert.hint_message(guard.hint(position, time_limit=time_limit, node_limit=node_limit))

        return await self._call(context, work, request)

    async def AnalysePlay(self, request: pb.AnalysePlayRequest, context: grpc.aio.ServicerContext) -> pb.AnalysePlayResponse:
        def work(guard: Guard) -> pb.AnalysePlayResponse:
            position = _position(request.position, to_play=False)
            try:
                start_of_deal(position)  # its form before `first`, as the library checks them
            except PlisError as exc:
                raise InvalidRequest(exc, "position.") from None
            time_limit, node_limit = _limits(request.limits)
            try:
                check_first(request.first, position)
            except PlisError as exc:
                raise InvalidRequest(exc) from None
            try:
                analysis = analyse_play(
                    position, time_limit=time_limit, node_limit=node_limit, first=request.first,
                    engine=guard.worker_engine(position), solve=guard.analyse,
                )
            except PlisError as exc:  # not a deal + played position
                raise InvalidRequest(exc, "position.") from None
            return convert.play_message(analysis)

        return await self._call(context, work, request)

    async def TrumpTable(self, request: pb.TrumpTableRequest, context: grpc.aio.ServicerContext) -> pb.TrumpTableResponse:
        def work(guard: Guard) -> pb.TrumpTableResponse:
            time_limit, node_limit = _limits(request.limits)
            try:
                table = trump_table(
                    convert.position_to_dict(request.position),
                    time_limit=time_limit,
                    node_limit=node_limit,
                    engine=guard.worker_engine(),
                    solve=guard.analyse,
                    estimate=guard.favourite,
                )
            except PlisError as exc:
                raise InvalidRequest(exc, "position.") from None
            return convert.trumps_message(table)

        return await self._call(context, work, request)

    async def VerifyPuzzle(self, request: pb.VerifyPuzzleRequest, context: grpc.aio.ServicerContext) -> pb.VerifyPuzzleResponse:
        def work(guard: Guard) -> pb.VerifyPuzzleResponse:
            position = _position(request.position)
            time_limit, node_limit = _limits(request.limits)
            try:
                claim = Claim.from_dict(convert.claim_to_dict(request.claim))
                verdict = verify_puzzle(
                    position, claim, time_limit=time_limit, node_limit=node_limit, engine=guard.worker_engine(position),
                    solve=guard.analyse,
                )
            except PlisError as exc:  # the claim's errors name claim.*
                raise InvalidRequest(exc) from None
            return convert.verdict_message(verdict)

        return await self._call(context, work, request)

    async def AnalyseBatch(
        self, request: pb.AnalyseBatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.AnalyseBatchResponse]:
        count = len(request.positions)
        if count > self.config.max_batch:
            message = f"holds {count} positions; this server answers at most {self.config.max_batch} a call"
            status = _error_status(grpc.StatusCode.INVALID_ARGUMENT, "BATCH_TOO_LARGE", "positions", message)
            await _abort(context, grpc.StatusCode.INVALID_ARGUMENT, status)
        try:
            time_limit, node_limit = _limits(request.limits)
        except InvalidRequest as exc:
            status = _error_status(grpc.StatusCode.INVALID_ARGUMENT, exc.error.reason, exc.field, exc.error.message)
            await _abort(context, grpc.StatusCode.INVALID_ARGUMENT, status)
            return

        def item(guard: Guard, index: int) -> pb.AnalyseBatchResponse:
            guard.check()
            try:
                position = load_position(convert.position_to_dict(request.positions[index]))
                result = guard.analyse(position, time_limit=time_limit, node_limit=node_limit)
            except PlisError as exc:  # this position's error; the batch goes on
                return pb.AnalyseBatchResponse(index=index, error=convert.error_message(exc))
            except (Cancelled, DeadlineReached):
                raise
            except Exception as exc:  # a bug, not bad input: this position only
                log.exception("internal error on position %d of a batch", index)
                error = pb.Error(reason="INTERNAL", field="position", message=f"{type(exc).__name__}: {exc}")
                return pb.AnalyseBatchResponse(index=index, error=error)
            return pb.AnalyseBatchResponse(index=index, result=convert.result_message(result))

        guard = await self._admit(context, request)
        loop = asyncio.get_running_loop()
        running: set[asyncio.Future[pb.AnalyseBatchResponse]] = set()
        next_index = 0
        try:
            while next_index < count or running:
                # at most `workers` positions of one batch at a time: other calls get their turn
                while next_index < count and len(running) < self.config.worker_count:
                    future = loop.run_in_executor(self.pool, guard.work, functools.partial(item, index=next_index))
                    future.add_done_callback(_retrieved)  # the batch may end before it does
                    running.add(future)
                    next_index += 1
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                ended: Exception | None = None  # every answer done is sent before the call ends
                while done:
                    for future in done:
                        try:
                            answer = future.result()
                        except (DeadlineReached, Cancelled) as exc:
                            ended = ended or exc
                            continue
                        yield answer
                    done = set()
                    if ended is not None and running:
                        # the other positions running end now too (their searches stop at the
                        # deadline, or at the cancel): those that answer first, or did while
                        # the answers above were sent, are sent before the call ends (within
                        # half the call's time left: its own status must get there first)
                        left = context.time_remaining()
                        done, running = await asyncio.wait(running, timeout=None if left is None else left / 2)
                if isinstance(ended, DeadlineReached):
                    await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed before the batch was done")
                elif isinstance(ended, Cancelled):
                    await _abort_cancelled(context, ended)
        finally:
            guard.cancel()
            self._let_go(guard, running)


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Marks a batch position's outcome as seen: once the batch has ended (its deadline,
    a cancel), the positions still running end with that error, which asyncio would
    otherwise log as "Future exception was never retrieved"."""
    if not future.cancelled():
        future.exception()


# --- the token -------------------------------------------------------------------------------


class TokenInterceptor(grpc.aio.ServerInterceptor):
    """Lets a call through only with `authorization: Bearer <token>` metadata."""

    def __init__(self, token: str) -> None:
        self._expected = token.encode()

    def _allowed(self, metadata: Any) -> bool:
        for key, value in metadata or ():
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else bytes(value)
                scheme, _, token = given.partition(b" ")
                # the scheme's case does not matter (RFC 7235); the token's does
                return scheme.lower() == b"bearer" and hmac.compare_digest(token, self._expected)
        return False

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None or self._allowed(handler_call_details.invocation_metadata):  # type: ignore[attr-defined]
            return handler
        return _denied(handler)


_DENIED = "missing or wrong token: send the metadata authorization: Bearer <token>"


def _denied(handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, _DENIED)

    async def streaming(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, _DENIED)
        yield None  # pragma: no cover - makes this an async generator

    return _handler_like(handler, streaming if handler.response_streaming else unary)


def _handler_like(handler: grpc.RpcMethodHandler, behaviour: Any, request_deserializer: Any = None) -> grpc.RpcMethodHandler:
    """A handler of `handler`'s kind (streaming or not, each way) that runs `behaviour`,
    with `handler`'s serializers (or `request_deserializer` instead of its own)."""
    kinds = {
        (False, False): grpc.unary_unary_rpc_method_handler,
        (True, False): grpc.stream_unary_rpc_method_handler,
        (False, True): grpc.unary_stream_rpc_method_handler,
        (True, True): grpc.stream_stream_rpc_method_handler,
    }
    make: Any = kinds[(bool(handler.request_streaming), bool(handler.response_streaming))]
    return make(  # type: ignore[no-any-return]
        behaviour,
        request_deserializer=request_deserializer or handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )


class RequestDecodeInterceptor(grpc.aio.ServerInterceptor):
    """A request that is not a valid message of its call (corrupt bytes, a string that is
    not UTF-8), to this service, health or reflection, ends the call with
    INVALID_ARGUMENT naming `request`; gRPC itself would answer UNKNOWN and log a
    traceback."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        return handler if handler is None else _decoded(handler)


class _Undecodable:
    """What a request that could not be decoded becomes: its error, for the handler to report
    (a request with a list longer than the server reads is dropped as soon as it is
    decoded, too: calls refused while they send their status would otherwise each hold
    theirs, some 60 MB for 4 MB of empty entries)."""

    def __init__(self, status: status_pb2.Status) -> None:
        self.status = status


def _oversized_status(exc: Oversized) -> status_pb2.Status:
    reason = OVERSIZED_REASONS.get(exc.field.split(".", 1)[0], "INVALID_POSITION")
    message = f"holds {exc.entries:,} entries, more than this server reads ({exc.most})"
    return _error_status(grpc.StatusCode.INVALID_ARGUMENT, reason, exc.field, message)


def _decoded(handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    parse = handler.request_deserializer

    def lenient(data: bytes) -> Any:
        try:
            request = parse(data)  # type: ignore[misc]
        except Exception as exc:  # noqa: BLE001 - protobuf's DecodeError, or a UnicodeDecodeError
            message = f"not a valid message of this call ({type(exc).__name__}: {exc})"
            return _Undecodable(_error_status(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST", "request", message))
        if getattr(getattr(request, "DESCRIPTOR", None), "full_name", "").startswith(f"{pb.DESCRIPTOR.package}."):
            try:
                request_entries(request)
            except Oversized as exc:
                return _Undecodable(_oversized_status(exc))
        return request

    async def refuse(request: _Undecodable, context: grpc.aio.ServicerContext) -> None:
        await _abort(context, grpc.StatusCode.INVALID_ARGUMENT, request.status)

    async def streaming(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        if isinstance(request, _Undecodable):
            await refuse(request, context)
        async for answer in handler.unary_stream(request, context):  # type: ignore[misc]
            yield answer

    async def streaming_written(request: Any, context: grpc.aio.ServicerContext) -> None:
        # a handler that writes its answers (context.write) and returns None, as health's
        # Watch: awaited, not iterated, and so must this wrapper be, for gRPC to let it write
        if isinstance(request, _Undecodable):
            await refuse(request, context)
        await handler.unary_stream(request, context)  # type: ignore[misc]

    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        if isinstance(request, _Undecodable):
            await refuse(request, context)
        return await handler.unary_unary(request, context)  # type: ignore[misc]

    async def checked(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        async for request in requests:
            if isinstance(request, _Undecodable):
                await refuse(request, context)
            yield request

    async def streaming_in(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> Any:
        return await handler.stream_unary(checked(requests, context), context)  # type: ignore[misc]

    async def streaming_both(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        async for answer in handler.stream_stream(checked(requests, context), context):  # type: ignore[misc]
            yield answer

    async def streaming_both_written(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> None:
        await handler.stream_stream(checked(requests, context), context)  # type: ignore[misc]

    behaviours = {(False, False): unary, (False, True): streaming, (True, False): streaming_in, (True, True): streaming_both}
    kind = (bool(handler.request_streaming), bool(handler.response_streaming))
    behaviour = behaviours[kind]
    if kind[1] and inspect.iscoroutinefunction(handler.stream_stream if kind[0] else handler.unary_stream):
        behaviour = streaming_both_written if kind[0] else streaming_written
    return _handler_like(handler, behaviour, lenient)


# --- starting and stopping ------------------------------------------------------------------------


def check_tls_files(cert: str | None, key: str | None) -> None:
    """A ValueError naming the file unless `cert` and `key` are a PEM certificate and its
    unencrypted key, or both None (gRPC would only say that it failed to bind the
    address, and would not ask for a passphrase)."""
    if cert is None and key is None:
        return
    if cert is None or key is None:
        raise ValueError("TLS needs both a certificate and a key file (--tls-cert and --tls-key)")
    for flag, path in (("--tls-cert", cert), ("--tls-key", key)):
        try:
            with open(path, "rb"):
                pass
        except OSError as exc:
            raise ValueError(f"{flag} {path}: {exc.strerror}") from None
    asked = []

    def no_passphrase() -> bytes:  # (else OpenSSL would prompt on the terminal)
        asked.append(True)
        return b""

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key, password=no_passphrase)
    except ssl.SSLError as exc:
        if asked:
            raise ValueError(f"--tls-key {key}: the key is encrypted; give it without a passphrase") from None
        why = exc.reason or "unreadable"
        raise ValueError(f"--tls-cert {cert} and --tls-key {key}: not a PEM certificate and its key ({why})") from None


class BoundedHealthServicer(health.aio.HealthServicer):
    """grpc.health.v1 as gRPC's own servicer serves it, but at most `most_watches` Watch
    streams open at once: a client could otherwise open them until the server's memory
    ran out (Check, which returns at once, is not bounded)."""

    def __init__(self, most_watches: int = MOST_WATCHES) -> None:
        super().__init__()
        self.most_watches = most_watches
        self.watching = 0

    async def Watch(self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext) -> None:  # noqa: N802 - gRPC's name
        if self.watching >= self.most_watches:
            message = f"{self.most_watches} health watches open already, the most this server takes (Check does not count)"
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message)
        self.watching += 1
        try:
            await super().Watch(request, context)
        finally:
            self.watching -= 1


class PlisServer:
    """A running server: `await PlisServer.start(config)`, `.port`, `await .stop()`."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.port = 0
        self.pool = ThreadPoolExecutor(max_workers=config.worker_count, thread_name_prefix="plis-solve")
        self.servicer = SolverServicer(config, self.pool)
        self.health = BoundedHealthServicer()
        interceptors: list[grpc.aio.ServerInterceptor] = [TokenInterceptor(config.token)] if config.token else []
        interceptors.append(RequestDecodeInterceptor())
        self.server = grpc.aio.server(interceptors=interceptors, options=[("grpc.so_reuseport", int(config.shares_port))])

    @classmethod
    async def start(cls, config: ServerConfig) -> PlisServer:
        check_tls_files(config.tls_cert, config.tls_key)
        self = cls(config)
        pb_grpc.add_SolverServicer_to_server(self.servicer, self.server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        names = (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME)
        reflection.enable_server_reflection(names, self.server)
        if config.address.startswith("unix:"):
            probe_socket_file(config.address)
        elif not config.shares_port:
            host, _, port = config.address.rpartition(":")
            probe_port(host, int(port))
        try:
            if config.tls_cert and config.tls_key:
                with open(config.tls_key, "rb") as key, open(config.tls_cert, "rb") as cert:
                    credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
                self.port = self.server.add_secure_port(config.address, credentials)
            else:
                self.port = self.server.add_insecure_port(config.address)
        except RuntimeError:  # gRPC's "Failed to bind": its reasons go to its own log
            self.port = 0
        if not self.port:
            why = "the port is in use, or the host is not this machine's"
            if config.address.startswith("unix:"):
                why = "no such directory, or one this process may not write in"
            raise OSError(f"cannot listen on {config.address}: {why}")
        await self.server.start()
        for service in ("", SERVICE_NAME):
            await self.health.set(service, health_pb2.HealthCheckResponse.SERVING)
        return self

    async def stop(self, grace: float | None = None, hurry: asyncio.Event | None = None) -> None:
        """NOT_SERVING, then `grace` seconds for the calls in flight (cut short once
        `hurry` is set: a second Ctrl-C); then the searches of those still running stop,
        and they end with UNAVAILABLE (before gRPC would cancel them: it logs each such
        call as an error)."""
        grace = self.config.grace if grace is None else grace
        await self.health.enter_graceful_shutdown()
        stopping = asyncio.ensure_future(self.server.stop(grace))  # no new calls from now
        loop = asyncio.get_running_loop()
        own_end = loop.time() + max(0.0, grace - SHUTDOWN_MARGIN)
        while self.servicer.guards and loop.time() < own_end and not (hurry is not None and hurry.is_set()):
            await asyncio.sleep(0.02)
        self.servicer.cancel_all(shutdown=True)
        await stopping
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def wait(self) -> None:
        await self.server.wait_for_termination()


def _quiet_poller(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler, but for gRPC's aio poller finding its file
    closed as a server stops, which happens when a process has used gRPC from more
    than one event loop (grpc/grpc#25364): harmless, and it printed a traceback."""
    error = context.get("exception")
    if isinstance(error, OSError) and error.errno == errno.EBADF:
        frames = traceback.extract_tb(error.__traceback__)
        if any("completion_queue" in frame.filename or "PollerCompletionQueue" in frame.name for frame in frames):
            return
    loop.default_exception_handler(context)


class BackgroundServer:
    """A server on its own event loop in a daemon thread (tests, benchmarks, scripts).

    with BackgroundServer(ServerConfig(address="localhost:0")) as server:
        Client(f"localhost:{server.port}")...
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.loop = asyncio.new_event_loop()
        self.loop.set_exception_handler(_quiet_poller)  # each server its own loop: gRPC's poller may complain
        self.thread = threading.Thread(target=self.loop.run_forever, name="plis-server", daemon=True)
        self.server: PlisServer | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.port

    @property
    def address(self) -> str:
        host = self.config.address.rsplit(":", 1)[0]
        return f"{host}:{self.port}"

    def start(self) -> BackgroundServer:
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(PlisServer.start(self.config), self.loop).result()
        return self

    def stop(self, grace: float | None = 0.5) -> None:
        if self.server is not None:
            asyncio.run_coroutine_threadsafe(self.server.stop(grace), self.loop).result()
            self.server = None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if not self.thread.is_alive():
            self.loop.close()

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}  # each shuts a server down gracefully; a second, at once
# what `serve_processes` sends its processes on a second signal (they ignore the group's
# own signals once shutting down: the parent's SIGTERM follows a terminal's Ctrl-C)
HURRY_SIGNAL = signal.SIGUSR1


async def serve(config: ServerConfig, announce: bool = True, ready: Any = None, parent: int | None = None) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully.

    `announce`: say on stderr where it serves; `ready`: a queue told the port once
    serving, and `parent`: the process that, if it ends, ends this one too (the
    processes of `serve_processes`).
    """
    stop = asyncio.Event()
    hurry = asyncio.Event()  # a second signal: the calls in flight stop now, not after the grace
    received: list[signal.Signals] = []  # which signal stopped it, for the log

    def stopped_by(sig: signal.Signals) -> None:
        received.append(sig)
        # (one of `serve_processes` is hurried by its parent only: the parent's SIGTERM
        # follows a terminal's Ctrl-C to the whole group)
        if stop.is_set() and parent is None and not hurry.is_set():
            hurry.set()
            if announce:
                print(f"plis: {sig.name} again: stopping the calls in flight now", file=sys.stderr, flush=True)
        stop.set()

    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:  # before the start: a Ctrl-C meanwhile stops it quietly
        try:
            loop.add_signal_handler(sig, stopped_by, sig)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not the main thread, Windows
            pass
    if parent is not None:  # one of `serve_processes`, started with them blocked
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        loop.add_signal_handler(HURRY_SIGNAL, hurry.set)  # the parent's word of a second Ctrl-C
    running = await PlisServer.start(config)
    unix = config.address.startswith("unix:")  # a socket file has no port
    where = config.address if unix else f"{config.address.rsplit(':', 1)[0]}:{running.port}"
    if announce:
        print(f"plis: serving {SERVICE_NAME} on {where} ({describe(config)})", file=sys.stderr, flush=True)
    if ready is not None:
        ready.put(running.port)
    if parent is not None:
        watch = asyncio.ensure_future(_watch_parent(parent, stop))
    await stop.wait()
    if parent is not None:
        watch.cancel()
        # the parent's SIGTERM follows a group's Ctrl-C: it must not cut short the
        # shutdown under way (asyncio would leave the signals at their defaults, which kill)
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
            signal.signal(sig, signal.SIG_IGN)
    if announce:
        cause = f"{received[0].name}: " if received else ""
        print(f"plis: {cause}shutting down (grace {config.grace:g} s)", file=sys.stderr, flush=True)
    await running.stop(hurry=hurry)


async def _watch_parent(parent: int, stop: asyncio.Event) -> None:
    """Sets `stop` once `parent` has ended (this process is then another's child): a
    server process must not go on serving, orphaned, after its parent was killed."""
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_WATCH_SECONDS)
    stop.set()


PARENT_WATCH_SECONDS = 0.5


def describe(config: ServerConfig) -> str:
    """The settings a server announces; of all its processes with `--processes`."""
    security = ("TLS" if config.tls_cert else "no TLS") + (", token required" if config.token else ", no token")
    shares = [config.per_process(config.address, i) for i in range(config.processes)]
    workers = [share.worker_count for share in shares]
    if len(shares) == 1:
        each = counted(workers[0], "worker")
    elif len(set(workers)) == 1:
        each = f"{len(shares)} processes of {counted(workers[0], 'worker')}"
    else:  # what does not divide evenly goes to the first
        each = f"{len(shares)} processes of {' or '.join(map(str, sorted(set(workers), reverse=True)))} workers"
    tables = f"{shares[0].tt_megabytes} MB table each (and {shares[0].besigue_tt_megabytes} MB for Bésigue)"
    return f"{security}; {each}, {tables}"


def _process_main(config: ServerConfig, ready: Any, parent: int) -> None:
    """One of the processes of `serve_processes` (started by multiprocessing's spawn)."""
    try:
        asyncio.run(serve(config, announce=False, ready=ready, parent=parent))
    except KeyboardInterrupt:  # pragma: no cover - ^C before the loop took the signal
        pass
    except (OSError, ValueError, RuntimeError) as exc:  # as serve_command says it, once (the parent stops)
        print(f"plis serve: {exc}", file=sys.stderr, flush=True)
        sys.exit(2)


# a failed bind's reasons, in words that name the setting at fault
BIND_ERRORS = {errno.EADDRINUSE: "the port is in use", errno.EADDRNOTAVAIL: "the host is not this machine's"}


def probe_port(host: str, port: int) -> tuple[int, int]:
    """Bind `host`:`port` for a moment without SO_REUSEPORT, at each of its addresses
    (port 0: the first address, any free port), and give the first address's family and
    the port: a port in use or a host not this machine's is said here in plain words,
    before gRPC would (its own log line first)."""
    address = host.strip("[]")
    try:
        found = socket.getaddrinfo(address or None, port, type=socket.SOCK_STREAM)
        for family, kind, proto, _, sockaddr in found[:1] if port == 0 else found:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (closed connections do not count)
                probe.bind(sockaddr)
                port = port or int(probe.getsockname()[1])
    except OSError as exc:
        reason = BIND_ERRORS.get(exc.errno or 0, exc.strerror or str(exc))
        raise OSError(f"cannot listen on {host}:{port}: {reason}") from None
    return found[0][0], port


def probe_socket_file(address: str) -> None:
    """Refuse a `unix:` socket file that another server is serving on: gRPC would
    remove it and bind a new one, the other server left running but unreachable (and,
    once this one stops, the file gone).  A socket file no server answers on (a server
    that was killed) is left for gRPC to replace; a path that is no socket file (a file,
    a directory) is refused, in those words."""
    path = address[len("unix:") :]
    if path.startswith("//"):  # unix:///abs/path
        path = path[2:]
    try:
        mode = os.stat(path).st_mode
    except OSError:  # none there: gRPC makes it (or fails, for its directory)
        return
    if not stat.S_ISSOCK(mode):
        # gRPC would fail with "Address already in use", which was reported as a directory
        # missing or not writable
        what = "a directory" if stat.S_ISDIR(mode) else "a file that is not a socket"
        raise ValueError(f"cannot listen on {address}: {path} is {what}; give the path of a socket file, or of none")
    with contextlib.suppress(OSError):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(1.0)
            probe.connect(path)
        raise ValueError(f"cannot listen on {address}: another server is serving on that socket file")


@contextlib.contextmanager
def _reserved_port(host: str, port: int) -> Iterator[int]:
    """Hold `host`:`port` (port 0: a free one) with SO_REUSEPORT, so that the server
    processes can all bind it and nobody else can take it meanwhile.  The port is
    first bound without SO_REUSEPORT, so that one a server holds is refused, even one
    whose processes would share it (as a single server's bind would be)."""
    address = host.strip("[]")
    family, port = probe_port(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((address, port))
        yield port
    finally:
        sock.close()


def serve_processes(config: ServerConfig) -> int:
    """Serve from `config.processes` processes sharing one port (SO_REUSEPORT, Linux).

    Each process is a whole server (health, reflection, its share of the workers and
    tables); the kernel spreads the connections among them, so calls whose Python
    work outweighs their search (small positions) still use every core.
    """
    if not hasattr(socket, "SO_REUSEPORT"):
        raise OSError("--processes needs SO_REUSEPORT (Linux)")
    if config.address.startswith("unix:"):
        raise ValueError("--processes needs a HOST:PORT address: processes cannot share a unix socket")
    # bad TLS files end the server here, before any process starts (each checks them again)
    check_tls_files(config.tls_cert, config.tls_key)
    host, _, port_text = config.address.rpartition(":")
    context = multiprocessing.get_context("spawn")
    with _reserved_port(host, int(port_text)) as port:
        ready = context.Queue()
        processes = [
            context.Process(
                target=_process_main, args=(config.per_process(f"{host}:{port}", i), ready, os.getpid()), name=f"plis-serve-{i}"
            )
            for i in range(config.processes)
        ]
        # a plain flag: a signal handler must not take a lock (threading.Event's could
        # be held by the thread it interrupts, and wait for ever)
        signals: list[int] = []
        for sig in STOP_SIGNALS:
            signal.signal(sig, lambda number, _frame: signals.append(number))
        launched = []  # the processes started: a signal stops the starting
        for process in processes:
            if signals:
                break
            # a process starts with these signals blocked (a mask is inherited), so that a
            # terminal's Ctrl-C, which reaches the whole group, waits until it can stop
            # the server quietly, not interrupt its imports; `serve` unblocks them
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
            try:
                process.start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            launched.append(process)
        processes = launched
        started = 0
        while started < config.processes and not signals and all(p.is_alive() for p in processes):
            with contextlib.suppress(queue.Empty):
                ready.get(timeout=0.2)
                started += 1
        serving = started == config.processes
        if serving:
            print(
                f"plis: serving {SERVICE_NAME} on {host}:{port} ({describe(config)})",
                file=sys.stderr,
                flush=True,
            )
        while not signals:
            if not all(p.is_alive() for p in processes):
                if serving:
                    print("plis: a server process ended; stopping the others", file=sys.stderr, flush=True)
                break
            time.sleep(0.2)
        if serving or signals:
            cause = f"{signal.Signals(signals[0]).name}: " if signals else ""
            print(f"plis: {cause}shutting down (grace {config.grace:g} s)", file=sys.stderr, flush=True)
        for process in processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: each shuts down gracefully
        handled = len(signals)
        deadline = time.monotonic() + config.grace + 10
        while any(p.is_alive() for p in processes) and time.monotonic() < deadline:
            if len(signals) > handled:  # a second signal: the calls in flight stop now
                handled = len(signals)
                print(f"plis: {signal.Signals(signals[-1]).name} again: stopping the calls in flight now",
                      file=sys.stderr, flush=True)  # fmt: skip
                for process in processes:
                    if process.is_alive() and process.pid is not None:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(process.pid, HURRY_SIGNAL)
            time.sleep(0.05)
        for process in processes:
            if process.is_alive():
                process.kill()
            process.join()
    if not serving and not signals:
        return 2  # a process could not start (it said why)
    return 0 if all(p.exitcode == 0 for p in processes) else 1


def serve_command(args: argparse.Namespace) -> int:
    """`plis serve`."""
    logging.basicConfig(level=getattr(logging, str(args.log_level).upper(), logging.WARNING))
    try:
        config = config_from_args(args)
    except (OSError, ValueError) as exc:
        print(f"plis serve: {exc}", file=sys.stderr)
        return 2
    if not is_loopback(config.address) and not (config.tls_cert and config.token):
        print(
            f"plis serve: warning: listening on {config.address} without TLS and a token; anyone who can reach it may use it",
            file=sys.stderr,
        )
    try:
        if config.processes > 1:
            return serve_processes(config)
        asyncio.run(serve(config))
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"plis serve: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a Ctrl-C before the server took its signals
        print("plis serve: interrupted", file=sys.stderr)
        return 130
    return 0


def main(argv: list[str] | None = None) -> int:
    from solver.cli import refuse_repeated_options

    parser = argparse.ArgumentParser(
        prog="python -m service.server", description="Run the plis gRPC service.", allow_abbrev=False
    )
    add_serve_arguments(parser)
    args = parser.parse_args(argv)
    refuse_repeated_options(parser, sys.argv[1:] if argv is None else argv)
    return serve_command(args)


if __name__ == "__main__":
    sys.exit(main())


__all__ = [
    "SERVICE_NAME",
    "BackgroundServer",
    "Guard",
    "PlisServer",
    "ServerConfig",
    "SolverServicer",
    "serve",
]
