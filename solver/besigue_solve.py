"""Bésigue analysis: every legal move valued by the fast search (`solver._besigue`).

The root is walked here, in Python: each legal move's position is searched by the
engine, which returns the points seat 0 still scores minus seat 1's.  One table
serves all the moves.  A limit (time, nodes, cancel) leaves the moves it did not
reach unsolved, with bounds that need no search (`static_bounds`).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .besigue import BesiguePosition, Copy, engine_state
from .cards import SUITS, Card
from .compile import Outcome
from .games.besigue import FOUR_KIND, LAST_TRICK_BONUS, SEQUENCE_RANKS, SEVEN_BONUS

WIDE = 1 << 20  # beyond any Bésigue score

_local = threading.local()


def besigue_engine(tt_megabytes: int) -> Any:
    """This thread's Bésigue engine (nothing is shared between threads)."""
    from ._besigue import BesigueEngine

    engine = getattr(_local, "engine", None)
    if engine is None or getattr(_local, "tt_megabytes", None) != tt_megabytes:
        engine = BesigueEngine(tt_megabytes)
        _local.engine, _local.tt_megabytes = engine, tt_megabytes
    return engine


def release_engine() -> int:
    """Drop this thread's Bésigue engine (analysis.release_engines); the megabytes of
    its table, 0 if it had none."""
    engine = _local.__dict__.pop("engine", None)
    _local.__dict__.pop("tt_megabytes", None)
    return int(engine.tt_megabytes) if engine is not None else 0


def future_reach(pos: BesiguePosition) -> int:
    """A bound on the points both seats together can still score (so on |future difference|):
    brisques left, the last trick, trump 7s not yet scored, and the best melds still
    possible, one per declaration still to come."""
    cards = [c.card for hand in pos.hands for c in hand] + list(pos.talon) + list(pos.trick)
    brisques = sum(pos.rules.points(c) for c in cards)
    seven = pos.trump_seven
    sevens = sum(1 for hand in pos.hands for c in hand if c.card == seven and not c.marks)
    sevens += sum(1 for c in pos.talon[:-1] if c == seven)  # the talon's last card has scored if it is the 7
    steps = len(pos.talon) // 2  # one declaration step per phase-1 trick still to come
    melds = sorted(possible_melds(pos), reverse=True)[:steps]
    return brisques + LAST_TRICK_BONUS + SEVEN_BONUS * sevens + sum(melds)


