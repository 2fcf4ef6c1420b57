"""Time the solver on the fixed deal sets of `benchmarks.deals`.

    python -m benchmarks.run [--games belote jass ...] [--deals N] [--quick]
                             [--tt-megabytes MB] [--time-limit S] [--json out.json]

For each set, every deal is solved from its first card: the full analysis (every
legal first move valued, `analyse`) and the value alone with the best move(s)
(`hint`, column "value_only").  Reported per
set: median, 90th and 99th percentile and maximum wall time of one call (ms,
nearest-rank percentiles), mean nodes, nodes per second (all nodes / all time),
the transposition table's size, the process's peak RSS so far, and how many
results were not exact (only with a limit).  One thread, one process; the engine
(and its table) is made once per table size before the first timed call.

The machine's speed drifts by a factor of up to 3 (colver's median on the belote
deals from 26 to 80 ms: BENCHMARKS.md, "What limits it"), and the goals are in
milliseconds.  So when colver (the `bench` extra) is installed, the run also times
a yardstick before and after the sets: colver's median on the first `--yardstick`
belote deals (about 30 ms when this machine runs at its fastest).  Read the sets'
times against it.  With `--pace`, colver also solves one of those deals after each
deal of each set, in a child process of its own (at the end of a set, on to the end
of the round of those deals, so that each set's pace is over whole rounds of them, as
the 30 ms is), and each set's line "at colver's 30 ms" gives its medians and 99th
percentiles scaled by 30 ms over colver's median during that set: the machine's speed
of the moment taken out.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .arguments import at_least, lever_setting, megabytes, output_file, positive, seconds
from .deals import DEAL_SETS, DEFAULT_DEALS, deals, table_megabytes

QUICK_DEALS = 20
YARDSTICK_DEALS = 30
PACE_MS = 30.0  # colver's median on the yardstick's deals when this machine runs at its fastest
# issue 3's goals for a full analysis (median ms, 99th percentile ms or None);
# belote's goal is against colver: python -m benchmarks.vs_colver
GOALS: dict[str, tuple[float, float | None]] = {
    "klaverjas-rotterdam": (10.0, 100.0),
    "klaverjas-amsterdam": (10.0, 100.0),
    "klaberjass4": (10.0, 100.0),
    "jass": (30.0, None),
    "putz": (30.0, None),
    "putz5": (30.0, None),
    "bassadewitz": (30.0, None),
}
WARMUP = {"game": "belote", "trump": "H", "hands": ["HJ", "HA", "S7", "S8"], "tricks": [7, 0]}


@dataclass
class Column:
    """Timings of one kind of call over one deal set."""

    times_ms: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    inexact: int = 0

    def summary(self) -> dict[str, Any]:
        t = sorted(self.times_ms)
        if not t:
            return {}
        total_s = sum(t) / 1000.0
        return {
            "n": len(t),
            "median_ms": statistics.median(t),
            "p90_ms": percentile(t, 90),
            "p99_ms": percentile(t, 99),
            "max_ms": t[-1],
            "mean_nodes": statistics.fmean(self.nodes) if self.nodes else None,
            "nodes_per_s": sum(self.nodes) / total_s if self.nodes and total_s > 0 else None,
            "inexact": self.inexact,
        }


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(p / 100.0 * len(sorted_values)))
    return sorted_values[rank - 1]


def peak_rss_mb() -> float:
    """Peak resident set size of this process (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024.0 * 1024.0) if sys.platform == "darwin" else peak / 1024.0


def timed(call: Any, column: Column) -> Any:
    started = time.perf_counter()
    result = call()
    column.times_ms.append((time.perf_counter() - started) * 1000.0)
    column.nodes.append(int(getattr(result, "nodes", 0) or 0))
    if not getattr(result, "exact", True):
        column.inexact += 1
    return result


