"""Putz held against a second, independent implementation of its rules.

Independent: the rules below (Jass trump play with the Buur exception and no
undertrumping, trick winner, card points, last trick, `points` and `pomme`) are written
from RULES.md ("Putz", "Jass, Schieber", "Value of a position") and
docs/rules-choices.md only, without reading plis's code. plis is used through
``Position`` and ``analyse``.

Checked, for 3 and 5 players with and without `buur_exception`, over seeded random deals
(every trump; with 5 players the card turned for trump is the one out of play):
- at every card of random playouts, plis's ``legal_moves()`` against ours, and the
  `scored`/`tricks` plis keeps;
- near the end of those playouts (2 or 3 tricks left, mid-trick too) the value of every
  legal move under `points` and `pomme`, plis's ``analyse`` against our plain paranoid
  minimax (the seat to move against all the others), with the mover's `scored` also
  moved just below 21 so that `pomme` turns on the play;
- deeper endgames (4 tricks left, 5 with three players) the same way, against a memoised
  paranoid minimax;
- the complete deal: at the last trick (forced), plis's value and points against ours,
  as deal + played and in hands form.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pytest

from solver import Position, analyse
from tests.independent_common import (
    State,
    Tally,
    TrickGame,
    at_random,
    check_last_trick,
    check_moves,
    check_options,
    check_playout,
    deck,
    memo_move_values,
    move_values,
    playout,
    plis_legal,
    position_dict,
)

TRUMP_ORDER = "J9AKQT876"  # highest first (RULES.md, Jass)
PLAIN_ORDER = "AKQJT9876"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "T": 10}
PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10}
CARDS = deck("AKQJT9876")
OBJECTIVES = ("points", "pomme")


class Putz(TrickGame):
    game = "putz"
    trump: str
    last_bonus = 5
    trump_order = TRUMP_ORDER
    plain_order = PLAIN_ORDER

    def __init__(self, players: int, buur_exception: bool, trump: str) -> None:
        self.n = players
        self.buur_exception = buur_exception
        self.trump = trump

    def header(self) -> dict[str, Any]:
        return {"game": "putz", "options": {"players": self.n, "buur_exception": self.buur_exception}, "trump": self.trump}

    def card_points(self, card: str) -> int:
        return (TRUMP_POINTS if card[0] == self.trump else PLAIN_POINTS).get(card[1], 0)

    def legal(self, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
        if not trick:
            return sorted(hand)
        lead = trick[0][0]
        trumps = [c for c in hand if c[0] == self.trump]
        if lead == self.trump:
            # "Trump led: play a trump if you hold one"; Buur exception: "a player whose only
            # trump is the trump Jack may play any card"
            if not trumps or (self.buur_exception and trumps == [self.trump + "J"]):
                return sorted(hand)
            return sorted(trumps)
        if len(trumps) == len(hand):  # "unless every card in your hand is a trump"
            return sorted(hand)
        # "play a card of that suit or a trump; if you hold none of that suit, any card",
        # but no trump lower than the highest trump already on the trick
        on_table = [self.strength(c) for c in trick if c[0] == self.trump]
        allowed = [c for c in trumps if not on_table or self.strength(c) > max(on_table)]
        follow = [c for c in hand if c[0] == lead]
        plain = follow or [c for c in hand if c[0] != self.trump]
        return sorted(plain + allowed)

    def leaf(self, me: int, objective: str) -> Callable[[State], int]:
        if objective == "points":
            return lambda st: st.scored[me]
        return lambda st: int(st.scored[me] >= 21)  # pomme: "can it reach 21"

    def final_value(self, final: State, me: int, objective: str) -> tuple[int | bool, tuple[int, ...]]:
        return (final.scored[me] if objective == "points" else final.scored[me] >= 21), final.scored

    def values(self, st: State, objective: str) -> dict[str, int | bool]:
        raw = move_values(self, st, self.leaf(st.to_move, objective))
        return {c: v if objective == "points" else bool(v) for c, v in raw.items()}


def putz_deal(rng: random.Random, players: int, k: int) -> tuple[str, list[list[str]]]:
    """Trump and hands. 3 players: 9 each, 9 in the kitty; 5 players: 7 each, the turned trump card out."""
    pack = list(CARDS)
    rng.shuffle(pack)
    if players == 5:
        trump = "CSHD"[k % 4]
        out = next(c for c in pack if c[0] == trump)  # the 36th card, "turned for trump"
        pack.remove(out)
        return trump, [pack[7 * s : 7 * s + 7] for s in range(5)]
    return "CSHD"[k % 4], [pack[9 * s : 9 * s + 9] for s in range(3)]


COMBOS = list(itertools.product((3, 5), (True, False)))
TALLY = Tally()


def note_rule_cases(g: Putz, st: State) -> None:
    """Which of the finer play rules bear on this card (for the coverage check)."""
    hand, trick = st.hands[st.to_move], st.trick
    if not trick:
        return
    trumps = [c for c in hand if c[0] == g.trump]
    if trick[0][0] == g.trump and trumps == [g.trump + "J"] and len(hand) > 1:
        TALLY.case("only trump the Jack, on a trump lead")
    on_table = [g.strength(c) for c in trick if c[0] == g.trump]
    if trick[0][0] != g.trump and on_table and len(trumps) < len(hand):
        if any(g.strength(c) < max(on_table) for c in trumps):
            TALLY.case("undertrump barred")


def near_pomme(g: Putz, st: State, rng: random.Random) -> State:
    """The mover's `scored` set a little below 21, so that the remaining play decides `pomme`."""
    scored = list(st.scored)
    scored[st.to_move] = max(0, 21 - rng.randint(1, 35))
    return State(st.hands, st.trick, st.leader, tuple(scored), st.tricks)


