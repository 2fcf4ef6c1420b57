"""Bassadewitz held against a second, independent implementation of its rules.

Independent: the rules below (Jacks as a trump group or plain, following, trick winner,
`standard` and `old` points, the chip settlement) are written from RULES.md
("Bassadewitz", "Value of a position") and docs/rules-choices.md only, without reading
plis's code. plis is used through ``Position`` and ``analyse``, and, for the chip
settlement that only its ``--pretty`` report shows, through the ``plis`` command (its ``main``, in this process).

Checked, for every combination of `jacks` and `scoring`, over seeded random deals:
- at every card of random playouts, plis's ``legal_moves()`` against ours, and the
  `scored`/`tricks` plis keeps;
- near the end of those playouts (2 or 3 tricks left, mid-trick too) the value of every
  legal move under `points` and `all_tricks`, plis's ``analyse`` against our plain
  paranoid minimax (the seat to move against the other three); the same cards are also
  given with every earlier trick won by the current leader, so that a seat that could
  still take every trick comes up often;
- deeper endgames (4 tricks left) the same way, against a memoised paranoid minimax;
- the complete deal: at the last trick (forced), plis's value and points against ours,
  as deal + played and in hands form; and the chip settlement of final positions.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from solver import Position, analyse
from solver.cli import main as plis_command
from tests.independent_common import (
    SUITS,
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
    random_deal,
)

CARDS = deck("AKQJT987")
OBJECTIVES = ("points", "all_tricks")


class Bassadewitz(TrickGame):
    game = "bassadewitz"
    n = 4

    def __init__(self, jacks: str, scoring: str) -> None:
        self.jacks = jacks
        self.scoring = scoring
        self.per_trick = 1 if scoring == "old" else 0  # old: "each trick taken adds 1 point"
        # trumps: a Jack is not of its printed suit, so the suits rank without it
        self.order = "ATKQ987" if jacks == "trumps" else "ATKQJ987"

    def header(self) -> dict[str, Any]:
        return {"game": "bassadewitz", "options": {"jacks": self.jacks, "scoring": self.scoring}}

    def group(self, card: str) -> str:
        """What a card follows as: its suit, or `J` for a Jack when the Jacks are trumps."""
        return "J" if self.jacks == "trumps" and card[1] == "J" else card[0]

    def legal(self, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
        # "follow the suit led (with jacks=trumps, a Jack lead asks for a Jack) if you can; otherwise play any card"
        if not trick:
            return sorted(hand)
        follow = [c for c in hand if self.group(c) == self.group(trick[0])]
        return sorted(follow or hand)

    def trick_strength(self, card: str, lead: str) -> int:
        if self.group(card) == "J":
            return 100 - SUITS.index(card[0])  # CJ > SJ > HJ > DJ, above every other card
        if self.group(card) == lead:
            return 50 - self.order.index(card[1])
        return 0

    def winner_index(self, trick: Sequence[str]) -> int:
        lead = self.group(trick[0])
        return max(range(len(trick)), key=lambda i: self.trick_strength(trick[i], lead))

    def card_points(self, card: str) -> int:
        ace = 5 if self.scoring == "old" else 11
        return {"A": ace, "T": 10, "K": 4, "Q": 3, "J": 2}.get(card[1], 0)

    def leaf(self, me: int, objective: str) -> Callable[[State], int]:
        """Maximised by seat `me`: fewer points are better, so their negation; all_tricks as 0 / 1."""
        if objective == "points":
            return lambda st: -st.scored[me]
        return lambda st: int(all(t == 0 for s, t in enumerate(st.tricks) if s != me))

    def final_value(self, final: State, me: int, objective: str) -> tuple[int | bool, tuple[int, ...]]:
        if objective == "points":
            return final.scored[me], final.scored
        return all(t == 0 for s, t in enumerate(final.tricks) if s != me), final.scored

    def values(self, st: State, objective: str) -> dict[str, int | bool]:
        raw = move_values(self, st, self.leaf(st.to_move, objective))
        return {c: -v if objective == "points" else bool(v) for c, v in raw.items()}


def chips(g: Bassadewitz, final: Sequence[int], tricks: Sequence[int]) -> tuple[str, list[int]]:
    """RULES.md's settlement: ("pool", chips each seat takes from it) or ("stays", what the seats pay each other)."""
    for seat in range(4):
        if tricks[seat] == 8:  # "receives 4 from each other seat"
            return "stays", [12 if s == seat else -4 for s in range(4)]
        if final[seat] >= 100:  # "pays 4 to each other seat" (did not take all tricks)
            return "stays", [-12 if s == seat else 4 for s in range(4)]
    if len(set(final)) == 1:  # "all four equal: no winner, the pool stays"
        return "stays", [0, 0, 0, 0]
    ranked = sorted(range(4), key=lambda s: (final[s], s))  # equal points rank by seat order from seat 0
    take = [0, 0, 0, 0]
    for seat, n in zip(ranked, (5, 4, 3)):
        take[seat] = n
    return "pool", take


