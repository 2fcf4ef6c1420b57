"""An independent second implementation of the Jass (Schieber) rules, held against plis.

Everything below the "Independent rules" heading was written from RULES.md (../shared/)
("Jass, Schieber", "Common notation", "Value of a position", "Bonuses fixed before play"),
FORMAT.md and docs/rules-choices.md only, without reading plis's own rules code, its
reference search or its tests. plis is used only through its public API
(`Position.from_dict`, `legal_moves`, `play`, `to_dict`, `analyse`).

What is checked, for every trump (`C S H D`, `obenabe`, `undeufe`) with every
`buur_exception` (true, false) and `match_bonus` 100 (the default), 0 and 37:

1. Random playouts of seeded random deals (some stacked so that one team holds the top
   cards and plays greedily, which brings matches; some played trump-happy, which brings
   undertrumping situations): at every card plis's `legal_moves()` equals ours, and plis's
   kept `scored`/`tricks` (from `to_dict()`, the match bonus once the deal is over) equal ours.
2. Endgames of 2 or 3 tricks, some in the middle of a trick, cut from those playouts or
   built from trump-rich card pools (the Buur alone against a trump lead, one or two trumps
   on a plain-suit trick over a hand of mixed trumps), each also with a team that has taken
   every trick so far (the match at stake) and with Weis/Stöck carried in `scored`: plis's
   `analyse` value of every legal move equals our plain minimax, for `score` and `raw`.
   Endgames of 4 tricks (5 in obenabe and undeufe) the same way, against a memoised minimax.
3. Complete deals: at the forced last trick, given as `deal` + `played` (with and without
   Weis in `scored`) and in hands form, plis's `value` and `points` equal our final scores.
4. Hand-checked cases from RULES.md's sentences (quoted next to them): undertrumping with
   two trumps on the trick, the Buur exception both ways, trumping at any time, obenabe and
   undeufe tricks and points, the match bonus, Weis and Stöck only through `scored`, and the
   options' defaults and bounds.
"""

from __future__ import annotations

import itertools
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
# Independent rules (RULES.md, "Jass, Schieber")
# ---------------------------------------------------------------------------

RANKS = "AKQJT9876"
DECK = deck(RANKS)
TRUMPS = ("C", "S", "H", "D", "obenabe", "undeufe")
SUIT_TRUMPS = ("C", "S", "H", "D")
MATCH_BONUSES = (100, 0, 37)
OBJECTIVES = ("score", "raw")  # RULES.md: for Jass `score` equals `raw`

TRUMP_ORDER = "J9AKQT876"  # strongest first
PLAIN_ORDER = "AKQJT9876"  # plain suits and obenabe
UNDEUFE_ORDER = "6789TJQKA"  # 6 highest
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "T": 10}
PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10}
OBENABE_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "8": 8}
UNDEUFE_POINTS = {"6": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "8": 8, "A": 0}
LAST_TRICK = 5
TRICKS = 9