class Pacer:
    """colver in a child process (its memory out of this one's RSS), solving the
    yardstick's belote deals in turn, one a request: the machine's speed of the moment.
    colver's time varies widely from one of those deals to the next, so a pace is taken over
    whole rounds of them: `take` finishes the round under way (a set of 10 deals paced
    by the first 10 alone read the machine as 1.7 times faster than one paced by the next 10)."""

    CHILD = (
        "import sys\n"
        "from benchmarks.deals import deals\n"
        "from benchmarks.vs_colver import colver_env, colver_values\n"
        "pool = deals('belote', int(sys.argv[1]))\n"
        "for i, line in enumerate(sys.stdin):\n"
        "    print(colver_values(colver_env(pool[i % len(pool)]))[1], flush=True)\n"
    )

    def __init__(self, deals_in_turn: int) -> None:
        root = Path(__file__).resolve().parent.parent  # where `benchmarks` imports from
        self.child = subprocess.Popen(
            [sys.executable, "-c", self.CHILD, str(deals_in_turn)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root,
        )  # fmt: skip
        self.deals_in_turn = deals_in_turn
        self.times_ms: list[float] = []
        self.steps = 0

    def step(self) -> None:
        """Time colver on its next deal."""
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write("next\n")
        self.child.stdin.flush()
        answer = self.child.stdout.readline()
        if not answer:
            raise RuntimeError("colver's pacing process ended")
        self.times_ms.append(float(answer))
        self.steps += 1

    def take(self) -> list[float]:
        """The times since the last call, the round of deals under way finished first
        (so that each call's times cover every deal equally often and the next starts
        at the first deal)."""
        while self.steps % self.deals_in_turn:
            self.step()
        taken, self.times_ms = self.times_ms, []
        return taken

    def close(self) -> None:
        if self.child.stdin is not None:
            self.child.stdin.close()
        self.child.wait(timeout=30)


def paced(row: dict[str, Any], colver_ms: list[float]) -> None:
    """Add to `row` colver's median during the set and the medians and 99th percentiles
    scaled to PACE_MS."""
    pace = statistics.median(colver_ms)
    row["pace"] = {"colver_median_ms": pace, "colver_deals": len(colver_ms)}
    for call in ("analyse", "value_only"):
        if row.get(call):
            row["pace"][f"{call}_median_ms"] = row[call]["median_ms"] * PACE_MS / pace
            row["pace"][f"{call}_p99_ms"] = row[call]["p99_ms"] * PACE_MS / pace


def bench_set(
    key: str,
    n: int,
    tt_megabytes: int | None,
    time_limit: float | None,
    value_only: bool,
    progress: bool,
    engine_options: dict[str, int] | None = None,
    pacer: Pacer | None = None,
) -> dict[str, Any]:
    from solver import Engine
    from solver.analysis import analyse, hint

    full, alone = Column(), Column()
    set_deals = deals(key, n)
    tt_megabytes = table_megabytes(set_deals[0], tt_megabytes)
    engine = Engine(tt_megabytes)
    limits: dict[str, Any] = {"engine": engine}
    if time_limit is not None:
        limits["time_limit"] = time_limit
    for i, deal in enumerate(set_deals):
        engine.clear()  # each call starts from an empty table: no help from the last
        timed(lambda d=deal: analyse(d, engine_options=engine_options, **limits), full)
        if value_only:
            engine.clear()
            timed(lambda d=deal: hint(d, **limits), alone)
        if pacer is not None:
            pacer.step()
        if progress:
            sys.stderr.write(f"{key}: deal {i + 1}/{len(set_deals)}  {full.times_ms[-1]:.0f} ms\n")
            sys.stderr.flush()
    return {
        "set": key,
        "game": DEAL_SETS[key].game,
        "deals": len(set_deals),
        "analyse": full.summary(),
        "value_only": alone.summary() if value_only else None,
        "tt_megabytes": tt_megabytes,
        "peak_rss_mb": peak_rss_mb(),
    }


def _fmt(value: Any, width: int, digits: int = 1) -> str:
    if value is None:
        return "-".rjust(width)
    if isinstance(value, float):
        if abs(value) >= 1e6:
            return f"{value / 1e6:.{digits}f}M".rjust(width)
        if abs(value) >= 1e4:
            return f"{value / 1e3:.{digits}f}k".rjust(width)
        return f"{value:.{digits}f}".rjust(width)
    return str(value).rjust(width)


HEAD = (
    f"{'set':21} {'call':10} {'n':>4} {'median':>8} {'p90':>8} {'p99':>8} {'max':>9} "
    f"{'nodes':>9} {'nodes/s':>9} {'TT MB':>6} {'RSS MB':>7} {'inexact':>7}"
)
FOOT = "times: ms per call, wall clock; nodes: mean per call; RSS: peak of the process so far"


def print_rows(row: dict[str, Any], out: Any = None) -> None:
    out = out or sys.stdout  # the stream of the moment, not the one at import
    for call in ("analyse", "value_only"):
        s = row.get(call)
        if not s:
            continue
        print(
            f"{row['set']:21} {call:10} {s['n']:>4} {_fmt(s['median_ms'], 8)} {_fmt(s['p90_ms'], 8)} "
            f"{_fmt(s['p99_ms'], 8)} {_fmt(s['max_ms'], 9)} {_fmt(s['mean_nodes'], 9)} "
            f"{_fmt(s['nodes_per_s'], 9)} {row['tt_megabytes']:>6} {_fmt(row['peak_rss_mb'], 7)} "
            f"{s['inexact']:>7}",
            file=out,
            flush=True,
        )
    if "pace" in row:
        pace = row["pace"]
        scaled = ", ".join(f"{call} median {pace[f'{call}_median_ms']:.1f} ms, p99 {pace[f'{call}_p99_ms']:.1f} ms"
                           for call in ("analyse", "value_only") if f"{call}_median_ms" in pace)  # fmt: skip
        print(f"{row['set']:21} at colver's {PACE_MS:g} ms: {scaled} (colver's median meanwhile "
              f"{pace['colver_median_ms']:.1f} ms)", file=out, flush=True)  # fmt: skip


def goal_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Each set's full-analysis goal and whether this run met it."""
    lines = []
    for row in rows:
        s = row.get("analyse")
        if row["set"] not in GOALS or not s:
            continue
        median, p99 = GOALS[row["set"]]
        met = s["median_ms"] <= median and (p99 is None or s["p99_ms"] <= p99) and not s["inexact"]
        goal = f"median <= {median:g} ms" + (f", p99 <= {p99:g} ms" if p99 is not None else "")
        got = f"median {s['median_ms']:.1f} ms" + (f", p99 {s['p99_ms']:.1f} ms" if p99 is not None else "")
        line = f"goal {row['set']:21} {goal:30} {got:32} {'met' if met else 'NOT met'}"
        if "pace" in row:
            scaled, scaled_p99 = row["pace"]["analyse_median_ms"], row["pace"]["analyse_p99_ms"]
            met = scaled <= median and (p99 is None or scaled_p99 <= p99)
            got = f"median {scaled:.1f} ms" + (f", p99 {scaled_p99:.1f} ms" if p99 is not None else "")
            line += f"; at colver's {PACE_MS:g} ms: {got}, {'met' if met else 'NOT met'}"
        lines.append(line)
    return lines


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"python": platform.python_version(), "platform": platform.platform(), "cpu": cpu}


