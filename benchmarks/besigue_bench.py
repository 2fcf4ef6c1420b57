"""How deep into a Bésigue deal the exact search reaches.

    python -m benchmarks.besigue_bench [--deals N] [--max-seconds S] [--tt-megabytes M]
                                       [--levels 0 2 4] [--option name=value ...]

For each of N seeded deals (random.Random(seed): 64 cards shuffled, 9 + 9 hands,
talon 46, trump the suit of its last card, seat 0 leads), the deal is played
forward by a seeded random policy (random cards, sevens, exchanges and melds
declared at random) and solved exactly, infinite window, from the start of phase 2
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

from solver._besigue import BESIGUE, DOUBLE_BESIGUE, FOUR, MARRIAGE, SEQUENCE, SEVEN, BesigueEngine

MELD_BITS = MARRIAGE | BESIGUE | DOUBLE_BESIGUE | FOUR | SEQUENCE
SQ, DJ = 1 * 8 + 3, 3 * 8 + 4


def meld_value(copies: list[tuple[int, int]], trump: int) -> tuple[int, int] | None:
    cs = sorted(c for c, _ in copies)
    if len(cs) == 2 and cs[0] // 8 == cs[1] // 8 and {cs[0] % 8, cs[1] % 8} == {2, 3}:
        kind = (MARRIAGE, 40 if cs[0] // 8 == trump else 20)
    elif cs == [SQ, DJ]:
        kind = (BESIGUE, 40)
    elif cs == [SQ, SQ, DJ, DJ]:
        kind = (DOUBLE_BESIGUE, 500)
    elif len(cs) == 4 and len({c % 8 for c in cs}) == 1 and cs[0] % 8 in (0, 2, 3, 4):
        kind = (FOUR, {0: 100, 2: 80, 3: 60, 4: 40}[cs[0] % 8])
    elif cs == [trump * 8 + r for r in range(5)]:
        kind = (SEQUENCE, 250)
    else:
        return None
    bit = kind[0]
    if all(m & MELD_BITS for _, m in copies) or any(m & bit for _, m in copies):
        return None
    if bit == MARRIAGE and cs[0] // 8 == trump and any(m & SEQUENCE for _, m in copies):
        return None
    return kind


def random_meld(hand: list[tuple[int, int]], trump: int, rng: random.Random) -> list[int] | None:
    """Indices of the copies of one legal meld, found by sampling (good enough for a policy)."""
    meldy = [i for i, (c, _) in enumerate(hand) if c % 8 <= 4]
    options = []
    for n in (2, 4, 5):
        for _ in range(30):
            if len(meldy) < n:
                break
            idx = sorted(rng.sample(meldy, n))
            if meld_value([hand[i] for i in idx], trump):
                options.append(idx)
    return rng.choice(options) if options else None


def winner_phase1(a: int, b: int, leader: int, trump: int) -> int:
    ta, tb = a // 8 == trump, b // 8 == trump
    follower = tb if ta != tb else b % 8 < a % 8
    return 1 - leader if follower else leader


def deal_states(seed: int) -> dict[int, dict]:
    """Play deal `seed` forward; the state at each trick start, by talon length."""
    rng = random.Random(seed)
    deck = list(range(32)) * 2
    rng.shuffle(deck)
    hands = [[(c, 0) for c in deck[:9]], [(c, 0) for c in deck[9:18]]]
    talon = deck[18:]
    trump = talon[-1] // 8
    t7 = trump * 8 + 7
    exchanged = False
    leader = 0
    policy = random.Random(seed * 7919 + 1)
    states: dict[int, dict] = {}
    while talon:
        states[len(talon)] = {
            "trump": trump, "standard": False, "hands": [list(h) for h in hands], "talon": list(talon),
            "exchanged": exchanged, "trick": [], "leader": leader, "to_declare": -1,
        }
        a = hands[leader].pop(policy.randrange(len(hands[leader])))
        b = hands[1 - leader].pop(policy.randrange(len(hands[1 - leader])))
        w = winner_phase1(a[0], b[0], leader, trump)
        hand = hands[w]
        # declarations: sevens and an exchange now and then, one meld when there is one
        for i, (c, m) in enumerate(hand):
            if c == t7 and not m & SEVEN and policy.random() < 0.8:
                if not exchanged and talon[-1] % 8 != 7 and policy.random() < 0.5:
                    hand[i] = (talon[-1], 0)
                    talon[-1] = t7
                    exchanged = True
                else:
                    hand[i] = (c, m | SEVEN)
        if policy.random() < 0.8:
            idx = random_meld(hand, trump, policy)
            if idx:
                bit = meld_value([hand[i] for i in idx], trump)[0]
                for i in idx:
                    hand[i] = (hand[i][0], hand[i][1] | bit)
        hands[w].append((talon[0], 0))
        last = talon[1]
        hands[1 - w].append((last, SEVEN if len(talon) == 2 and last == t7 else 0))
        talon = talon[2:]
        leader = w
    states[0] = {"trump": trump, "hands": [[(c, 0) for c, _ in h] for h in hands], "talon": [], "leader": leader}
    return states


def nearest_rank(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(q * len(s) + 0.999999) - 1))]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--max-seconds", type=float, default=30.0, help="cap per solve (time_limit)")
    ap.add_argument("--tt-megabytes", type=int, default=64)
    ap.add_argument("--levels", type=int, nargs="*", help="talon lengths to run (default 0, 2, 4, ... until the median > 1 s)")
    ap.add_argument("--option", action="append", default=[], help="engine option name=value (measuring levers)")
    args = ap.parse_args(argv)
    engine = BesigueEngine(tt_megabytes=args.tt_megabytes)
    for opt in args.option:
        name, value = opt.split("=")
        engine.options[name] = int(value)
    deals = [deal_states(seed) for seed in range(args.deals)]
    levels = args.levels if args.levels else list(range(0, 47, 2))
    print(f"deals {args.deals}, table {args.tt_megabytes} MB ({engine.tt_entries} entries), cap {args.max_seconds} s")
    print(f"{'talon':>5} {'median s':>9} {'p90 s':>9} {'max s':>9} {'med nodes':>11} {'max nodes':>11} {'capped':>6}")
    for level in levels:
        times, nodes, capped = [], [], 0
        for states in deals:
            st = states[level]
            engine.clear()
            t0 = time.perf_counter()
            r = engine.search(st, -30000, 30000, time_limit=args.max_seconds)
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