class Jass(TeamGame):
    """A deal's `mode` (FORMAT.md's `trump`: a suit, obenabe or undeufe) and options. Trick winner:
    the highest trump if any trump was played, else the highest card of the suit led (TrickGame's,
    with the orders above); the match bonus for all 9 tricks."""

    game = "jass"
    cards = DECK
    last_bonus = LAST_TRICK
    tricks_in_deal = TRICKS
    trump_order = TRUMP_ORDER

    def __init__(self, mode: str, match_bonus: int = 100, buur_exception: bool = True) -> None:
        self.mode = mode
        self.match_bonus = self.sweep_bonus = match_bonus
        self.buur_exception = buur_exception
        self.trump = mode if mode in SUIT_TRUMPS else None
        self.plain_order = UNDEUFE_ORDER if mode == "undeufe" else PLAIN_ORDER

    def header(self) -> dict[str, Any]:
        return {
            "game": "jass",
            "options": {"match_bonus": self.match_bonus, "buur_exception": self.buur_exception},
            "trump": self.mode,
        }

    def card_points(self, card: str) -> int:
        if card[0] == self.trump:
            table = TRUMP_POINTS
        elif self.mode == "obenabe":
            table = OBENABE_POINTS
        elif self.mode == "undeufe":
            table = UNDEUFE_POINTS
        else:
            table = PLAIN_POINTS
        return table.get(card[1], 0)

    def legal_cards(self, hand: Sequence[str], trick: Sequence[str], leader: int) -> set[str]:
        if not trick:
            return set(hand)
        led = trick[0][0]
        follow = [c for c in hand if c[0] == led]
        trump = self.trump
        if trump is None:
            # obenabe / undeufe: "follow suit if you can, otherwise any card"
            return set(follow or hand)
        trumps = [c for c in hand if c[0] == trump]
        if led == trump:
            # "Trump led: play a trump if you hold one", except the Buur held alone
            if not trumps or (self.buur_exception and trumps == [trump + "J"]):
                return set(hand)
            return set(trumps)
        # plain lead: follow or trump (trumping is allowed at any time); void: any card
        allowed = set(follow) | set(trumps) if follow else set(hand)
        if len(trumps) == len(hand):
            return allowed  # "unless every card in your hand is a trump"
        on_trick = [self.strength(c) for c in trick if c[0] == trump]
        if on_trick:
            # no trump lower than the *highest* trump on the trick
            allowed -= {c for c in trumps if self.strength(c) < max(on_trick)}
        return allowed

    def situations(self, st: State) -> set[str]:
        hand, trick = st.hands[st.to_move], st.trick
        trump = self.trump
        if not trick or trump is None:
            return set()
        out = set()
        trumps = [c for c in hand if c[0] == trump]
        if trick[0][0] == trump:
            if trumps == [trump + "J"] and len(hand) > 1:
                out.add("buur alone on a trump lead")
            return out
        on_trick = [self.strength(c) for c in trick if c[0] == trump]
        if on_trick:
            lower = [c for c in trumps if self.strength(c) < max(on_trick)]
            if lower:
                out.add("all trumps, lower than the trick's" if len(trumps) == len(hand) else "undertrump barred")
            if len(on_trick) >= 2 and any(min(on_trick) < self.strength(c) < max(on_trick) for c in trumps):
                out.add("trump between two trumps on the trick")
        if trumps and any(c[0] == trick[0][0] for c in hand):
            out.add("may trump while able to follow")
        return out


# ---------------------------------------------------------------------------
# Deals and playouts
# ---------------------------------------------------------------------------


def random_hands(rng: random.Random) -> list[list[str]]:
    pack = list(DECK)
    rng.shuffle(pack)
    return [sorted(pack[i * 9 : (i + 1) * 9], key=DECK.index) for i in range(4)]


def voided_hands(rng: random.Random, g: Jass) -> list[list[str]]:
    """Random hands, then swaps that leave each seat void in one plain suit: ruffs and overruffs come up."""
    hands = random_hands(rng)
    plains = [s for s in SUITS if s != g.trump]
    void = [rng.choice(plains) for _ in range(4)]
    for seat in range(4):
        for i, c in enumerate(hands[seat]):
            if c[0] != void[seat]:
                continue
            for t in rng.sample(range(4), 4):
                j = next((k for k, x in enumerate(hands[t]) if x[0] not in (void[seat], void[t])), None)
                if t != seat and j is not None and c[0] != void[t]:
                    hands[seat][i], hands[t][j] = hands[t][j], c
                    break
    return [sorted(h, key=DECK.index) for h in hands]


def playout(
    g: Jass, rng: random.Random, style: str, scored: tuple[int, int] = (0, 0), counts: Counter[str] | None = None
) -> tuple[list[list[str]], list[State], list[str]]:
    """Deal and play a whole deal, plis alongside (deal + played form, Weis in `scored`).

    At every card plis's legal cards and kept `scored`/`tricks` must equal ours.
    """
    strong_side = rng.randrange(2)
    if style == "greedy":
        deal = stacked_hands(g, rng, strong_side)
    else:
        deal = voided_hands(rng, g) if style == "trumpy" else random_hands(rng)
    d = deal_dict(g, deal, [])
    if scored != (0, 0):
        d["scored"] = list(scored)
    states, played = play_along(
        g, g.start(deal, scored), Position.from_dict(d), lambda st: choose(g, rng, st, style, strong_side), counts
    )
    return deal, states, played


