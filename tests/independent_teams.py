"""What the independent rule checks of the four-player team games (Klaverjas, Jass, Belote) share.

Seats 0 and 2 play against 1 and 3. Like independent_common, on which it builds, this is
written from RULES.md and FORMAT.md alone: the bonus for a team that takes every trick
(Klaverjas's pit, Jass's match, Belote's capot), each move's value, and the positions and
playouts the game modules compare plis on. Each game module keeps its own rules.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from solver import Position
from tests.independent_common import (
    State,
    TrickGame,
    check_along,
    check_moves,
    memo_move_values,
    memo_whole_move_values,
    move_values,
    playout,
    plis_legal,
    position_dict,
)


class TeamGame(TrickGame):
    """Four seats in two teams; the legal cards, in pack order, of the seat to move come from `legal_cards`."""

    n = 4
    cards: Sequence[str] = ()  # the pack, in the order hands are kept
    tricks_in_deal = 8
    sweep_bonus = 0  # what a team that takes every trick adds at the end

    @property
    def n_sides(self) -> int:
        return 2

    def side(self, seat: int) -> int:
        return seat % 2

    def legal_cards(self, hand: Sequence[str], trick: Sequence[str], leader: int) -> set[str]:
        raise NotImplementedError

    def moves(self, st: State) -> list[str]:
        return sorted(self.legal_cards(st.hands[st.to_move], st.trick, st.leader), key=self.cards.index)

    def final(self, st: State) -> tuple[int, int]:
        """Each team's total at the end of the deal: what it scored, plus the sweep bonus for all the tricks."""
        assert st.over
        a, b = (p + (self.sweep_bonus if t == self.tricks_in_deal else 0) for p, t in zip(st.scored, st.tricks))
        return a, b

    def kept(self, st: State) -> tuple[int, ...]:
        """The sweep bonus counts in plis's `scored` once the deal is over."""
        return self.final(st) if st.over else st.scored

    def settle(self, totals: tuple[int, int], objective: str) -> tuple[int, int]:
        """The final scores under `objective`; with no contract to settle, the totals themselves."""
        return totals

    def leaf(self, me: int, objective: str) -> Callable[[State], int]:
        """A finished deal's value for team `me`: its final score minus the other team's
        (RULES.md, "Value of a position")."""

        def value(end: State) -> int:
            f = self.settle(self.final(end), objective)
            return f[me] - f[1 - me]

        return value

    def values(self, st: State, objective: str = "score") -> dict[str, int]:
        """Each legal move's value for the side to move."""
        return move_values(self, st, self.leaf(self.side(st.to_move), objective))

    def whole_memo_values(self, st: State, objective: str = "score") -> dict[str, int]:
        """`values` by the minimax memoised on whole states: a trick deeper, any objective."""
        return memo_whole_move_values(self, st, self.leaf(self.side(st.to_move), objective))

    def additive_values(self, st: State) -> dict[str, int]:
        """`values` under `raw` (which adds up trick by trick, the sweep bonus at the end), by the
        memoised minimax: for the deeper endgames."""
        me = self.side(st.to_move)

        def end(final: State) -> int:
            f = self.final(final)
            return (f[me] - final.scored[me]) - (f[1 - me] - final.scored[1 - me])

        return memo_move_values(self, st, me, lambda s: s.scored[me] - s.scored[1 - me], end)

    def situations(self, st: State) -> set[str]:
        """Names of the finer rules that bear on the seat to move (counted, so that a test can see they came up)."""
        return set()


def check_values(g: TeamGame, st: State, objectives: Sequence[str]) -> int:
    """plis's legal cards, and its value of every legal move (and of the position), against ours, under
    `objectives` whose values are the same; returns the moves compared."""
    mine = g.values(st)
    d = position_dict(g, st)
    assert plis_legal(Position.from_dict(d)) == sorted(mine), d
    for objective in objectives:
        check_moves(d, objective, mine)
    return len(mine)


