"""Python clients of the plis service, synchronous and asyncio.

    from service.client import Client

    with Client("localhost:50051") as client:
        result = client.analyse(position)      # a solver.Result, as solver.analyse gives
        hint = client.hint(position)           # a solver.Hint

Both clients take positions as the library does (a FORMAT.md dict, its JSON text or
a `solver.Position`) and return the library's own result classes: `Result`, `Hint`,
`PlayAnalysis`, `TrumpTable`, `Verdict`.  Bad input raises the library's error
(`DuplicateCardError`, `IllegalMoveError`...; `.field` is the path in the request,
e.g. `position.hands[1]`, `.reason` the ErrorInfo reason); any other failure raises
the `grpc.RpcError` (DEADLINE_EXCEEDED, UNAUTHENTICATED...).  A call that finds the
server UNAVAILABLE is retried `retries` times with exponential backoff, within its
timeout; not when the TLS handshake failed (a certificate or name that does not
match fails again the same way).
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import grpc
from google.rpc import error_details_pb2, status_pb2

from solver.analysis import Hint, Result, require_a_move
from solver.besigue import BesiguePosition
from solver.cards import Card
from solver.errors import OptionError, PlisError, above_zero
from solver.errors import shown as quoted
from solver.features import Claim, PlayAnalysis, TrumpTable, Verdict, check_first, start_of_deal
from solver.position import Position

from . import convert
from .config import DEFAULT_ADDRESS, TOKEN_CHARACTERS
from .plis.v1 import plis_pb2 as pb
from .plis.v1 import plis_pb2_grpc as pb_grpc

PositionLike = Position | BesiguePosition | Mapping[str, Any] | str | bytes
ClaimLike = Claim | Mapping[str, Any]
BatchItem = tuple[int, Result | PlisError]

DEFAULT_TIMEOUT = 60.0  # seconds, for each call unless given
STATUS_DETAILS_KEY = "grpc-status-details-bin"
CHANNEL_OPTIONS = [
    # a client its own connection (gRPC shares one among a process's channels by
    # default), so that the connections of several clients spread over a server's processes
    ("grpc.use_local_subchannel_pool", 1),
    # reconnect soon after the server comes back, so that retries find it
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 2000),
]

T = TypeVar("T")


def library_error(error: grpc.RpcError) -> PlisError | None:
    """The library's exception for an INVALID_ARGUMENT with an ErrorInfo, else None."""
    if not isinstance(error, grpc.Call) and not hasattr(error, "trailing_metadata"):
        return None
    if error.code() != grpc.StatusCode.INVALID_ARGUMENT:  # type: ignore[attr-defined]
        return None
    for key, value in error.trailing_metadata() or ():  # type: ignore[attr-defined]
        if key != STATUS_DETAILS_KEY:
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                return convert.error_from(
                    {
                        "reason": info.reason,
                        "field": info.metadata.get("field", ""),
                        "message": status.message.split(": ", 1)[-1],
                        "index": info.metadata.get("index", ""),
                    }
                )
    return None


def check_timeout(timeout: Any) -> float | None:
    """A call's timeout in seconds: above 0, or None (no deadline). One of a year or
    more (infinity too) means none: gRPC cannot carry it."""
    if timeout is None:
        return None
    above_zero("timeout", timeout, "seconds", " (or None: no deadline)")
    return None if timeout >= convert.NO_LIMIT_SECONDS else float(timeout)


# How gRPC's details of an UNAVAILABLE call (lower-cased) tell a TLS handshake failure
TLS_FAILURES = ("handshake failed", "verification check failed", "certificate_verify_failed")


