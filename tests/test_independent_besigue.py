"""An independent second implementation of the Bésigue rules, held against plis.

Everything below the "Independent rules" heading was written from RULES.md (../shared/)
("Bésigue", "Common notation", "Value of a position", "Bonuses fixed before play"),
FORMAT.md (the position and result JSON, its "Bésigue" part), docs/rules-choices.md
(its "Bésigue" section and the general "Positions" readings) and README.md ("Bésigue",
"Python") only, without reading plis's own Bésigue code, its reference search or its
tests. plis is used only through its public API: `load_position` on FORMAT.md dicts,
the position's `legal_moves()`, `play()`, `to_dict()`, `is_over` and `to_move`, and `analyse`.

What is checked, under both `phase1` options (`seed`, `standard`):

1. Random playouts of seeded deals (two 32-card packs, 9 cards each, a 46-card talon with
   the retourne last), many stacked so that declarations happen (K/Q pairs, `SQ`+`DJ`,
   four of a kind, the trump sequence with a second trump marriage, trump 7s, a retourne
   7), and of built positions with a short talon (face-up melds and scored 7s given in
   `melded`/`sevens`): at every move plis's legal moves (FORMAT.md's tokens with their
   marks, as a set) equal ours, and everything plis keeps (`to_dict()`: hands, talon,
   trick, leader, scores, tricks, melded, sevens, exchanged, to_declare) equals our state.
   The playouts also replay their `played` list (with and without the implied `pass`).
2. Endgames: phase 2 with 1 to 9 tricks left (some in the middle of a trick), the last
   declaration before phase 2 (seven, exchange7 at the last draw, melds), the last
   phase-1 trick (its second card; its lead from a narrow card pool), and the declaration
   after the second-last phase-1 trick with the whole last one (narrow pool), each with
   the draws and all of phase 2 after it: plis's `analyse` value of every legal move
   equals our plain memoised minimax, for `score` and `raw` (equal in Bésigue), and
   `value`, `best` (and the order, best first) and `points` agree.
3. Hand-checked cases quoting RULES.md: the phase-1 trick winner under both options
   (equal ranks, identical cards), phase-2 legal cards in every branch, each meld's
   points, each reuse sentence, the exchange conditions, the draw order, brisques and
   the last trick, the dealer's 10 for a retourne 7.
4. Input the rules forbid: a `ValueError` subclass naming the field.

A mutation check (one deliberate mistake at a time in the rules below: each phase-1 winner
rule, identical cards, meld points, each reuse sentence, the exchange, the draw order,
phase 2's "win" and "trump", brisques, last trick, the retourne 7, the marks in phase 2,
the next leader) made between 6 and 30 of these tests fail for every mistake that changes
play ("exchange7 allowed twice" changes nothing: after an exchange the talon ends with a 7).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from solver import PlisError, analyse, load_position

# ---------------------------------------------------------------------------
# Independent rules (RULES.md, "Bésigue")
# ---------------------------------------------------------------------------

SUITS = "CSHD"  # canonical suit order (RULES.md, "Common notation")
CANON_RANKS = "AKQJT987"  # canonical rank order, for listing
TRICK_RANKS = "ATKQJ987"  # "All suits rank A T K Q J 9 8 7", strongest first
CARDS = [s + r for s in SUITS for r in CANON_RANKS]
CANON = {c: i for i, c in enumerate(CARDS)}
PACK = CARDS * 2  # "two 32-card packs (64 cards; identical cards are interchangeable)"
HAND = 9  # "deals 9 cards each"
TALON = 46  # "The 46 remaining form the talon"
PHASE1_TRICKS = TALON // 2  # each phase-1 trick draws two cards
OPTIONS = ("seed", "standard")
OBJECTIVES = ("score", "raw")  # no contract settlement: `score` equals `raw`

BRISQUE = 10  # "every A and T in tricks won 10 (brisques)"
LAST_TRICK = 10  # "last trick 10"
SEVEN = 10  # "`seven`: show a trump 7 that has not scored yet: 10 points"
RETOURNE_SEVEN = 10  # "The dealer scores 10 if the retourne is a 7."
COMMON_MARRIAGE = 20  # "common marriage (K+Q of a plain suit) 20"
TRUMP_MARRIAGE = 40  # "trump marriage 40"
MELD_POINTS = {
    "besigue": 40,  # "bésigue (`SQ`+`DJ`) 40"
    "double_besigue": 500,  # "double bésigue (both `SQ` and both `DJ`) 500"
    "four_aces": 100,  # "four Jacks 40, four Queens 60, four Kings 80, four Aces 100"
    "four_kings": 80,
    "four_queens": 60,
    "four_jacks": 40,
    "sequence": 250,  # "trump sequence (A T K Q J of trump) 250"
}
FOURS = {"four_aces": "A", "four_kings": "K", "four_queens": "Q", "four_jacks": "J"}
# docs/rules-choices.md, "Meld names": the kinds, in the order results list them; a trump
# marriage is `marriage` in the trump suit ("marriages, common or trump, are one kind")
KINDS = ("marriage", "besigue", "double_besigue", "four_aces", "four_kings", "four_queens", "four_jacks", "sequence")
SEVEN_MARK = "seven"  # the mark of a trump 7 that has scored (FORMAT.md: `S7[seven]`)

# A copy in a hand: the card and its marks, sorted (the meld kinds it has been used in, or
# `seven`). "a copy that lies face up in a meld, or a trump 7 that has scored, differs from a
# fresh copy"; a fresh copy has no marks.
Copy = tuple[str, tuple[str, ...]]


STRENGTH = {c: len(TRICK_RANKS) - TRICK_RANKS.index(c[1]) for c in CARDS}
POINTS = {c: BRISQUE if c[1] in "AT" else 0 for c in CARDS}  # "every A and T in tricks won 10"


def brisques(cards: Sequence[str]) -> int:
    return sum(POINTS[c] for c in cards)


def copy_key(c: Copy) -> tuple[int, tuple[str, ...]]:
    """Canonical order of copies: the card's, then a fresh copy before marked ones (marks by name)."""
    return CANON[c[0]], c[1]


def token(c: Copy) -> str:
    """FORMAT.md: "written with its marks in brackets, sorted: `SQ[besigue,four_queens]`"."""
    return c[0] + ("[" + ",".join(c[1]) + "]" if c[1] else "")


def parse(tok: str) -> Copy:
    if "[" not in tok:
        return tok, ()
    card, marks = tok[:-1].split("[")
    return card, tuple(sorted(marks.split(",")))


def fresh(cards: Sequence[str]) -> tuple[Copy, ...]:
    return tuple(sorted(((c, ()) for c in cards), key=copy_key))


def second_wins(lead: str, reply: str, trump: str, rule: str) -> bool:
    """Does the second card of a trick beat the first?

    Phase 1, `seed`: "a trump beats a non-trump; otherwise the higher rank wins whatever the
    suits; equal ranks: the leader wins." `standard`, and phase 2: "the second card wins only
    if it is a higher card of the suit led, or a trump on a non-trump lead". Identical cards:
    "Of two identical cards the first played wins."
    """
    if rule == "seed":
        if (lead[0] == trump) != (reply[0] == trump):
            return reply[0] == trump
        return STRENGTH[reply] > STRENGTH[lead]
    return (reply[0] == lead[0] and STRENGTH[reply] > STRENGTH[lead]) or (reply[0] == trump and lead[0] != trump)


def phase2_legal(hand: Sequence[str], lead: str, trump: str) -> list[str]:
    """ "Follow suit if you can, and then win the trick if you can; if you cannot follow, trump
    if you can; otherwise any card." (the second card of a two-player trick)"""
    follow = [c for c in hand if c[0] == lead[0]]
    if follow:
        return [c for c in follow if second_wins(lead, c, trump, "phase2")] or follow
    return [c for c in hand if c[0] == trump] or list(hand)


