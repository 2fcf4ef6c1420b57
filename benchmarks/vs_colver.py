"""Hold plis against colver, an independent Belote contrée double-dummy solver.

    python -m benchmarks.vs_colver [--deals N] [--check-rules N] [--no-localize]

The belote deals of `benchmarks.deals` are solved by both, in one process, one deal
after the other (plis first on even deals, colver first on odd ones).  Every legal
first card must get exactly the same value from both; a deal where they differ is
printed in full, with the first position down the disputed line where the two
disagree and (once at most 3 tricks are left) what the plain reference search says.
Then the time of each, the ratio plis/colver per deal and the median ratio.  The
status is 1 if a value differs, 2 if colver or plis's engine is missing (colver is
then timed alone, and nothing is compared).
`--check-rules N` also plays N random deals card by card in both and checks that the
legal cards agree at every step, and that colver's values agree with
`solver.reference` whenever at most 3 tricks are left (this needs no engine).

colver (PyPI, `pip install colver`) is a benchmark-only dependency.  What it
computes, established from its source (Avo-k/colver: colver-py/src/lib.rs,
colver-core/src/{card,state,play,solver}.rs) and checked here:

- card index = suit * 8 + rank, suits S H D C = 0..3, ranks 7 8 9 J Q K T A = 0..7;
  trump in `set_contract` is a suit index; the contract value, team and coinche
  do not change the card play or `scores`;
- `Env.deal_with_hands(dealer, hands)` then `set_phase_playing()`: seat
  `(dealer + 1) % 4` leads and play goes to seat + 1, teams are seats {0, 2} (NS)
  and {1, 3}; so dealer 3 makes colver's seats ours;
- `solve_scores()["scores"]` is `[[card, ns_points], ...]` for every legal card of
  the seat to move, whoever moves: the final card points of seats {0, 2}
  including points already taken, last trick 10, capot 252 (0 when the other team
  takes every trick); belote is not in it (it is in `deal_scores`, with the
  contract);
- the rules are RULES.md's Belote section exactly (see `--check-rules`).

Our value for belote (objective `score` = `raw`, no `scored` in a hands-form deal,
so no belote) is the side-to-move's final card points minus the other side's.
It maps to colver's measure by `ns_points` below: that map is non-decreasing (it
only merges "0 points with a trick" and "lost capot"), and max/min commute with a
non-decreasing map, so the two solvers must agree exactly on every card.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from .arguments import at_least, megabytes
from .deals import deals

COLVER_SUITS = "SHDC"
COLVER_RANKS = "789JQKTA"
DEALER = 3  # colver: seat (dealer + 1) % 4 leads; we need seat 0 to lead
CAPOT = 252
TOTAL = 162


def colver_index(card: str) -> int:
    return COLVER_SUITS.index(card[0]) * 8 + COLVER_RANKS.index(card[1])


def card_of(index: int) -> str:
    return COLVER_SUITS[index // 8] + COLVER_RANKS[index % 8]


def ns_points(value: int, side: int) -> int:
    """Our value (side's final score minus the other's, card points only) as the
    final card points of side 0 (seats 0 and 2), colver's measure."""
    diff = value if side == 0 else -value
    if diff == CAPOT:
        return CAPOT
    if diff == -CAPOT:
        return 0
    if (TOTAL + diff) % 2 or abs(diff) > TOTAL:
        raise ValueError(f"{value} for side {side} is no belote outcome without belote")
    return (TOTAL + diff) // 2


# --- colver ------------------------------------------------------------------------


def colver_env(deal: dict[str, Any], played: Sequence[str] = ()) -> Any:
    """A colver Env at the start of `deal`'s play, then after the cards `played`."""
    import colver

    hands = [[colver_index(c) for c in hand.split()] for hand in deal["hands"]]
    env = colver.Env.deal_with_hands(DEALER, hands)
    env.set_contract(COLVER_SUITS.index(deal["trump"]), 80, 0, 0)
    env.set_phase_playing()
    for card in played:
        env.step(colver_index(card))
    return env


def colver_values(env: Any) -> tuple[dict[str, int], float]:
    """colver's NS points for every legal card, and the time of the solve (ms)."""
    started = time.perf_counter()
    out = env.solve_scores()
    elapsed = (time.perf_counter() - started) * 1000.0
    return {card_of(c): int(p) for c, p in out["scores"]}, elapsed


# --- plis ----------------------------------------------------------------------------


def engine_available() -> str | None:
    """None if our engine can be used, else why not."""
    try:
        importlib.import_module("solver.analysis")
        importlib.import_module("solver._engine")
    except ImportError as exc:
        return str(exc)
    return None