class _Base:
    """What both clients share: the channel's settings, requests and answers."""

    def __init__(
        self,
        address: str,
        token: str | None,
        tls: bool,
        root_certificates: bytes | str | Path | None,
        tls_server_name: str | None,
        timeout: float | None,
        retries: int,
        backoff: float,
    ) -> None:
        if not isinstance(address, str) or not address.strip():
            # else an AttributeError from gRPC ("'int' object has no attribute 'encode'"), or
            # for "", each call's UNKNOWN "Failed to create channel"
            raise OptionError("address", f"must be the server's address, HOST:PORT or unix:PATH (str), got {quoted(address)}")
        if not isinstance(tls, bool):
            raise OptionError("tls", f"must be True or False, got {quoted(tls)}")
        if root_certificates is not None and not isinstance(root_certificates, (bytes, str, Path)):
            kind = type(root_certificates).__name__
            raise OptionError("root_certificates", f"must be PEM bytes or the path of a PEM file (str or Path), got {kind}")
        self.address = address
        self.timeout = check_timeout(timeout)
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise OptionError("retries", f"must be a whole number of retries, 0 or more; got {retries!r}")
        if isinstance(backoff, bool) or not isinstance(backoff, (int, float)) or not 0 <= backoff < math.inf:
            raise OptionError("backoff", f"must be a number of seconds, 0 or more; got {backoff!r}")
        self.retries = retries
        self.backoff = backoff
        if token is not None and (not isinstance(token, str) or (token and not TOKEN_CHARACTERS.fullmatch(token))):
            # as the server reads its token: gRPC metadata carries nothing else (a newline
            # failed each call with INTERNAL "Invalid metadata"; bytes were sent as "b'...'")
            shown = type(token).__name__ if not isinstance(token, str) else "blanks or other characters"
            raise OptionError("token", f"must be one word of visible ASCII characters (str), got {shown}")
        self.metadata: tuple[tuple[str, str], ...] = (("authorization", f"Bearer {token}"),) if token else ()
        self.options: list[tuple[str, int | str]] = list(CHANNEL_OPTIONS)
        if tls_server_name:
            self.options.append(("grpc.ssl_target_name_override", tls_server_name))
        self.credentials: grpc.ChannelCredentials | None = None
        if tls or root_certificates is not None:
            roots = root_certificates
            if isinstance(roots, (str, Path)):
                roots = Path(roots).read_bytes()
            self.credentials = grpc.ssl_channel_credentials(root_certificates=roots)

    def _timeout(self, timeout: float | None) -> float | None:
        return check_timeout(self.timeout if timeout is None else timeout)

    @staticmethod
    def _limits(time_limit: float | None, node_limit: int | None) -> pb.SearchLimits:
        return convert.limits_message(time_limit, node_limit)

    @staticmethod
    def _checked(
        position: PositionLike, for_trumps: bool = False, objective: str | None = None, to_play: str | None = None
    ) -> tuple[pb.Position, Any]:
        """The message of `position` (for `objective`, if given) and the position,
        checked as the library checks it (convert.checked_position); with `to_play` (the
        verb of what is asked: "analyse", "suggest"), a deal that is over is refused as
        the library and the server refuse it.  An error names the field's path in the
        request, or `objective`, as the library does, when that argument is wrong."""
        try:
            message, loaded = convert.checked_position(position, for_trumps, objective)
            if to_play is not None:
                require_a_move(loaded, to_play)
            return message, loaded
        except PlisError as exc:
            if objective is not None and exc.field == "objective":
                raise
            raise convert.in_request(exc, "position.") from None

    @classmethod
    def _position(
        cls, position: PositionLike, for_trumps: bool = False, objective: str | None = None, to_play: str | None = None
    ) -> pb.Position:
        return cls._checked(position, for_trumps, objective, to_play)[0]

    @classmethod
    def _analyse_request(
        cls,
        position: PositionLike,
        limits: pb.SearchLimits,
        exact_moves: Iterable[str | Card] | None,
        objective: str | None = None,
    ) -> pb.AnalyseRequest:
        message, loaded = cls._checked(position, objective=objective, to_play="analyse")
        request = pb.AnalyseRequest(position=message, limits=limits)
        if exact_moves is not None:
            listed = isinstance(exact_moves, Iterable) and not isinstance(exact_moves, str | bytes)
            moves: Any = list(exact_moves) if listed else exact_moves
            convert.checked_exact_moves(loaded, moves)
            request.exact_moves.moves.extend(str(move) for move in moves)  # a Card as "HJ"
            request.exact_moves.SetInParent()  # set even when it names no move
        return request

    @classmethod
    def _play_request(
        cls, position: PositionLike, first: int, limits: pb.SearchLimits, objective: str | None = None
    ) -> pb.AnalysePlayRequest:
        message, loaded = cls._checked(position, objective=objective)
        try:
            start_of_deal(loaded)  # its form before `first`, as the library and the server check them
        except PlisError as exc:
            raise convert.in_request(exc, "position.") from None
        check_first(first, loaded)
        return pb.AnalysePlayRequest(position=message, limits=limits, first=first)

    @staticmethod
    def _batch_request(
        positions: Iterable[PositionLike], limits: pb.SearchLimits, objective: str | None = None
    ) -> tuple[pb.AnalyseBatchRequest, list[int], list[BatchItem]]:
        """The request of the positions the library accepts, the batch index of each
        position sent, and the answers of the others (their errors, not sent)."""
        messages, sent, refused = convert.checked_batch(positions, objective)
        return pb.AnalyseBatchRequest(positions=messages, limits=limits), sent, list(refused)

    def _delays(self, timeout: float | None) -> Iterator[tuple[float | None, Callable[[], float]]]:
        """(this attempt's timeout, the wait before the next: a function, asked when the
        attempt failed) for each attempt.  No wait after the last attempt, and none past
        the call's timeout."""
        end = time.monotonic() + timeout if timeout is not None else None
        for attempt in range(self.retries + 1):
            left = end - time.monotonic() if end is not None else None
            if left is not None and left <= 0:
                if attempt > 0:
                    return
                left = 1e-9  # out of time already: one attempt, which gRPC ends with DEADLINE_EXCEEDED

            def wait(pause: float = self.backoff * (2**attempt), last: bool = attempt == self.retries) -> float:
                if last:
                    return 0.0
                return pause if end is None else max(0.0, min(pause, end - time.monotonic()))

            yield left, wait

    @staticmethod
    def _retryable(error: grpc.RpcError, answered: bool = False) -> bool:
        if answered or error.code() != grpc.StatusCode.UNAVAILABLE:  # type: ignore[attr-defined]
            return False
        # gRPC reports a refused certificate as UNAVAILABLE too; only its text tells
        details = (error.details() or "").lower()  # type: ignore[attr-defined]
        return not any(sign in details for sign in TLS_FAILURES)

    @staticmethod
    def _batch_item(message: pb.AnalyseBatchResponse, sent: list[int]) -> BatchItem:
        index = sent[message.index]  # the position's index in the caller's batch
        if message.WhichOneof("outcome") == "error":
            return index, convert.error_from(message.error)
        return index, convert.result_from(message.result)