def all_configs() -> list[Jass]:
    return [Jass(t, m, b) for t, m, b in itertools.product(TRUMPS, MATCH_BONUSES, (True, False))]


def config_id(g: Jass) -> str:
    return f"{g.mode}-match{g.match_bonus}-buur{int(g.buur_exception)}"


CONFIGS = all_configs()
STYLES = ("random", "greedy", "trumpy")


# ---------------------------------------------------------------------------
# Hand-checked cases
# ---------------------------------------------------------------------------


# (options, leader, trick, hand of the seat to move, its legal cards by RULES.md)
HAND_CASES = [
    # "No undertrumping: once a trump lies on a plain-suit trick, you may not play a trump lower
    # than the highest trump there, unless every card in your hand is a trump." Spades led, H6
    # then HJ on it: H8 lies between them. jass-kit (lowest trump) would allow H8; RULES.md does not.
    (Jass("H"), 0, ["SA", "H6", "HJ"], ["H8", "C7", "D9"], {"C7", "D9"}),
    # Same trick; seat 3 can follow: "a card of that suit or a trump", but still no H8.
    (Jass("H"), 0, ["SA", "H6", "HJ"], ["H8", "S7"], {"S7"}),
    # Same trick; every card a trump: any of them, lower ones too (docs/rules-choices.md).
    (Jass("H"), 0, ["SA", "H6", "HJ"], ["H8", "H7"], {"H8", "H7"}),
    # One trump (H9) on the trick: HA is below the Nell (J 9 A ...), so barred; H J would beat it.
    (Jass("H"), 1, ["SK", "H9"], ["HA", "S6", "D7"], {"S6"}),
    # "il peut en jouer un à tout moment": a spade or a trump, even holding spades; no trump on the trick.
    (Jass("H"), 0, ["SA"], ["S7", "H6", "D7"], {"S7", "H6"}),
    # Trump led, the Buur alone: "a player whose only trump is the trump Jack may play any card".
    (Jass("H", buur_exception=True), 0, ["HA"], ["HJ", "S7", "D9"], {"HJ", "S7", "D9"}),
    # Without the option: "play a trump if you hold one".
    (Jass("H", buur_exception=False), 0, ["HA"], ["HJ", "S7", "D9"], {"HJ"}),
    # The Buur with another trump is not alone: a trump must be played either way.
    (Jass("H", buur_exception=True), 0, ["HA"], ["HJ", "H6", "D9"], {"HJ", "H6"}),
    # The exception is only for a trump lead (docs/rules-choices.md): on a plain lead, follow or trump.
    (Jass("H", buur_exception=True), 0, ["SA"], ["HJ", "S7", "D9"], {"HJ", "S7"}),
    # Obenabe / undeufe: "follow suit if you can, otherwise any card"; no trumps at all.
    (Jass("obenabe"), 0, ["SA", "HJ"], ["S7", "HA", "D9"], {"S7"}),
    (Jass("undeufe"), 0, ["SA"], ["HA", "D9"], {"HA", "D9"}),
]


@pytest.mark.parametrize("cfg,leader,trick,hand,expected", HAND_CASES)
def test_hand_checked_legal_cards(cfg: Jass, leader: int, trick: list[str], hand: list[str], expected: set[str]) -> None:
    st = filler(cfg, leader, trick, hand)
    assert cfg.legal_cards(hand, trick, leader) == expected
    assert plis_legal(Position.from_dict(position_dict(cfg, st))) == sorted(expected)


