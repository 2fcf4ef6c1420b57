"""How deep into a Bésigue deal the exact search reaches.

    python -m benchmarks.besigue_bench [--deals N] [--max-seconds S] [--tt-megabytes M]
                                       [--levels 0 2 4] [--option name=value ...]

For each of N seeded deals (random.Random(seed): 64 cards shuffled, 9 + 9 hands,
talon 46, trump the suit of its last card, seat 0 leads), the deal is played
forward by a seeded random policy (tests/besigue_random.py: random cards, sevens,
exchanges and melds declared more often than not) and solved exactly (the value;
with --analyse, every first move valued by solver.analyse) from the start of phase 2
(talon 0) and from the trick starts with 2, 4, 6, ... talon cards left, level by
level until the median time passes one second.  Each solve starts from an empty
table and is capped by --max-seconds (a capped solve counts as that many seconds
and is reported).  Prints per level: median, p90 and max seconds, median and max
nodes, and how many solves hit the cap.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from solver import analyse
from solver._besigue import BesigueEngine
from solver.besigue import BesiguePosition, engine_state
from tests.besigue_random import random_deal, random_move

from .arguments import megabytes, positive, seconds

TALONS = range(0, 47, 2)  # the talon's length at a trick start of phase 1 (0: the start of phase 2)


def deal_states(seed: int) -> dict[int, BesiguePosition]:
    """Deal `seed` played forward by a seeded random policy (random cards; sevens,
    exchanges and melds declared more often than not); the position at each trick
    start, by talon length (0: the start of phase 2)."""
    rng = random.Random(seed)
    position = random_deal(rng, "seed", dealer=1)  # seat 0 leads
    states: dict[int, BesiguePosition] = {}
    while not position.is_over:
        if not position.trick and position.to_declare is None:
            states.setdefault(len(position.talon), position)
            if not position.talon:
                break
        position = position.play(random_move(rng, position))
    return states


def estimate_quality(engine: BesigueEngine, positions: list[BesiguePosition]) -> None:
    """For positions solved exactly: does the move with the best estimate (k tricks
    ahead) play as well as the best move, and how much does it lose when not?"""
    from solver.besigue_solve import _Budget, _value_moves

    print(f"{'ahead':>5} {'best move':>10} {'mean loss':>10} {'max loss':>9} {'median s':>9}")
    exact: list[dict[str, Any]] = []
    for position in positions:
        engine.clear()
        exact.append({m.move: m.value for m in analyse(position, engine=engine).moves})
    for tricks in range(1, 5):
        hits, losses, times = 0, [], []
        for position, values in zip(positions, exact):
            horizon = len(position.talon) - 2 * tricks
            if horizon <= 0:
                continue
            children = {move: position.play(move) for move in position.legal_moves()}
            now = {move: child.scored[0] - child.scored[1] for move, child in children.items()}
            sign = 1 if position.side == 0 else -1
            engine.clear()
            t0 = time.perf_counter()
            estimates = _value_moves(engine, _Budget(None, None, engine.cancels), children, now, sign, True, horizon)
            times.append(time.perf_counter() - t0)
            chosen = max(estimates, key=lambda m: (estimates[m], -list(children).index(m)))
            loss = max(values.values()) - values[chosen]
            hits += loss == 0
            losses.append(loss)
        if losses:
            print(f"{tricks:>5} {hits / len(losses):>10.0%} {statistics.mean(losses):>10.1f} {max(losses):>9} "
                  f"{statistics.median(times):>9.4f}", flush=True)


def nearest_rank(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(q * len(s) + 0.999999) - 1))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.besigue_bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=positive, default=100)
    ap.add_argument("--max-seconds", type=seconds, default=30.0, help="cap per solve (time_limit)")
    ap.add_argument("--tt-megabytes", type=megabytes, default=64)
    ap.add_argument(
        "--levels", type=int, nargs="*", choices=TALONS, metavar="TALON",
        help="talon lengths to run, even, 0 to 46 (default 0, 2, 4, ... until the median > 1 s)",
    )
    ap.add_argument("--option", action="append", default=[], help="engine option name=value (measuring levers)")
    ap.add_argument("--analyse", action="store_true", help="time solver.analyse (every first move valued) instead of the value")
    ap.add_argument("--estimates", type=int, choices=TALONS, metavar="TALON",
                    help="instead: how good the limited search's estimates are at this talon length (1..4 tricks ahead)")
    args = ap.parse_args(argv)
    engine = BesigueEngine(tt_megabytes=args.tt_megabytes)
    for opt in args.option:
        name, _, value = opt.partition("=")
        if name not in engine.options:  # a misspelt one would measure the defaults
            ap.error(f"--option: unknown option {name!r} (known: {', '.join(engine.options)})")
        if not value.isdigit():
            ap.error(f"--option: {opt!r} is not name=value, the value a whole number")
        engine.options[name] = int(value)
    deals = [deal_states(seed) for seed in range(args.deals)]
    if args.estimates is not None:
        estimate_quality(engine, [d[args.estimates] for d in deals])
        return
    levels = args.levels if args.levels else list(range(0, 47, 2))
    print(f"deals {args.deals}, table {args.tt_megabytes} MB ({engine.tt_entries} entries), cap {args.max_seconds} s")
    print(f"{'talon':>5} {'median s':>9} {'p90 s':>9} {'max s':>9} {'med nodes':>11} {'max nodes':>11} {'capped':>6}")
    for level in levels:
        times: list[float] = []
        nodes: list[int] = []
        capped = 0
        for states in deals:
            position = states[level]
            engine.clear()
            t0 = time.perf_counter()
            if args.analyse:
                result = analyse(position, time_limit=args.max_seconds, engine=engine)
                r: dict[str, Any] = {"stopped": result.limit, "nodes": result.nodes}
            else:
                r = engine.search(engine_state(position), -30000, 30000, time_limit=args.max_seconds)
            dt = time.perf_counter() - t0
            if r["stopped"]:
                capped += 1
                dt = max(dt, args.max_seconds)
            times.append(dt)
            nodes.append(r["nodes"])
        med = statistics.median(times)
        print(f"{level:>5} {med:>9.4f} {nearest_rank(times, 0.9):>9.4f} {max(times):>9.4f} "
              f"{int(statistics.median(nodes)):>11} {max(nodes):>11} {capped:>6}", flush=True)
        if not args.levels and med > 1.0:
            break


if __name__ == "__main__":
    main()
