"""The settings of `plis serve` (kept apart from the server so that the `plis`
command line can list them without loading gRPC)."""

from __future__ import annotations

import argparse
import ipaddress
import math
import os
import re
from dataclasses import dataclass, replace

from solver.analysis import DEFAULT_TT_MEGABYTES  # the library's Bésigue table
from solver.machine import memory_megabytes, spare_megabytes, usable_cores

DEFAULT_ADDRESS = "localhost:50051"
LEAST_WORKER_MEGABYTES = 2  # 1 MB for each of a worker's two tables
# a server process's own memory beside its tables (Python, gRPC, NumPy: 46 MB resident
# measured for one of `--processes`), so that too many processes are refused, not swapped
PROCESS_MEGABYTES = 50
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# gRPC core's own log for each --log-level (its GRPC_VERBOSITY has DEBUG, INFO, ERROR and
# NONE): by default it wrote a line for every failed TLS handshake, whatever the level
GRPC_VERBOSITY = {"DEBUG": "DEBUG", "INFO": "INFO", "WARNING": "ERROR", "ERROR": "ERROR", "CRITICAL": "NONE"}


@dataclass(frozen=True)
class ServerConfig:
    """Everything `plis serve` can set."""

    address: str = DEFAULT_ADDRESS
    workers: int = 0  # 0: one per core
    tt_memory_mb: int = 256  # transposition tables of all workers together
    max_batch: int = 1000  # positions in one AnalyseBatch call
    max_pending: int = 1000  # calls running or waiting for a worker
    tls_cert: str | None = None  # PEM files; both or neither
    tls_key: str | None = None
    token: str | None = None  # required as `authorization: Bearer <token>` when set
    grace: float = 5.0  # seconds the calls in flight get at shutdown
    max_call_seconds: float | None = None  # a call's time at most, as if its deadline (None: no bound)
    processes: int = 1  # server processes sharing the port (SO_REUSEPORT, Linux)
    # one of those processes: it binds the port with SO_REUSEPORT.  Else not, so that a
    # second server on a port in use fails instead of silently taking half the calls
    shares_port: bool = False

    @property
    def worker_count(self) -> int:
        return self.workers if self.workers > 0 else usable_cores()

    @property
    def worker_share(self) -> int:
        """The table memory each worker may use: `tt_memory_mb / workers`."""
        return max(1, self.tt_memory_mb // self.worker_count)

    @property
    def besigue_tt_megabytes(self) -> int:
        """Each worker's Bésigue table, out of its share: the library's 8 MB, at most
        half the share (1 MB at least)."""
        return max(1, min(DEFAULT_TT_MEGABYTES, self.worker_share // 2))

    @property
    def tt_megabytes(self) -> int:
        """Each worker's table for the card games: its share less its Bésigue table
        (1 MB at least), so that the two together stay within the share."""
        return max(1, self.worker_share - self.besigue_tt_megabytes)

    def per_process(self, address: str, index: int = 0) -> ServerConfig:
        """The settings of process `index` of `processes`: workers and pending calls
        shared out (the first processes take what does not divide evenly; with the
        default workers, one per core, each process has one at least), and the tables
        in proportion to the workers."""
        n = max(1, self.processes)

        def shares(total: int) -> list[int]:
            return [max(1, total // n + (i < total % n)) for i in range(n)]

        workers = shares(self.worker_count)
        return replace(
            self,
            address=address,
            workers=workers[index],
            tt_memory_mb=max(1, self.tt_memory_mb * workers[index] // sum(workers)),
            max_pending=shares(self.max_pending)[index],
            processes=1,
            shares_port=True,
        )


def is_loopback(address: str) -> bool:
    """Whether only this machine can reach `address` (a `unix:` socket too)."""
    if address.startswith("unix:"):
        return True
    host = address.rsplit(":", 1)[0].strip("[]")
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def add_serve_arguments(cmd: argparse.ArgumentParser) -> None:
    defaults = ServerConfig()
    cmd.add_argument(
        "--address",
        default=DEFAULT_ADDRESS,
        metavar="HOST:PORT",
        help=f"where to listen (default {DEFAULT_ADDRESS}; port 0: any free port), or unix:PATH: a socket file",
    )
    cmd.add_argument("--workers", type=int, default=0, metavar="N", help="concurrent searches (default: one per core)")
    cmd.add_argument(
        "--tt-memory-mb",
        type=int,
        default=defaults.tt_memory_mb,
        metavar="MB",
        help="transposition tables of all workers together (default: %(default)s)",
    )
    cmd.add_argument(
        "--max-batch",
        type=int,
        default=defaults.max_batch,
        metavar="N",
        help="positions in one AnalyseBatch call (default: %(default)s)",
    )
    cmd.add_argument(
        "--max-pending",
        type=int,
        default=defaults.max_pending,
        metavar="N",
        help="calls running or waiting for a worker (default: %(default)s)",
    )
    cmd.add_argument("--tls-cert", metavar="FILE", help="PEM certificate chain: serve over TLS (with --tls-key)")
    cmd.add_argument("--tls-key", metavar="FILE", help="PEM private key of --tls-cert")
    cmd.add_argument(
        "--token-file",
        metavar="FILE",
        help="require `authorization: Bearer <token>`, the token in FILE (else PLIS_TOKEN's, if set)",
    )
    cmd.add_argument(
        "--grace",
        type=float,
        default=defaults.grace,
        metavar="SECONDS",
        help="time the calls in flight get at shutdown (default: %(default)s)",
    )
    cmd.add_argument(
        "--max-call-seconds",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the most time a call may take, waiting for a worker included, as if its deadline were no later "
        "(default: none; a call without a deadline then searches until it is done)",
    )
    cmd.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="server processes sharing the port (Linux, default: %(default)s); workers, tables and pending calls are "
        "shared out among them, one worker and one pending call each at least (more processes than --workers or "
        "--max-pending given are refused)",
    )
    cmd.add_argument(
        "--log-level",
        type=str.upper,
        choices=LOG_LEVELS,
        default="WARNING",
        help=f"one of {', '.join(LOG_LEVELS)} (default: %(default)s)",
    )


def check_address(address: str) -> None:
    """HOST:PORT with a port from 0 to 65535 (gRPC would pick another port for a larger
    one, silently), or a `unix:` socket path."""
    if address.startswith("unix:"):
        if not address[len("unix:") :].strip():
            # gRPC would bind an unnamed abstract socket that no client can name, and the
            # server would announce "serving on unix:"
            raise ValueError(f"--address unix:PATH needs a PATH (a socket file), got {address!r}")
        return
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"--address must be HOST:PORT with a port from 0 to 65535 (or unix:PATH), got {address!r}")


# what a token may hold: visible ASCII (gRPC metadata carries no other), no blanks
TOKEN_CHARACTERS = re.compile(r"[\x21-\x7e]+")


def read_token(token_file: str | None) -> str | None:
    """The token calls must carry: `--token-file`'s, else PLIS_TOKEN's (unset or blank:
    none), either stripped of blanks around it.  A file that holds none is an error,
    not a server open to all."""
    if token_file:
        try:
            with open(token_file, encoding="utf-8") as f:
                token, source = f.read().strip(), f"--token-file {token_file}"
        except OSError as exc:
            raise ValueError(f"--token-file {token_file}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ValueError(f"--token-file {token_file}: not UTF-8 text") from None
        if not token:
            raise ValueError(f"--token-file {token_file} is empty: the server would take calls from anyone")
    else:
        token, source = os.environ.get("PLIS_TOKEN", "").strip(), "PLIS_TOKEN"
        if not token:
            return None
    if not TOKEN_CHARACTERS.fullmatch(token):
        raise ValueError(f"{source}: a token is one word of visible ASCII characters (what gRPC metadata can carry)")
    return token


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    token = read_token(args.token_file)
    if args.workers < 0:
        raise ValueError(f"--workers must be 0 (one per core) or more, got {args.workers}")
    for flag in ("tt_memory_mb", "max_batch", "max_pending", "processes"):
        if getattr(args, flag) < 1:
            raise ValueError(f"--{flag.replace('_', '-')} must be at least 1, got {getattr(args, flag)}")
    memory = memory_megabytes()
    if args.tt_memory_mb > memory:
        raise ValueError(f"--tt-memory-mb {args.tt_memory_mb} is more than the memory this process may use ({memory} MB)")
    spare = spare_megabytes()  # the tables are all made at the start
    if args.tt_memory_mb > spare:
        raise ValueError(f"--tt-memory-mb {args.tt_memory_mb} is more than the memory free now (about {spare} MB to spare)")
    if not 0 <= args.grace < math.inf:  # NaN too
        raise ValueError(f"--grace must be a number of seconds, 0 or more, got {args.grace}")
    if args.max_call_seconds is not None and not 0 < args.max_call_seconds < math.inf:  # NaN too
        raise ValueError(f"--max-call-seconds must be a number of seconds above 0, got {args.max_call_seconds}")
    check_address(args.address)
    config = ServerConfig(
        address=args.address,
        workers=args.workers,
        tt_memory_mb=args.tt_memory_mb,
        max_batch=args.max_batch,
        max_pending=args.max_pending,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        token=token,
        grace=args.grace,
        max_call_seconds=args.max_call_seconds,
        processes=args.processes,
    )
    if config.tt_memory_mb < LEAST_WORKER_MEGABYTES * config.worker_count:
        raise ValueError(
            f"--tt-memory-mb {config.tt_memory_mb} is too little for {config.worker_count} workers: each needs at least "
            f"{LEAST_WORKER_MEGABYTES} MB (a table for the card games and one for Bésigue)"
        )
    if config.processes > 1:
        check_processes(config, memory, spare)
    return config


def check_processes(config: ServerConfig, memory: int, spare: int) -> None:
    """Each of `--processes` gets at least one worker and its share of the tables: refuse
    more processes than the tables can be shared out to, or than the memory holds
    (`memory`: the process's limit; `spare`: what the memory free now can spare), or
    than the workers or pending calls given, which each process needs one of at least."""
    for flag, given in (("--workers", config.workers), ("--max-pending", config.max_pending)):
        if 0 < given < config.processes:  # (--workers 0: one per core, and one a process at least)
            raise ValueError(
                f"--processes {config.processes} is more than {flag} {given}: each process needs one at least"
            )
    each = config.per_process(config.address)
    if each.tt_memory_mb < LEAST_WORKER_MEGABYTES * each.worker_count:
        raise ValueError(
            f"--processes {config.processes} is too many for --tt-memory-mb {config.tt_memory_mb}: each process needs at "
            f"least {LEAST_WORKER_MEGABYTES} MB for a worker's tables (at most "
            f"{config.tt_memory_mb // LEAST_WORKER_MEGABYTES} processes)"
        )
    needed = config.processes * PROCESS_MEGABYTES + config.tt_memory_mb
    if needed > min(memory, spare):
        than = f"the memory this process may use ({memory} MB)"
        if needed <= memory:
            than = f"the memory free now (about {spare} MB to spare)"
        raise ValueError(
            f"--processes {config.processes} would need about {needed} MB ({PROCESS_MEGABYTES} MB a process beside the "
            f"tables), more than {than}"
        )


def set_grpc_verbosity(log_level: str) -> None:
    """gRPC core's log level for `--log-level`, unless GRPC_VERBOSITY is set already (the
    user's own wins).  gRPC reads it when it loads: call this before importing grpc."""
    os.environ.setdefault("GRPC_VERBOSITY", GRPC_VERBOSITY.get(str(log_level).upper(), "ERROR"))