def buur_positions(g: Putz, rng: random.Random, count: int) -> list[State]:
    """Endgames where a trump has just been led and the next seat's only trump is the Jack.

    Random play brings the Buur exception up only a few times; these make it come up in
    every run, with the values after it searched too.
    """
    size = 9 if g.n == 3 else 7
    out = []
    for _ in range(count):
        left = rng.choice((2, 3)) if g.n == 3 else 2
        pack = [c for c in CARDS if c != g.trump + "J"]
        rng.shuffle(pack)
        lead = next(c for c in pack if c[0] == g.trump)
        pack.remove(lead)
        plain = [c for c in pack if c[0] != g.trump]
        second = [g.trump + "J"] + plain[: left - 1]
        rest = [c for c in pack if c not in second]
        hands = [rest[: left - 1], second] + [rest[left - 1 + left * i : left - 1 + left * (i + 1)] for i in range(g.n - 2)]
        tricks = [0] * g.n
        for _ in range(size - left):
            tricks[rng.randrange(g.n)] += 1
        scored = tuple(rng.randint(0, 40) for _ in range(g.n))
        out.append(State(tuple(tuple(h) for h in hands), (lead,), 0, scored, tuple(tricks)))
    return out


def check_endgame(g: Putz, st: State) -> None:
    d = position_dict(g, st)
    for objective in OBJECTIVES:
        mine = g.values(st, objective)
        check_moves(d, objective, mine)
        TALLY.positions += 1
        TALLY.moves += len(mine)
        if objective == "pomme" and st.scored[st.to_move] < 21:
            if any(mine.values()):
                TALLY.case("pomme still to reach, and reachable")
            if len(set(mine.values())) > 1:
                TALLY.case("pomme turns on the move")


@pytest.mark.parametrize(("players", "buur_exception"), COMBOS)
def test_random_deals(players: int, buur_exception: bool) -> None:
    rng = random.Random(f"putz-{players}-{buur_exception}")
    before = dict(TALLY.cases)
    for k in range(30):
        trump, deal = putz_deal(rng, players, k)
        g = Putz(players, buur_exception, trump)
        path = playout(g, g.start(deal), at_random(g, rng))
        check_playout(g, deal, path, TALLY, partial(note_rule_cases, g))
        # five players: three tricks only once a card or more lies on the trick (the tree stays small)
        late = [st for st, _ in path[:-1] if st.cards_left == 2 or (st.cards_left == 3 and (players == 3 or len(st.trick) >= 2))]
        for st in rng.sample(late, 3):
            check_endgame(g, st)
            check_endgame(g, near_pomme(g, st, rng))
        check_last_trick(g, deal, path, rng, OBJECTIVES, TALLY)
    for st in buur_positions(g, rng, 6):
        assert plis_legal(Position.from_dict(position_dict(g, st))) == g.moves(st), position_dict(g, st)
        note_rule_cases(g, st)
        TALLY.legal_checks += 1
        check_endgame(g, st)
    for case in ("pomme still to reach, and reachable", "pomme turns on the move", "undertrump barred"):
        assert TALLY.cases.get(case, 0) > before.get(case, 0), (case, TALLY.cases)


def memo_points(g: Putz, st: State) -> dict[str, int]:
    """Every legal move's `points` for the seat to move, by the memoised paranoid minimax."""
    me = st.to_move
    return memo_move_values(g, st, me, lambda s: s.scored[me], lambda final: 0)


