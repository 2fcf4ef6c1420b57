"""Fit the weights of the estimates' leaf (`solver/leaf.py`) and write `solver/leaf_weights.py`.

    python -m benchmarks.leaf_fit --positions 300            # fit, print the errors, write the file
    python -m benchmarks.leaf_fit --positions 100 --dry-run  # only print

For each game and kind of trump, and each number k of tricks left: deals of the
benchmark sets' generators under seeds of their own (not the benchmark deals;
Klaberjass for two, which has no set, is dealt here), played at random to a trick
boundary with k tricks left, then solved exactly
(`analyse`, in the objective a hint's estimates use: `score` in Jass and belote,
`raw` in Klaverjas and Klaberjass).  The target is what the side to move gains from
there on against the other side; a least-squares fit without intercept (the `lead`
feature carries the leader's edge) on two thirds of the positions is checked on the
last third against the even share (a gain of 0), and the weights written are those
fitted on all of them.  Jass's suit trumps, obenabe and undeufe are fitted apart.

With 600 positions it runs in about three minutes on this project's machine, most
of it Jass with 8 tricks left.  The file written is data: review its diff like code.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from .arguments import positive
from .deals import deals

# (deal sets, none: `random_deals`; trumps to deal; key in LEAF_WEIGHTS)
TARGETS: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, int, str]], ...] = (
    (("belote",), ("C", "S", "H", "D"), ("belote", 4, "trump")),
    (("klaverjas-rotterdam", "klaverjas-amsterdam"), ("C", "S", "H", "D"), ("klaverjas", 4, "trump")),
    (("klaberjass4",), ("C", "S", "H", "D"), ("klaberjass", 4, "trump")),
    (("jass",), ("C", "S", "H", "D"), ("jass", 4, "trump")),
    (("jass",), ("obenabe",), ("jass", 4, "obenabe")),
    (("jass",), ("undeufe",), ("jass", 4, "undeufe")),
    ((), ("C", "S", "H", "D"), ("klaberjass", 2, "trump")),  # no benchmark set: the default Klaberjass
)
FIT_SEED = 7_000_001  # not a benchmark set's seed: the benchmarks' deals stay unseen
OUT = Path(__file__).resolve().parent.parent / "solver" / "leaf_weights.py"


def random_deals(game: str, players: int, n: int, seed: int) -> list[dict[str, Any]]:
    """`n` deals of `game` for `players`, for a game no benchmark set has: the hands
    dealt from the shuffled pack (the rest out of play), seat 0 to lead, the taker
    drawn (`trump` is set by the caller)."""
    from solver.games import get_game

    cls = get_game(game)
    rules = cls(cls.check_options({"players": players}), "C", None)
    deck, size = list(rules.deck), rules.hand_size
    rng = random.Random(seed)
    made = []
    for _ in range(n):
        rng.shuffle(deck)
        hands = [" ".join(str(c) for c in deck[i * size : (i + 1) * size]) for i in range(players)]
        made.append({"game": game, "options": {"players": players}, "taker": rng.randrange(players), "hands": hands})
    return made


def deal_source(sets: tuple[str, ...], key: tuple[str, int, str], n: int, seed: int) -> list[dict[str, Any]]:
    """`n` deals of the first of `sets` under `seed`, or of `random_deals` where there is none."""
    return deals(sets[0], n, seed=seed) if sets else random_deals(key[0], key[1], n, seed)


def sample(
    sets: tuple[str, ...], trumps: tuple[str, ...], key: tuple[str, int, str], tricks_left: int, n: int
) -> list[tuple[list[int], int]]:
    """`n` positions with `tricks_left` tricks to play: (features for the side to
    move, what that side gains from there on against the other)."""
    from solver import Engine, Position, analyse
    from solver.analysis import _guide, as_position
    from solver.leaf import features

    rng = random.Random(FIT_SEED * 100 + tricks_left)
    rows = []
    engine = None
    for i, deal in enumerate(deal_source(sets, key, n, FIT_SEED + tricks_left)):
        deal = dict(deal, trump=trumps[i % len(trumps)])
        if len(sets) > 1:  # the other sets' options (Klaverjas's rules), in turn
            other = deals(sets[i % len(sets)], 1)[0]
            deal.update({k: v for k, v in other.items() if k not in ("hands", "trump", "leader")})
        start = as_position(deal)
        assert isinstance(start, Position)
        pos = _guide(start)  # the objective estimates are made in (Jass, belote: score; the others: raw)
        while pos.tricks_left > tricks_left or pos.trick:
            pos = pos.play(rng.choice(pos.legal_moves()))
        if engine is None:
            engine = Engine(64 if pos.rules.hand_size > 8 else 8)
        engine.clear()
        value = analyse(pos, engine=engine).value
        assert isinstance(value, int)
        me = pos.side
        gained = value - (pos.scored[me] - pos.scored[1 - me])
        rows.append((features(pos.rules, pos.hands, pos.leader, me, pos.tricks), gained))
    return rows


def fit(rows: list[tuple[list[int], int]]) -> Any:
    import numpy as np

    x = np.array([r[0] for r in rows], float)
    y = np.array([r[1] for r in rows], float)
    weights, *_ = np.linalg.lstsq(x, y, rcond=None)
    return weights


def written_weights(rows: list[tuple[list[int], int]]) -> tuple[int, ...]:
    """The weights fitted on `rows`, in 1/LEAF_SCALE, rounded as the file holds them."""
    from solver.leaf_weights import LEAF_SCALE

    return tuple(round(w * LEAF_SCALE) for w in fit(rows))


def held_out(rows: list[tuple[list[int], int]]) -> tuple[float, float]:
    """Mean absolute error on the last third of `rows` of the even share and of the
    weights fitted on the rest (rounded as written)."""
    from solver.leaf import scaled_down

    cut = len(rows) * 2 // 3
    weights = written_weights(rows[:cut])
    test = rows[cut:]
    even = sum(abs(g) for _, g in test) / len(test)
    model = sum(abs(g - scaled_down(sum(w * f for w, f in zip(weights, x, strict=True)))) for x, g in test) / len(test)
    return even, model


def write(table: dict[tuple[str, int, str], list[tuple[int, ...]]], positions: int) -> None:
    from solver.leaf import FEATURES
    from solver.leaf_weights import LEAF_SCALE

    lines = [
        '"""The weights of the estimates\' leaf (solver/leaf.py), per game, players and',
        "kind of trump, then per tricks left (row 0 unused), in FEATURES' order, in",
        f"1/LEAF_SCALE.  Written by `python -m benchmarks.leaf_fit --positions {positions}`: do not edit.",
        '"""',
        "",
        f"LEAF_SCALE = {LEAF_SCALE}",
        f"# {', '.join(FEATURES)}",
        "LEAF_WEIGHTS: dict[tuple[str, int, str], tuple[tuple[int, ...], ...]] = {",
    ]
    for key, rows in table.items():
        lines.append(f"    {key!r}: (")
        lines.extend(f"        {row!r}," for row in rows)
        lines.append("    ),")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.leaf_fit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=positive, default=300, help="positions per game, trump and tricks left")
    parser.add_argument("--dry-run", action="store_true", help="print the errors, write nothing")
    args = parser.parse_args(argv)
    from solver.analysis import as_position
    from solver.leaf import FEATURES

    table: dict[tuple[str, int, str], list[tuple[int, ...]]] = {}
    for sets, trumps, key in TARGETS:
        hand_size = as_position(dict(deal_source(sets, key, 1, FIT_SEED)[0], trump=trumps[0])).rules.hand_size
        rows_out: list[tuple[int, ...]] = [(0,) * len(FEATURES)]
        for tricks_left in range(1, hand_size):
            rows = sample(sets, trumps, key, tricks_left, args.positions)
            even, model = held_out(rows)
            weights = written_weights(rows)
            rows_out.append(weights)
            print(f"{'/'.join(map(str, key)):<22} {tricks_left} tricks left: mean error {even:6.1f} shared evenly,"
                  f" {model:6.1f} by the weights  {weights}", flush=True)
        table[key] = rows_out
    if not args.dry_run:
        write(table, args.positions)
        print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
