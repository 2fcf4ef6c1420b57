"""Hints along played deals through the service: several clients at once against one.

    python -m benchmarks.service_deals --game jass --deals 6 --clients 2 [--workers 2]
    python -m benchmarks.service_deals --game besigue --deals 6 --clients 2 [--talon 6]

An app asking for a hint at every card sends the positions of one deal in turn, and
the server keeps each worker's tables from call to call.  With several such clients
at once, a deal's next position finds its last one's tables only if it runs on the
engine that searched it (the server's `EnginePool` takes that one when it is free).
This plays `--clients` x `--deals` deals of a fixed set out by seeded random cards
and asks a server of its own (in this process, `--workers` workers) for a hint at
every card of every deal twice: first the clients at once, each with its deals in
turn, then one client with all of them.  Printed: the nodes and wall time both ways,
and the ratio of the nodes (1.0: the clients cost each other nothing).  The nodes of
a search cut into slices (the server's deadline checks) also depend on the machine's
load, so take the ratio of a quiet machine.

Bésigue's deals (seeded, as benchmarks.besigue_bench's, played out by its random
policy) are too deep to solve exactly from their first card: the hints start at the
first trick with at most `--talon` talon cards left.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from typing import Any

from .arguments import at_least, positive
from .deals import DEAL_SETS, deals
from .features import played_out

BESIGUE_TALON = 6  # the default --talon: exact hints from there take seconds at most


def besigue_played_out(seed: int, talon: int) -> tuple[dict[str, Any], int]:
    """Bésigue deal `seed` as `deal` + `played`, played to the end by a seeded random
    policy, and how many of its moves come before the first trick start with at most
    `talon` talon cards."""
    from tests.besigue_random import play_out, random_deal

    rng = random.Random(seed)
    line = play_out(rng, random_deal(rng, "seed", dealer=1))
    first = next(
        len(p.played) for p in line if not p.trick and p.to_declare is None and not p.is_over and len(p.talon) <= talon
    )
    return line[-1].to_deal_dict(), first


def hints_along(address: str, played: list[tuple[dict[str, Any], int]], clients: int) -> tuple[int, float]:
    """(nodes, wall seconds) of `clients` clients at once, client j taking deals j, j + clients, ...,
    each (deal + played, the moves played before its first hint)."""
    from service.client import Client

    nodes = [0] * clients
    failures: list[BaseException] = []

    def run(j: int) -> None:
        try:
            with Client(address, timeout=600) as client:
                for deal, first in played[j::clients]:
                    for count in range(first, len(deal["played"])):
                        nodes[j] += client.hint({**deal, "played": deal["played"][:count]}).nodes
        except BaseException as exc:  # reported below: a lost client would skew the sums
            failures.append(exc)

    start = time.perf_counter()
    threads = [threading.Thread(target=run, args=(j,)) for j in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return sum(nodes), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.service_deals", description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="jass", choices=[*sorted(DEAL_SETS), "besigue"], help="deal set (default jass)")
    parser.add_argument("--deals", type=positive, default=6, help="deals per client (default 6)")
    parser.add_argument("--clients", type=positive, default=2, help="clients at once (default 2)")
    parser.add_argument("--workers", type=positive, default=2, help="server workers (default 2)")
    parser.add_argument(
        "--talon", type=at_least(0), help=f"Bésigue: the hints start at this many talon cards (default {BESIGUE_TALON})"
    )
    args = parser.parse_args(argv)
    if args.talon is not None and args.game != "besigue":
        parser.error(f"--talon: only Bésigue has a talon, not {args.game}")
    if args.talon is None:
        args.talon = BESIGUE_TALON
    from solver.besigue import TALON_SIZE

    if args.talon > TALON_SIZE:
        parser.error(f"--talon: a Bésigue talon holds at most {TALON_SIZE} cards, got {args.talon}")

    from service.config import ServerConfig
    from service.server import BackgroundServer

    count = args.deals * args.clients
    if args.game == "besigue":
        played = [besigue_played_out(seed, args.talon) for seed in range(count)]
    else:
        played = [(played_out(deal, seed), 0) for seed, deal in enumerate(deals(args.game, count))]
    with BackgroundServer(ServerConfig(address="localhost:0", workers=args.workers)) as server:
        together, together_seconds = hints_along(server.address, played, args.clients)
    with BackgroundServer(ServerConfig(address="localhost:0", workers=args.workers)) as server:
        alone, alone_seconds = hints_along(server.address, played, 1)
    print(f"{args.game}: {len(played)} deals, a hint at every card, {args.workers} workers")
    print(f"  {args.clients} clients at once: {together:,} nodes, {together_seconds:.2f} s")
    print(f"  1 client:           {alone:,} nodes, {alone_seconds:.2f} s")
    print(f"  nodes, at once / one client: {together / alone:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