@pytest.mark.parametrize(("players", "buur_exception"), COMBOS)
def test_deeper_endgame_values(players: int, buur_exception: bool) -> None:
    """Endgames of 4 tricks (5 with three players), some in the middle of a trick: the value of
    every legal move under `points` against a memoised paranoid minimax (the seat's points add
    up trick by trick), and under `pomme` from it (whether the best the seat can make sure of
    reaches 21: a yes/no that rises with the points, so best play for it is best play for them)."""
    rng = random.Random(f"putz-deeper-{players}-{buur_exception}")
    left = 4 if players == 5 else 5
    for k in range(3):
        trump, deal = putz_deal(rng, players, k)
        g = Putz(players, buur_exception, trump)
        path = playout(g, g.start(deal), at_random(g, rng))
        cut = rng.choice([s for s, _ in path if s.cards_left == left])
        for st in (cut, near_pomme(g, cut, rng)):
            points = memo_points(g, st)
            d = position_dict(g, st)
            check_moves(d, "points", points)
            check_moves(d, "pomme", {c: v >= 21 for c, v in points.items()})
            TALLY.positions += 2
            TALLY.moves += 2 * len(points)


# Hand-checked against RULES.md's text.
def test_hand_checked_buur_exception() -> None:
    """3 players, hearts trump: seat 0 leads H6; seat 1 holds HJ S7 CA.

    "Trump led: play a trump if you hold one. Option buur_exception (default true): a player
    whose only trump is the trump Jack may play any card": with it any of the three, without
    it HJ only.
    """
    for buur, want in ((True, ["CA", "HJ", "S7"]), (False, ["HJ"])):
        g = Putz(3, buur, "H")
        st = State((("D6", "D7"), ("HJ", "S7", "CA"), ("C6", "C7", "SA")), ("H6",), 0, (10, 20, 30), (2, 2, 2))
        assert g.moves(st) == want == plis_legal(Position.from_dict(position_dict(g, st)))


def test_hand_checked_no_undertrump() -> None:
    """3 players, hearts trump: CA led, seat 1 (no club) trumped with HQ; seat 2 holds C6 H9 H7.

    "Plain suit led: play a card of that suit or a trump", and "you may not play a trump lower
    than the highest trump there, unless every card in your hand is a trump": C6 or H9
    (9 ranks above Q in trumps), not H7. Holding only H8 H7, either may be played.
    """
    g = Putz(3, True, "H")
    for third, want in ((("C6", "H9", "H7"), ["C6", "H9"]), (("H8", "H7"), ["H7", "H8"])):
        first, second = ("DA", "DK", "D9")[: len(third) - 1], ("SA", "SK", "S9")[: len(third) - 1]
        st = State((first, second, third), ("CA", "HQ"), 0, (0, 0, 0), (9 - len(third), 0, 0))
        assert g.moves(st) == want == plis_legal(Position.from_dict(position_dict(g, st)))


def test_hand_checked_pomme() -> None:
    """3 players, hearts trump, last trick: S6 led; seat 1 holds SK, seat 2 S7.

    SK wins: K 4 + "last trick +5" = 9 for seat 1. `pomme` is "can it reach 21": with 12
    points before, 21 (true); with 11, 20 (false). `points` is its own final total.
    """
    g = Putz(3, True, "H")
    for before, pomme in ((12, True), (11, False)):
        st = State(((), ("SK",), ("S7",)), ("S6",), 0, (50, before, 40), (3, 3, 2))
        d = position_dict(g, st)
        assert g.values(st, "pomme") == {"SK": pomme} and analyse(d, objective="pomme").value is pomme
        assert g.values(st, "points") == {"SK": before + 9} and analyse(d, objective="points").value == before + 9


def test_options_as_rules_md() -> None:
    """players 3 (default) or 5, buur_exception true (default) or false; COMBOS runs them all; no match bonus."""
    listed = {"players": (3, 5), "buur_exception": (True, False)}
    assert set(COMBOS) == set(itertools.product(*listed.values()))
    valid = {"game": "putz", "trump": "H", "hands": ["CJ", "HA", "D7"], "tricks": [8, 0, 0]}
    bad: list[dict[str, Any]] = [{"players": 4}, {"players": 5}, {"buur_exception": "yes"}, {"match_bonus": 100}]
    check_options("putz", valid, listed, bad)
    # "with a suit trump (no obenabe/undeufe)"
    for trump in ("obenabe", "undeufe"):
        with pytest.raises(ValueError):
            Position.from_dict({**valid, "trump": trump})
