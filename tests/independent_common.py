"""Shared scaffolding for the independent rule checks (test_independent_*.py).

Nothing here comes from plis's own code: the trick mechanics (with the trick winner of
the games that have a trump suit, from each game's rankings), the plain minimax and the
position builder are written from RULES.md and FORMAT.md alone, so that the game modules
can hold plis's ``legal_moves()`` and ``analyse`` against a second implementation.
plis is used only through its public API (``Position``, ``analyse``). The four-player team
games build on this in independent_teams.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver import GAMES, OptionError, Position, PositionError, analyse

SUITS = "CSHD"  # canonical suit order (RULES.md, "Common notation")


def deck(ranks: str) -> list[str]:
    """Every card of the given ranks, suit then rank."""
    return [s + r for s in SUITS for r in ranks]


@dataclass(frozen=True)
class State:
    """A position as FORMAT.md's hands form has it: per-side `scored` and `tricks`."""

    hands: tuple[tuple[str, ...], ...]
    trick: tuple[str, ...]
    leader: int
    scored: tuple[int, ...]
    tricks: tuple[int, ...]

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def over(self) -> bool:
        return not self.trick and not any(self.hands)

    @property
    def cards_left(self) -> int:
        """Cards in the largest hand: the tricks still to be completed, the current one included."""
        return max(len(h) for h in self.hands)