class RetriedError(grpc.RpcError):
    """The failure of a call retried on UNAVAILABLE, whose attempts failed for other
    reasons: the last attempt's code, and details that name the first reason too (a
    server shutting down, then "failed to connect" on the retries, said only the
    latter).  A `grpc.RpcError`, like the errors it stands for (`errors`)."""

    def __init__(self, errors: list[grpc.RpcError]) -> None:
        super().__init__()
        self.errors = errors

    def code(self) -> grpc.StatusCode:
        return self.errors[-1].code()  # type: ignore[attr-defined,no-any-return]

    def details(self) -> str:
        first, last = (str(e.details() or "") for e in (self.errors[0], self.errors[-1]))  # type: ignore[attr-defined]
        return f"{last} (after {len(self.errors)} attempts; the first: {first})"

    def __str__(self) -> str:
        return f"{self.code().name}: {self.details()}"

    def __getattr__(self, name: str) -> Any:  # the rest of a grpc.Call's (trailing_metadata...): the last's
        if name == "errors":  # not set yet
            raise AttributeError(name)
        return getattr(self.errors[-1], name)


# the address gRPC last tried, in its "failed to connect" details: "localhost" is tried
# as ipv4:127.0.0.1:PORT and ipv6:[::1]:PORT in turn, the same failure either way
_TRIED_ADDRESS = re.compile(r"\bipv[46]:\S+?:\d+: ")


def _failed(errors: list[grpc.RpcError]) -> grpc.RpcError:
    """What a call retried on UNAVAILABLE raises at the end: its last error, or where
    the attempts failed for other reasons, a RetriedError that names the first too."""
    told = {_TRIED_ADDRESS.sub("", str(e.details() or "")) for e in errors}  # type: ignore[attr-defined]
    return errors[-1] if len(told) == 1 else RetriedError(errors)