def phase2_case(hand: Sequence[str], lead: str, trump: str) -> str:
    """Which branch of the phase-2 rule the second player is in."""
    if any(c[0] == lead[0] for c in hand):
        if any(c[0] == lead[0] and second_wins(lead, c, trump, "phase2") for c in hand):
            return "phase 2: follow and win"
        return "phase 2: follow, cannot win"
    if any(c[0] == trump for c in hand):
        return "phase 2: cannot follow, must trump"
    return "phase 2: cannot follow nor trump, any card"


def without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


@cache
def phase2_lead(trump: str, leader: tuple[str, ...], other: tuple[str, ...]) -> int:
    """Plain minimax of phase 2 from the start of a trick: the leader's points from here on
    minus the other's (brisques and the last trick). Hands are sorted tuples of cards."""
    if not leader:
        return 0
    return max(phase2_reply(trump, without(leader, c), other, c) for c in set(leader))


def phase2_reply(trump: str, leader: tuple[str, ...], other: tuple[str, ...], lead: str) -> int:
    """As `phase2_lead`, the leader having led `lead` (and holding `leader`), the other to play."""
    best = None
    for c in set(phase2_legal(other, lead, trump)):
        pts = POINTS[lead] + POINTS[c] + (0 if leader else LAST_TRICK)  # the other hand empties with this card too
        rest = without(other, c)
        if second_wins(lead, c, trump, "phase2"):
            v = -pts - phase2_lead(trump, rest, leader)
        else:
            v = pts + phase2_lead(trump, leader, rest)
        best = v if best is None else min(best, v)
    assert best is not None
    return best


@dataclass(frozen=True)
class St:
    """A Bésigue position as FORMAT.md has it (hands form), hands as sorted copies."""

    hands: tuple[tuple[Copy, ...], tuple[Copy, ...]]
    talon: tuple[str, ...]
    trick: tuple[str, ...]
    leader: int
    scored: tuple[int, int]
    tricks: tuple[int, int]
    exchanged: bool = False
    dealer: int = 1
    to_declare: int | None = None

    @property
    def to_move(self) -> int:
        if self.to_declare is not None:
            return self.to_declare
        return (self.leader + len(self.trick)) % 2

    @property
    def phase2(self) -> bool:
        return not self.talon and self.to_declare is None

    @property
    def over(self) -> bool:
        return self.phase2 and not self.trick and not any(self.hands)


def set_hand(hands: tuple[tuple[Copy, ...], ...], seat: int, hand: Sequence[Copy]) -> tuple[tuple[Copy, ...], tuple[Copy, ...]]:
    new = list(hands)
    new[seat] = tuple(sorted(hand, key=copy_key))
    return new[0], new[1]


def add(pair: tuple[int, int], seat: int, n: int) -> tuple[int, int]:
    return (pair[0] + n, pair[1]) if seat == 0 else (pair[0], pair[1] + n)


@dataclass(frozen=True)
class Meld:
    kind: str
    copies: tuple[Copy, ...]  # canonical order
    points: int

    @property
    def move(self) -> str:
        return f"meld:{self.kind}:" + " ".join(token(c) for c in self.copies)


