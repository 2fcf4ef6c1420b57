"""An independent second implementation of the Belote contrée card-play rules, held against plis.

Everything below the "Independent rules" heading was written from RULES.md (../shared/)
("Belote contrée card play", "Klaverjas" for the ranks and points it borrows, "Common
notation", "Value of a position", "Bonuses fixed before play"), FORMAT.md and
docs/rules-choices.md only, without reading plis's own rules code, its reference search or
its tests. plis is used only through its public API (`Position.from_dict`, `legal_moves`,
`play`, `to_dict`, `analyse`).

Belote has no options; what is checked, for every trump suit:

1. Random playouts of seeded random deals (some stacked so that one team holds the top
   cards and plays greedily, which brings capots; some played trump-happy; many with the
   trump King and Queen in one hand, the belote): at every card plis's `legal_moves()` equals
   ours, and plis's kept `scored`/`tricks` (from `to_dict()`: the belote from the start, the
   capot once the deal is over) equal ours.
2. Endgames of 2 or 3 tricks, some in the middle of a trick, cut from those playouts or
   built from trump-rich card pools with voids (overtrumping on a trump lead, a partner or
   an opponent winning when a player cannot follow, a trump that cannot be beaten) or with
   the trump King and Queen still in one hand (the belote is already in `scored`: nothing
   more comes when they are played), each also with a team that has taken every trick so
   far (capot at stake): plis's `analyse` value of every legal move equals our plain
   minimax, for `score` and `raw`.
   Endgames of 4 and 5 tricks the same way (from playouts), against a memoised minimax.
3. Complete deals: at the forced last trick, given as `deal` + `played` (plis then works out
   the belote itself) and in hands form, plis's `value` and `points` equal our final scores.
4. Hand-checked cases from RULES.md's sentences (quoted next to them): the legal cards in
   each branch of the play rule, points, last trick, capot and belote.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from solver import OptionError, Position, PositionError, analyse
from tests.independent_common import SUITS, State, deal_dict, deck, plis_legal, position_dict
from tests.independent_teams import (
    TeamGame,
    check_deeper_endgames,
    check_endgames,
    choose,
    endgame_history,
    filler,
    play_along,
    stacked_hands,
    swept,
)

# ---------------------------------------------------------------------------
# Independent rules (RULES.md, "Belote contrée card play": Klaverjas ranks and points)
# ---------------------------------------------------------------------------

RANKS = "AKQJT987"
DECK = deck(RANKS)
TRUMPS = ("C", "S", "H", "D")
OBJECTIVES = ("score", "raw")  # no contract settlement in Belote: `score` equals `raw`

TRUMP_ORDER = "J9ATKQ87"  # strongest first
PLAIN_ORDER = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
LAST_TRICK = 10  # dix de der
CAPOT = 252 - 162  # "scores 252 instead of 162"
BELOTE = 20
TRICKS = 8


class Belote(TeamGame):
    """A deal with `trump` (Belote has no options). Trick winner: the highest trump if any trump
    was played, else the highest card of the suit led (TrickGame's, with the orders above)."""

    game = "belote"
    trump: str
    cards = DECK
    last_bonus = LAST_TRICK
    sweep_bonus = CAPOT  # all 8 tricks
    trump_order = TRUMP_ORDER
    plain_order = PLAIN_ORDER

    def __init__(self, trump: str) -> None:
        self.trump = trump

    def header(self) -> dict[str, Any]:
        return {"game": "belote", "trump": self.trump}

    def card_points(self, card: str) -> int:
        return (TRUMP_POINTS if card[0] == self.trump else PLAIN_POINTS).get(card[1], 0)

    def legal_cards(self, hand: Sequence[str], trick: Sequence[str], leader: int) -> set[str]:
        if not trick:
            return set(hand)
        trump = self.trump
        led = trick[0][0]
        seat = (leader + len(trick)) % 4
        follow = [c for c in hand if c[0] == led]
        trumps = [c for c in hand if c[0] == trump]
        on_trick = [self.strength(c) for c in trick if c[0] == trump]
        # trumps that beat the highest trump on the trick (every trump when none lies there)
        over = [c for c in trumps if not on_trick or self.strength(c) > max(on_trick)]
        if follow:
            # "Follow suit if you can; on a trump lead beat the highest trump if you can" (a partner's too)
            return set(over) if led == trump and over else set(follow)
        if (leader + self.winner_index(trick)) % 2 == seat % 2:
            return set(hand)  # "if your partner is winning the trick, any card"
        # "otherwise you must trump, beating the highest trump on the trick if you can;
        # if you cannot beat it, any card" (no trump at all: any card too)
        return set(over) if over else set(hand)

    def situations(self, st: State) -> set[str]:
        trump = self.trump
        hand, trick = st.hands[st.to_move], st.trick
        out = set()
        if belote_side([hand], trump) is not None:
            out.add("trump K and Q still in one hand")
        if not trick:
            return out
        led = trick[0][0]
        trumps = [self.strength(c) for c in hand if c[0] == trump]
        on_trick = [self.strength(c) for c in trick if c[0] == trump]
        top = max(on_trick, default=0)
        if any(c[0] == led for c in hand):
            if led == trump and any(t > top for t in trumps) and any(t < top for t in trumps):
                out.add("trump lead: must beat, holding lower trumps too")
            if led == trump and trumps and all(t < top for t in trumps):
                out.add("trump lead: cannot beat, any trump")
            return out
        if not trumps:
            return out
        partner = (st.leader + self.winner_index(trick)) % 2 == st.to_move % 2
        if partner:
            out.add("void, partner winning, holding a trump: any card")
        elif not on_trick:
            out.add("void, opponent winning: must trump")
        elif any(t > top for t in trumps):
            out.add("void, opponent winning with a trump: must beat it")
        else:
            out.add("void, opponent's trump cannot be beaten: any card")
        return out


def belote_side(hands: Sequence[Sequence[str]], trump: str) -> int | None:
    """The team whose one hand holds the trump King and Queen, if any."""
    for seat, hand in enumerate(hands):
        if trump + "K" in hand and trump + "Q" in hand:
            return seat % 2
    return None


def start(g: Belote, deal: list[list[str]]) -> State:
    """The start of a deal: the belote, fixed by the hands, is scored before play."""
    pts = [0, 0]
    side = belote_side(deal, g.trump)
    if side is not None:
        pts[side] += BELOTE
    return g.start(deal, pts)


# ---------------------------------------------------------------------------
# Deals and playouts
# ---------------------------------------------------------------------------


def random_hands(rng: random.Random, trump: str, belote: bool) -> list[list[str]]:
    """Eight cards each; with `belote`, the trump King and Queen land in one hand."""
    pack = list(DECK)
    rng.shuffle(pack)
    hands = [pack[i * 8 : (i + 1) * 8] for i in range(4)]
    if belote and belote_side(hands, trump) is None:
        k = next(s for s in range(4) if trump + "K" in hands[s])
        q = next(s for s in range(4) if trump + "Q" in hands[s])
        i, j = hands[q].index(trump + "Q"), next(i for i, c in enumerate(hands[k]) if c != trump + "K")
        hands[q][i], hands[k][j] = hands[k][j], hands[q][i]
    return [sorted(h, key=DECK.index) for h in hands]


def playout(
    g: Belote, rng: random.Random, style: str, counts: Counter[str] | None = None
) -> tuple[list[list[str]], list[State], list[str]]:
    """Deal and play a whole deal, plis alongside (deal + played form: it finds the belote itself).

    At every card plis's legal cards and kept `scored`/`tricks` must equal ours.
    """
    strong_side = rng.randrange(2)
    deal = stacked_hands(g, rng, strong_side) if style == "greedy" else random_hands(rng, g.trump, rng.random() < 0.6)
    st = start(g, deal)
    pos = Position.from_dict(deal_dict(g, deal, []))
    states, played = play_along(g, st, pos, lambda s: choose(g, rng, s, style, strong_side), counts)
    return deal, states, played


STYLES = ("random", "greedy", "trumpy")


# ---------------------------------------------------------------------------
# Hand-checked cases
# ---------------------------------------------------------------------------


# Hearts trump. (leader, trick, hand of the seat to move, its legal cards by RULES.md)
HAND_CASES = [
    # "on a trump lead beat the highest trump if you can": partner (seat 0) leads HA; seat 2 must
    # play H9 over it even so (docs/rules-choices.md), not HK.
    (0, ["HA", "H7"], ["H9", "HK", "SA"], {"H9"}),
    # ... "if you can": with only lower trumps, any trump ("Follow suit if you can").
    (0, ["HA", "H7"], ["HK", "HQ", "SA"], {"HK", "HQ"}),
    # Plain lead, can follow: a spade only; no trumping at will as in Jass.
    (0, ["SA"], ["S7", "H7", "DA"], {"S7"}),
    # Plain lead, can follow, a trump on the trick: still any spade (beating is for trump leads).
    (0, ["S8", "H9"], ["SA", "S7", "HJ"], {"SA", "S7"}),
    # "If you cannot follow: if your partner is winning the trick, any card."
    (0, ["SA", "S7"], ["H7", "DA"], {"H7", "DA"}),
    # Partner (seat 1) winning with a trump; seat 3 holds a higher and a lower trump: any card.
    (0, ["SA", "H9", "S7"], ["HJ", "H7", "DA"], {"HJ", "H7", "DA"}),
    # "otherwise you must trump": seat 0 (an opponent of seat 1) winning with SA, no trump on the trick.
    (0, ["SA"], ["H7", "H8", "DA"], {"H7", "H8"}),
    # "beating the highest trump on the trick if you can": seat 1 ruffed with H9 over seat 0's SA.
    (0, ["SA", "H9"], ["HJ", "H7", "DA"], {"HJ"}),
    # "if you cannot beat it, any card" (docs/rules-choices.md: no obligation to undertrump).
    (0, ["SA", "H9"], ["HA", "H7", "DA"], {"HA", "H7", "DA"}),
    # Trump led and no trump held: any card.
    (0, ["HA"], ["SA", "DA"], {"SA", "DA"}),
]


@pytest.mark.parametrize("leader,trick,hand,expected", HAND_CASES)
def test_hand_checked_legal_cards(leader: int, trick: list[str], hand: list[str], expected: set[str]) -> None:
    g = Belote("H")
    st = filler(g, leader, trick, hand)
    assert g.legal_cards(hand, trick, leader) == expected
    assert plis_legal(Position.from_dict(position_dict(g, st))) == sorted(expected)


def test_hand_checked_points_capot_belote() -> None:
    # "Klaverjas ranks and points, last trick 10": 152 in cards, 162 in all.
    g = Belote("H")
    assert sum(g.card_points(c) for c in DECK) + LAST_TRICK == 162
    # Last trick, hearts trump: HT (10) wins [HT SA HK C7] for seat 0: 10 + 11 + 4 + 0 + 10.
    st = State((("HT",), ("SA",), ("HK",), ("C7",)), (), 0, (0, 0), (4, 3))
    r = analyse(position_dict(g, st))
    assert r.points == (35, 0) == g.final(g.play(g.play(g.play(g.play(st, "HT"), "SA"), "HK"), "C7"))
    # "Capot: a team that takes all 8 tricks scores 252 instead of 162": team 0 took 7 tricks
    # (127 points) and takes the last (35): 162 + 90; team 1 keeps its belote (20).
    st = State((("HT",), ("SA",), ("HK",), ("C7",)), (), 0, (127, 20), (7, 0))
    assert g.values(st) == {"HT": 252 - 20}
    r = analyse(position_dict(g, st))
    assert r.value == 232 and r.points == (252, 20)
    # Team 1 took a trick before: no capot.
    st = replace(st, tricks=(6, 1))
    assert analyse(position_dict(g, st)).value == g.values(st)["HT"] == 162 - 20


def test_hand_checked_belote() -> None:
    # "Belote (trump K and Q in one hand) 20 for that team", fixed before play: in deal form
    # plis scores it from the start; split between two hands, it is nobody's.
    g = Belote("H")
    deal = [sorted(DECK[i * 8 : (i + 1) * 8], key=DECK.index) for i in range(4)]  # seat 2 holds all hearts
    assert Position.from_dict(deal_dict(g, deal, [])).to_dict()["scored"] == [20, 0]
    assert Position.from_dict(deal_dict(Belote("S"), deal, [])).to_dict()["scored"] == [0, 20]  # seat 1: spades
    # A `scored` given with a deal holds only "bonuses the solver cannot know" (FORMAT.md): the belote
    # comes on top of it.
    assert Position.from_dict({**deal_dict(g, deal, []), "scored": [5, 7]}).to_dict()["scored"] == [25, 7]
    deal[0][0], deal[2][1] = deal[2][1], deal[0][0]  # CA for HK: hearts K and Q split between seats 0 and 2
    assert Position.from_dict(deal_dict(g, deal, [])).to_dict()["scored"] == [0, 0]
    # "In a position given by hands and `scored`, `scored` already includes them": playing the
    # K and Q from one hand adds nothing beyond their card points (4 + 3).
    st = State((("HK", "HQ"), ("S7", "S8"), ("C7", "C8"), ("D7", "D8")), (), 0, (20, 0), (6, 0))
    assert g.values(st) == {"HK": 20 + 7 + LAST_TRICK + CAPOT, "HQ": 20 + 7 + LAST_TRICK + CAPOT}
    assert analyse(position_dict(g, st)).value == 20 + 7 + LAST_TRICK + CAPOT


def test_no_options() -> None:
    # RULES.md gives Belote no option: "an option the game does not have ... is an error".
    base = {"game": "belote", "trump": "H", "hands": ["HT", "SA", "HK", "C7"], "tricks": [4, 3]}
    assert Position.from_dict(base).to_dict()["options"] == {}
    for bad in ({"match_bonus": 100}, {"rules": "rotterdam"}, {"buur_exception": True}):
        with pytest.raises((OptionError, PositionError)):
            Position.from_dict({**base, "options": bad})
    with pytest.raises((OptionError, PositionError)):
        Position.from_dict({**base, "trump": "obenabe"})


# ---------------------------------------------------------------------------
# Random playouts, endgames, complete deals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("trump", TRUMPS)
def test_playouts_legal_cards_and_scores(trump: str) -> None:
    g = Belote(trump)
    rng = random.Random("legal-" + trump)
    counts: Counter[str] = Counter()
    for i in range(24):
        playout(g, rng, STYLES[i % 3], counts)
    for case in (
        "void, partner winning, holding a trump: any card",
        "void, opponent winning: must trump",
        "void, opponent winning with a trump: must beat it",
        "trump lead: must beat, holding lower trumps too",
    ):
        assert counts.get(case, 0) > 0, counts


def built_endgame(g: Belote, rng: random.Random, left: int, kind: str) -> State:
    """A built endgame of `left` tricks from a trump-rich pool with few plain suits (voids).

    kind "ruff": a lead (plain or trump), then trump-happy play, stopping with 0 to 3 cards down.
    kind "belote": as "ruff", and one hand holds the trump K and Q (its team has the 20 in `scored`).
    """
    trump = g.trump
    plains = [s for s in SUITS if s != trump]
    rng.shuffle(plains)
    while True:
        n_trumps = rng.randint(left, min(8, 3 * left))
        trumps = [trump + "K", trump + "Q"] if kind == "belote" else []
        trumps += rng.sample([trump + r for r in TRUMP_ORDER if trump + r not in trumps], n_trumps - len(trumps))
        others = [s + r for s in plains[: rng.choice([1, 2, 2])] for r in RANKS]
        if len(others) < 4 * left - n_trumps:
            continue
        pool = trumps + rng.sample(others, 4 * left - n_trumps)
        rng.shuffle(pool)
        hands = [sorted(pool[i * left : (i + 1) * left], key=DECK.index) for i in range(4)]
        side = belote_side(hands, trump)
        if kind == "belote" and side is None:
            continue
        scored, tricks = endgame_history(g, rng, left, sum(g.card_points(c) for c in DECK if c not in pool))
        pts = list(scored)
        if side is not None:
            pts[side] += BELOTE
        st = State(tuple(tuple(h) for h in hands), (), rng.randrange(4), (pts[0], pts[1]), tricks)
        plain_leads = [c for c in hands[st.leader] if c[0] != trump]
        if plain_leads and rng.random() < 0.7:  # a plain lead, so that voids and ruffs come up
            st = g.play(st, rng.choice(plain_leads))
        down = rng.randint(len(st.trick), 3)
        while len(st.trick) < down:
            st = g.play(st, choose(g, rng, st, "trumpy", 0))
        return st


def void_endgame(g: Belote, rng: random.Random, left: int, low: bool) -> State:
    """A plain suit led to a seat that has none of it but holds a trump; the seats between play trump-happy.

    Few cards of the suit led are left to the others, so that they ruff too: the mover then meets
    a partner or an opponent winning, with or without a trump it can beat. `low`: the mover
    gets the lowest trumps, which a ruff before it will likely beat.
    """
    trump = g.trump
    led = rng.choice([s for s in SUITS if s != trump])
    leader = rng.randrange(4)
    seat = (leader + rng.randint(1, 3)) % 4
    pack = [c for c in DECK]
    rng.shuffle(pack)
    lead = next(c for c in pack if c[0] == led)
    spare_led = next(c for c in pack if c[0] == led and c != lead)
    trumps = [c for c in pack if c[0] == trump]
    if low:
        trumps.sort(key=g.strength)
    plain = [c for c in pack if c[0] not in (led, trump)]
    n = rng.randint(1, left)
    hands: list[list[str]] = [[], [], [], []]
    hands[seat] = trumps[:n] + plain[: left - n]
    rest = trumps[n:] + plain[left - n :] + [spare_led]
    rng.shuffle(rest)
    hands[leader] = [lead]
    for s in range(4):
        while len(hands[s]) < left:
            hands[s].append(rest.pop())
    scored, tricks = endgame_history(g, rng, left, 8 * (TRICKS - left))  # 8 points a trick
    st = State(tuple(tuple(sorted(h, key=DECK.index)) for h in hands), (), leader, scored, tricks)
    st = g.play(st, lead)
    while st.to_move != seat:
        st = g.play(st, choose(g, rng, st, "trumpy", 0))
    return st


def variants(rng: random.Random, st: State) -> list[State]:
    """The position with its own history, and with a team that took every trick so far (capot at stake)."""
    side = rng.randrange(2)
    pts = [0, 0]
    pts[side] = st.scored[0] + st.scored[1] - rng.choice([0, 0, BELOTE])
    pts[1 - side] = st.scored[0] + st.scored[1] - pts[side]  # the other team may hold the belote
    return [st, swept(st, side, (pts[0], pts[1]))]


@pytest.mark.parametrize("trump", TRUMPS)
def test_deeper_endgame_values(trump: str) -> None:
    """Endgames of 4 and 5 tricks, some in the middle of a trick, each also with capot at stake:
    the memoised minimax against plis."""
    g = Belote(trump)
    rng = random.Random("deeper-" + trump)
    compared = 0
    for i in range(6):
        _, states, _ = playout(g, rng, STYLES[i % 3])
        left = 5 if i == 0 else 4
        base = states[32 - 4 * left + rng.choice([0, 0, 1, 2, 3])]
        compared += check_deeper_endgames(g, variants(rng, base), OBJECTIVES)
    assert compared > 12


@pytest.mark.parametrize("trump", TRUMPS)
def test_endgame_values(trump: str) -> None:
    g = Belote(trump)
    rng = random.Random("endgame-" + trump)
    bases: list[State] = []
    for i in range(12):
        _, states, _ = playout(g, rng, STYLES[i % 3])
        left = 2 if i % 2 == 0 else 3
        bases.append(states[32 - 4 * left + rng.choice([0, 0, 1, 2, 3])])
    bases += [built_endgame(g, rng, 2 + i % 2, ("ruff", "belote")[i % 4 // 2]) for i in range(24)]
    bases += [void_endgame(g, rng, 2 + i % 2, low=i % 3 == 0) for i in range(20)]
    counts = check_endgames(g, (st for base in bases for st in variants(rng, base)), OBJECTIVES)
    assert counts.get("trump K and Q still in one hand", 0) > 0, counts
    # the void endgames put every branch of "If you cannot follow" at the root
    for case in (
        "void, partner winning, holding a trump: any card",
        "void, opponent winning: must trump",
        "void, opponent winning with a trump: must beat it",
        "void, opponent's trump cannot be beaten: any card",
    ):
        assert counts.get(case, 0) > 0, counts


@pytest.mark.parametrize("trump", TRUMPS)
def test_complete_deal_scoring(trump: str) -> None:
    g = Belote(trump)
    rng = random.Random("deal-" + trump)
    capots = 0
    for i in range(12):
        deal, states, played = playout(g, rng, STYLES[i % 3])
        end = states[-1]
        final = g.final(end)
        side_b = belote_side(deal, trump)
        capot = TRICKS in end.tricks
        capots += capot
        assert sum(final) == 162 + (CAPOT if capot else 0) + (BELOTE if side_b is not None else 0)
        last = states[28]  # the last trick, nobody has played to it: every card forced
        side = last.leader % 2
        for form in (deal_dict(g, deal, played[:28]), position_dict(g, last)):
            for objective in OBJECTIVES:
                r = analyse(form, objective=objective)
                assert r.value == final[side] - final[1 - side], (objective, form)
                assert r.points == final, (objective, form)
    assert capots > 0