def test_hand_checked_points() -> None:
    # "Trump suit ... points J 20, 9 14, A 11, K 4, Q 3, T 10"; "Plain suits ... A 11, K 4, Q 3, J 2, T 10";
    # obenabe adds "8 8"; undeufe "6 11, K 4, Q 3, J 2, T 10, 8 8, A 0"; "Last trick +5, so 157 in all".
    for trump in TRUMPS:
        assert sum(Jass(trump).card_points(c) for c in DECK) + LAST_TRICK == 157
    # Obenabe: SA wins [SA S7 S8 S9] (11 + 8 = 19); undeufe: S7 wins it, seat 1 (0 + 8 = 8); + 5 last trick.
    for trump, points in (("obenabe", [24, 0]), ("undeufe", [0, 13])):
        g = Jass(trump)
        st = State((("SA",), ("S7",), ("S8",), ("S9",)), (), 0, (0, 0), (4, 4))
        end = st
        for c in ("SA", "S7", "S8", "S9"):
            end = g.play(end, c)
        assert list(end.scored) == points
        r = analyse(position_dict(g, st))
        assert r.points == tuple(points) and r.value == points[0] - points[1]
    # Hearts trump: H6 ruffs [SA H6 ST SK]: 11 + 0 + 10 + 4, + 5, to seat 1.
    g = Jass("H")
    st = State((("SA",), ("H6",), ("ST",), ("SK",)), (), 0, (0, 0), (4, 4))
    assert analyse(position_dict(g, st)).points == (0, 30)


@pytest.mark.parametrize("match_bonus", MATCH_BONUSES)
def test_hand_checked_match_bonus(match_bonus: int) -> None:
    # "a team that takes all 9 tricks adds it (257)": team 0 has 8 tricks and wins the last one
    # with HJ (20 + 5); the team's `scored` (137) plus 25 plus the bonus. Weis of 50 carried for team 1.
    g = Jass("H", match_bonus)
    st = State((("HJ",), ("S7",), ("C7",), ("D7",)), (), 0, (137, 50), (8, 0))
    assert g.values(st) == {"HJ": 162 + match_bonus - 50}
    r = analyse(position_dict(g, st))
    assert r.value == 162 + match_bonus - 50 and r.points == (162 + match_bonus, 50)
    # Team 1 took a trick before: no match for anyone.
    st = replace(st, tricks=(7, 1))
    assert analyse(position_dict(g, st)).value == g.values(st)["HJ"] == 162 - 50


def test_hand_checked_weis_and_stoeck_only_in_scored() -> None:
    # "Melds (Weis, Stöck) do not change the play; a position carries them in `scored`", and in
    # deal form "Weis and Stöck, which players choose to show, come in `scored`": seat 2 holds
    # the trump King and Queen (Stöck), yet plis scores nothing for them unless `scored` says so.
    deal = [" ".join(DECK[i * 9 : (i + 1) * 9]) for i in range(4)]  # seat 2 holds every heart
    d: dict[str, Any] = {**Jass("H").header(), "deal": deal, "played": []}
    assert Position.from_dict(d).to_dict()["scored"] == [0, 0]
    assert Position.from_dict({**d, "scored": [20, 50]}).to_dict()["scored"] == [20, 50]


def test_options_as_rules_md() -> None:
    # "Option `match_bonus` (default 100, an integer ≥ 0)"; "Option `buur_exception` (default true)".
    base = {"game": "jass", "trump": "H", "hands": ["HJ", "S7", "C7", "D7"], "tricks": [8, 0]}
    assert Position.from_dict(base).to_dict()["options"] == {"match_bonus": 100, "buur_exception": True}
    for bad in ({"match_bonus": -1}, {"buur_exception": "yes"}, {"rules": "seed"}):
        with pytest.raises((OptionError, PositionError)):
            Position.from_dict({**base, "options": bad})


# ---------------------------------------------------------------------------
# Random playouts, endgames, complete deals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("g", CONFIGS, ids=config_id)
def test_playouts_legal_cards_and_scores(g: Jass) -> None:
    rng = random.Random("legal-" + config_id(g))
    counts: Counter[str] = Counter()
    for style in STYLES + ("trumpy",):
        scored = (rng.choice([0, 20, 50]), rng.choice([0, 20, 100]))  # Weis / Stöck carried
        playout(g, rng, style, scored, counts)
    if g.trump:
        # undertrumping comes up about once a trump-happy deal; test_endgame_values makes sure of it
        assert counts.get("may trump while able to follow", 0) > 0, counts