class TrickGame:
    """The rules a game module supplies; trick mechanics common to all are here."""

    game: str = ""
    n: int = 4
    last_bonus: int = 0  # last trick
    per_trick: int = 0  # points for each trick taken (Bassadewitz `old`)
    # the trump suit and the trick rankings, strongest first, of games with one (all but Bassadewitz)
    trump: str | None = None
    trump_order: str = ""
    plain_order: str = ""

    def side(self, seat: int) -> int:
        return seat

    @property
    def n_sides(self) -> int:
        return self.n

    def legal(self, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
        raise NotImplementedError

    def strength(self, card: str) -> int:
        """Trick strength: any trump above any other card; within a suit, its ranking."""
        if card[0] == self.trump:
            return 100 - self.trump_order.index(card[1])
        return 10 - self.plain_order.index(card[1])

    def winner_index(self, trick: Sequence[str]) -> int:
        """Index, in the trick, of the card that wins it: the highest trump if any trump was played,
        else the highest card of the suit led."""
        led = trick[0][0]
        best = 0
        for i, c in enumerate(trick):
            if c[0] in (led, self.trump) and self.strength(c) > self.strength(trick[best]):
                best = i
        return best

    def card_points(self, card: str) -> int:
        raise NotImplementedError

    def kept(self, st: State) -> tuple[int, ...]:
        """What plis's `scored` should hold at `st` (a game with a bonus counted once the deal is over overrides it)."""
        return st.scored

    def trick_bonus(self, trick: Sequence[str]) -> int:
        """Points a trick brings besides its cards' (and the last trick's): Bassadewitz `old`'s 1, Klaverjas's roem."""
        return self.per_trick

    def header(self) -> dict[str, Any]:
        """game, options, trump, taker: what FORMAT.md needs besides the cards."""
        raise NotImplementedError

    def final_value(self, final: State, me: int, objective: str) -> tuple[Any, tuple[int, ...]]:
        """A finished deal's value for side `me` under `objective`, and its final `points`."""
        raise NotImplementedError

    def start(self, hands: Sequence[Sequence[str]], scored: Sequence[int] | None = None) -> State:
        return State(tuple(tuple(h) for h in hands), (), 0, tuple(scored or [0] * self.n_sides), (0,) * self.n_sides)

    def play(self, st: State, card: str) -> State:
        seat = st.to_move
        hands = list(st.hands)
        hand = list(hands[seat])
        hand.remove(card)
        hands[seat] = tuple(hand)
        trick = st.trick + (card,)
        if len(trick) < self.n:
            return State(tuple(hands), trick, st.leader, st.scored, st.tricks)
        w = (st.leader + self.winner_index(trick)) % self.n
        pts = sum(self.card_points(c) for c in trick) + self.trick_bonus(trick)
        if not any(hands):
            pts += self.last_bonus
        scored = list(st.scored)
        tricks = list(st.tricks)
        scored[self.side(w)] += pts
        tricks[self.side(w)] += 1
        return State(tuple(hands), (), w, tuple(scored), tuple(tricks))

    def moves(self, st: State) -> list[str]:
        return self.legal(st.hands[st.to_move], st.trick)


def minimax(g: TrickGame, st: State, me: int, leaf: Callable[[State], int]) -> int:
    """Plain minimax to the end of the deal: side `me` maximises `leaf`, every other side minimises it.

    In the individual games every seat is its own side, so this is the paranoid search
    RULES.md asks for (the seat to move against a coalition of all others).
    """
    if st.over:
        return leaf(st)
    vals = [minimax(g, g.play(st, c), me, leaf) for c in g.moves(st)]
    return max(vals) if g.side(st.to_move) == me else min(vals)


def move_values(g: TrickGame, st: State, leaf: Callable[[State], int]) -> dict[str, int]:
    """The value of every legal move, for the side of the seat to move (as FORMAT.md's `moves`)."""
    me = g.side(st.to_move)
    return {c: minimax(g, g.play(st, c), me, leaf) for c in g.moves(st)}


def memo_move_values(
    g: TrickGame, st: State, me: int, running: Callable[[State], int], end: Callable[[State], int]
) -> dict[str, int]:
    """`move_values` for a value that adds up card by card: `running(state)` (a sum over the points
    scored so far, such as side `me`'s less the other's) plus, once the deal is over, `end(final)`,
    which may depend on the cards played only through which sides took no trick (a bonus for
    taking every trick). What the rest of the deal adds to `running` then depends only on the
    cards in the hands, the trick, the leader and those sides, so the minimax is memoised on
    them: positions a trick or two deeper than the plain search reaches in the tests' time.
    Side `me` maximises, the others minimise."""
    memo: dict[tuple[Any, ...], int] = {}

    def still_to_come(s: State) -> int:
        if s.over:
            return end(s)
        key = (s.hands, s.trick, s.leader, tuple(t == 0 for t in s.tricks))
        if key not in memo:
            now = running(s)
            values = [running(after) - now + still_to_come(after) for after in (g.play(s, c) for c in g.moves(s))]
            memo[key] = max(values) if g.side(s.to_move) == me else min(values)
        return memo[key]

    return {c: running(after) + still_to_come(after) for c, after in ((c, g.play(st, c)) for c in g.moves(st))}


def memo_whole_move_values(g: TrickGame, st: State, leaf: Callable[[State], int]) -> dict[str, int]:
    """`move_values` memoised on whole states (`scored` and `tricks` included), for any
    value of the final state: fewer positions than `memo_move_values` can share, but no
    condition on the value."""
    me = g.side(st.to_move)
    memo: dict[State, int] = {}

    def value(s: State) -> int:
        if s.over:
            return leaf(s)
        if s not in memo:
            values = [value(g.play(s, c)) for c in g.moves(s)]
            memo[s] = max(values) if g.side(s.to_move) == me else min(values)
        return memo[s]

    return {c: value(g.play(st, c)) for c in g.moves(st)}


def alphabeta_move_values(g: TrickGame, st: State, leaf: Callable[[State], int]) -> dict[str, int]:
    """`memo_whole_move_values` by alpha-beta: each whole state keeps the bounds its searches
    proved (a lower and an upper one, equal once exact) and the move that last decided it,
    tried first next time. Exact for any value of the final state, and fast enough for
    endgames of 6 tricks (nat or bate at stake), where the plain memo takes minutes."""
    me = g.side(st.to_move)
    table: dict[State, tuple[int, int, str]] = {}
    infinity = 1 << 30

    def value(s: State, alpha: int, beta: int) -> int:
        if s.over:
            return leaf(s)
        lower, upper, first = table.get(s, (-infinity, infinity, ""))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        mine = g.side(s.to_move) == me
        moves = sorted(g.moves(s), key=lambda c: c != first)
        best, best_move = (-infinity if mine else infinity), moves[0]
        a, b = alpha, beta
        for c in moves:
            v = value(g.play(s, c), a, b)
            if (v > best) if mine else (v < best):
                best, best_move = v, c
            if mine:
                a = max(a, v)
            else:
                b = min(b, v)
            if a >= b:
                break
        # a value at or below the window is an upper bound, at or above it a lower bound
        if best <= alpha:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        table[s] = (lower, upper, best_move)
        return best

    return {c: value(g.play(st, c), -infinity, infinity) for c in g.moves(st)}


def position_dict(g: TrickGame, st: State) -> dict[str, Any]:
    """FORMAT.md's hands form of a state."""
    d = g.header()
    d.update(
        hands=[" ".join(h) for h in st.hands],
        trick=list(st.trick),
        leader=st.leader,
        scored=list(st.scored),
        tricks=list(st.tricks),
    )
    return d


def deal_dict(g: TrickGame, deal: Sequence[Sequence[str]], played: Sequence[str]) -> dict[str, Any]:
    """FORMAT.md's deal + played form: plis then works out the bonuses fixed before play itself."""
    d = g.header()
    d.update(deal=[" ".join(h) for h in deal], played=list(played))
    return d


def plis_legal(pos: Position) -> list[str]:
    return sorted(str(c) for c in pos.legal_moves())


def check_moves(d: dict[str, Any], objective: str, mine: dict[str, Any], best: Callable[..., Any] = max) -> None:
    """plis's value of every legal move of position `d` under `objective`, and of the position
    (the `best` of them), against ours (`mine`)."""
    r = analyse(Position.from_dict(d), objective=objective)
    assert r.exact
    assert {m.move: m.value for m in r.moves} == mine, (objective, d)
    assert r.value == best(mine.values()), (objective, d)


def random_deal(rng: random.Random, cards: Sequence[str], n: int, size: int) -> list[list[str]]:
    """`n` hands of `size` cards from a shuffled pack; the rest stay out of play."""
    pack = list(cards)
    rng.shuffle(pack)
    return [pack[i * size : (i + 1) * size] for i in range(n)]


def at_random(g: TrickGame, rng: random.Random) -> Callable[[State], str]:
    """A `playout` choice: any legal card."""
    return lambda st: rng.choice(g.moves(st))


def playout(g: TrickGame, st: State, pick: Callable[[State], str], cards: int | None = None) -> list[tuple[State, str]]:
    """Play from `st` as `pick` chooses, `cards` cards or to the end: every state met, with the card
    then played (the last state with "")."""
    path: list[tuple[State, str]] = []
    while not st.over and (cards is None or len(path) < cards):
        card = pick(st)
        path.append((st, card))
        st = g.play(st, card)
    path.append((st, ""))
    return path


@dataclass
class Tally:
    """What a module compared, kept so that a coverage test can see the interesting cases came up."""

    legal_checks: int = 0
    positions: int = 0
    moves: int = 0
    deals: int = 0

    def __post_init__(self) -> None:
        self.cases: dict[str, int] = {}

    def case(self, name: str) -> None:
        self.cases[name] = self.cases.get(name, 0) + 1


def check_options(game: str, valid: dict[str, Any], listed: dict[str, tuple[Any, ...]], bad: list[dict[str, Any]]) -> None:
    """RULES.md's options for a game: defaults (the first value listed) when left out, values, and errors.

    "Options are per game: an option the game does not have, or a value it does not list,
    is an error, never ignored."
    """
    assert Position.from_dict(valid).to_dict()["options"] == {k: v[0] for k, v in listed.items()}
    assert {o.name: tuple(o.values or ()) for o in GAMES[game].OPTIONS} == listed
    for options in bad:
        try:
            Position.from_dict({**valid, "options": options})
        except (OptionError, PositionError):
            continue
        raise AssertionError(f"accepted {game} options {options}")


def check_last_trick(
    g: TrickGame,
    deal: Sequence[Sequence[str]],
    path: list[tuple[State, str]],
    rng: random.Random,
    objectives: Sequence[str],
    tally: Tally,
) -> None:
    """At the last trick every card is forced: plis's value and points, the position given both as
    deal + played and in hands form, are the deal's final ones (`g.final_value`)."""
    final = path[-1][0]
    # the start of the last trick or a card into it
    i = rng.choice([i for i, (st, _) in enumerate(path[:-1]) if st.cards_left == 1])
    st = path[i][0]
    me = g.side(st.to_move)
    for objective in objectives:
        value, points = g.final_value(final, me, objective)
        for d in (deal_dict(g, deal, [c for _, c in path[:i]]), position_dict(g, st)):
            r = analyse(Position.from_dict(d), objective=objective)
            assert r.value == value, (objective, d)
            assert r.points is not None and tuple(r.points) == points, (objective, d)
            tally.positions += 1


def check_along(g: TrickGame, pos: Position, path: list[tuple[State, str]], each: Callable[[State], None] | None = None) -> None:
    """Walk `path` (a `playout`) with plis's `pos` alongside: at every state the `scored` and `tricks`
    plis keeps (`g.kept`), and before every card its legal cards, against ours."""
    played: list[str] = []
    for i, (st, card) in enumerate(path):
        kept = pos.to_dict()
        assert (tuple(kept["scored"]), tuple(kept["tricks"])) == (g.kept(st), st.tricks), (g.header(), played)
        if i == len(path) - 1:
            break
        assert plis_legal(pos) == sorted(g.moves(st)), (position_dict(g, st), played)
        if each is not None:
            each(st)
        pos = pos.play(card)
        played.append(card)


def check_playout(
    g: TrickGame,
    deal: Sequence[Sequence[str]],
    path: list[tuple[State, str]],
    tally: Tally,
    each: Callable[[State], None] | None = None,
) -> None:
    """`check_along` a playout of `deal` given as deal + played (plis works out the bonuses fixed before play)."""
    check_along(g, Position.from_dict(deal_dict(g, deal, [])), path, each)
    tally.legal_checks += len(path) - 1
    tally.deals += 1
