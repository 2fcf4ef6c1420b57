"""The reference search: plain minimax over `Position.play`, slow and plainly correct.

Written apart from the engine, so that the tests can hold the engine against it.  It
walks every line (remembering positions it has already valued, keyed on the whole
state) and values each legal move of the root for the side to move.
"""

from __future__ import annotations

from typing import Union

from .cards import Card
from .position import Position

Value = Union[int, bool]


def reference_values(position: Position) -> dict[Card, Value]:
    """The exact value of every legal move, for the side of the seat to move."""
    side = position.side
    lowest_is_best = position.rules.lowest_is_best and position.objective == "points"
    memo: dict[tuple, Value] = {}

    def preference(value: Value) -> int:
        return -int(value) if lowest_is_best else int(value)

    def value(pos: Position) -> Value:
        if pos.is_over:
            return pos.value_for(side)
        key = (pos.hands, pos.trick, pos.leader, pos.scored, pos.tricks)
        if key in memo:
            return memo[key]
        values = [value(pos.play(card)) for card in pos.legal_moves()]
        ours = pos.rules.side_of(pos.to_move) == side
        result = max(values, key=preference) if ours else min(values, key=preference)
        memo[key] = result
        return result

    return {card: value(position.play(card)) for card in position.legal_moves()}


def reference_value(position: Position) -> Value:
    """The exact value of the position for the side of the seat to move."""
    values = reference_values(position)
    lowest_is_best = position.rules.lowest_is_best and position.objective == "points"
    pick = min if lowest_is_best else max
    return pick(values.values(), key=int)
