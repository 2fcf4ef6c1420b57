"""What a call costs outside the search: `analyse` with a one-node search.

    python -m benchmarks.call_cost --games belote klaverjas-rotterdam --deals 40
    python -m benchmarks.call_cost --besigue 40

Every deal of the sets is analysed with `node_limit=1`, so the time is reading the
position, building the engine's description, loading its tables and building the
result. The best of `--rounds` rounds is printed (the least disturbed by other jobs),
in milliseconds a call. A hint late in a deal, or a service call, is mostly this.

`--besigue N` times reading N seeded Bésigue deals played to the end, given as deal,
talon and played (as an app asking for a hint at every card sends them): the
replay of some 90 moves, each checked against the rules, before any search.
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


def besigue_read_cost(n: int, rounds: int) -> float:
    """Milliseconds to read one whole Bésigue deal given as deal + played (best of `rounds`)."""
    from solver.position import load_position

    from .service_deals import besigue_played_out

    positions = [besigue_played_out(seed, 0)[0] for seed in range(n)]
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for position in positions:
            load_position(position)
        best = min(best, (time.perf_counter() - started) / len(positions))
    return best * 1000.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.call_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=["belote", "klaverjas-rotterdam"])
    parser.add_argument("--deals", type=positive, default=40, help="deals per set (default 40)")
    parser.add_argument("--rounds", type=positive, default=15, help="rounds; the best is printed (default 15)")
    parser.add_argument("--besigue", type=positive, metavar="N", help="time reading N whole Bésigue deals instead")
    args = parser.parse_args(argv)
    if args.besigue:
        cost = besigue_read_cost(args.besigue, args.rounds)
        print(f"besigue: {cost:.3f} ms to read a whole deal given as deal + played (best of {args.rounds} rounds)")
        return 0
    cost = call_cost(args.games, args.deals, args.rounds)
    print(f"{' '.join(args.games)}: {cost:.3f} ms a call outside the search (best of {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