def possible_melds(pos: BesiguePosition) -> list[int]:
    """The value of every meld that could still be declared, as many times as it could:
    a meld marks its cards with its kind and no card joins two melds of one kind, so
    the copies (in hand or talon) not yet marked with a kind limit how often it comes."""
    rules = pos.rules
    # the marks of each copy, by card: a limited search bounds every move it left
    # after its deadline, and a scan of all 64 copies for each card asked about
    # (33 scans) had made that 1 to 3 ms past a time limit early in a deal
    marks: dict[str, list[frozenset[str]]] = {}
    for copy in [c for hand in pos.hands for c in hand] + [Copy(c) for c in pos.talon]:
        marks.setdefault(str(copy.card), []).append(copy.marks)

    def free(card: str, kind: str) -> int:
        return sum(1 for m in marks.get(card, ()) if kind not in m)

    values = []
    for suit in SUITS:
        value = rules.meld_points("marriage", [Card.parse(suit + "K")])
        values += [value] * min(free(suit + "K", "marriage"), free(suit + "Q", "marriage"))
    values += [rules.meld_points("besigue", [])] * min(free("SQ", "besigue"), free("DJ", "besigue"))
    if free("SQ", "double_besigue") == 2 and free("DJ", "double_besigue") == 2:
        values.append(rules.meld_points("double_besigue", []))
    for rank, kind in FOUR_KIND.items():
        values += [rules.meld_points(kind, [])] * (sum(free(s + rank, kind) for s in SUITS) // 4)
    values += [rules.meld_points("sequence", [])] * min(free(rules.trump_suit + r, "sequence") for r in SEQUENCE_RANKS)
    return values


class _Budget:
    def __init__(self, time_limit: float | None, node_limit: int | None, cancels: int) -> None:
        self.deadline = time.perf_counter() + time_limit if time_limit else None
        self.nodes_left = node_limit or 0
        self.limited = node_limit is not None and node_limit > 0
        self.nodes = 0
        self.stopped: str | None = None
        self.cancels = cancels  # the engine's cancel() count when the solve began

    def search(self, engine: Any, pos: BesiguePosition, alpha: int, beta: int, horizon: int = 0) -> int | None:
        """The engine's fail-soft value of `pos` in (alpha, beta), or None if a limit stopped it
        (with a `horizon`, the estimate of the engine's horizon search)."""
        if engine.cancels != self.cancels:  # cancelled, perhaps between two searches
            self.stopped = "cancelled"
        if self.stopped:
            return None
        time_left = 0.0
        if self.deadline is not None:
            time_left = self.deadline - time.perf_counter()
            if time_left <= 0:
                self.stopped = "time"
                return None
        if self.limited and self.nodes_left <= 0:
            self.stopped = "nodes"
            return None
        answer = engine.search(engine_state(pos), alpha, beta, node_limit=self.nodes_left, time_limit=time_left,
                               horizon=horizon)
        self.nodes += answer["nodes"]
        if self.limited:
            self.nodes_left = max(0, self.nodes_left - answer["nodes"])
            if self.nodes_left == 0 and not answer["stopped"]:
                self.nodes_left = -1  # spent exactly: the next search would be stopped
        if answer["stopped"]:
            self.stopped = answer["stopped"]
            return None
        return int(answer["value"])


def solve_besigue(
    pos: BesiguePosition,
    engine: Any,
    time_limit: float | None = None,
    node_limit: int | None = None,
    all_moves: bool = True,
) -> Outcome:
    """Values of the legal moves of `pos` for the side to move (final score difference)."""
    budget = _Budget(time_limit, node_limit, engine.cancels)
    sign = 1 if pos.side == 0 else -1
    children = {move: pos.play(move) for move in pos.legal_moves()}
    now = {move: child.scored[0] - child.scored[1] for move, child in children.items()}
    estimates: dict[Any, int | None] = {}
    estimate_tricks = None
    if (time_limit or node_limit) and pos.talon:
        # a limited search first looks 1, 2, ... phase-1 tricks ahead (each pass a few
        # times cheaper than the next), so that the moves it cannot solve still get an
        # estimate; the last pass, with no horizon, is the exact search
        tricks = 1
        while len(pos.talon) - 2 * tricks > 0:
            # the first pass (a trick ahead: a few hundred nodes) runs past the limits,
            # so that a hint names a move even when the engine's set-up spent them
            first = _Budget(None, None, budget.cancels) if tricks == 1 else budget
            found = _value_moves(engine, first, children, now, sign, True, len(pos.talon) - 2 * tricks)
            if first is not budget:
                budget.nodes += first.nodes
                budget.stopped = budget.stopped or first.stopped  # a cancel
            if budget.stopped:
                break
            estimates, estimate_tricks = found, tricks
            tricks += 1
    if estimates and not budget.stopped:
        # the exact search tries the moves the estimates rank best first: stopped, the
        # move it names is then more often a good one (talon 10, 20 deals, 1 s: a mean
        # loss of 4 points against 8; BENCHMARKS.md)
        def rank(move: Any) -> int:
            estimate = estimates.get(move)
            return -estimate if estimate is not None else WIDE

        children = {m: children[m] for m in sorted(children, key=rank)}
    values = _value_moves(engine, budget, children, now, sign, all_moves, 0)
    best = max((v for v in values.values() if v is not None), default=None)
    bounds = {}
    for move, child in children.items():
        if values[move] is None:
            reach = future_reach(child)
            bounds[move] = (sign * now[move] - reach, sign * now[move] + reach)
    if not all_moves:
        values = {m: v for m, v in values.items() if v is not None or budget.stopped}
    outcome = Outcome(values, bounds, [], budget.nodes, budget.stopped)
    if budget.stopped and estimate_tricks is not None:
        outcome.estimates = {m: v for m, v in estimates.items() if values.get(m) is None}
        outcome.estimate_tricks = estimate_tricks
    if budget.stopped is None and best is not None:
        outcome.value = best
        outcome.best_moves = [m for m, v in values.items() if v == best]
        outcome.best = outcome.best_moves[0]
    if budget.stopped is None and best is not None and all_moves:  # a hint has no use for the line (nor do the card games')
        # every value is exact, so the result is too: its line of best play (and so its
        # points) is finished even past a limit.  The line costs little beside the
        # values (2 to 27% of the nodes on 16 positions, the table being warm); cut at
        # the limit, an exact result came out without its points
        line_budget = _Budget(None, None, engine.cancels)
        outcome.line = best_line(pos, engine, line_budget, sign * best - (pos.scored[0] - pos.scored[1]))
        outcome.nodes += line_budget.nodes
        # a cancel stops the line too: the result is then not exact (it has no points),
        # as in the card games
        outcome.limit = line_budget.stopped
    return outcome


def _value_moves(
    engine: Any, budget: _Budget, children: dict[str, BesiguePosition], now: dict[str, int], sign: int, all_moves: bool,
    horizon: int,
) -> dict[Any, int | None]:
    """The value (or, with a horizon, the estimate) of each move for the side to move;
    None where a limit stopped the search, or (all_moves false) for moves worse than the best."""
    values: dict[Any, int | None] = dict.fromkeys(children)
    best: int | None = None
    for move, child in children.items():
        if best is None:
            future = budget.search(engine, child, -WIDE, WIDE, horizon)
        elif all_moves:
            future = exact_near(engine, budget, child, sign * best - now[move], horizon)
        else:
            # is this move at least as good as the best so far?  a null-window test first
            target = sign * best - now[move]  # the seat-0 future that ties the best
            alpha, beta = (target - 1, target) if sign == 1 else (target, target + 1)
            test = budget.search(engine, child, alpha, beta, horizon)
            if test is None:
                break
            if (sign == 1 and test < beta) or (sign == -1 and test > alpha):
                continue  # worse than the best: not valued
            future = budget.search(engine, child, -WIDE, WIDE, horizon)
        if future is None:
            break
        value = sign * (now[move] + future)
        values[move] = value
        if best is None or value > best:
            best = value
    return values


def best_line(pos: BesiguePosition, engine: Any, budget: _Budget, future: int) -> list[Any]:
    """One line of best play to the end of the deal: at each step a move that keeps the
    value (`future` = seat 0's future difference at `pos`).  Empty if a limit stops it."""
    line = []
    while not pos.is_over:
        for move in pos.legal_moves():
            child = pos.play(move)
            gained = (child.scored[0] - child.scored[1]) - (pos.scored[0] - pos.scored[1])
            want = future - gained
            got = budget.search(engine, child, want - 1, want + 1)
            if got is None:
                return []
            if got == want:
                line.append(move)
                pos, future = child, want
                break
        else:
            raise AssertionError("no move keeps the value: the search is inconsistent")
    return line


ASPIRATION = 10


def exact_near(engine: Any, budget: _Budget, pos: BesiguePosition, guess: int, horizon: int = 0) -> int | None:
    """The exact value of `pos`, searched first in a narrow window around `guess` (most
    moves are worth about as much as the best), widened on the side it fails."""
    alpha, beta = guess - ASPIRATION, guess + ASPIRATION
    while True:
        value = budget.search(engine, pos, alpha, beta, horizon)
        if value is None or alpha < value < beta:
            return value
        if value <= alpha:
            alpha, beta = -WIDE, value + 1
        else:
            alpha, beta = value - 1, WIDE