def check_endgames(g: TeamGame, states: Iterable[State], objectives: Sequence[str]) -> Counter[str]:
    """`check_values` at each of `states`; returns how often each of `g.situations` came up there."""
    counts: Counter[str] = Counter()
    compared = 0
    for st in states:
        counts.update(g.situations(st))
        compared += check_values(g, st, objectives)
    assert compared > 0
    return counts


def check_deeper_endgames(g: TeamGame, states: Iterable[State], objectives: Sequence[str]) -> int:
    """plis's value of every legal move against the memoised minimax (`additive_values`) under
    `objectives` whose values are `raw`'s; returns the moves compared."""
    compared = 0
    for st in states:
        mine = g.additive_values(st)
        d = position_dict(g, st)
        for objective in objectives:
            check_moves(d, objective, mine)
        compared += len(mine)
    return compared


def filler(g: TeamGame, leader: int, trick: list[str], hand: list[str]) -> State:
    """A position around a hand-checked trick: the other seats get unused clubs and diamonds."""
    spare = [c for c in g.cards if c not in set(trick) | set(hand) and c[0] in "CD"]
    seat = (leader + len(trick)) % 4
    hands: list[tuple[str, ...]] = []
    for s in range(4):
        if s == seat:
            hands.append(tuple(hand))
            continue
        n = len(hand) - 1 if (s - leader) % 4 < len(trick) else len(hand)
        hands.append(tuple(spare[:n]))
        spare = spare[n:]
    return State(tuple(hands), tuple(trick), leader, (0, 0), (g.tricks_in_deal - len(hand), 0))


def endgame_history(g: TeamGame, rng: random.Random, left: int, points: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """`scored` and `tricks` before an endgame of `left` tricks: the tricks played split between the
    teams at random, and `points` in the same proportion."""
    played = g.tricks_in_deal - left
    split = rng.randint(0, played)
    return (points * split // played, points - points * split // played), (split, played - split)


def swept(st: State, side: int, scored: tuple[int, int]) -> State:
    """`st` with every trick so far taken by team `side` (its sweep bonus at stake), and `scored` as given."""
    tricks = [0, 0]
    tricks[side] = st.tricks[0] + st.tricks[1]
    return replace(st, scored=scored, tricks=(tricks[0], tricks[1]))


def stacked_hands(g: TeamGame, rng: random.Random, side: int) -> list[list[str]]:
    """Team `side` gets the stronger half of the pack (mostly): with greedy play it likely takes every trick."""
    size = len(g.cards) // 4
    pack = sorted(g.cards, key=lambda c: (g.strength(c), rng.random()), reverse=True)
    strong, weak = pack[: 2 * size], pack[2 * size :]
    for _ in range(rng.randint(0, 2)):  # a swap or two so that the sweep is not certain
        i, j = rng.randrange(2 * size), rng.randrange(2 * size)
        strong[i], weak[j] = weak[j], strong[i]
    rng.shuffle(strong)
    rng.shuffle(weak)
    hands: list[list[str]] = []
    for seat in range(4):
        src = strong if seat % 2 == side else weak
        hands.append(sorted(src[:size], key=g.cards.index))
        del src[:size]
    return hands


def choose(g: TeamGame, rng: random.Random, st: State, style: str, strong_side: int) -> str:
    """A card to play: `greedy`, the strong team plays its strongest card; `trumpy`, mostly a trump if legal; else at random."""
    legal = g.moves(st)
    if style == "greedy" and g.side(st.to_move) == strong_side:
        return max(legal, key=g.strength)
    if style == "trumpy":
        trumps = [c for c in legal if c[0] == g.trump]
        if trumps and rng.random() < 0.7:
            return rng.choice(trumps)
    return rng.choice(legal)


def play_along(
    g: TeamGame, st: State, pos: Position, pick: Callable[[State], str], counts: Counter[str] | None
) -> tuple[list[State], list[str]]:
    """Play the deal to its end from `st`, as `pick` chooses, with plis's `pos` alongside (`check_along`),
    counting `g.situations` before every card. Returns every state met and the cards played."""
    path = playout(g, st, pick)
    check_along(g, pos, path, None if counts is None else lambda s: counts.update(g.situations(s)))
    return [s for s, _ in path], [c for _, c in path[:-1]]
