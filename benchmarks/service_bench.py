"""Benchmark the gRPC service: hints per second and latency under concurrent clients.

    python -m benchmarks.service_bench [--clients 1 4 16] [--seconds 10] [--positions 300]
                                       [--workers 0] [--address HOST:PORT] [--json out.json]

Starts `plis serve` on a free port in a process of its own (or uses `--address`),
makes mid-game positions from the fixed deal sets of `benchmarks.deals` (each deal
played at random, seeded, until 3 to 5 tricks are left), and for each client count
runs that many client threads, each with its own channel, each asking `Hint` for the
positions in turn, for `--seconds` after a short warm-up.  Reported per client count:
hints per second, p50/p90/p99 latency (ms, nearest rank), and the CPU use of the
server process and of this (client) process (all cores together: 200% is two cores
busy; the server's on Linux only).  `--tricks-left 6 8` makes the searches longer;
`--processes 2` runs the server as two processes on one port.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from solver.position import Position

from .arguments import at_least, output_file, positive, seconds
from .deals import DEAL_SETS as ALL_SETS
from .deals import deals
from .run import percentile

ROOT = Path(__file__).resolve().parent.parent
DEAL_SETS = ["belote", "klaverjas-rotterdam", "klaberjass4", "jass", "putz", "bassadewitz"]
WARMUP_SECONDS = 1.0


def mid_game_positions(count: int, seed: int = 1, fewest: int = 3, most: int = 5) -> list[dict[str, Any]]:
    """`count` positions with `fewest` to `most` tricks left, spread over the deal sets."""
    rng = random.Random(seed)
    per_set = -(-count // len(DEAL_SETS))
    positions = []
    for key in DEAL_SETS:
        for deal in deals(key, per_set):
            position = Position.from_dict(deal)
            left = rng.randint(fewest, most)
            while position.tricks_left > left:
                position = position.play(rng.choice(position.legal_moves()))
            for _ in range(rng.randrange(position.rules.n_players)):  # perhaps part of a trick
                position = position.play(rng.choice(position.legal_moves()))
            positions.append(position.to_dict())
    rng.shuffle(positions)
    return positions[:count]


def start_server(workers: int, processes: int = 1) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "solver.cli", "serve", "--address", "localhost:0", "--workers", str(workers)]
    command += ["--processes", str(processes)]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    assert process.stderr is not None
    line = process.stderr.readline()
    found = re.search(r"on (\S+:\d+)", line)
    if not found:
        process.kill()
        raise RuntimeError(f"plis serve did not start: {line.strip()}")
    return process, found.group(1)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and its children so far (Linux /proc), None elsewhere."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        for child_pid in child.read_text().split():
            total += cpu_seconds(int(child_pid)) or 0.0
    return total


def run_clients(address: str, positions: list[dict[str, Any]], clients: int, seconds: float, pid: int | None) -> dict[str, Any]:
    from service.client import Client

    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[BaseException] = []
    start_at = time.monotonic() + WARMUP_SECONDS
    stop_at = start_at + seconds

    def client(k: int) -> None:
        try:
            with Client(address, timeout=60) as c:
                i = k * 7
                while True:
                    position = positions[i % len(positions)]
                    i += 1
                    began = time.monotonic()
                    if began >= stop_at:
                        return
                    c.hint(position)
                    if began >= start_at:
                        latencies[k].append((time.monotonic() - began) * 1000.0)
        except BaseException as exc:  # noqa: BLE001 - reported after the run
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    time.sleep(max(0.0, start_at - time.monotonic()))
    cpu_before = cpu_seconds(pid) if pid else None
    own_before = sum(os.times()[:2])
    time.sleep(max(0.0, stop_at - time.monotonic()))
    cpu_after = cpu_seconds(pid) if pid else None
    own_after = sum(os.times()[:2])
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError(f"{len(errors)} clients failed; first: {errors[0]!r}")
    done = sorted(x for per_client in latencies for x in per_client)
    if not done:
        raise RuntimeError(f"no hint began and ended in the {seconds:g} s measured: give more --seconds")
    cpu = None
    if cpu_before is not None and cpu_after is not None:
        cpu = 100.0 * (cpu_after - cpu_before) / seconds
    return {
        "clients": clients,
        "hints": len(done),
        "hints_per_s": len(done) / seconds,
        "p50_ms": percentile(done, 50),
        "p90_ms": percentile(done, 90),
        "p99_ms": percentile(done, 99),
        "server_cpu_percent": cpu,
        "client_cpu_percent": 100.0 * (own_after - own_before) / seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.service_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=positive, nargs="+", default=[1, 4, 16], help="client counts (default 1 4 16)")
    parser.add_argument("--seconds", type=seconds, default=10.0, help="measured seconds per client count")
    parser.add_argument("--positions", type=positive, default=300, help="mid-game positions to cycle through")
    parser.add_argument(
        "--tricks-left", type=positive, nargs=2, default=[3, 5], metavar=("FEWEST", "MOST"), help="tricks left in the positions"
    )
    parser.add_argument("--workers", type=at_least(0), default=0, help="server workers (default: one per core)")
    parser.add_argument("--processes", type=positive, default=1, help="server processes (plis serve --processes)")
    parser.add_argument("--address", help="use a running server instead of starting one")
    parser.add_argument("--json", type=output_file, metavar="FILE", help="also write the numbers as JSON")
    args = parser.parse_args(argv)

    fewest, most = args.tricks_left
    shortest = min(ALL_SETS[key].hand_size for key in DEAL_SETS)
    if not fewest <= most <= shortest:
        parser.error(f"--tricks-left: give FEWEST <= MOST <= {shortest} (the tricks of a deal of the shortest set)")
    positions = mid_game_positions(args.positions, fewest=fewest, most=most)
    process = None
    address = args.address
    if address is None:
        process, address = start_server(args.workers, args.processes)
    rows = []
    try:
        where = f"server {address}" + (f", {args.processes} processes" if args.processes > 1 else "")
        print(f"{len(positions)} positions ({fewest}-{most} tricks left) of {', '.join(DEAL_SETS)}; {where}")
        print(f"{'clients':>7} {'hints/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'server CPU':>11} {'client CPU':>11}")
        for clients in args.clients:
            row = run_clients(address, positions, clients, args.seconds, process.pid if process else None)
            rows.append(row)
            cpu = f"{row['server_cpu_percent']:.0f}%" if row["server_cpu_percent"] is not None else "-"
            print(
                f"{clients:>7} {row['hints_per_s']:>9.0f} {row['p50_ms']:>8.2f} {row['p90_ms']:>8.2f} "
                f"{row['p99_ms']:>8.2f} {cpu:>11} {row['client_cpu_percent']:>10.0f}%",
                flush=True,
            )
    except RuntimeError as exc:  # the clients' failure, already described: no traceback
        print(f"service_bench: {exc}", file=sys.stderr)
        return 1
    finally:
        if process is not None:
            process.terminate()
            process.wait(15)
    if args.json:
        meta = {
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "tricks_left": [fewest, most],
            "seconds": args.seconds,
            "processes": args.processes,
        }
        Path(args.json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