def trump_rich_endgame(g: Jass, rng: random.Random, left: int, kind: str) -> State:
    """A built endgame of `left` tricks where the trump rules bite.

    kind "buur": a seat holds the Buur as its only trump and a trump has been led to it.
    kind "ruff": a plain suit led, then trump-happy play, stopping with one to three cards down.
    """
    trump = g.trump
    assert trump is not None
    plains = [s for s in SUITS if s != trump]
    rng.shuffle(plains)
    while True:
        n_trumps = rng.randint(left + 1, min(9, 3 * left))
        trumps = [trump + "J"] if kind == "buur" else []
        trumps += rng.sample([trump + r for r in TRUMP_ORDER if trump + r not in trumps], n_trumps - len(trumps))
        others = [s + r for s in plains[: rng.choice([1, 2, 2, 3])] for r in RANKS]
        pool = trumps + rng.sample(others, 4 * left - n_trumps)
        rng.shuffle(pool)
        leader = rng.randrange(4)
        hands = [pool[i * left : (i + 1) * left] for i in range(4)]
        if kind == "buur":
            seat = (leader + rng.randint(1, 3)) % 4
            holder = next(s for s in range(4) if trump + "J" in hands[s])
            if holder != seat:  # hand the Buur to `seat` for one of its cards
                i, j = hands[holder].index(trump + "J"), rng.randrange(left)
                hands[holder][i], hands[seat][j] = hands[seat][j], hands[holder][i]
            # its other trumps go to the other seats, for their plain cards
            for i, c in enumerate(hands[seat]):
                if c[0] != trump or c == trump + "J":
                    continue
                for h in (hands[s] for s in range(4) if s != seat):
                    k = next((k for k, x in enumerate(h) if x[0] != trump), None)
                    if k is not None:
                        hands[seat][i], h[k] = h[k], c
                        break
            if [c for c in hands[seat] if c[0] == trump] != [trump + "J"]:
                continue
            lead = [c for c in hands[leader] if c[0] == trump]
        else:
            lead = [c for c in hands[leader] if c[0] != trump]
        if not lead:
            continue
        scored, tricks = endgame_history(g, rng, left, sum(g.card_points(c) for c in DECK if c not in pool))
        st = State(tuple(tuple(sorted(h, key=DECK.index)) for h in hands), (), leader, scored, tricks)
        st = g.play(st, rng.choice(lead))
        down = (seat - leader) % 4 if kind == "buur" else rng.randint(1, 3)
        while len(st.trick) < down:
            st = g.play(st, choose(g, rng, st, "trumpy", 0))
        return st


def between_endgame(g: Jass, rng: random.Random, left: int, mixed: bool) -> State:
    """A plain suit led, then a low and a high trump; the seat to move holds a trump between them.

    Only here do RULES.md (no trump below the highest) and jass-kit (below the lowest) differ.
    `mixed`: the seat to move also holds a card that is not a trump (else its hand is random).
    """
    trump = g.trump
    assert trump is not None
    low, mid, high = sorted((trump + r for r in rng.sample(TRUMP_ORDER, 3)), key=g.strength)
    led = rng.choice([s for s in SUITS if s != trump])
    rest = [c for c in DECK if c not in (low, mid, high) and c[0] in (trump, led, rng.choice(SUITS))]
    rng.shuffle(rest)
    lead = next(c for c in rest if c[0] == led)
    rest.remove(lead)
    if mixed:  # the mover's first extra card (the end of its share of `rest`) is not a trump
        plain = next(c for c in rest if c[0] != trump)
        rest.remove(plain)
        rest.insert(3 * (left - 1), plain)
    leader = rng.randrange(4)
    hands: list[list[str]] = [[], [], [], []]
    for k, first in enumerate((lead, low, high, mid)):
        hands[(leader + k) % 4] = [first] + rest[k * (left - 1) : (k + 1) * (left - 1)]
    scored, tricks = endgame_history(g, rng, left, 10 * (TRICKS - left))  # 10 points a trick
    st = State(tuple(tuple(sorted(h, key=DECK.index)) for h in hands), (), leader, scored, tricks)
    for card in (lead, low, high):
        st = g.play(st, card)
    return st