COMBOS = list(itertools.product(("trumps", "plain"), ("standard", "old")))
TALLY = Tally()


def swept(st: State) -> State:
    """The same cards with every earlier trick, and its points, won by the current trick's leader."""
    done = sum(st.tricks)
    scored = [0] * 4
    tricks = [0] * 4
    scored[st.leader] = sum(st.scored)
    tricks[st.leader] = done
    return State(st.hands, st.trick, st.leader, tuple(scored), tuple(tricks))


def strong_leader(g: Bassadewitz, st: State) -> State:
    """`swept`, with the leader also given the hand of the seat holding the most Jacks / Aces.

    Only then does a sweep that needs the right card first (a choice that matters) come up often.
    """
    top = "J" if g.jacks == "trumps" else "A"
    best = max(range(4), key=lambda s: sum(c[1] in (top, "A") for c in st.hands[s]))
    hands = list(st.hands)
    hands[st.leader], hands[best] = hands[best], hands[st.leader]
    return swept(State(tuple(hands), st.trick, st.leader, st.scored, st.tricks))


def sweep_choices(g: Bassadewitz, rng: random.Random, wanted: int) -> list[State]:
    """Three-trick endgames, seat 0 to lead with every earlier trick its own, where one first card sweeps and another does not.

    Random play seldom leaves one (with Jacks as trumps, a Jack lead mostly just wins), so
    they are dealt at random and kept when our own values say so; plis is then held to them.
    """

    def sweeps(st: State) -> bool:  # a short-circuiting search, only to pick positions
        if st.tricks[0] < sum(st.tricks):
            return False
        if st.over:
            return True
        nxt = (sweeps(g.play(st, c)) for c in g.moves(st))
        return any(nxt) if st.to_move == 0 else all(nxt)

    found: list[State] = []
    for _ in range(2000):
        pack = list(CARDS)
        rng.shuffle(pack)
        hands = tuple(tuple(pack[3 * s : 3 * s + 3]) for s in range(4))
        st = State(hands, (), 0, (rng.randint(30, 70), 0, 0, 0), (5, 0, 0, 0))
        if len({sweeps(g.play(st, c)) for c in g.moves(st)}) > 1:
            found.append(st)
            if len(found) == wanted:
                break
    return found


def check_endgame(g: Bassadewitz, st: State) -> None:
    d = position_dict(g, st)
    for objective in OBJECTIVES:
        mine = g.values(st, objective)
        check_moves(d, objective, mine, min if objective == "points" else max)
        TALLY.positions += 1
        TALLY.moves += len(mine)
        if objective == "all_tricks":
            if any(mine.values()):
                TALLY.case("can take every trick")
            if len(set(mine.values())) > 1:
                TALLY.case("all_tricks turns on the move")
            if all(t == 0 for s, t in enumerate(st.tricks) if s != st.to_move) and not any(mine.values()):
                TALLY.case("no trick lost yet, but cannot take every one")


@pytest.mark.parametrize(("jacks", "scoring"), COMBOS)
def test_random_deals(jacks: str, scoring: str) -> None:
    rng = random.Random(f"bassadewitz-{jacks}-{scoring}")
    g = Bassadewitz(jacks, scoring)
    before = dict(TALLY.cases)
    for _ in range(14):
        deal = random_deal(rng, CARDS, 4, 8)
        path = playout(g, g.start(deal), at_random(g, rng))
        check_playout(g, deal, path, TALLY)
        assert sum(path[-1][0].scored) == (104 if scoring == "old" else 120)  # RULES.md's totals
        late = [st for st, _ in path[:-1] if 2 <= st.cards_left <= 3]
        for st in rng.sample(late, 3):
            check_endgame(g, st)
            check_endgame(g, swept(st))
        # a trick start with every earlier trick the leader's: can it take the rest?
        for st in [st for st in late if not st.trick]:
            check_endgame(g, swept(st))
            check_endgame(g, strong_leader(g, st))
        check_last_trick(g, deal, path, rng, OBJECTIVES, TALLY)
    for st in sweep_choices(g, rng, 4):
        check_endgame(g, st)
    for case in ("can take every trick", "all_tricks turns on the move", "no trick lost yet, but cannot take every one"):
        assert TALLY.cases.get(case, 0) > before.get(case, 0), (case, TALLY.cases)


