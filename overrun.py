import json, random, sys, time, statistics, subprocess
sys.path.insert(0, '/tmp/audit_besigue/snap')
import solver
from tests.besigue_random import random_deal, play_until
rng = random.Random(int(sys.argv[1]))
res = {}
positions = []
for i in range(30):
    start = random_deal(rng)
    L = rng.choice([46, 44, 40, 36, 30, 24, 20, 16])
    try:
        p = play_until(rng, start, L, stop=rng.choice(["lead", "trick", "declare"])) if L < 46 else start
    except ValueError:
        p = start
    positions.append(p.to_dict())
for T in (0.01, 0.05, 0.2):
    over = []
    for d in positions:
        t = time.perf_counter(); r = solver.analyse(d, time_limit=T); el = time.perf_counter() - t
        over.append(el - T)
        if r.exact: over.pop()
    over.sort()
    print(f"analyse T={T}: n={len(over)} overrun median {statistics.median(over)*1000:.1f} ms, max {max(over)*1000:.1f} ms, p90 {over[int(len(over)*0.9)]*1000:.1f} ms")
    over = []
    for d in positions:
        t = time.perf_counter(); h = solver.hint(d, time_limit=T); el = time.perf_counter() - t
        over.append(el - T)
        if not h.best: print("HINT NO MOVE", T, json.dumps(d)[:300])
        else:
            legal = solver.load_position(d).legal_moves()
            if h.best[0] not in legal: print("HINT ILLEGAL", h.best)
    over.sort()
    print(f"hint    T={T}: n={len(over)} overrun median {statistics.median(over)*1000:.1f} ms, max {max(over)*1000:.1f} ms")