def our_values(position: Any, tt_megabytes: int) -> tuple[dict[str, int], float, int]:
    """Our values for every legal card as NS points, the time (ms) and the nodes."""
    from solver.analysis import analyse

    started = time.perf_counter()
    result = analyse(position, tt_megabytes=tt_megabytes)
    elapsed = (time.perf_counter() - started) * 1000.0
    if not result.exact:
        raise RuntimeError(f"inexact result without a limit: {result}")
    values = {m.move: ns_points(int(m.value), result.side) for m in result.moves if m.value is not None}
    return values, elapsed, result.nodes


def warm_up(tt_megabytes: int) -> None:
    """Build the thread's engine of that size before the first timed deal, which would
    otherwise pay for it (three times its search).  On a deal of its own: a second
    search of a timed deal could use the entries of the first."""
    from solver.analysis import analyse

    from .run import WARMUP

    analyse(WARMUP, tt_megabytes=tt_megabytes)


def differences(ours: dict[str, int], theirs: dict[str, int]) -> list[str]:
    return sorted(c for c in set(ours) | set(theirs) if ours.get(c) != theirs.get(c))


def show_values(ours: dict[str, int], theirs: dict[str, int], out: Any) -> None:
    for card in sorted(set(ours) | set(theirs), key=lambda c: -max(ours.get(c, -1), theirs.get(c, -1))):
        mark = "" if ours.get(card) == theirs.get(card) else "   <-- differs"
        mine, other = ours.get(card, "illegal"), theirs.get(card, "illegal")
        print(f"    {card}: plis {mine:>7}   colver {other:>7}{mark}", file=out)


def localize(deal: dict[str, Any], first: str, tt_megabytes: int, out: Any) -> None:
    """Follow a disputed card down until the disagreement is pinned to one position."""
    from solver.position import Position
    from solver.reference import reference_values

    position = Position.from_dict(deal)
    played: list[str] = []
    card = first
    while True:
        position = position.play(card)
        played.append(card)
        if position.is_over:
            print(f"  after {' '.join(played)} the deal is over: final {list(position.scored)}", file=out)
            return
        ours, _, _ = our_values(position, tt_megabytes)
        theirs, _ = colver_values(colver_env(deal, played))
        if set(ours) != set(theirs):
            print(f"  after {' '.join(played)} the legal cards differ: {json.dumps(position.to_dict())}", file=out)
            show_values(ours, theirs, out)
            return
        diff = differences(ours, theirs)
        if not diff:
            print(
                f"  after {' '.join(played)} both agree on every card, so one solver's value of the "
                f"previous position does not follow from its own values here:",
                file=out,
            )
            show_values(ours, theirs, out)
            print(f"  position: {json.dumps(position.to_dict())}", file=out)
            return
        if position.tricks_left <= 3:
            ref = reference_values(position)
            ref_ns = {str(c): ns_points(int(v), position.side) for c, v in ref.items()}
            print(f"  after {' '.join(played)}: {json.dumps(position.to_dict())}", file=out)
            for c in diff:
                who = [name for name, vals in (("plis", ours), ("colver", theirs)) if vals.get(c) == ref_ns.get(c)]
                print(
                    f"    {c}: plis {ours.get(c)}  colver {theirs.get(c)}  reference {ref_ns.get(c)}"
                    f"  -> right: {', '.join(who) or 'neither'}",
                    file=out,
                )
            return
        card = diff[0]


# --- the comparison ------------------------------------------------------------------------


