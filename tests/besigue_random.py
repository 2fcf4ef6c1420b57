"""Seeded random Bésigue positions: a shuffled deal played forward by random legal moves."""

from __future__ import annotations

import random

from solver.besigue import BesiguePosition
from solver.cards import SUITS, deck

PACK = [c for c in deck("AKQJT987")] * 2


def random_deal(rng: random.Random, phase1: str = "seed", dealer: int | None = None) -> BesiguePosition:
    """A shuffled deal before the first trick (9 cards each, 46 in the talon)."""
    cards = list(PACK)
    rng.shuffle(cards)
    talon = cards[18:]
    data = {
        "game": "besigue",
        "options": {"phase1": phase1},
        "trump": talon[-1].suit,
        "deal": [" ".join(map(str, cards[:9])), " ".join(map(str, cards[9:18]))],
        "talon": [str(c) for c in talon],
        "dealer": rng.randrange(2) if dealer is None else dealer,
        "played": [],
    }
    return BesiguePosition.from_dict(data)


def random_move(rng: random.Random, position: BesiguePosition, meld_rate: float = 0.8) -> str:
    """A random legal move; melds and sevens are preferred, so that marks appear."""
    moves = position.legal_moves()
    if position.to_declare is not None:
        declarations = [m for m in moves if m != "pass"]
        if declarations and rng.random() < meld_rate:
            return rng.choice(declarations)
    return rng.choice(moves)


def play_out(rng: random.Random, position: BesiguePosition) -> list[BesiguePosition]:
    """`position` and every position after it, to the end of the deal, by random moves."""
    line = [position]
    while not line[-1].is_over:
        line.append(line[-1].play(random_move(rng, line[-1])))
    return line


def play_until(rng: random.Random, position: BesiguePosition, talon_left: int, tricks_left: int | None = None,
               stop: str = "lead") -> BesiguePosition:
    """Play random moves until the talon holds `talon_left` cards (and, in phase 2,
    `tricks_left` tricks remain), stopping at a lead, mid-trick or at a declaration."""
    assert stop in ("lead", "trick", "declare")
    while True:
        at_lead = not position.trick and position.to_declare is None
        if len(position.talon) == talon_left and (tricks_left is None or position.tricks_left == tricks_left):
            if stop == "lead" and at_lead:
                return position
            if stop == "trick" and len(position.trick) == 1:
                return position
            if stop == "declare" and position.to_declare is not None:
                return position
        if position.is_over or len(position.talon) < talon_left:
            raise ValueError("overshot")
        if stop == "declare" and talon_left == 0:
            raise ValueError("no declaration with an empty talon")
        position = position.play(random_move(rng, position))


def random_position(rng: random.Random, talon_left: int, tricks_left: int | None = None, stop: str = "lead",
                    phase1: str | None = None) -> BesiguePosition:
    """A random position with `talon_left` talon cards (even), reached by random play."""
    while True:
        start = random_deal(rng, phase1 or rng.choice(["seed", "standard"]))
        try:
            return play_until(rng, start, talon_left, tricks_left, stop)
        except ValueError:
            continue


__all__ = ["SUITS", "random_deal", "random_position"]


# Small positions: fewer cards than a real deal, for the slow reference search.  The
# rules do not depend on hand sizes (phase 1 lasts while the talon has cards, the deal
# ends when both hands are empty), so these exercise every rule at a fraction of the cost.
RICH_POOL = [c for c in deck("AKQJT987") if c.rank in "KQJA7" or str(c) in ("ST", "HT")]


def small_position(rng: random.Random, hand_size: int, talon_left: int, warmup_tricks: int = 2,
                   rich: bool | None = None, phase1: str | None = None) -> BesiguePosition:
    """Hands of `hand_size` cards after `warmup_tricks` random phase-1 tricks (which
    leave marks: melds, sevens, an exchange), with `talon_left` cards still to draw."""
    from solver.besigue import Copy, _sorted
    from solver.games.besigue import Besigue

    rich = rng.random() < 0.6 if rich is None else rich
    pool = (RICH_POOL if rich else list(deck("AKQJT987"))) * 2
    rng.shuffle(pool)
    talon = tuple(pool[2 * hand_size: 2 * hand_size + talon_left + 2 * warmup_tricks])
    trump = talon[-1].suit
    options = {"phase1": phase1 or rng.choice(["seed", "standard"])}
    rules = Besigue(options, trump, None)
    hands = (_sorted([Copy(c) for c in pool[:hand_size]]), _sorted([Copy(c) for c in pool[hand_size: 2 * hand_size]]))
    position = BesiguePosition(rules, hands, talon, leader=rng.randrange(2))
    while len(position.talon) > talon_left or position.to_declare is not None:
        position = position.play(random_move(rng, position))
    if position.phase == 1:
        position = add_marks(rng, position)
    return position


def add_marks(rng: random.Random, position: BesiguePosition, rate: float = 0.3) -> BesiguePosition:
    """Some copies face up with random kinds they can have, some trump 7s scored: marks
    a longer deal could have left (any marks the format allows)."""
    from dataclasses import replace

    from solver.besigue import Copy, _sorted
    from solver.games.besigue import SEVEN_MARK

    rules = position.rules
    hands = []
    for hand in position.hands:
        copies = []
        for copy in hand:
            kinds = rules.kinds_of(copy.card)
            if copy.card == position.trump_seven and rng.random() < 0.5:
                copy = Copy(copy.card, frozenset({SEVEN_MARK}))
            elif kinds and rng.random() < rate:
                copy = Copy(copy.card, frozenset(rng.sample(kinds, rng.randint(1, len(kinds)))))
            copies.append(copy)
        hands.append(_sorted(copies))
    return replace(position, hands=(hands[0], hands[1]))