class Besigue:
    """One deal's rules: the trump suit and the `phase1` option."""

    def __init__(self, trump: str, phase1: str = "seed", events: Counter[str] | None = None) -> None:
        self.trump = trump
        self.phase1 = phase1
        # the finer rules met, so that tests can see they came up
        self.events: Counter[str] = Counter() if events is None else events
        self.memo: dict[St, int] = {}

    def header(self) -> dict[str, Any]:
        return {"game": "besigue", "options": {"phase1": self.phase1}, "trump": self.trump}

    def start(self, deal: Sequence[Sequence[str]], talon: Sequence[str], dealer: int = 1) -> St:
        """The start of a deal: "The dealer's opponent leads the first trick. The dealer scores 10
        if the retourne is a 7." ("its last card is the turned-up `retourne`, whose suit is trump")"""
        assert talon[-1][0] == self.trump and len(talon) == TALON
        scored = add((0, 0), dealer, RETOURNE_SEVEN if talon[-1][1] == "7" else 0)
        return St((fresh(deal[0]), fresh(deal[1])), tuple(talon), (), 1 - dealer, scored, (0, 0), dealer=dealer)

    # -- melds ------------------------------------------------------------------------------

    def shape(self, kind: str, cards: Sequence[str]) -> bool:
        """Are these the cards of a meld of `kind`?"""
        t = self.trump
        if kind == "marriage":  # K+Q of one suit (common or trump)
            return cards[0][0] == cards[1][0] and sorted(c[1] for c in cards) == ["K", "Q"]
        if kind == "besigue":
            return sorted(cards) == ["DJ", "SQ"]
        if kind == "double_besigue":  # "both `SQ` and both `DJ`"
            return sorted(cards) == ["DJ", "DJ", "SQ", "SQ"]
        if kind == "sequence":  # "A T K Q J of trump"
            return sorted(cards) == sorted(t + r for r in "ATKQJ")
        return all(c[1] == FOURS[kind] for c in cards)  # "any four cards of that rank, duplicates included"

    def meld_pool(self, kind: str, hand: Sequence[Copy]) -> list[Copy]:
        """The copies of the hand that could be part of a meld of `kind`."""
        if kind in FOURS:
            return [c for c in hand if c[0][1] == FOURS[kind]]
        if kind == "sequence":
            return [c for c in hand if c[0][0] == self.trump and c[0][1] in "ATKQJ"]
        if kind == "marriage":
            return [c for c in hand if c[0][1] in "KQ"]
        return [c for c in hand if c[0] in ("SQ", "DJ")]

    def melds(self, hand: Sequence[Copy]) -> list[Meld]:
        """Every meld the hand may declare, one per distinct set of copies."""
        size = {"marriage": 2, "besigue": 2, "double_besigue": 4, "sequence": 5}
        out: dict[tuple[str, tuple[Copy, ...]], Meld] = {}
        for kind in KINDS:
            for combo in itertools.combinations(self.meld_pool(kind, hand), size.get(kind, 4)):
                copies = tuple(sorted(combo, key=copy_key))
                if (kind, copies) in out or not self.shape(kind, [c for c, _ in copies]):
                    continue
                if kind == "double_besigue" and all("besigue" in marks for _, marks in copies):
                    self.events["two bésigues declared apart: no double bésigue"] += 1
                # "a meld must contain at least one card not melded before"
                if all(marks for _, marks in copies):
                    self.events["reuse refused: no card not melded before"] += 1
                    continue
                # "none of its cards may already have been used in a meld of the same kind
                # (marriages, common or trump, are one kind)"
                if any(kind in marks for _, marks in copies):
                    self.events[f"reuse refused: same kind ({kind})"] += 1
                    continue
                trump_marriage = kind == "marriage" and copies[0][0][0] == self.trump
                # "a card used in a sequence may not join a trump marriage"
                if trump_marriage and any("sequence" in marks for _, marks in copies):
                    self.events["reuse refused: sequence card in a trump marriage"] += 1
                    continue
                if kind == "marriage":
                    points = TRUMP_MARRIAGE if trump_marriage else COMMON_MARRIAGE
                else:
                    points = MELD_POINTS[kind]
                out[(kind, copies)] = Meld(kind, copies, points)
        return list(out.values())

    # -- moves --------------------------------------------------------------------------------

    def fresh_seven(self, hand: Sequence[Copy]) -> bool:
        return (self.trump + "7", ()) in hand

    def can_exchange(self, st: St) -> bool:
        """ "`exchange7`: the same, and swap that 7 with the retourne, once per deal, while the
        retourne is still the talon's last card and is not itself a 7." (Until the exchange the
        talon's last card is the retourne.)"""
        return not st.exchanged and st.talon[-1][1] != "7"

    def moves(self, st: St) -> list[str]:
        seat = st.to_move
        hand = st.hands[seat]
        if st.to_declare is not None:
            out = []
            if self.fresh_seven(hand):
                out.append("seven")
                if self.can_exchange(st):
                    out.append("exchange7")
            out += [m.move for m in self.melds(hand)]
            return out + ["pass"]
        if st.talon:  # "Phase 1, while the talon is not empty: any card may be played."
            return sorted({token(c) for c in hand})
        cards = [c for c, _ in hand]
        if st.trick:
            return sorted(set(phase2_legal(cards, st.trick[0], self.trump)))
        return sorted(set(cards))

    def draw(self, st: St, hands: tuple[tuple[Copy, ...], tuple[Copy, ...]]) -> St:
        """ "the winner declares, then draws the top card of the talon, then the loser draws";
        phase 2 follows an empty talon: "melded cards are simply in hand" (the marks go)."""
        w = st.to_declare
        assert w is not None
        got = [list(hands[0]), list(hands[1])]
        got[w].append((st.talon[0], ()))
        got[1 - w].append((st.talon[1], ()))
        talon = st.talon[2:]
        if not talon:
            got = [[(c, ()) for c, _ in h] for h in got]
        new = set_hand(set_hand(hands, 0, got[0]), 1, got[1])
        return replace(st, hands=new, talon=talon, to_declare=None, leader=w)

    def play(self, st: St, move: str) -> St:
        seat = st.to_move
        hand = list(st.hands[seat])
        t7 = self.trump + "7"
        if st.to_declare is not None:
            if move == "seven":
                hand[hand.index((t7, ()))] = (t7, (SEVEN_MARK,))
                return replace(st, hands=set_hand(st.hands, seat, hand), scored=add(st.scored, seat, SEVEN))
            if move == "exchange7":
                assert self.can_exchange(st)
                self.events["exchange7 at the last draw" if len(st.talon) == 2 else "exchange7"] += 1
                hand.remove((t7, ()))
                hand.append((st.talon[-1], ()))
                talon = st.talon[:-1] + (t7,)
                return replace(
                    st,
                    hands=set_hand(st.hands, seat, hand),
                    talon=talon,
                    exchanged=True,
                    scored=add(st.scored, seat, SEVEN),
                )
            if move == "pass":
                return self.draw(st, st.hands)
            meld = {m.move: m for m in self.melds(hand)}[move]
            self.note_meld(meld)
            for c in meld.copies:
                hand.remove(c)
                hand.append((c[0], tuple(sorted(c[1] + (meld.kind,)))))
            st = replace(st, scored=add(st.scored, seat, meld.points))
            return self.draw(st, set_hand(st.hands, seat, hand))
        copy = parse(move)
        hand.remove(copy)
        hands = set_hand(st.hands, seat, hand)
        trick = st.trick + (copy[0],)
        if len(trick) == 1:
            return replace(st, hands=hands, trick=trick)
        lead, reply = trick
        rule = self.phase1 if st.talon else "phase2"
        if lead == reply:
            self.events["identical cards: " + ("phase 1" if st.talon else "phase 2")] += 1
        w = 1 - st.leader if second_wins(lead, reply, self.trump, rule) else st.leader
        pts = brisques(trick)
        if not st.talon and not any(hands):
            pts += LAST_TRICK
        st = replace(st, hands=hands, trick=(), leader=w, scored=add(st.scored, w, pts), tricks=add(st.tricks, w, 1))
        if st.talon:
            return replace(st, to_declare=w)
        return st

    def note_meld(self, meld: Meld) -> None:
        kinds = {k for _, marks in meld.copies for k in marks}
        self.events["meld " + meld.kind] += 1
        if meld.kind == "marriage" and meld.copies[0][0][0] == self.trump:
            self.events["meld trump marriage"] += 1
        if meld.kind == "sequence" and "marriage" in kinds:
            self.events["trump marriage grown into a sequence"] += 1
        if meld.kind == "double_besigue" and "besigue" in kinds:
            self.events["bésigue grown into a double bésigue"] += 1
        if kinds:
            self.events["meld reusing a melded card"] += 1

    # -- values -------------------------------------------------------------------------------

    def solve(self, st: St) -> int:
        """Plain minimax to the end of the deal (memoised on the whole state): seat 0's final
        score minus seat 1's, seat 0 maximising and seat 1 minimising it."""
        diff = st.scored[0] - st.scored[1]
        if st.phase2:  # phase 2 alone, from the hands (its own memoised minimax)
            hands = [tuple(sorted(c for c, _ in h)) for h in st.hands]
            lead, other = hands[st.leader], hands[1 - st.leader]
            rest = phase2_reply(self.trump, lead, other, st.trick[0]) if st.trick else phase2_lead(self.trump, lead, other)
            return diff + (rest if st.leader == 0 else -rest)
        if st in self.memo:
            return self.memo[st]
        vals = [self.solve(self.play(st, m)) for m in self.moves(st)]
        v = max(vals) if st.to_move == 0 else min(vals)
        self.memo[st] = v
        return v

    def values(self, st: St) -> dict[str, int]:
        """Each legal move's value for the seat to move: its final score minus the other's."""
        sign = 1 if st.to_move == 0 else -1
        return {m: sign * self.solve(self.play(st, m)) for m in self.moves(st)}


# ---------------------------------------------------------------------------
# FORMAT.md dicts, and plis alongside
# ---------------------------------------------------------------------------


def position_dict(g: Besigue, st: St) -> dict[str, Any]:
    """FORMAT.md's hands form of a state: hands with their melded copies, `melded`, `sevens`."""
    d = g.header()
    d.update(
        hands=[" ".join(c for c, _ in h) for h in st.hands],
        talon=list(st.talon),
        trick=list(st.trick),
        leader=st.leader,
        scored=list(st.scored),
        tricks=list(st.tricks),
        melded=[[{"card": c, "kinds": list(m)} for c, m in h if m and m != (SEVEN_MARK,)] for h in st.hands],
        sevens=[sum(1 for _, m in h if m == (SEVEN_MARK,)) for h in st.hands],
        exchanged=st.exchanged,
        dealer=st.dealer,
    )
    if st.to_declare is not None:
        d["to_declare"] = st.to_declare
    return d


def deal_dict(
    g: Besigue, deal: Sequence[Sequence[str]], talon: Sequence[str], dealer: int, played: Sequence[str]
) -> dict[str, Any]:
    d = g.header()
    d.update(deal=[" ".join(h) for h in deal], talon=list(talon), dealer=dealer, played=list(played))
    return d


def normal(d: dict[str, Any]) -> dict[str, Any]:
    """The parts of a FORMAT.md hands-form dict that say the state, hands and melds as multisets."""
    return {
        "options": d["options"],
        "trump": d["trump"],
        "hands": [sorted(h.split()) for h in d["hands"]],
        "talon": list(d["talon"]),
        "trick": list(d["trick"]),
        "leader": d["leader"],
        "scored": list(d["scored"]),
        "tricks": list(d["tricks"]),
        "melded": [sorted((m["card"], tuple(sorted(m["kinds"]))) for m in ms) for ms in d["melded"]],
        "sevens": list(d["sevens"]),
        "exchanged": d["exchanged"],
        "dealer": d["dealer"],
        "to_declare": d.get("to_declare"),
    }


def check_state(pos: Any, g: Besigue, st: St, where: Any) -> None:
    assert normal(pos.to_dict()) == normal(position_dict(g, st)), where
    assert pos.is_over == st.over, where