def memo_values(g: Bassadewitz, st: State, objective: str) -> dict[str, int | bool]:
    """Every legal move's value for the seat to move, by the memoised paranoid minimax: `points`
    add up trick by trick; `all_tricks` is decided by which seats took no trick."""
    me = st.to_move
    if objective == "points":
        fewer = memo_move_values(g, st, me, lambda s: -s.scored[me], lambda final: 0)
        return {c: -v for c, v in fewer.items()}

    def every(final: State) -> int:
        return int(all(t == 0 for s, t in enumerate(final.tricks) if s != me))

    return {c: bool(v) for c, v in memo_move_values(g, st, me, lambda s: 0, every).items()}


@pytest.mark.parametrize(("jacks", "scoring"), COMBOS)
def test_deeper_endgame_values(jacks: str, scoring: str) -> None:
    """Endgames of 4 tricks, some in the middle of a trick, also with every earlier trick
    the leader's: the value of every legal move against a memoised paranoid minimax, under
    `points` (the seat's points add up trick by trick; fewer are better) and `all_tricks` (a
    yes/no decided only by which seats took no trick)."""
    rng = random.Random(f"bassadewitz-deeper-{jacks}-{scoring}")
    g = Bassadewitz(jacks, scoring)
    for _ in range(6):
        path = playout(g, g.start(random_deal(rng, CARDS, 4, 8)), at_random(g, rng))
        cut = rng.choice([s for s, _ in path if s.cards_left == 4])
        for st in (cut, swept(cut)):
            d = position_dict(g, st)
            for objective in OBJECTIVES:
                mine = memo_values(g, st, objective)
                check_moves(d, objective, mine, min if objective == "points" else max)
                TALLY.positions += 1
                TALLY.moves += len(mine)


def final_positions(rng: random.Random) -> list[tuple[dict[str, Any], tuple[str, list[int]]]]:
    """Last-trick positions (forced) with our settlement of the deal's end.

    `scored` is spread at random, and often tied or pushed past 100, so that every
    branch of the settlement comes up; every earlier trick won by one seat, often.
    """
    out = []
    for k in range(160):
        g = Bassadewitz(*COMBOS[k % 4])
        path = playout(g, g.start(random_deal(rng, CARDS, 4, 8)), at_random(g, rng))
        st = next(s for s, _ in path if s.cards_left == 1)
        total = sum(st.scored)
        kind = k % 5
        if kind == 0:  # every earlier trick the leader's
            st = swept(st)
        elif kind in (1, 2):  # ties: two or more seats end level unless the last trick parts them
            cut = sorted(rng.randint(0, total) for _ in range(3))
            scored = [a - b for a, b in zip(cut + [total], [0] + cut)]
            for _ in range(rng.randint(1, 3)):
                a, b = rng.sample(range(4), 2)
                scored[a] = scored[b]
            if kind == 2:
                scored = [scored[0]] * 4
            st = State(st.hands, st.trick, st.leader, tuple(scored), st.tricks)
        elif kind == 3:  # someone near 100
            scored = [0] * 4
            scored[rng.randrange(4)] = rng.randint(min(80, total), total)
            st = State(st.hands, st.trick, st.leader, tuple(scored), st.tricks)
        end = st
        while not end.over:
            end = g.play(end, g.moves(end)[0])
        out.append((position_dict(g, st), chips(g, end.scored, end.tricks)))
    # all four equal needs a last trick of no points (old: seat 0 one behind, its trick's point levels them)
    for scoring, first in (("standard", 30), ("old", 29)):
        g = Bassadewitz("trumps", scoring)
        st = State((("C7",), ("S8",), ("D9",), ("H7",)), (), 0, (first, 30, 30, 30), (2, 2, 2, 1))
        end = g.play(g.play(g.play(g.play(st, "C7"), "S8"), "D9"), "H7")
        out.append((position_dict(g, st), chips(g, end.scored, end.tricks)))
    return out