def variants(rng: random.Random, st: State) -> list[State]:
    """The position with its own history, with a team that took every trick so far, and with Weis carried."""
    side = rng.randrange(2)
    pts = [0, 0]
    pts[side] = st.scored[0] + st.scored[1]
    pts[1 - side] = rng.choice([0, 0, 20, 50])  # Weis of the other team: no trick needed for it
    weis = (st.scored[0] + rng.choice([0, 20, 100, 150]), st.scored[1] + rng.choice([0, 20, 50]))
    return [st, swept(st, side, (pts[0], pts[1])), replace(st, scored=weis)]


@pytest.mark.parametrize("g", CONFIGS, ids=config_id)
def test_endgame_values(g: Jass) -> None:
    rng = random.Random("endgame-" + config_id(g))
    bases: list[State] = []
    for i, style in enumerate(STYLES):
        _, states, _ = playout(g, rng, style)
        left = 2 if i % 2 == 0 else 3
        bases.append(states[36 - 4 * left + rng.choice([0, 0, 1, 2, 3])])
    if g.trump:
        bases += [trump_rich_endgame(g, rng, 2 + i % 2, kind) for i, kind in enumerate(("buur", "ruff", "ruff", "buur"))]
        bases += [between_endgame(g, rng, 2 + i % 2, mixed=i < 2) for i in range(3)]
    counts = check_endgames(g, (st for base in bases for st in variants(rng, base)), OBJECTIVES)
    if g.trump:
        # the built endgames put these at the root, where plis's legal cards are compared
        for case in ("buur alone on a trump lead", "trump between two trumps on the trick", "undertrump barred"):
            assert counts.get(case, 0) > 0, counts


@pytest.mark.parametrize("mode", TRUMPS)
def test_deeper_endgame_values(mode: str) -> None:
    """Endgames of 4 tricks (and 5 without a trump suit), some in the middle of a trick, each
    also with the match at stake and with Weis carried: the memoised minimax against plis."""
    rng = random.Random("deeper-" + mode)
    compared = 0
    for i, style in enumerate(STYLES):
        g = Jass(mode, rng.choice(MATCH_BONUSES), i != 1)
        _, states, _ = playout(g, rng, style)
        left = 4 if g.trump or i else 5
        base = states[36 - 4 * left + rng.choice([0, 0, 1, 2, 3])]
        compared += check_deeper_endgames(g, variants(rng, base), OBJECTIVES)
    assert compared > 3 * len(STYLES)


@pytest.mark.parametrize("g", CONFIGS, ids=config_id)
def test_complete_deal_scoring(g: Jass) -> None:
    rng = random.Random("deal-" + config_id(g))
    for style in STYLES:
        weis = (rng.choice([0, 20, 50, 100]), rng.choice([0, 20, 50]))
        deal, states, played = playout(g, rng, style, weis)
        end = states[-1]
        final = g.final(end)
        assert sum(final) == 157 + sum(weis) + (g.match_bonus if TRICKS in end.tricks else 0)
        last = states[32]  # the last trick, nobody has played to it: every card forced
        side = last.leader % 2
        deal_form = {**deal_dict(g, deal, played[:32]), "scored": list(weis)}
        no_weis = {**deal_form}
        del no_weis["scored"]
        bare = (final[0] - weis[0], final[1] - weis[1])
        for form, scores in ((deal_form, final), (no_weis, bare), (position_dict(g, last), final)):
            for objective in OBJECTIVES:
                r = analyse(form, objective=objective)
                assert r.value == scores[side] - scores[1 - side], (objective, form)
                assert r.points == scores, (objective, form)
