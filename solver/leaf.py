"""The leaf of an estimate: what the tricks beyond its horizon are likely to bring.

An estimate (`compile.estimate`, a limited hint's guide) searches the next few tricks
exactly and values the position it reaches at a trick boundary by the score so far
plus a guess at the rest.  Sharing the rest evenly was the first guess: on positions
of random play with k tricks left its mean error is 3 to 70 points in Jass (k = 1 to
8).  A linear function of who holds the trumps, the points and the masters halves it
(`benchmarks/leaf_fit.py`, which also wrote the weights in `leaf_weights.py`).

The engine computes the same (`_engine.pyx`, `leaf_rest`); this plain version serves
the reference search, the fit and the tests.  Two sides only: the paranoid games keep
the even share.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .games.base import Rules
from .leaf_weights import LEAF_SCALE, LEAF_WEIGHTS

# what the weights multiply, each counted for the analysed side's seats less the
# other side's: card points held; trumps held; their points; plain groups whose
# highest card left is the side's (masters); those cards' points; the highest trump
# left is the side's; the side leads the next trick (1, else -1); the sweep bonus
# (Jass's match, belote's capot), where only the side can still take every trick
FEATURES = ("points", "trumps", "trump_points", "masters", "master_points", "master_trump", "lead", "sweep")


def weights_key(rules: Rules) -> tuple[str, int, str]:
    """The key of a game's weights in LEAF_WEIGHTS: its name, players and kind of trump
    (`trump` for a suit; obenabe and undeufe by name)."""
    trump = rules.trump if rules.trump is not None and rules.trump_group is None else "trump"
    return rules.name, rules.n_players, str(trump)


def leaf_weights(rules: Rules) -> tuple[tuple[int, ...], ...] | None:
    """Per tricks left (index 0 unused), the weights of FEATURES, in 1/LEAF_SCALE;
    None where the game has none (the points left then shared evenly)."""
    if rules.n_sides != 2:
        return None
    return LEAF_WEIGHTS.get(weights_key(rules))


def features(
    rules: Rules, hands: Sequence[Sequence[Card]], leader: int, side: int, tricks: Sequence[int]
) -> list[int]:
    """FEATURES at a trick boundary (`hands` per seat, `tricks` taken per side), for `side`."""
    found = [0] * len(FEATURES)
    trump = rules.trump_group
    top: dict[str, tuple[int, Card, int]] = {}  # group: the strongest card left, its seat
    for seat, hand in enumerate(hands):
        sign = 1 if rules.side_of(seat) == side else -1
        for card in hand:
            points = rules.points(card)
            found[0] += sign * points
            group = rules.group(card)
            if group == trump:
                found[1] += sign
                found[2] += sign * points
            strength = rules.strength(card)
            if group not in top or strength > top[group][0]:
                top[group] = (strength, card, seat)
    for group, (_, card, seat) in top.items():
        sign = 1 if rules.side_of(seat) == side else -1
        if group == trump:
            found[5] += sign
        else:
            found[3] += sign
            found[4] += sign * rules.points(card)
    found[6] = 1 if rules.side_of(leader) == side else -1
    found[7] = rules.sweep_bonus * ((tricks[1 - side] == 0) - (tricks[side] == 0))
    return found


def scaled_down(total: int) -> int:
    """`total` / LEAF_SCALE, rounded toward zero (as C's integer division)."""
    return total // LEAF_SCALE if total >= 0 else -(-total // LEAF_SCALE)


def rest_guess(
    rules: Rules, hands: Sequence[Sequence[Card]], leader: int, side: int, tricks: Sequence[int], rest: int
) -> int | None:
    """How many points more than the other side `side` is likely to take from here
    (a trick boundary, `rest` points still to come with the trick bonuses), within
    what is left to take (the sweep bonus too while one side has no trick); None
    where the game has no weights."""
    table = leaf_weights(rules)
    if table is None:
        return None
    tricks_left = len(hands[leader])
    found = features(rules, hands, leader, side, tricks)
    guess = scaled_down(sum(w * f for w, f in zip(table[tricks_left], found, strict=True)))
    reach = rest + (rules.sweep_bonus if min(tricks) == 0 else 0)
    return max(-reach, min(reach, guess))