Picker = Callable[[St, list[str]], str]


def play_along(g: Besigue, st: St, pos: Any, pick: Picker, where: dict[str, Any]) -> list[tuple[St, str]]:
    """Play from `st` as `pick` chooses, plis's `pos` alongside: before every move its legal moves,
    and at every state what it keeps, against ours. Returns every state met with the move then
    made (the last with "")."""
    path: list[tuple[St, str]] = []
    played: list[str] = where.setdefault("played", [])
    while not st.over:
        check_state(pos, g, st, where)
        mine = g.moves(st)
        assert len(mine) == len(set(mine)), mine
        assert sorted(pos.legal_moves()) == sorted(mine), where
        if st.trick and st.phase2:
            g.events[phase2_case([c for c, _ in st.hands[st.to_move]], st.trick[0], g.trump)] += 1
        move = pick(st, mine)
        path.append((st, move))
        played.append(move)
        st = g.play(st, move)
        pos = pos.play(move)
    check_state(pos, g, st, where)
    path.append((st, ""))
    return path


# ---------------------------------------------------------------------------
# Deals, built positions and playouts
# ---------------------------------------------------------------------------

STYLES = ("random", "marriages", "besigue", "fours", "sequence", "sevens")


def wanted_cards(style: str, trump: str, rng: random.Random) -> list[str]:
    """Cards to stack into one seat's hand and the top of the talon, so that melds come up."""
    plains = [s for s in SUITS if s != trump]
    if style == "marriages":
        return [trump + "K", trump + "Q"] + [s + r for s in rng.sample(plains, 2) for r in "KQ"] + [trump + "K"]
    if style == "besigue":
        return ["SQ", "DJ", "SQ", "DJ", "SK", "DK"]
    if style == "fours":
        rank = rng.choice("AKQJ")
        return [s + rank for s in SUITS] + [rng.choice(SUITS) + rank, rng.choice(SUITS) + rank]
    if style == "sequence":
        return [trump + r for r in "KQATJ"] + [trump + "K", trump + "Q"]
    if style == "sevens":
        return [trump + "7", trump + "A", trump + "K", trump + "Q"]
    return []


def random_deal(rng: random.Random, style: str) -> tuple[str, list[list[str]], list[str]]:
    """A trump suit, two hands of 9 and a talon of 46, the retourne last (a 7 one time in four).

    The wanted cards of `style` go to one seat: most into its hand, the rest near the top of
    the talon (drawn in the first few tricks)."""
    trump = rng.choice(SUITS)
    pack = list(PACK)
    retourne = trump + ("7" if rng.random() < 0.25 else rng.choice("ATKQJ98"))
    pack.remove(retourne)
    wanted = []
    for c in wanted_cards(style, trump, rng):
        if c in pack:  # at most two copies of a card
            pack.remove(c)
            wanted.append(c)
    rng.shuffle(pack)
    seat = rng.randrange(2)
    k = rng.randint(max(0, len(wanted) - 4), min(len(wanted), 6))
    hands: list[list[str]] = [[], []]
    hands[seat] = wanted[:k]
    rest = wanted[k:]
    for h in hands:
        while len(h) < HAND:
            h.append(pack.pop())
    talon = pack
    for c in rest:
        talon.insert(rng.randrange(0, 12), c)
    talon.append(retourne)
    return trump, [sorted(h, key=CANON.__getitem__) for h in hands], talon


def keeps(g: Besigue, c: Copy) -> bool:
    """Cards a player holds on to in phase 1 (most of the time), so that melds build up."""
    card, marks = c
    return card[1] in "AKQJ" or card in (g.trump + "T",) or (card == g.trump + "7" and not marks)


def picker(g: Besigue, rng: random.Random, seven_rate: float) -> Picker:
    """Random legal moves, biased: melds and sevens declared often, honours kept in phase 1."""

    def pick(st: St, moves: list[str]) -> str:
        if st.to_declare is not None:
            sevens = [m for m in moves if m in ("seven", "exchange7")]
            melds = [m for m in moves if m.startswith("meld:")]
            if sevens and rng.random() < seven_rate:
                return rng.choice(sevens)
            if melds and rng.random() < 0.85:
                return rng.choice(melds)
            return "pass" if rng.random() < 0.8 else rng.choice(moves)
        if st.talon:
            low = [m for m in moves if not keeps(g, parse(m))]
            if low and rng.random() < 0.75:
                return rng.choice(low)
        return rng.choice(moves)

    return pick


def deal_playout(
    g: Besigue, rng: random.Random, trump_deal: tuple[str, list[list[str]], list[str]], dealer: int
) -> list[tuple[St, str]]:
    """A whole deal, plis alongside from the deal form with nothing played."""
    _, deal, talon = trump_deal
    st = g.start(deal, talon, dealer)
    d = deal_dict(g, deal, talon, dealer, [])
    pos = load_position(d)
    return play_along(g, st, pos, picker(g, rng, rng.choice([0.15, 0.6])), {"deal": d, "played": []})


def built_position(
    g: Besigue, rng: random.Random, talon_len: int, pool: Sequence[str] = PACK, declare: bool = False, style: str = "random"
) -> St:
    """A position given in hands form with a short talon: the cards come from `pool` (the others
    are gone), some copies already face up in melds and some trump 7s scored, the talon's last
    card of the trump suit (the retourne, or the 7 exchanged for it). With `declare`, the
    winner of the trick just played has yet to declare and draw."""
    t = g.trump
    pack = list(pool)
    rng.shuffle(pack)
    wanted = []
    for c in wanted_cards(style, t, rng):
        if c in pack:  # of the pool, at most two copies
            pack.remove(c)
            wanted.append(c)
    size = HAND - 1 if declare else HAND
    cards = wanted + pack
    leader = rng.randrange(2)
    seat = leader if declare else rng.randrange(2)  # who gets the wanted cards
    hand_cards: list[list[str]] = [[], []]
    hand_cards[seat] = cards[:size]
    hand_cards[1 - seat] = cards[size : 2 * size]
    rest = cards[2 * size :]
    last = next(c for c in rest if c[0] == t)
    rest.remove(last)
    talon = tuple(rest[: talon_len - 1]) + (last,)
    exchanged = last == t + "7" and rng.random() < 0.5
    hands = [list(fresh(h)) for h in hand_cards]
    for h in hands:  # declarations made before the position: marks only
        for _ in range(rng.choice([0, 1, 2, 3])):
            melds = g.melds(h)
            if melds:
                m = rng.choice(melds)
                for c in m.copies:
                    h.remove(c)
                    h.append((c[0], tuple(sorted(c[1] + (m.kind,)))))
        for i, c in enumerate(h):
            if c == (t + "7", ()) and rng.random() < 0.5:
                h[i] = (c[0], (SEVEN_MARK,))
    played = (TALON - talon_len) // 2 + (1 if declare else 0)
    won = rng.randint(0, played)
    return St(
        (tuple(sorted(hands[0], key=copy_key)), tuple(sorted(hands[1], key=copy_key))),
        talon,
        (),
        leader,
        (rng.randrange(0, 400, 10), rng.randrange(0, 400, 10)),
        (won, played - won),
        exchanged=exchanged,
        dealer=rng.randrange(2),
        to_declare=leader if declare else None,
    )