def yardstick(n: int) -> tuple[float | None, str]:
    """colver's median time (ms) on the first `n` belote deals and "", or None and why
    not (n 0, colver not installed, or its run failed: its last error line).  In a
    child process, so that colver's memory stays out of this one's RSS."""
    if n <= 0:
        return None, "--yardstick 0"
    if importlib.util.find_spec("colver") is None:
        return None, "colver is not installed: pip install -e '.[bench]'"
    code = "import sys; from benchmarks.run import colver_median; print(colver_median(int(sys.argv[1])))"
    root = Path(__file__).resolve().parent.parent  # where `benchmarks` imports from
    done = subprocess.run([sys.executable, "-c", code, str(n)], capture_output=True, text=True, cwd=root)
    try:
        return float(done.stdout.split()[-1]), ""
    except (ValueError, IndexError):
        failure = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return None, f"colver's run failed: {failure}"


def colver_median(n: int) -> float:
    """colver's median time (ms) on the first `n` belote deals (colver must be installed)."""
    from .vs_colver import colver_env, colver_values

    return statistics.median(colver_values(colver_env(deal))[1] for deal in deals("belote", n))


def yardstick_line(when: str, ms: float | None, n: int, why: str = "") -> str:
    if ms is None:
        return f"yardstick {when}: none ({why})"
    return f"yardstick {when}: colver's median on {n} belote deals {ms:.1f} ms (about 30 on this machine at its fastest)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", nargs="+", choices=list(DEAL_SETS), metavar="SET", default=None, help="deal sets to run (default: all)"
    )
    parser.add_argument(
        "--deals", type=positive, default=None, help=f"deals per set (default {DEFAULT_DEALS}, {QUICK_DEALS} with --quick)"
    )
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DEALS} deals per set")
    parser.add_argument(
        "--tt-megabytes",
        type=megabytes,
        default=None,
        help="transposition table size (default: the library's, 8 or 64 MB by the deal)",
    )
    parser.add_argument("--time-limit", type=seconds, default=None, help="seconds per call (default: none, exact)")
    parser.add_argument("--no-value-only", action="store_true", help="skip the value_only column")
    parser.add_argument("--json", type=output_file, metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument(
        "--yardstick",
        type=at_least(0),
        default=YARDSTICK_DEALS,
        metavar="N",
        help=f"time colver on N belote deals before and after, for the machine's speed (default {YARDSTICK_DEALS}; 0: no)",
    )
    parser.add_argument(
        "--pace",
        action="store_true",
        help=f"time colver on a yardstick deal after each deal, and give each set's medians at colver's {PACE_MS:g} ms",
    )
    parser.add_argument(
        "--engine-option",
        type=lever_setting,
        action="append",
        default=[],
        metavar="LEVER=0|1",
        help="switch a search lever off or on for analyse (no value_only column then), e.g. merge_equivalent=0 "
        "(solver.compile.ENGINE_OPTIONS)",
    )
    args = parser.parse_args(argv)

    n = args.deals if args.deals is not None else (QUICK_DEALS if args.quick else DEFAULT_DEALS)
    engine_options = {name: value for setting in args.engine_option for name, value in setting.items()}
    try:
        from solver.analysis import analyse
    except ImportError as exc:
        print(f"cannot import the solver: {exc}", file=sys.stderr)
        return 2
    value_only = not args.no_value_only
    if engine_options and value_only:  # hint takes no levers: its column would not show them
        print("--engine-option: the levers apply to analyse only; no value_only column", file=sys.stderr)
        value_only = False
    try:
        from solver import Engine

        # loads the engine, on a small table of its own that is freed at once: the
        # thread's default engine would keep an idle table in the RSS of every set
        analyse(WARMUP, engine=Engine(1))
    except ImportError as exc:
        print(f"the engine is not built: {exc}", file=sys.stderr)
        return 2

    pacer = None
    if args.pace:
        if importlib.util.find_spec("colver") is None:
            print("--pace: colver is not installed: pip install -e '.[bench]'", file=sys.stderr)
            return 2
        pacer = Pacer(YARDSTICK_DEALS)  # the deals whose median PACE_MS is
    before, before_why = yardstick(args.yardstick)
    rows = []
    print(HEAD)
    print("-" * len(HEAD), flush=True)
    try:
        for key in args.games or list(DEAL_SETS):
            row = bench_set(key, n, args.tt_megabytes, args.time_limit, value_only, not args.quiet, engine_options, pacer)
            if pacer is not None:
                paced(row, pacer.take())
            rows.append(row)
            print_rows(row)
    finally:
        if pacer is not None:
            pacer.close()
    print(FOOT)
    after, after_why = yardstick(args.yardstick)
    for line in goal_lines(rows):
        print(line)
    print(yardstick_line("before", before, args.yardstick, before_why))
    print(yardstick_line("after", after, args.yardstick, after_why))
    if args.json:
        report = {
            "machine": machine(),
            "yardstick_ms": {"deals": args.yardstick, "before": before, "after": after},
            "yardstick_missing": {"before": before_why, "after": after_why},
            "deals_per_set": n,
            "time_limit": args.time_limit,
            "sets": {k: asdict(v) for k, v in DEAL_SETS.items() if k in {r["set"] for r in rows}},
            "results": rows,
        }
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