def compare(n: int, tt_megabytes: int, localize_mismatches: bool, out: Any) -> int:
    why = engine_available()
    if why is not None:
        print(f"plis engine not available ({why}): timing colver alone", file=out)
    if why is None:
        warm_up(tt_megabytes)
    rows = []
    mismatched = 0
    for i, deal in enumerate(deals("belote", n)):
        env = colver_env(deal)
        ours: dict[str, int] = {}
        ours_ms = float("nan")
        nodes = 0
        if why is None and i % 2 == 0:
            ours, ours_ms, nodes = our_values(deal, tt_megabytes)
        theirs, theirs_ms = colver_values(env)
        if why is None and i % 2 == 1:
            ours, ours_ms, nodes = our_values(deal, tt_megabytes)
        ratio = ours_ms / theirs_ms if why is None and theirs_ms > 0 else float("nan")
        diff = differences(ours, theirs) if why is None else []
        rows.append((ours_ms, theirs_ms, ratio, nodes))
        status = "ok" if not diff else f"MISMATCH on {' '.join(diff)}"
        print(
            f"deal {i:4}  trump {deal['trump']}  plis {ours_ms:9.1f} ms  colver {theirs_ms:9.1f} ms  "
            f"ratio {ratio:7.3f}  {status}",
            file=out,
        )
        if diff:
            mismatched += 1
            print(f"  deal: {json.dumps(deal)}", file=out)
            show_values(ours, theirs, out)
            if set(ours) != set(theirs):
                print("  the legal first cards differ", file=out)
            elif localize_mismatches:
                localize(deal, diff[0], tt_megabytes, out)
        out.flush()

    theirs_all = [r[1] for r in rows]
    print(file=out)
    print(
        f"deals {len(rows)}, colver median {statistics.median(theirs_all):.1f} ms, total {sum(theirs_all) / 1000:.2f} s",
        file=out,
    )
    if why is None:
        ours_all = [r[0] for r in rows]
        ratios = [r[2] for r in rows]
        geo = statistics.geometric_mean(ratios) if all(r > 0 for r in ratios) else float("nan")
        print(
            f"plis median {statistics.median(ours_all):.1f} ms, total {sum(ours_all) / 1000:.2f} s, "
            f"mean nodes {statistics.fmean(r[3] for r in rows):.0f}",
            file=out,
        )
        print(
            f"ratio plis/colver: median {statistics.median(ratios):.3f}, geometric mean {geo:.3f}, "
            f"of totals {sum(ours_all) / sum(theirs_all):.3f}",
            file=out,
        )
        print(f"deals whose values differ: {mismatched}", file=out)
    else:
        # colver timed alone checks nothing: a run that compared no value must not pass.
        print("no value compared: the plis engine is not available", file=out)
        return 2
    return 1 if mismatched else 0


def check_rules(n: int, seed: int, out: Any) -> int:
    """Random play in both: the legal cards agree at every step, colver's values
    agree with the reference search when at most 3 tricks are left, and the points
    agree at the end."""
    from solver.position import Position
    from solver.reference import reference_values

    rng = random.Random(seed)
    steps = solves = bad = 0
    for deal in deals("belote", n, seed=seed):
        env = colver_env(deal)
        position = Position.from_dict(deal)
        solve_at = rng.choice([5, 6]) * 4 + rng.randrange(4)  # cards played before the check
        played = 0
        while not position.is_over:
            ours = sorted(str(c) for c in position.legal_moves())
            theirs = sorted(card_of(c) for c in env.legal_actions())
            steps += 1
            if env.current_player() != position.to_move or ours != theirs:
                bad += 1
                print(f"legal cards differ: {json.dumps(position.to_dict())}", file=out)
                print(f"  plis {ours}\n  colver {theirs}", file=out)
            if played == solve_at:
                ref = {str(c): ns_points(int(v), position.side) for c, v in reference_values(position).items()}
                got, _ = colver_values(env)
                solves += 1
                if ref != got:
                    bad += 1
                    print(f"values differ: {json.dumps(position.to_dict())}", file=out)
                    print(f"  reference {ref}\n  colver {got}", file=out)
            card = rng.choice(theirs)
            env.step(colver_index(card))
            position = position.play(card)
            played += 1
        if list(env.get_points()) != list(position.scored):
            bad += 1
            print(f"final points differ: colver {env.get_points()} plis {position.scored}", file=out)
            print(f"  deal: {json.dumps(deal)}", file=out)
    print(
        f"rules check: {n} deals, {steps} positions with legal cards compared, {solves} values "
        f"against the reference, {bad} differences",
        file=out,
    )
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vs_colver", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=at_least(0), default=200, help="belote deals to compare (default 200)")
    parser.add_argument("--tt-megabytes", type=megabytes, default=8, help="our table size (default 8)")
    parser.add_argument(
        "--check-rules", type=at_least(0), default=0, metavar="N", help="also check the rules on N randomly played deals"
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the --check-rules deals and play")
    parser.add_argument("--no-localize", action="store_true", help="do not follow a mismatch down")
    args = parser.parse_args(argv)
    try:
        import colver
    except ImportError:
        print("colver is not installed (pip install colver)", file=sys.stderr)
        return 2
    print(f"colver {colver.__version__}", file=sys.stdout)
    status = 0
    if args.check_rules:
        status |= check_rules(args.check_rules, args.seed, sys.stdout)
    if args.deals:
        status |= compare(args.deals, args.tt_megabytes, not args.no_localize, sys.stdout)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