def narrow_pool(trump: str, rng: random.Random, talon_len: int) -> list[str]:
    """Both copies of a few cards, as many as two hands of 9 and the talon need: the trump
    A T K Q J, `SQ`, `DJ` and others at random. Few distinct cards keep our minimax of a whole
    phase 2 after the last phase-1 tricks small."""
    distinct = list(dict.fromkeys([trump + r for r in "ATKQJ"] + ["SQ", "DJ"]))
    others = [c for c in CARDS if c not in distinct]
    distinct += rng.sample(others, (2 * HAND + talon_len) // 2 - len(distinct))
    return distinct * 2


def check_values(g: Besigue, st: St) -> int:
    """plis's legal moves, and its value of every legal move (and `value`, `best`, `points`),
    against our minimax, for both objectives; returns the moves compared."""
    mine = g.values(st)
    d = position_dict(g, st)
    assert sorted(load_position(d).legal_moves()) == sorted(mine), d
    top = max(mine.values())
    me = st.to_move
    for objective in OBJECTIVES:
        r = analyse(d, objective=objective)
        assert r.exact, d
        assert {m.move: m.value for m in r.moves} == mine, (objective, d)
        assert [m.value for m in r.moves] == sorted(mine.values(), reverse=True), (objective, d)  # best first
        assert r.value == top and set(r.best) == {m for m, v in mine.items() if v == top}, (objective, d)
        assert r.points is not None and r.points[me] - r.points[1 - me] == top, (objective, d)
        assert all(p >= s for p, s in zip(r.points, st.scored)), (objective, d)
    return len(mine)


def deal_playouts(phase1: str, seed: str, n: int, events: Counter[str]) -> list[tuple[Besigue, list[tuple[St, str]]]]:
    """`n` whole deals played along with plis (the styles in turn), each also replayed from its
    `played` list at a random cut and restarted in hands form from a random phase-1 state."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        trump, deal, talon = random_deal(rng, STYLES[i % len(STYLES)])
        g = Besigue(trump, phase1, events)
        dealer = rng.randrange(2)
        path = deal_playout(g, rng, (trump, deal, talon), dealer)
        out.append((g, path))
        played = [m for _, m in path[:-1]]
        # FORMAT.md: "where none is listed, the winner declared nothing (`pass` is implied)"
        cut = rng.randrange(len(played) + 1)
        check_state(load_position(deal_dict(g, deal, talon, dealer, played[:cut])), g, path[cut][0], played[:cut])
        if cut > 0 and played[cut - 1] != "pass":
            implied = [m for m in played[:cut] if m != "pass"]
            check_state(load_position(deal_dict(g, deal, talon, dealer, implied)), g, path[cut][0], implied)
        # the same deal in hands form (melded, sevens, exchanged given) from a phase-1 state on
        st = rng.choice([s for s, _ in path if s.talon])
        d = position_dict(g, st)
        play_along(g, st, load_position(d), picker(g, rng, 0.5), {"position": d})
    return out


# ---------------------------------------------------------------------------
# 1. Random playouts
# ---------------------------------------------------------------------------

PLAYOUT_CASES = (
    "meld marriage",
    "meld trump marriage",
    "meld besigue",
    "meld double_besigue",
    "meld four_aces",
    "meld four_kings",
    "meld four_queens",
    "meld four_jacks",
    "meld sequence",
    "meld reusing a melded card",
    "trump marriage grown into a sequence",
    "bésigue grown into a double bésigue",
    "exchange7",
    "reuse refused: no card not melded before",
    "reuse refused: same kind (marriage)",
    "reuse refused: same kind (besigue)",
    "reuse refused: sequence card in a trump marriage",
    "identical cards: phase 1",
    "identical cards: phase 2",
    "phase 2: follow and win",
    "phase 2: follow, cannot win",
    "phase 2: cannot follow, must trump",
    "phase 2: cannot follow nor trump, any card",
)


@pytest.mark.parametrize("phase1", OPTIONS)
def test_playouts_moves_and_state(phase1: str) -> None:
    events: Counter[str] = Counter()
    paths = deal_playouts(phase1, "playouts-" + phase1, 90, events)
    for case in PLAYOUT_CASES:
        assert events[case] > 0, (case, events)
    # the dealer's retourne 7 and a retourne that is no 7 both came up
    assert {p[0][0].talon[-1][1] == "7" for _, p in paths} == {True, False}


@pytest.mark.parametrize("phase1", OPTIONS)
def test_short_talon_playouts(phase1: str) -> None:
    """Positions given in hands form with 2 to 12 talon cards, face-up melds and scored 7s,
    some with the declaration pending: played along to the end."""
    rng = random.Random("short-" + phase1)
    events: Counter[str] = Counter()
    for i in range(60):
        g = Besigue(rng.choice(SUITS), phase1, events)
        st = built_position(g, rng, rng.choice([2, 2, 4, 6, 8, 12]), declare=i % 3 == 0, style=STYLES[i % len(STYLES)])
        d = position_dict(g, st)
        play_along(g, st, load_position(d), picker(g, rng, rng.choice([0.3, 0.9])), {"position": d})
    for case in (
        "exchange7",
        "exchange7 at the last draw",
        "meld reusing a melded card",
        "reuse refused: no card not melded before",
    ):
        assert events[case] > 0, (case, events)


# ---------------------------------------------------------------------------
# 2. Endgame values
# ---------------------------------------------------------------------------


def tricks_left(st: St) -> int:
    return max(len(h) for h in st.hands)


@pytest.mark.parametrize("phase1", OPTIONS)
def test_endgames_phase2(phase1: str) -> None:
    """Phase 2 with 1 to 9 tricks left, cut from playouts, some in the middle of a trick."""
    rng = random.Random("phase2-" + phase1)
    events: Counter[str] = Counter()
    compared = 0
    for i, (g, path) in enumerate(deal_playouts(phase1, "phase2-deals-" + phase1, 27, events)):
        left = 9 - i % 9
        states = [s for s, _ in path if s.phase2 and not s.over and tricks_left(s) == left]
        st = states[0] if rng.random() < 0.6 else states[-1]  # a trick's lead, or its second card
        compared += check_values(g, st)
    assert compared > 100


@pytest.mark.parametrize("phase1", OPTIONS)
def test_endgames_last_declaration(phase1: str) -> None:
    """The winner of the last phase-1 trick declares (seven, exchange7 at the last draw, melds),
    both draw, and phase 2 is played out."""
    rng = random.Random("last-declaration-" + phase1)
    events: Counter[str] = Counter()
    roots: Counter[str] = Counter()
    states = [
        next(s for s, _ in path if s.to_declare is not None and len(s.talon) == 2)
        for _, path in deal_playouts(phase1, "last-declaration-deals-" + phase1, 6, events)
    ]
    while len(states) < 14:
        g = Besigue(rng.choice(SUITS), phase1, events)
        style = ("sevens", "sequence", "besigue", "fours", "marriages")[len(states) % 5]
        st = built_position(g, rng, 2, declare=True, style=style)
        if len(g.moves(st)) > 1:
            states.append(st)
    for st in states:
        g = Besigue(st.talon[-1][0], phase1, events)
        for m in g.moves(st):
            roots[m.split(":")[0 if ":" not in m else 1]] += 1
        check_values(g, st)
    for kind in ("seven", "exchange7", "marriage", "pass"):
        assert roots[kind] > 0, roots


@pytest.mark.parametrize("phase1", OPTIONS)
def test_endgames_last_phase1_tricks(phase1: str) -> None:
    """The last phase-1 trick (its second card from playouts; its lead, and the declaration of
    the trick before it with the whole last trick, from narrow card pools), with the
    declarations, the draws and the whole of phase 2 after it."""
    rng = random.Random("last-tricks-" + phase1)
    events: Counter[str] = Counter()
    states = [
        next(s for s, _ in path if len(s.talon) == 2 and s.trick)
        for _, path in deal_playouts(phase1, "last-tricks-deals-" + phase1, 2, events)
    ]
    for talon_len, declare in ((2, False), (4, True)):
        g = Besigue(rng.choice(SUITS), phase1, events)
        while True:
            st = built_position(g, rng, talon_len, pool=narrow_pool(g.trump, rng, talon_len), declare=declare)
            if len(g.moves(st)) > 1:
                states.append(st)
                break
    for st in states:
        check_values(Besigue(st.talon[-1][0], phase1, events), st)


# ---------------------------------------------------------------------------
# 3. Hand-checked cases
# ---------------------------------------------------------------------------


def spot(
    g: Besigue,
    hands: Sequence[str],
    talon: Sequence[str],
    trick: Sequence[str] = (),
    leader: int = 0,
    to_declare: int | None = None,
    exchanged: bool = False,
    dealer: int = 1,
) -> St:
    """A hands-form position from the cards that matter (tokens with their marks), phase-1
    hands filled up with plain 9s, 8s, 7s and Tens; `tricks` as the talon and hands imply."""
    copies = [[parse(t) for t in h.split()] for h in hands]
    if talon:
        sizes = [HAND - (1 if to_declare is not None or (trick and seat == leader) else 0) for seat in (0, 1)]
        used = Counter(c for h in copies for c, _ in h) + Counter(talon) + Counter(trick)
        fillers = iter([s + r for r in "987T" for s in SUITS if s != g.trump] * 2)
        for seat in (0, 1):
            while len(copies[seat]) < sizes[seat]:
                c = next(fillers)
                if used[c] < 2:
                    used[c] += 1
                    copies[seat].append((c, ()))
        played = (TALON - len(talon)) // 2 + (1 if to_declare is not None else 0)
    else:
        played = PHASE1_TRICKS + HAND - max(len(h) for h in copies)
    return St(
        (tuple(sorted(copies[0], key=copy_key)), tuple(sorted(copies[1], key=copy_key))),
        tuple(talon),
        tuple(trick),
        leader,
        (0, 0),
        (played - played // 2, played // 2),
        exchanged=exchanged,
        dealer=dealer,
        to_declare=to_declare,
    )


def plis_moves(g: Besigue, st: St) -> set[str]:
    """plis's legal moves of a spot position, checked equal to ours."""
    d = position_dict(g, st)
    pos = load_position(d)
    check_state(pos, g, st, d)
    moves = set(pos.legal_moves())
    assert moves == set(g.moves(st)), d
    return moves


def after(g: Besigue, st: St, moves: Sequence[str]) -> tuple[St, Any]:
    """Our state and plis's position after `moves` from a spot position, checked equal."""
    pos = load_position(position_dict(g, st))
    for m in moves:
        st, pos = g.play(st, m), pos.play(m)
        check_state(pos, g, st, moves)
    return st, pos


# (lead, reply, trump hearts: does the reply win under `seed`, under `standard`?)
PHASE1_TRICKS_CASES = [
    ("S9", "ST", True, True),  # a higher card of the suit led: both
    ("SK", "SA", True, True),  # "All suits rank A T K Q J 9 8 7": A over T over K
    ("ST", "SK", False, False),
    # seed: "otherwise the higher rank wins whatever the suits"; standard: "only if it is a
    # higher card of the suit led, or a trump on a non-trump lead"
    ("S7", "CA", True, False),
    ("DQ", "CK", True, False),
    ("CA", "S7", False, False),
    ("SA", "H7", True, True),  # "a trump beats a non-trump" / "a trump on a non-trump lead"
    ("H7", "SA", False, False),  # seed: "a trump beats a non-trump", the trump led too
    ("HK", "HA", True, True),  # two trumps: the higher
    ("HA", "HT", False, False),
    ("ST", "CT", False, False),  # "equal ranks: the leader wins" (seed); not the suit led (standard)
    ("SQ", "SQ", False, False),  # "Of two identical cards the first played wins."
    ("H9", "H9", False, False),
]


@pytest.mark.parametrize("lead,reply,seed_wins,standard_wins", PHASE1_TRICKS_CASES)
def test_hand_checked_phase1_trick_winner(lead: str, reply: str, seed_wins: bool, standard_wins: bool) -> None:
    for phase1, wins in (("seed", seed_wins), ("standard", standard_wins)):
        g = Besigue("H", phase1)
        assert second_wins(lead, reply, "H", phase1) == wins
        for leader in (0, 1):
            hands = [lead if seat != leader else "" for seat in (0, 1)]
            hands[1 - leader] = reply
            st = spot(g, hands, ["CJ", "DK", "SJ", "H8"], trick=[lead], leader=leader)
            end, pos = after(g, st, [reply])
            winner = 1 - leader if wins else leader
            # "After a phase-1 trick the winner declares"; "every A and T in tricks won 10"
            assert pos.to_dict()["to_declare"] == end.to_declare == winner
            assert pos.to_dict()["scored"][winner] == end.scored[winner] == brisques([lead, reply])


# (trump hearts, lead, hand of the second player, its legal cards)
PHASE2_CASES = [
    # "Follow suit if you can, and then win the trick if you can"
    ("SK", "SA ST S7 HA", {"SA", "ST"}),
    ("SA", "SK S7 HA", {"SK", "S7"}),  # cannot win: any card of the suit
    ("SA", "SA S7 HA", {"SA", "S7"}),  # the identical card does not win ("the first played wins")
    ("H9", "HT H7 SA", {"HT"}),  # a trump lead: follow with a higher trump
    ("HA", "HA H7 SA", {"HA", "H7"}),
    # "if you cannot follow, trump if you can"
    ("SK", "H7 HA C8", {"H7", "HA"}),
    # "otherwise any card"
    ("SK", "C8 DA", {"C8", "DA"}),
    ("HA", "SA C7", {"SA", "C7"}),
]


@pytest.mark.parametrize("lead,hand,expected", PHASE2_CASES)
def test_hand_checked_phase2_legal(lead: str, hand: str, expected: set[str]) -> None:
    g = Besigue("H")
    assert set(phase2_legal(hand.split(), lead, "H")) == expected
    n = len(hand.split())
    others = "D9 D8 C9 C8 S9 S8 D7 C7".split()[: n - 1]
    st = spot(g, [" ".join(others), hand], [], trick=[lead], leader=0)
    assert plis_moves(g, st) == expected


def test_hand_checked_phase2_trick_and_last_trick() -> None:
    # Phase 2 "Trick: higher card of the suit led, or trump." and "last trick 10"
    g = Besigue("H")
    for lead, reply, second in (
        ("SA", "ST", False),
        ("S7", "CA", False),
        ("ST", "SA", True),
        ("SA", "H7", True),
        ("HT", "HT", False),
    ):
        st = spot(g, ["", reply], [], trick=[lead], leader=0)
        end, pos = after(g, st, [reply])
        winner = 1 if second else 0
        assert end.over and pos.is_over
        assert end.scored[winner] == pos.to_dict()["scored"][winner] == brisques([lead, reply]) + LAST_TRICK
        assert end.scored[1 - winner] == 0
        r = analyse(position_dict(g, st))
        assert r.value == (1 if second else -1) * (brisques([lead, reply]) + LAST_TRICK)
    # the last trick's 10 goes to its winner even without a brisque; a trick before it, none
    st = spot(g, ["S7 C8", "S8 C9"], [], leader=0)
    assert g.values(st) == {"S7": -LAST_TRICK, "C8": -LAST_TRICK}
    assert {m.move: m.value for m in analyse(position_dict(g, st)).moves} == {"S7": -10, "C8": -10}


# (trump, the declaring seat's cards, the meld, its points)
MELD_CASES = [
    ("H", "CK CQ", "meld:marriage:CK CQ", 20),  # "common marriage (K+Q of a plain suit) 20"
    ("H", "HK HQ", "meld:marriage:HK HQ", 40),  # "trump marriage 40"
    ("H", "SQ DJ", "meld:besigue:SQ DJ", 40),  # "bésigue (`SQ`+`DJ`) 40"
    ("S", "SQ DJ", "meld:besigue:SQ DJ", 40),  # `SQ`+`DJ` whatever the trump (RULES.md's departures table)
    ("H", "SQ SQ DJ DJ", "meld:double_besigue:SQ SQ DJ DJ", 500),  # "double bésigue (both `SQ` and both `DJ`) 500"
    ("H", "CJ SJ HJ DJ", "meld:four_jacks:CJ SJ HJ DJ", 40),  # "four Jacks 40"
    ("H", "CJ CJ SJ HJ", "meld:four_jacks:CJ CJ SJ HJ", 40),  # "(any four cards of that rank, duplicates included)"
    ("H", "CQ SQ HQ DQ", "meld:four_queens:CQ SQ HQ DQ", 60),  # "four Queens 60"
    ("H", "CK SK SK DK", "meld:four_kings:CK SK SK DK", 80),  # "four Kings 80"
    ("H", "CA SA HA DA", "meld:four_aces:CA SA HA DA", 100),  # "four Aces 100"
    ("H", "HA HT HK HQ HJ", "meld:sequence:HA HK HQ HJ HT", 250),  # "trump sequence (A T K Q J of trump) 250"
    ("D", "DA DT DK DQ DJ", "meld:sequence:DA DK DQ DJ DT", 250),
]


@pytest.mark.parametrize("trump,cards,meld,points", MELD_CASES)
def test_hand_checked_meld_points(trump: str, cards: str, meld: str, points: int) -> None:
    g = Besigue(trump)
    for seat in (0, 1):
        hands = ["", ""]
        hands[seat] = cards
        st = spot(g, hands, ["C7", "D9", "S8", trump + "9"], leader=seat, to_declare=seat)
        assert meld in plis_moves(g, st)
        end, pos = after(g, st, [meld])
        # "one meld (`meld:KIND:CARDS`), which ends the step"; the cards stay in hand, marked
        assert end.scored[seat] == pos.to_dict()["scored"][seat] == points
        assert pos.to_dict().get("to_declare") is None
        assert sorted(m["card"] for m in pos.to_dict()["melded"][seat]) == sorted(meld.split(":")[2].split())


# Hearts trump; the declaring seat's cards (marks: meld kinds used before); the melds that must
# be offered, and those that must not. Each case quotes RULES.md ("Reuse: ...").
REUSE_CASES = [
    # "a meld must contain at least one card not melded before"
    ("CK[four_kings] CQ[four_queens]", [], ["meld:marriage:CK[four_kings] CQ[four_queens]"]),
    ("CK[four_kings] CQ", ["meld:marriage:CK[four_kings] CQ"], []),
    (
        "CA[four_aces] SA[four_aces] HA[four_aces] DA[four_aces] DA",
        [],
        ["meld:four_aces:CA[four_aces] SA[four_aces] HA[four_aces] DA"],
    ),
    # "none of its cards may already have been used in a meld of the same kind"
    ("CK[marriage] CQ[marriage] CQ", [], ["meld:marriage:CK[marriage] CQ"]),
    ("SQ[besigue] DJ[besigue] DJ", [], ["meld:besigue:SQ[besigue] DJ"]),
    ("SQ[besigue] DJ[besigue] SQ DJ", ["meld:besigue:SQ DJ", "meld:double_besigue:SQ SQ[besigue] DJ DJ[besigue]"], []),
    ("CK[four_kings] SK HK DK DK", ["meld:four_kings:SK HK DK DK"], ["meld:four_kings:CK[four_kings] SK HK DK"]),
    (
        "CK[four_kings] SK[four_kings] HK[four_kings] DK[four_kings] CK",
        [],
        ["meld:four_kings:CK SK[four_kings] HK[four_kings] DK[four_kings]"],
    ),
    # "(marriages, common or trump, are one kind)": a trump marriage's K with the other trump Q
    ("HK[marriage] HQ[marriage] HQ", [], ["meld:marriage:HK[marriage] HQ"]),
    # "a card used in a sequence may not join a trump marriage"
    ("HA[sequence] HT[sequence] HK[sequence] HQ[sequence] HJ[sequence] HQ", [], ["meld:marriage:HK[sequence] HQ"]),
    # ... but it may join another kind: four Kings
    ("HK[sequence] CK SK DK", ["meld:four_kings:CK SK HK[sequence] DK"], []),
    # "So a trump marriage may grow into a sequence"
    ("HA HT HK[marriage] HQ[marriage] HJ", ["meld:sequence:HA HK[marriage] HQ[marriage] HJ HT"], []),
    # "and a bésigue into a double bésigue"
    ("SQ[besigue] DJ[besigue] SQ DJ", ["meld:double_besigue:SQ SQ[besigue] DJ DJ[besigue]"], []),
    # "but two bésigues declared apart never make a double bésigue"
    (
        "SQ[besigue] SQ[besigue] DJ[besigue] DJ[besigue]",
        [],
        ["meld:double_besigue:SQ[besigue] SQ[besigue] DJ[besigue] DJ[besigue]"],
    ),
    # a bésigue of a double bésigue's cards is of another kind, but has no card not melded before
    (
        "SQ[double_besigue] SQ[double_besigue] DJ[double_besigue] DJ[double_besigue]",
        [],
        ["meld:besigue:SQ[double_besigue] DJ[double_besigue]"],
    ),
    # a second sequence needs cards not used in a sequence
    (
        "HA[sequence] HT[sequence] HK[sequence] HQ[sequence] HJ[sequence] HA",
        [],
        ["meld:sequence:HA HK[sequence] HQ[sequence] HJ[sequence] HT[sequence]"],
    ),
]


@pytest.mark.parametrize("cards,offered,refused", REUSE_CASES)
def test_hand_checked_meld_reuse(cards: str, offered: list[str], refused: list[str]) -> None:
    g = Besigue("H")
    st = spot(g, [cards, ""], ["C7", "D9", "S8", "H9"], leader=0, to_declare=0)
    moves = plis_moves(g, st)
    assert all(m in moves for m in offered), (moves, offered)
    assert not any(m in moves for m in refused), (moves, refused)

    # the meld's kinds are added to the marks of the copies used
    def marked(pos: Any, kind: str) -> int:
        return sum(kind in x["kinds"] for x in pos.to_dict()["melded"][0])

    for m in offered:
        _, pos = after(g, st, [m])
        kind = m.split(":")[1]
        assert marked(pos, kind) - marked(load_position(position_dict(g, st)), kind) == len(m.split(":")[2].split())


def test_hand_checked_exchange7() -> None:
    g = Besigue("H")
    talon = ["C9", "D9", "S9", "HA"]
    # "`exchange7`: the same, and swap that 7 with the retourne ... These may come before a meld
    # and do not end the step." (docs/rules-choices.md: the Ace taken then makes a sequence, 10 + 250)
    st = spot(g, ["HT HK HQ HJ H7", ""], talon, leader=0, to_declare=0)
    assert {"seven", "exchange7", "meld:marriage:HK HQ", "pass"} == plis_moves(g, st)
    end, pos = after(g, st, ["exchange7"])
    assert pos.to_dict()["talon"][-1] == "H7" and pos.to_dict()["exchanged"] and end.scored == (10, 0)
    assert "meld:sequence:HA HK HQ HJ HT" in plis_moves(g, end) and "seven" not in plis_moves(g, end)
    end, pos = after(g, st, ["exchange7", "meld:sequence:HA HK HQ HJ HT"])
    assert pos.to_dict()["scored"] == [SEVEN + 250, 0]
    # "while the retourne is still the talon's last card and is not itself a 7"
    st = spot(g, ["H7", ""], ["C9", "D9", "S9", "H7"], leader=0, to_declare=0)
    assert plis_moves(g, st) == {"seven", "pass"}
    # "once per deal": the exchanged 7 now ends the talon; the other trump 7 only scores
    st = spot(g, ["H7", ""], ["C9", "D9", "S9", "H7"], leader=0, to_declare=0, exchanged=True)
    assert plis_moves(g, st) == {"seven", "pass"}
    # "show a trump 7 that has not scored yet" (docs/rules-choices.md: "A 7 shown with `seven`
    # can no longer be exchanged.")
    st = spot(g, ["H7", ""], talon, leader=0, to_declare=0)
    end, _ = after(g, st, ["seven"])
    assert plis_moves(g, end) == {"pass"}
    # "Each trump 7 scores once": two fresh 7s, shown one after the other, or shown and exchanged
    st = spot(g, ["H7 H7", ""], talon, leader=0, to_declare=0)
    end, _ = after(g, st, ["seven"])
    assert plis_moves(g, end) == {"seven", "exchange7", "pass"}
    end, pos = after(g, st, ["seven", "exchange7"])
    assert plis_moves(g, end) == {"pass"} and pos.to_dict()["scored"] == [20, 0]
    end, pos = after(g, st, ["exchange7", "seven"])
    assert plis_moves(g, end) == {"pass"} and pos.to_dict()["scored"] == [20, 0]
    # a 7 that is no trump is no `seven`
    st = spot(g, ["S7 C7", ""], talon, leader=0, to_declare=0)
    assert plis_moves(g, st) == {"pass"}
    # docs/rules-choices.md: "It is offered at the last draw too (two cards left): the loser of
    # the trick then draws the 7 at once."
    st = spot(g, ["H7", ""], ["C9", "HA"], leader=1, to_declare=1)
    st = replace(st, hands=(st.hands[1], st.hands[0]))
    assert "exchange7" in plis_moves(g, st)
    end, pos = after(g, st, ["exchange7", "pass"])
    assert end.phase2 and "H7" in pos.to_dict()["hands"][0].split() and "HA" in pos.to_dict()["hands"][1].split()
    assert pos.to_dict()["scored"] == [0, SEVEN]


def test_hand_checked_draw_order() -> None:
    # "the winner declares, then draws the top card of the talon, then the loser draws. The
    # last card drawn is the retourne"; the winner leads the next trick.
    g = Besigue("H")
    for winner in (0, 1):
        for move in ("pass", "meld:marriage:CK CQ"):
            hands = ["", ""]
            hands[winner] = "CK CQ"
            st = spot(g, hands, ["CA", "DT", "S9", "H9"], leader=winner, to_declare=winner)
            end, pos = after(g, st, [move])
            d = pos.to_dict()
            assert d["talon"] == ["S9", "H9"] and d["leader"] == winner and pos.to_move == winner
            assert "CA" in d["hands"][winner].split() and "DT" in d["hands"][1 - winner].split()
            assert "CA" not in d["hands"][1 - winner].split()
        st = spot(g, ["", ""], ["CA", "H9"], leader=winner, to_declare=winner)
        end, pos = after(g, st, ["pass"])
        assert "H9" in pos.to_dict()["hands"][1 - winner].split() and end.phase2


def test_hand_checked_retourne_seven() -> None:
    # "The dealer scores 10 if the retourne is a 7." "The dealer's opponent leads the first trick."
    pack = list(PACK)
    for retourne, bonus in (("H7", RETOURNE_SEVEN), ("H9", 0)):
        rest = list(pack)
        rest.remove(retourne)
        deal = [rest[:9], rest[9:18]]
        talon = rest[18 : 64 - 1] + [retourne]
        for dealer in (0, 1):
            g = Besigue("H")
            st = g.start(deal, talon, dealer)
            pos = load_position(deal_dict(g, deal, talon, dealer, []))
            check_state(pos, g, st, (retourne, dealer))
            assert pos.to_dict()["scored"][dealer] == bonus and pos.to_dict()["leader"] == 1 - dealer
            # FORMAT.md: in hands form `scored` already includes it (nothing is added)
            d = position_dict(g, st)
            assert load_position(d).to_dict()["scored"] == d["scored"]


def test_hand_checked_marked_copies() -> None:
    # "When a seat holds such copies, it chooses which one it plays, and the moves show it"
    g = Besigue("H")
    st = spot(g, ["SQ SQ[besigue] DJ[besigue] H7 H7[seven]", ""], ["C9", "D9", "S9", "HA"], leader=0)
    moves = plis_moves(g, st)
    assert {"SQ", "SQ[besigue]", "DJ[besigue]", "H7", "H7[seven]"} <= moves
    end, pos = after(g, st, ["SQ[besigue]"])
    assert pos.to_dict()["melded"][0] == [{"card": "DJ", "kinds": ["besigue"]}]  # "A played card leaves it."
    # "Phase 2 ...: melded cards are simply in hand": no marks (docs/rules-choices.md)
    d = position_dict(g, spot(g, ["SQ SQ DJ", "C7 C8 C9"], [], leader=0))
    d["melded"] = [[{"card": "SQ", "kinds": ["besigue"]}, {"card": "DJ", "kinds": ["besigue"]}], []]
    assert sorted(load_position(d).legal_moves()) == ["DJ", "SQ"]


# ---------------------------------------------------------------------------
# 4. Input the rules forbid
# ---------------------------------------------------------------------------


def bad_inputs() -> list[tuple[str, dict[str, Any] | Callable[[], Any], str]]:
    g = Besigue("H")
    rest = list(PACK)
    rest.remove("H9")
    deal = [rest[:9], rest[9:18]]
    talon = rest[18:63] + ["H9"]
    base = deal_dict(g, deal, talon, 1, [])
    st = g.start(deal, talon, 1)
    lead = next(m for m in g.moves(st))
    other = next(c for c in CARDS if c not in deal[0])  # not in the leader's (seat 0's) hand
    reply = g.moves(g.play(st, lead))[0]
    spot_st = spot(g, ["CK CQ", ""], ["C9", "D9", "S9", "H9"], leader=0, to_declare=0)
    spot_d = position_dict(g, spot_st)
    return [
        ("illegal card in played", {**base, "played": [other]}, "played"),
        ("the dealer leading", {**base, "played": [deal[1][0]]}, "played"),
        ("unknown meld in played", {**base, "played": [lead, reply, "meld:triple_kings:CK SK HK"]}, "played"),
        ("a meld not held, in played", {**base, "played": [lead, reply, "meld:sequence:HA HK HQ HJ HT"]}, "played"),
        ("unknown meld kind in melded", {**spot_d, "melded": [[{"card": "CK", "kinds": ["triple"]}], []]}, "melded"),
        # docs/rules-choices.md: "`trump` ... must be the suit of the talon's last card": either field
        ("trump not the retourne's suit", {**base, "trump": "S"}, "trump|talon"),
        ("a card three times", {**spot_d, "hands": [spot_d["hands"][0] + " C9 C9", spot_d["hands"][1][6:]]}, ""),
        ("a six", {**spot_d, "talon": ["C6", "D9", "S9", "H9"]}, "talon"),
        ("unknown phase1 option", {**base, "options": {"phase1": "modern"}}, "options"),
        ("unknown meld move", lambda: load_position(spot_d).play("meld:triple_kings:CK SK HK"), "move"),
        ("exchange7 without a 7", lambda: load_position(spot_d).play("exchange7"), "move"),
    ]


@pytest.mark.parametrize("case", range(11))
def test_forbidden_input(case: int) -> None:
    name, given, field = bad_inputs()[case]
    with pytest.raises(ValueError) as info:
        given() if callable(given) else load_position(given)
    assert isinstance(info.value, PlisError), name
    assert any(f in str(info.value.field) for f in field.split("|")), (name, info.value.field, info.value)
