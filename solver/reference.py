"""The reference search: plain minimax over the plain rules, slow and plainly correct.

Written apart from the engine, so that the tests can hold the engine against it.  It
uses only the game's `Rules` (legal cards, trick winner, trick value, settlement),
walks every line (for a yes/no value, until a card decides it), remembers positions
it has already valued (keyed on the whole state) and values each legal move of the
root for the side to move.
"""

from __future__ import annotations

from .cards import Card
from .games.base import YES_NO_OBJECTIVES
from .games.jass import Putz
from .leaf import rest_guess
from .position import Position

Value = int | bool
# hands, trick, leader, scored per side, tricks per side
State = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], int, tuple[int, ...], tuple[int, ...]]


def reference_values(position: Position, horizon: int | None = None) -> dict[Card, Value]:
    """The exact value of every legal move, for the side of the seat to move.

    With `horizon` (two sides, values that add up): the engine's estimate instead,
    best play over the next `horizon` tricks (the current one included), then the
    score so far and the leaf's guess at the rest (`leaf.rest_guess`; where the game
    has no weights, the points after it shared evenly: nothing to either side)."""
    rules = position.rules
    objective = position.objective
    n = rules.n_players
    side = position.side
    lowest_is_best = rules.lowest_is_best and objective == "points"
    memo: dict[State, Value] = {}

    def preference(value: Value) -> int:
        return -int(value) if lowest_is_best else int(value)

    def final(scored: tuple[int, ...], tricks: tuple[int, ...]) -> Value:
        finals = rules.settle(scored, objective)
        if objective in ("score", "raw"):
            return finals[side] - finals[1 - side]
        if objective == "points":
            return finals[side]
        if objective == "all_tricks":
            return tricks[side] == rules.hand_size
        return finals[side] >= Putz.POMME_BELOW  # pomme

    def play(state: State, card: Card) -> State:
        hands, trick, leader, scored, tricks = state
        seat = (leader + len(trick)) % n
        hands = hands[:seat] + (tuple(c for c in hands[seat] if c != card),) + hands[seat + 1 :]
        trick = trick + (card,)
        if len(trick) < n:
            return hands, trick, leader, scored, tricks
        winner = (leader + rules.trick_winner(trick)) % n
        won = rules.side_of(winner)
        last = not any(hands)
        gained = rules.trick_value(trick, last)
        if last and rules.sweep_bonus and tricks[won] + 1 == rules.hand_size:
            gained += rules.sweep_bonus
        scored = tuple(s + (gained if i == won else 0) for i, s in enumerate(scored))
        tricks = tuple(t + (1 if i == won else 0) for i, t in enumerate(tricks))
        return hands, (), winner, scored, tricks

    def legal(state: State) -> list[Card]:
        hands, trick, leader, _, _ = state
        return rules.legal(hands[(leader + len(trick)) % n], trick, leader)

    def value(state: State) -> Value:
        hands, trick, leader, scored, tricks = state
        if not trick and not any(hands):
            return final(scored, tricks)
        if horizon is not None and not trick and len(hands[leader]) <= position.tricks_left - horizon:
            tricks_left = len(hands[leader])
            rest = sum(rules.points(c) for hand in hands for c in hand)
            rest += rules.per_trick_bonus * tricks_left + rules.last_trick_bonus
            return scored[side] - scored[1 - side] + (rest_guess(rules, hands, leader, side, tricks, rest) or 0)
        if state in memo:
            return memo[state]
        ours = rules.side_of((leader + len(trick)) % n) == side
        values = (value(play(state, card)) for card in legal(state))
        if objective in YES_NO_OBJECTIVES:
            # a yes/no value: the best of them is any() for the side, all() against it,
            # which stop at the first card that decides (Putz's pomme took minutes)
            result: Value = any(values) if ours else all(values)
        else:
            result = max(values, key=preference) if ours else min(values, key=preference)
        memo[state] = result
        return result

    root: State = (position.hands, position.trick, position.leader, position.scored, position.tricks)
    return {card: value(play(root, card)) for card in legal(root)}


def reference_value(position: Position) -> Value:
    """The exact value of the position for the side of the seat to move."""
    values = reference_values(position)
    lowest_is_best = position.rules.lowest_is_best and position.objective == "points"
    pick = min if lowest_is_best else max
    return pick(values.values(), key=int)