class Client(_Base):
    """A synchronous client.  Use it in a `with` block, or call `close()`.

    `token`: sent as `authorization: Bearer <token>`.  `tls=True` or
    `root_certificates` (PEM bytes or a file): a TLS channel (`tls_server_name`
    overrides the name checked in the certificate).  `timeout`: seconds for each
    call unless the call gives its own (None: no deadline).  A call's own `timeout=`
    left out or None takes the client's; `math.inf` (or a year or more) is no deadline
    for that call.  `retries`: attempts after the first when the server is
    UNAVAILABLE, waiting `backoff`, 2 x `backoff`... seconds in between.
    """

    def __init__(
        self,
        address: str = DEFAULT_ADDRESS,
        *,
        token: str | None = None,
        tls: bool = False,
        root_certificates: bytes | str | Path | None = None,
        tls_server_name: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        retries: int = 3,
        backoff: float = 0.2,
    ) -> None:
        super().__init__(address, token, tls, root_certificates, tls_server_name, timeout, retries, backoff)
        if self.credentials is not None:
            self.channel = grpc.secure_channel(address, self.credentials, options=self.options)
        else:
            self.channel = grpc.insecure_channel(address, options=self.options)
        self.stub = pb_grpc.SolverStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _unary(self, method: Callable[..., Any], request: Any, timeout: float | None) -> Any:
        failures: list[grpc.RpcError] = []
        for left, wait in self._delays(self._timeout(timeout)):
            try:
                return method(request, timeout=left, metadata=self.metadata)
            except grpc.RpcError as exc:
                error = library_error(exc)
                if error is not None:
                    raise error from None
                if not self._retryable(exc):
                    raise _failed([*failures, exc]) from None
                failures.append(exc)
                time.sleep(wait())
        assert failures
        raise _failed(failures)

    def analyse(
        self,
        position: PositionLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
        exact_moves: Iterable[str | Card] | None = None,
    ) -> Result:
        """Like `solver.analyse`: every legal move with its value (with `exact_moves`,
        only the best moves' and these)."""
        request = self._analyse_request(position, self._limits(time_limit, node_limit), exact_moves, objective)
        return convert.result_from(self._unary(self.stub.Analyse, request, timeout).result)

    def hint(
        self,
        position: PositionLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> Hint:
        """Like `solver.hint`: the best move(s) and the value."""
        limits = self._limits(time_limit, node_limit)
        request = pb.HintRequest(position=self._position(position, objective=objective, to_play="suggest"), limits=limits)
        return convert.hint_from(self._unary(self.stub.Hint, request, timeout))

    def analyse_play(
        self,
        position: PositionLike,
        *,
        objective: str | None = None,
        first: int = 0,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> PlayAnalysis:
        """Like `solver.analyse_play`, for a position given as deal + played."""
        request = self._play_request(position, first, self._limits(time_limit, node_limit), objective)
        return convert.play_from(self._unary(self.stub.AnalysePlay, request, timeout))

    def trump_table(
        self,
        deal: PositionLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> TrumpTable:
        """Like `solver.trump_table`, for a deal before play."""
        limits = self._limits(time_limit, node_limit)
        request = pb.TrumpTableRequest(position=self._position(deal, True, objective), limits=limits)
        return convert.trumps_from(self._unary(self.stub.TrumpTable, request, timeout))

    def verify_puzzle(
        self,
        position: PositionLike,
        claim: ClaimLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> Verdict:
        """Like `solver.verify_puzzle`: does the claim hold."""
        request = pb.VerifyPuzzleRequest(
            position=self._position(position, objective=objective, to_play="analyse"),
            claim=convert.claim_message(claim),
            limits=self._limits(time_limit, node_limit),
        )
        return convert.verdict_from(self._unary(self.stub.VerifyPuzzle, request, timeout))

    def analyse_batch(
        self,
        positions: Iterable[PositionLike],
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> Iterator[BatchItem]:
        """(index, Result or the position's error) for each position, as each is solved."""
        request, sent, refused = self._batch_request(positions, self._limits(time_limit, node_limit), objective)
        yield from refused
        if not sent:
            return
        failures: list[grpc.RpcError] = []
        for left, wait in self._delays(self._timeout(timeout)):
            answered = False
            try:
                for message in self.stub.AnalyseBatch(request, timeout=left, metadata=self.metadata):
                    answered = True
                    yield self._batch_item(message, sent)
                return
            except grpc.RpcError as exc:
                error = library_error(exc)
                if error is not None:
                    raise error from None
                if not self._retryable(exc, answered):
                    raise _failed([*failures, exc]) from None
                failures.append(exc)
                time.sleep(wait())
        if failures:
            raise _failed(failures)


class AsyncClient(_Base):
    """The asyncio client: the same methods as `Client`, to be awaited.

    async with AsyncClient("localhost:50051") as client:
        result = await client.analyse(position)
        async for index, answer in client.analyse_batch(positions): ...
    """

    def __init__(
        self,
        address: str = DEFAULT_ADDRESS,
        *,
        token: str | None = None,
        tls: bool = False,
        root_certificates: bytes | str | Path | None = None,
        tls_server_name: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        retries: int = 3,
        backoff: float = 0.2,
    ) -> None:
        super().__init__(address, token, tls, root_certificates, tls_server_name, timeout, retries, backoff)
        if self.credentials is not None:
            self.channel = grpc.aio.secure_channel(address, self.credentials, options=self.options)
        else:
            self.channel = grpc.aio.insecure_channel(address, options=self.options)
        self.stub = pb_grpc.SolverStub(self.channel)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _unary(self, method: Callable[..., Any], request: Any, timeout: float | None) -> Any:
        failures: list[grpc.RpcError] = []
        for left, wait in self._delays(self._timeout(timeout)):
            try:
                return await method(request, timeout=left, metadata=self.metadata)
            except grpc.RpcError as exc:
                error = library_error(exc)
                if error is not None:
                    raise error from None
                if not self._retryable(exc):
                    raise _failed([*failures, exc]) from None
                failures.append(exc)
                await asyncio.sleep(wait())
        assert failures
        raise _failed(failures)

    async def analyse(
        self,
        position: PositionLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
        exact_moves: Iterable[str | Card] | None = None,
    ) -> Result:
        request = self._analyse_request(position, self._limits(time_limit, node_limit), exact_moves, objective)
        return convert.result_from((await self._unary(self.stub.Analyse, request, timeout)).result)

    async def hint(
        self,
        position: PositionLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> Hint:
        limits = self._limits(time_limit, node_limit)
        request = pb.HintRequest(position=self._position(position, objective=objective, to_play="suggest"), limits=limits)
        return convert.hint_from(await self._unary(self.stub.Hint, request, timeout))

    async def analyse_play(
        self,
        position: PositionLike,
        *,
        objective: str | None = None,
        first: int = 0,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> PlayAnalysis:
        request = self._play_request(position, first, self._limits(time_limit, node_limit), objective)
        return convert.play_from(await self._unary(self.stub.AnalysePlay, request, timeout))

    async def trump_table(
        self,
        deal: PositionLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> TrumpTable:
        limits = self._limits(time_limit, node_limit)
        request = pb.TrumpTableRequest(position=self._position(deal, True, objective), limits=limits)
        return convert.trumps_from(await self._unary(self.stub.TrumpTable, request, timeout))

    async def verify_puzzle(
        self,
        position: PositionLike,
        claim: ClaimLike,
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> Verdict:
        request = pb.VerifyPuzzleRequest(
            position=self._position(position, objective=objective, to_play="analyse"),
            claim=convert.claim_message(claim),
            limits=self._limits(time_limit, node_limit),
        )
        return convert.verdict_from(await self._unary(self.stub.VerifyPuzzle, request, timeout))

    async def analyse_batch(
        self,
        positions: Iterable[PositionLike],
        *,
        objective: str | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        timeout: float | None = None,
    ) -> AsyncIterator[BatchItem]:
        request, sent, refused = self._batch_request(positions, self._limits(time_limit, node_limit), objective)
        for item in refused:
            yield item
        if not sent:
            return
        failures: list[grpc.RpcError] = []
        for left, wait in self._delays(self._timeout(timeout)):
            answered = False
            call = self.stub.AnalyseBatch(request, timeout=left, metadata=self.metadata)
            try:
                async for message in call:
                    answered = True
                    yield self._batch_item(message, sent)
                return
            except grpc.RpcError as exc:
                error = library_error(exc)
                if error is not None:
                    raise error from None
                if not self._retryable(exc, answered):
                    raise _failed([*failures, exc]) from None
                failures.append(exc)
                await asyncio.sleep(wait())
            finally:
                # a caller that stops reading (a break, aclose) ends the call: the server
                # would otherwise go on solving the batch for nobody
                call.cancel()
        if failures:
            raise _failed(failures)


__all__ = ["AsyncClient", "BatchItem", "Client", "RetriedError", "library_error"]
