"""Klaberjass held against a second, independent implementation of its rules.

Independent: the rules below (legal cards under `rules` seed and pagat, trick winner, card
points, last trick, bella, sequences, bate and half bate under both `half_bate` values)
are written from RULES.md ("Klaberjass", "Klaverjas" for ranks and points, "Value of a
position", "Bonuses fixed before play") and docs/rules-choices.md only, without reading
plis's code. plis is used through ``Position`` and ``analyse``.

Checked, for every combination of `players`, `rules` and `half_bate`, over seeded random
deals (every trump, every taker):
- at every card of random playouts, plis's ``legal_moves()`` against ours, and the
  `scored`/`tricks` plis keeps (bella and sequences worked out by plis from the deal);
- near the end of those playouts (2 to 4 tricks left, mid-trick too) the value of every
  legal move under `score` and `raw`, plis's ``analyse`` against our plain minimax, with
  `scored` also moved near the bate threshold so that bate and half bate come up;
- the complete deal's score: at the last trick (forced), plis's value and points against
  ours, the position given both as deal + played and in hands form;
- with two players, whole deals: every first card's value, and every card's a few cards in;
  with four, endgames of 4 and 5 tricks: against a memoised plain minimax (`raw`, and
  `score` from it).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
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
    deal_dict,
    deck,
    memo_move_values,
    memo_whole_move_values,
    minimax,
    move_values,
    playout,
    plis_legal,
    position_dict,
    random_deal,
)

TRUMP_ORDER = "J9ATKQ87"  # highest first (RULES.md, Klaverjas)
PLAIN_ORDER = "ATKQJ987"
TRUMP_POINTS = dict(zip(TRUMP_ORDER, (20, 14, 11, 10, 4, 3, 0, 0)))
PLAIN_POINTS = dict(zip(PLAIN_ORDER, (11, 10, 4, 3, 2, 0, 0, 0)))
SEQUENCE_ORDER = "AKQJT987"  # sequences and their top cards go in this order, not the trick order
CARDS = deck("AKQJT987")


class Klaberjass(TrickGame):
    game = "klaberjass"
    trump: str
    last_bonus = 10
    trump_order = TRUMP_ORDER
    plain_order = PLAIN_ORDER

    def __init__(self, players: int, rules: str, half_bate: str, trump: str, taker: int) -> None:
        self.n = players
        self.rules = rules
        self.half_bate = half_bate
        self.trump = trump
        self.taker = taker

    @property
    def n_sides(self) -> int:
        return 2

    def side(self, seat: int) -> int:
        return seat % 2  # 2 players: the seat; 4 players: teams {0, 2} and {1, 3}

    def header(self) -> dict[str, Any]:
        return {
            "game": "klaberjass",
            "options": {"players": self.n, "rules": self.rules, "half_bate": self.half_bate},
            "trump": self.trump,
            "taker": self.taker,
        }

    def card_points(self, card: str) -> int:
        return (TRUMP_POINTS if card[0] == self.trump else PLAIN_POINTS)[card[1]]

    def legal(self, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
        if not trick:
            return sorted(hand)
        lead = trick[0][0]
        follow = [c for c in hand if c[0] == lead]
        if self.rules == "seed":
            # "follow suit if you can; otherwise any card"
            return sorted(follow or hand)
        # pagat: "follow suit; on a trump lead beat the highest trump if you can; if you cannot
        # follow, trump if you can (beating a trump already played if you can)"
        on_table = [self.strength(c) for c in trick if c[0] == self.trump]

        def over(cards: list[str]) -> list[str]:
            # read "a trump already played" as the highest one, as for a trump lead
            higher = [c for c in cards if on_table and self.strength(c) > max(on_table)]
            return higher or cards

        if follow:
            return sorted(over(follow) if lead == self.trump else follow)
        trumps = [c for c in hand if c[0] == self.trump]
        return sorted(over(trumps) if trumps else hand)

    # bonuses fixed before play (RULES.md): bella and sequences, from the hands at the start
    def bonuses(self, hands: Sequence[Sequence[str]]) -> list[int]:
        pts = [0, 0]
        for seat, hand in enumerate(hands):
            if self.trump + "K" in hand and self.trump + "Q" in hand:
                pts[self.side(seat)] += 20  # bella, "for the team" in 4 players
        best: list[tuple[int, int, int] | None] = [None, None]
        total = [0, 0]
        for seat, hand in enumerate(hands):
            for value, top, suit in sequences(hand):
                s = self.side(seat)
                total[s] += value
                # best = higher value, then higher top card, then a trump sequence
                key = (value, -top, int(suit == self.trump))
                current = best[s]
                if current is None or key > current:
                    best[s] = key
        if best[0] != best[1]:
            winner = 0 if best[1] is None or (best[0] is not None and best[0] > best[1]) else 1
            pts[winner] += total[winner]
        return pts

    def settle(self, scored: Sequence[int], objective: str) -> tuple[int, int]:
        """Final scores of (side 0, side 1): `raw` the totals, `score` after bate / half bate."""
        t = self.side(self.taker)
        taker, opp = scored[t], scored[1 - t]
        if objective == "score":
            if taker < opp:  # bate: the opponent scores both totals
                taker, opp = 0, taker + opp
            elif taker == opp:  # half bate
                taker, opp = 0, (opp if self.half_bate == "own" else taker // 2)
        return (taker, opp) if t == 0 else (opp, taker)

    def outcome(self, scored: Sequence[int]) -> str:
        t = self.side(self.taker)
        return "made" if scored[t] > scored[1 - t] else "bate" if scored[t] < scored[1 - t] else "half_bate"

    def final_value(self, final: State, me: int, objective: str) -> tuple[int, tuple[int, int]]:
        want = self.settle(final.scored, objective)
        return want[me] - want[1 - me], want

    def leaf(self, me: int, objective: str) -> Callable[[State], int]:
        def value(st: State) -> int:
            final = self.settle(st.scored, objective)
            return final[me] - final[1 - me]

        return value


def sequences(hand: Sequence[str]) -> list[tuple[int, int, str]]:
    """(value, index of the top card in A K Q J T 9 8 7, suit) of each maximal run of 3 or more."""
    found = []
    for suit in "CSHD":
        idx = sorted(SEQUENCE_ORDER.index(c[1]) for c in hand if c[0] == suit)
        run: list[int] = []
        for i in idx + [99]:
            if run and i == run[-1] + 1:
                run.append(i)
                continue
            if len(run) >= 3:
                found.append((20 if len(run) == 3 else 50, run[0], suit))
            run = [i]
    return found


COMBOS = list(itertools.product((2, 4), ("seed", "pagat"), ("own", "seed")))
OBJECTIVES = ("score", "raw")
TALLY = Tally()


def points_left(g: Klaberjass, st: State) -> int:
    return sum(g.card_points(c) for h in st.hands for c in h) + sum(g.card_points(c) for c in st.trick) + g.last_bonus


def near_threshold(g: Klaberjass, st: State, rng: random.Random) -> State:
    """The same cards with `scored` moved so that the taker's lead is within what is still to be won.

    Then the remaining play decides between made, bate and half bate; half the time the
    lead is set so that some line of play ends in an exact tie (half bate). The entries stay
    at 0 or more (docs/rules-choices.md: the `score` objective wants totals of 0 or more).
    """
    left = points_left(g, st)
    t = g.side(g.taker)
    if rng.random() < 0.5:
        gains: set[int] = set()

        def leaf(s: State) -> int:
            gains.add(s.scored[t] - st.scored[t])
            return 0

        minimax(g, st, 0, leaf)
        lead = left - 2 * rng.choice(sorted(gains))  # taker's gain x ties when lead + x == left - x
    else:
        lead = rng.randint(-left, left)
    base = rng.randint(0, 40)
    scored = [0, 0]
    scored[t] = base + max(lead, 0)
    scored[1 - t] = base + max(-lead, 0)
    return State(st.hands, st.trick, st.leader, tuple(scored), st.tricks)


def reachable_outcomes(g: Klaberjass, st: State) -> set[str]:
    seen: set[str] = set()

    def leaf(s: State) -> int:
        seen.add(g.outcome(s.scored))
        return 0

    minimax(g, st, 0, leaf)
    return seen


def check_endgame(g: Klaberjass, st: State) -> None:
    d = position_dict(g, st)
    me = g.side(st.to_move)
    for objective in OBJECTIVES:
        mine = move_values(g, st, g.leaf(me, objective))
        check_moves(d, objective, mine)
        TALLY.positions += 1
        TALLY.moves += len(mine)
    outcomes = reachable_outcomes(g, st)
    for o in outcomes:
        TALLY.case("reachable " + o)
    if len(outcomes) > 1:
        TALLY.case("threshold")


@pytest.mark.parametrize(("players", "rules", "half_bate"), COMBOS)
def test_random_deals(players: int, rules: str, half_bate: str) -> None:
    rng = random.Random(f"klaberjass-{players}-{rules}-{half_bate}")
    size = 9 if players == 2 else 8
    before = dict(TALLY.cases)
    for k in range(12):
        g = Klaberjass(players, rules, half_bate, "CSHD"[k % 4], rng.randrange(players))
        deal = random_deal(rng, CARDS, players, size)
        start = g.start(deal, g.bonuses(deal))
        path = playout(g, start, at_random(g, rng))
        check_playout(g, deal, path, TALLY)
        # endgames: 2 to 4 tricks left (4 only with two players: the tree stays small)
        late = [st for st, _ in path[:-1] if 2 <= st.cards_left <= (4 if players == 2 else 3)]
        for st in rng.sample(late, 3):
            check_endgame(g, st)
            check_endgame(g, near_threshold(g, st, rng))
        check_last_trick(g, deal, path, rng, OBJECTIVES, TALLY)
        TALLY.case("final " + g.outcome(path[-1][0].scored))
    # made / bate / half bate were open in some endgames, and a tie could be reached
    for case in ("threshold", "reachable half_bate"):
        assert TALLY.cases.get(case, 0) > before.get(case, 0), (case, TALLY.cases)


def memo_raw_and_score(g: Klaberjass, st: State) -> tuple[dict[str, int], dict[str, int]]:
    """Every legal move's value under `raw` by the memoised minimax (the points add up trick by
    trick), and under `score` from it: with the totals fixed (what was scored and every point
    still to come), the settlement is a non-decreasing function of the taker's lead (bate
    -(T + O), half bate -O or -(T // 2), made the lead itself, for totals of 0 or more), and
    best play for a non-decreasing function of a value is best play for that value."""
    me = g.side(st.to_move)
    raw = memo_move_values(g, st, me, lambda s: s.scored[me] - s.scored[1 - me], lambda final: 0)
    total = sum(st.scored) + points_left(g, st)
    score: dict[str, int] = {}
    for c, lead in raw.items():
        final = [0, 0]
        final[me] = (total + lead) // 2
        final[1 - me] = total - final[me]
        settled = g.settle(final, "score")
        score[c] = settled[me] - settled[1 - me]
    return raw, score


def check_memo_values(g: Klaberjass, st: State) -> None:
    raw, score = memo_raw_and_score(g, st)
    d = position_dict(g, st)
    check_moves(d, "raw", raw)
    check_moves(d, "score", score)
    TALLY.positions += 2
    TALLY.moves += 2 * len(raw)


@pytest.mark.parametrize("rules", ("seed", "pagat"))
def test_whole_two_player_deals(rules: str) -> None:
    """Complete two-player deals (9 tricks): every first card's value, and every card's a few
    cards into the deal (mid-trick too), under `raw` and `score`, plis's ``analyse`` against the
    memoised minimax (`memo_raw_and_score`): the engine's deepest searches."""
    rng = random.Random(f"klaberjass-whole-{rules}")
    for k in range(3):
        g = Klaberjass(2, rules, ("own", "seed")[k % 2], "CSHD"[(k + len(rules)) % 4], rng.randrange(2))
        deal = random_deal(rng, CARDS, 2, 9)
        start = g.start(deal, g.bonuses(deal))
        path = playout(g, start, at_random(g, rng), cards=6)
        check_memo_values(g, start)
        check_memo_values(g, path[rng.randint(1, 6)][0])


@pytest.mark.parametrize("rules", ("seed", "pagat"))
def test_deeper_four_player_endgames(rules: str) -> None:
    """Four players, endgames of 4 and 5 tricks (some in the middle of a trick, some with
    `scored` near the bate threshold), against the memoised minimax (`memo_raw_and_score`);
    with 4 tricks, `score` also straight from the settlement, memoised on whole states."""
    rng = random.Random(f"klaberjass-deeper-{rules}")
    for k in range(4):
        g = Klaberjass(4, rules, ("own", "seed")[k % 2], "CSHD"[k], rng.randrange(4))
        deal = random_deal(rng, CARDS, 4, 8)
        path = playout(g, g.start(deal, g.bonuses(deal)), at_random(g, rng))
        cut = rng.choice([s for s, _ in path if s.cards_left == (5 if k == 0 else 4)])
        for st in (cut, near_threshold(g, cut, rng)):
            check_memo_values(g, st)
            if k:  # `score` straight from the settlement too, memoised on whole states
                settled = memo_whole_move_values(g, st, g.leaf(g.side(st.to_move), "score"))
                check_moves(position_dict(g, st), "score", settled)


def sequence_deal(rng: random.Random, players: int) -> list[list[str]]:
    """A deal where two seats of different sides hold runs of the same length, often the same top.

    Random deals seldom bring two sides' sequences close; these make the tie-breaks
    (top card, then trump, then nobody) come up.
    """
    size = 9 if players == 2 else 8
    length = rng.choice((3, 3, 4, 5))
    top = rng.randrange(8 - length + 1)
    tops = (top, top if rng.random() < 0.7 else rng.randrange(8 - length + 1))
    suits = rng.sample("CSHD", 2)
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat, suit, tp in zip((0, 1), suits, tops):
        hands[seat] = [suit + r for r in SEQUENCE_ORDER[tp : tp + length]]
    rest = [c for c in CARDS if c not in hands[0] and c not in hands[1]]
    rng.shuffle(rest)
    for h in hands:
        while len(h) < size:
            h.append(rest.pop())
    return hands


@pytest.mark.parametrize("players", (2, 4))
def test_bonuses_before_play(players: int) -> None:
    """Bella and sequences as plis works them out from a deal (deal + played form) against ours."""
    rng = random.Random(f"klaberjass-bonuses-{players}")
    size = 9 if players == 2 else 8
    before = dict(TALLY.cases)
    for k in range(1500):
        g = Klaberjass(players, "seed", "own", "CSHD"[k % 4], rng.randrange(players))
        deal = sequence_deal(rng, players) if k % 2 else random_deal(rng, CARDS, players, size)
        want = g.bonuses(deal)
        assert Position.from_dict(deal_dict(g, deal, [])).to_dict()["scored"] == want, deal_dict(g, deal, [])
        runs = [[(v, -top, int(s == g.trump)) for v, top, s in sequences(h)] for h in deal]
        bests = [max((r for seat, rs in enumerate(runs) if seat % 2 == side for r in rs), default=None) for side in (0, 1)]
        if bests[0] and bests[1]:
            # the first of (value, top, trump) that tells the sides' best sequences apart
            parted = next((i for i in range(3) if bests[0][i] != bests[1][i]), 3)
            TALLY.case("sequences: " + ("value decides", "top decides", "trump decides", "tie")[parted])
    # every tie-break between the two sides' best sequences came up
    for case in ("tie", "trump decides", "top decides", "value decides"):
        assert TALLY.cases.get("sequences: " + case, 0) >= before.get("sequences: " + case, 0) + 5, TALLY.cases


# Hand-checked against RULES.md's text.
def test_hand_checked_settlement() -> None:
    """Two players, hearts trump, seat 0 took trump; last trick, seat 0 leads HJ, seat 1 holds S7.

    Seat 0 wins HJ (20) + S7 (0) + last trick 10 = 30. With `scored` [60, 90] the totals
    are 90 against 90: "Equal: half bate, the taker scores 0"; `half_bate=own`: "the
    opponent scores his own total" (90), so seat 0's value is 0 - 90 = -90; `seed`: "half
    the taker's total, rounded down" (45), value -45. `raw`: 90 - 90 = 0. With `scored`
    [61, 90] the taker is above (91 > 90): "each scores his own", value +1; with [59, 90]
    bate: "the opponent scores both totals" (89 + 90), value -179.
    """
    for half_bate, scored, want_score in (("own", 60, -90), ("seed", 60, -45), ("own", 61, 1), ("seed", 59, -179)):
        g = Klaberjass(2, "seed", half_bate, "H", 0)
        st = State((("HJ",), ("S7",)), (), 0, (scored, 90), (4, 4))
        d = position_dict(g, st)
        assert analyse(d, objective="score").value == want_score == move_values(g, st, g.leaf(0, "score"))["HJ"]
        assert analyse(d, objective="raw").value == scored + 30 - 90 == move_values(g, st, g.leaf(0, "raw"))["HJ"]


def test_hand_checked_pagat_overtrump() -> None:
    """Four players, pagat, hearts trump: CA led, HQ and HA trumped on it; seat 3 holds HK H8 S7, no club.

    "If you cannot follow, trump if you can (beating a trump already played if you can)":
    HK beats HQ but nothing beats HA. We read "a trump already played" as the highest one
    (as for a trump lead), so either trump may be played, not S7. plis agrees.
    """
    g = Klaberjass(4, "pagat", "own", "H", 0)
    st = State((("C7", "C8"), ("S8", "D7"), ("DA", "DK"), ("HK", "H8", "S7")), ("CA", "HQ", "HA"), 0, (0, 0), (3, 2))
    assert g.moves(st) == ["H8", "HK"]
    assert plis_legal(Position.from_dict(position_dict(g, st))) == ["H8", "HK"]


def test_hand_checked_sequences() -> None:
    """Two players, spades trump. Seat 0: CK CQ CJ (20) and D9 D8 D7 (20); seat 1: HK HQ HJ (20), S8 S7.

    Both best sequences are 3 cards topped by a King: "then a trump sequence" does not
    tell them apart (neither is spades), so "equal in all three: nobody scores". Give seat 1
    SK SQ SJ instead: same value and top, but trump, so seat 1 scores it, and bella (SK SQ)
    20 as well: 40. Seat 0's sequences then score nothing.
    """
    g = Klaberjass(2, "seed", "own", "S", 1)
    deal = [["CK", "CQ", "CJ", "D9", "D8", "D7", "C9", "DA", "HA"], ["HK", "HQ", "HJ", "S8", "S7", "C7", "C8", "DT", "DK"]]
    assert g.bonuses(deal) == [0, 0] == Position.from_dict(deal_dict(g, deal, [])).to_dict()["scored"]
    deal[1][:3] = ["SK", "SQ", "SJ"]
    assert g.bonuses(deal) == [0, 40] == Position.from_dict(deal_dict(g, deal, [])).to_dict()["scored"]


def test_options_as_rules_md() -> None:
    """players 2 (default) or 4, rules seed (default) or pagat, half_bate own (default) or seed; COMBOS runs them all."""
    listed = {"players": (2, 4), "rules": ("seed", "pagat"), "half_bate": ("own", "seed")}
    assert set(COMBOS) == set(itertools.product(*listed.values()))
    valid = {"game": "klaberjass", "trump": "H", "taker": 0, "hands": ["HJ", "HK"], "tricks": [4, 4]}
    bad: list[dict[str, Any]] = [
        {"players": 3},
        {"rules": "rotterdam"},
        {"half_bate": "half"},
        {"nat_on_tie": True},
        {"players": 4},
    ]
    check_options("klaberjass", valid, listed, bad)