def test_chip_settlement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The chips `plis analyse --pretty` reports on the (forced) line of the last trick, against ours."""
    cases = final_positions(random.Random("bassadewitz-chips"))
    src = tmp_path / "final.jsonl"
    src.write_text("".join(json.dumps(d) + "\n" for d, _ in cases))
    assert plis_command(["analyse", "--pretty", str(src)]) == 0
    out = capsys.readouterr().out
    lines = [ln.split("settlement on that line:", 1)[1].strip() for ln in out.splitlines() if "settlement on that line:" in ln]
    assert len(lines) == len(cases)
    seen = set()
    for line, (d, (kind, want)) in zip(lines, cases):
        numbers = re.search(r"\[([-\d, ]+)\]", line)
        got = [int(x) for x in numbers.group(1).split(",")] if numbers else [0, 0, 0, 0]
        assert line.startswith("chips from the pool") if kind == "pool" else line.startswith("the pool stays"), (line, d)
        assert got == want, (line, d)
        seen.add((kind, max(want)))
    # fewest points wins 5; all tricks receives 12; 100 or more pays 12 (others +4); all equal
    assert {("pool", 5), ("stays", 12), ("stays", 4), ("stays", 0)} <= seen, seen


# Hand-checked against RULES.md's text.
def test_hand_checked_jack_trick() -> None:
    """Seat 0 leads SA; seat 1 holds S7 HJ, seat 2 DJ D8, seat 3 C7 CA.

    "follow the suit led ... if you can": seat 1 must play S7 in both modes (HJ is a heart
    or a trump, never a spade); seat 2 and seat 3 hold no spade: "otherwise play any card".
    SA S7 DJ C7: with jacks=trumps "the highest Jack if any was played" takes it (seat 2);
    with jacks=plain "the highest card of the suit led" (SA, seat 0).
    """
    for jacks, winner in (("trumps", 2), ("plain", 0)):
        g = Bassadewitz(jacks, "standard")
        st = State((("SA", "H7"), ("S7", "HJ"), ("DJ", "D8"), ("C7", "CA")), (), 0, (40, 30, 20, 30), (2, 2, 1, 1))
        pos = Position.from_dict(position_dict(g, st))
        for card, want in (("SA", ["SA", "H7"]), ("S7", ["S7"]), ("DJ", ["DJ", "D8"]), ("C7", ["C7", "CA"])):
            assert plis_legal(pos) == g.moves(st) == sorted(want), (jacks, card)
            st, pos = g.play(st, card), pos.play(card)
        assert st.leader == winner == pos.to_dict()["leader"]


def test_hand_checked_jack_lead() -> None:
    """Seat 0 leads HJ; seat 1 holds DJ H7, seat 2 HA C8, seat 3 CJ D7.

    jacks=trumps: "a Jack lead asks for a Jack": seat 1 must play DJ, seat 2 (no Jack) any
    card, seat 3 CJ; CJ is the highest Jack, seat 3 wins. jacks=plain: HJ is a heart: seat 1
    must play H7, seat 2 HA, seat 3 (no heart) any card; CJ is no heart, HA wins (seat 2).
    """
    plays = {"trumps": (["DJ"], ["C8", "HA"], ["CJ"], 3), "plain": (["H7"], ["HA"], ["CJ", "D7"], 2)}
    for jacks, (one, two, three, winner) in plays.items():
        g = Bassadewitz(jacks, "standard")
        st = State((("S8",), ("DJ", "H7"), ("HA", "C8"), ("CJ", "D7")), ("HJ",), 0, (40, 30, 20, 30), (2, 2, 1, 1))
        pos = Position.from_dict(position_dict(g, st))
        for want in (one, two, three):
            assert plis_legal(pos) == g.moves(st) == want, jacks
            card = "HA" if "HA" in want else want[0]
            st, pos = g.play(st, card), pos.play(card)
        assert st.leader == winner == pos.to_dict()["leader"]


def test_hand_checked_old_scoring() -> None:
    """scoring=old, last trick: seat 0 leads CA (5 in `old`), the others play C7 HT DK.

    Seat 0 takes A 5 + T 10 + K 4 = 19, and 1 for the trick: 20 points. Under `standard`
    the same trick is 11 + 10 + 4 = 25. Its `points` value is its own final total.
    """
    for scoring, gain in (("old", 20), ("standard", 25)):
        g = Bassadewitz("trumps", scoring)
        st = State((("CA",), ("C7",), ("HT",), ("DK",)), (), 0, (30, 20, 10, 5), (3, 2, 1, 1))
        assert g.values(st, "points") == {"CA": 30 + gain}
        assert analyse(position_dict(g, st)).value == 30 + gain


def test_options_as_rules_md() -> None:
    """jacks trumps (default) or plain, scoring standard (default) or old; COMBOS runs them all."""
    listed = {"jacks": ("trumps", "plain"), "scoring": ("standard", "old")}
    assert set(COMBOS) == set(itertools.product(*listed.values()))
    valid = {"game": "bassadewitz", "hands": ["CJ", "HA", "D7", "DA"], "tricks": [7, 0, 0, 0]}
    check_options("bassadewitz", valid, listed, [{"jacks": "none"}, {"scoring": "new"}, {"match_bonus": 0}])
