"""What a call costs outside the search: `analyse` with a one-node search.

    python -m benchmarks.call_cost --games belote klaverjas-rotterdam --deals 40

Every deal of the sets is analysed with `node_limit=1`, so the time is reading the
position, building the engine's description, loading its tables and building the
result. The best of `--rounds` rounds is printed (the least disturbed by other jobs),
in milliseconds a call. A hint late in a deal, or a service call, is mostly this.
"""

from __future__ import annotations

import argparse
import time

from .arguments import positive
from .deals import DEAL_SETS, deals


def call_cost(keys: list[str], n: int, rounds: int) -> float:
    from solver import Engine
    from solver.analysis import analyse

    engine = Engine(8)
    positions = [dict(deal) for key in keys for deal in deals(key, n)]
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for position in positions:
            analyse(position, engine=engine, node_limit=1)
        best = min(best, (time.perf_counter() - started) / len(positions))
    return best * 1000.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.call_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=["belote", "klaverjas-rotterdam"])
    parser.add_argument("--deals", type=positive, default=40, help="deals per set (default 40)")
    parser.add_argument("--rounds", type=positive, default=15, help="rounds; the best is printed (default 15)")
    args = parser.parse_args(argv)
    cost = call_cost(args.games, args.deals, args.rounds)
    print(f"{' '.join(args.games)}: {cost:.3f} ms a call outside the search (best of {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
