"""An independent second implementation of the Klaverjas rules, held against plis.

Everything below the "Independent rules" heading was written from RULES.md (../shared/)
("Klaverjas", "Common notation", "Value of a position"), FORMAT.md and docs/rules-choices.md
only, without reading plis's own rules code, its reference search or its tests. plis is
used only through its public API (`Position.from_dict`, `legal_moves`, `play`, `to_dict`,
`analyse`).

What is checked, for every combination of the options `rules` (rotterdam, amsterdam,
seed), `roem_order` (natural, rank) and `nat_on_tie` (false, true), with varied trumps and
declarers:

1. Random playouts of seeded random deals (some biased so that one team holds the top
   cards and plays greedily, which brings pits and nats): at every card plis's
   `legal_moves()` equals ours, and after every trick plis's `scored`/`tricks` (card
   points and roem so far) equal ours.
2. Endgames of 2 or 3 tricks, some in the middle of a trick, cut from those playouts or
   built from roem-rich card pools, with `scored`/`tricks` set so that pit and nat are at
   stake: plis's `analyse` value of every legal move equals our plain minimax, for both
   objectives `score` and `raw`.
   Endgames of 4 and 5 tricks cut from playouts, with the pit at stake too, for `raw` (which adds
   up trick by trick) against a memoised minimax; with 4 tricks, `score` too (nat at stake),
   memoised on whole states. Endgames of 6 tricks with nat at stake, for `score`, against an
   alpha-beta search on whole states.
3. Complete deals played out to the last trick: given to plis as `deal` + `played` (so it
   adds up the whole deal itself) and in hands form, its value and `points` for the
   forced last trick equal our final scores, for both objectives.
4. Hand-checked cases worked out from RULES.md's sentences (quoted next to them): legal
   cards where rotterdam, amsterdam and seed differ, roem in both orders (the seed's own
   examples among them), and the settlement (made, nat, a tie, pit).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from solver import Position, analyse
from tests.independent_common import (
    SUITS,
    State,
    alphabeta_move_values,
    check_along,
    check_moves,
    deal_dict,
    deck,
    playout,
    plis_legal,
    position_dict,
)
from tests.independent_teams import TeamGame, check_deeper_endgames, endgame_history, filler, swept

# ---------------------------------------------------------------------------
# Independent rules (RULES.md, "Klaverjas")
# ---------------------------------------------------------------------------

RANKS = "AKQJT987"
DECK = deck(RANKS)
TRUMP_ORDER = "J9ATKQ87"  # trick ranking, strongest first
PLAIN_ORDER = "ATKQJ987"
NATURAL_ORDER = "AKQJT987"  # roem_order=natural, every suit
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
FOUR_OF_A_KIND = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100}
LAST_TRICK = 10
PIT = 100

RULES_AND_ORDERS = list(itertools.product(("rotterdam", "amsterdam", "seed"), ("natural", "rank")))
OPTION_COMBOS = [
    {"rules": r, "roem_order": o, "nat_on_tie": t}
    for r, o, t in itertools.product(("rotterdam", "amsterdam", "seed"), ("natural", "rank"), (False, True))
]


class Klaverjas(TeamGame):
    """A deal's trump, declarer and options. Trick winner: the highest trump, else the highest card
    of the suit led (TrickGame's, with the orders above); roem goes with each trick, the pit with all 8."""

    game = "klaverjas"
    trump: str
    cards = DECK
    last_bonus = LAST_TRICK
    sweep_bonus = PIT
    trump_order = TRUMP_ORDER
    plain_order = PLAIN_ORDER

    def __init__(
        self, trump: str, declarer: int, rules: str = "rotterdam", roem_order: str = "natural", nat_on_tie: bool = False
    ) -> None:
        self.trump = trump
        self.declarer = declarer
        self.rules = rules
        self.roem_order = roem_order
        self.nat_on_tie = nat_on_tie

    def header(self) -> dict[str, Any]:
        return {
            "game": "klaverjas",
            "options": {"rules": self.rules, "roem_order": self.roem_order, "nat_on_tie": self.nat_on_tie},
            "trump": self.trump,
            "declarer": self.declarer,
        }

    def card_points(self, card: str) -> int:
        return (TRUMP_POINTS if card[0] == self.trump else PLAIN_POINTS)[card[1]]

    def legal_cards(self, hand: Sequence[str], trick: Sequence[str], leader: int) -> set[str]:
        if not trick:
            return set(hand)
        trump = self.trump
        led = trick[0][0]
        seat = (leader + len(trick)) % 4
        follow = [c for c in hand if c[0] == led]
        my_trumps = [c for c in hand if c[0] == trump]
        trick_trumps = [self.strength(c) for c in trick if c[0] == trump]
        top = max(trick_trumps) if trick_trumps else None
        # trumps above the highest trump on the trick (any trump if none lies there)
        over = [c for c in my_trumps if top is None or self.strength(c) > top]
        # trumps below the highest trump on the trick
        under = {c for c in my_trumps if top is not None and self.strength(c) < top}

        if self.rules == "seed":
            # "follow suit if you can, and then, if the previous player's card is of the suit
            # led, beat it if you can" (any lead, docs/rules-choices.md)
            if follow:
                prev = trick[-1]
                if prev[0] == led:
                    higher = [c for c in follow if self.strength(c) > self.strength(prev)]
                    if higher:
                        return set(higher)
                return set(follow)
            # "when a trump lies on the trick and you hold a higher trump, you must play a higher trump"
            if top is not None and over:
                return set(over)
            return set(hand)

        # rotterdam and amsterdam
        if follow:
            if led == trump and over:  # trump lead: beat the highest trump, even a partner's
                return set(over)
            return set(follow)
        if not my_trumps:
            return set(hand)
        if self.rules == "rotterdam" or led == trump:
            # must trump, overtrumping if possible, else with a lower trump
            return set(over or my_trumps)
        # amsterdam, cannot follow a plain-suit lead, holding a trump
        partner_wins = (leader + self.winner_index(trick)) % 2 == seat % 2
        if not partner_wins and over:
            return set(over)  # an opponent is winning: beat with a trump if you can
        # partner winning, or an opponent winning that we cannot overtrump: no undertrump,
        # unless every card is such a lower trump
        allowed = set(hand) - under
        return allowed or set(hand)

    def roem(self, trick: Sequence[str]) -> int:
        total = 0
        for suit in SUITS:
            ranks = [c[1] for c in trick if c[0] == suit]
            if len(ranks) < 3:
                continue
            if self.roem_order == "natural":
                order = NATURAL_ORDER
            else:
                order = TRUMP_ORDER if suit == self.trump else PLAIN_ORDER
            n = run_length(ranks, order)
            total += 50 if n >= 4 else 20 if n == 3 else 0
        ranks = {c[1] for c in trick}
        if len(trick) == 4 and len(ranks) == 1:
            total += FOUR_OF_A_KIND.get(trick[0][1], 0)
        if self.trump + "K" in trick and self.trump + "Q" in trick:  # stuk, on top of a run
            total += 20
        return total

    def trick_bonus(self, trick: Sequence[str]) -> int:
        return self.roem(trick)  # it goes to the trick's winner, with the card points

    def settle(self, totals: tuple[int, int], objective: str) -> tuple[int, int]:
        """`raw`: the totals (the pit in them); `score`: nat when the declarers did not make it."""
        if objective == "raw":
            return totals
        d = self.declarer % 2
        made = totals[d] > totals[1 - d] if self.nat_on_tie else totals[d] >= totals[1 - d]
        if made:
            return totals
        out = [0, 0]
        out[1 - d] = totals[0] + totals[1]  # nat: the defenders score both totals
        return out[0], out[1]


def run_length(ranks: list[str], order: str) -> int:
    """Longest run of consecutive positions in `order` among `ranks`."""
    idx = sorted(order.index(r) for r in ranks)
    best = cur = 1
    for a, b in zip(idx, idx[1:]):
        cur = cur + 1 if b == a + 1 else 1
        best = max(best, cur)
    return best


# ---------------------------------------------------------------------------
# Bridges to plis's public API
# ---------------------------------------------------------------------------


def check_values(g: Klaverjas, state: State) -> int:
    """analyse() of every legal move against our minimax, both objectives; returns moves compared."""
    compared = 0
    for objective in ("score", "raw"):
        mine = g.values(state, objective)
        check_moves(position_dict(g, state), objective, mine)
        compared += len(mine)
    return compared


# ---------------------------------------------------------------------------
# Deals and playouts
# ---------------------------------------------------------------------------


def new_deal(rng: random.Random, g: Klaverjas, strong_side: int | None) -> State:
    """A shuffled deal; with `strong_side`, that team gets most of the top cards."""
    pack = DECK[:]
    rng.shuffle(pack)
    hands: list[list[str]] = [[], [], [], []]
    if strong_side is not None:
        top = [g.trump + r for r in "J9AT"] + [s + "A" for s in SUITS if s != g.trump] + [g.trump + "K"]
        top = top[: rng.randint(6, 8)]
        seats = [strong_side, strong_side + 2]
        for i, c in enumerate(top):
            hands[seats[i % 2]].append(c)
        pack = [c for c in pack if c not in top]
    for c in pack:
        open_seats = [s for s in range(4) if len(hands[s]) < 8]
        hands[rng.choice(open_seats)].append(c)
    ordered = tuple(tuple(sorted(h, key=DECK.index)) for h in hands)
    return State(ordered, (), 0, (0, 0), (0, 0))


def choose(rng: random.Random, state: State, g: Klaverjas, greedy_side: int | None) -> str:
    """A random legal card; the greedy side plays its strongest card, the other side its weakest."""
    seat = state.to_move
    legal = g.moves(state)
    if greedy_side is None or rng.random() < 0.25:
        return rng.choice(legal)
    led = state.trick[0][0] if state.trick else None

    def key(c: str) -> int:  # a discard (neither trump nor the suit led) is the weakest card
        return g.strength(c) if c[0] == g.trump or c[0] == led or led is None else 0

    return max(legal, key=key) if seat % 2 == greedy_side else min(legal, key=key)


def random_config(rng: random.Random, opts: dict[str, object]) -> Klaverjas:
    return Klaverjas(rng.choice(SUITS), rng.randrange(4), str(opts["rules"]), str(opts["roem_order"]), bool(opts["nat_on_tie"]))


def checked_playout(rng: random.Random, g: Klaverjas, cards: int) -> tuple[State, list[State], list[str], State]:
    """Play `cards` cards of a fresh deal, checking plis's legal moves and scores on the way (`check_along`:
    once the deal is over, plis's `scored` holds the pit too).

    Returns the deal, the states after each card, the cards played, and the last state.
    """
    strong = rng.choice([None, None, 0, 1])
    start = new_deal(rng, g, strong)
    path = playout(g, start, lambda st: choose(rng, st, g, strong), cards)
    check_along(g, Position.from_dict(position_dict(g, start)), path)
    return start, [st for st, _ in path[1:]], [c for _, c in path[:-1]], path[-1][0]


def option_id(opts: dict[str, object]) -> str:
    return f"{opts['rules']}-{opts['roem_order']}-tie{int(bool(opts['nat_on_tie']))}"


# ---------------------------------------------------------------------------
# Hand-checked cases
# ---------------------------------------------------------------------------

# Hearts trump throughout; leader, trick, and the hand of the seat to move, with the
# legal cards RULES.md gives under each `rules` value.
HAND_CASES = [
    # Seat 0 led SA, seat 1 followed; seat 2 (partner winning, no trump on the trick) has no spade.
    # Rotterdam: "If you cannot follow, you must trump" -> H7 only.
    # Amsterdam: partner winning -> "any card"; no trump on the trick, so nothing is barred.
    # Seed: "any card, except when a trump lies on the trick ..." -> any card.
    (0, ["SA", "S7"], ["H7", "CA", "DK"], {"rotterdam": {"H7"}, "amsterdam": {"H7", "CA", "DK"}, "seed": {"H7", "CA", "DK"}}),
    # Seat 1 led SA, seat 2 ruffed HA, seat 3 followed; seat 0 (partner winning with HA) has no spade.
    # Rotterdam: "beating the highest trump on the trick if you can" -> HJ.
    # Amsterdam: partner winning -> any card but "no trump lower than the highest trump" -> HJ, D8 (not H7).
    # Seed: "a trump lies on the trick and you hold a higher trump, you must play a higher trump" -> HJ.
    (1, ["SA", "HA", "S7"], ["H7", "HJ", "D8"], {"rotterdam": {"HJ"}, "amsterdam": {"HJ", "D8"}, "seed": {"HJ"}}),
    # Same trick, seat 0 holds only trumps lower than HA: "unless every card in your hand is
    # such a lower trump" -> both, in every rule set.
    (1, ["SA", "HA", "S7"], ["H7", "H8"], {"rotterdam": {"H7", "H8"}, "amsterdam": {"H7", "H8"}, "seed": {"H7", "H8"}}),
    # Seat 0 led SA, seat 1 (an opponent of seat 2) ruffed HA; seat 2 has no spade and only a lower trump.
    # Rotterdam: "beating the highest trump on the trick if you can, else with a lower trump" -> H7.
    # Amsterdam: opponent winning, cannot beat -> "any card except a trump lower than the highest trump" -> D8.
    # Seed: no higher trump held -> any card.
    (0, ["SA", "HA"], ["H7", "D8"], {"rotterdam": {"H7"}, "amsterdam": {"D8"}, "seed": {"H7", "D8"}}),
    # Seat 1 led SA (an opponent of seat 2, winning), no trump on the trick; seat 2 has no spade.
    # Rotterdam and Amsterdam ("beat with a trump if you can"): H7; seed: any card.
    (1, ["SA"], ["H7", "D8"], {"rotterdam": {"H7"}, "amsterdam": {"H7"}, "seed": {"H7", "D8"}}),
    # Seat 0 led HA, seat 1 played H7 (trump lead). Seat 2 holds H9 HT H8.
    # Rotterdam/Amsterdam: "beat the highest trump on the trick" (HA) -> H9 only.
    # Seed: beat "the previous player's card" (H7) -> H9, HT, H8 (docs/rules-choices.md's example).
    (0, ["HA", "H7"], ["H9", "HT", "H8"], {"rotterdam": {"H9"}, "amsterdam": {"H9"}, "seed": {"H9", "HT", "H8"}}),
    # Seat 0 led S8, seat 1 played SA. Seat 2 holds SK S7 DA.
    # Rotterdam/Amsterdam: follow suit, no need to beat on a plain lead -> SK, S7.
    # Seed: the previous card SA is of the suit led and cannot be beaten -> any spade: SK, S7.
    (0, ["S8", "SA"], ["SK", "S7", "DA"], {"rotterdam": {"SK", "S7"}, "amsterdam": {"SK", "S7"}, "seed": {"SK", "S7"}}),
    # Seat 0 led S8, seat 1 played S9. Seat 2 holds ST S7: seed must beat S9 -> ST; others either.
    (0, ["S8", "S9"], ["ST", "S7"], {"rotterdam": {"ST", "S7"}, "amsterdam": {"ST", "S7"}, "seed": {"ST"}}),
]


@pytest.mark.parametrize("leader,trick,hand,expected", HAND_CASES)
@pytest.mark.parametrize("rules", ["rotterdam", "amsterdam", "seed"])
def test_hand_checked_legal_moves(
    rules: str, leader: int, trick: list[str], hand: list[str], expected: dict[str, set[str]]
) -> None:
    g = Klaverjas("H", 0, rules)
    state = filler(g, leader, trick, hand)
    assert g.legal_cards(state.hands[state.to_move], state.trick, state.leader) == expected[rules]
    assert plis_legal(Position.from_dict(position_dict(g, state))) == sorted(expected[rules])


# (trump, trick, roem natural, roem rank), checked by hand against RULES.md and seed 003.
ROEM_CASES = [
    # Trump K Q J: natural K-Q-J is a run of 3 (20) plus stuk (20); rank order J 9 A T K Q 8 7:
    # K-Q adjacent but J is not, so only the stuk.
    ("H", ["HK", "HQ", "HJ", "H7"], 40, 20),
    # Seed: "neuf, valet, dame de coeur avec un atout carreau": 9-J-Q is a run only in plain rank order A T K Q J 9.
    ("D", ["H9", "HJ", "HQ", "S7"], 0, 20),
    # Seed: "dix, as, neuf, valet de carreau avec un atout carreau": rank order J 9 A T is 4 (50);
    # natural A K Q J T 9: only J-T-9 (20).
    ("D", ["DT", "DA", "D9", "DJ"], 20, 50),
    # Four Jacks 200, four Queens 100, four Nines nothing.
    ("C", ["SJ", "HJ", "CJ", "DJ"], 200, 200),
    ("C", ["SQ", "HQ", "CQ", "DQ"], 100, 100),
    ("C", ["S9", "H9", "C9", "D9"], 0, 0),
    # Four Aces, Kings, Tens 100 (with the trump's card among them); four Eights nothing.
    ("S", ["SA", "HA", "CA", "DA"], 100, 100),
    ("D", ["SK", "HK", "CK", "DK"], 100, 100),
    ("H", ["ST", "HT", "CT", "DT"], 100, 100),
    ("H", ["S8", "H8", "C8", "D8"], 0, 0),
    # Trump 9-8-7: natural ... 9 8 7 is a run; in trump rank order (J 9 A T K Q 8 7) the 9 stands apart.
    ("H", ["H9", "H8", "H7", "SA"], 20, 0),
    # Trump Q-8-7: only in trump rank order (... K Q 8 7) a run; no stuk without the King.
    ("H", ["HQ", "H8", "H7", "SA"], 0, 20),
    # Trump T-K-Q: rank order T K Q is a run (20) + stuk (20); natural K-Q alone: stuk only.
    ("H", ["HT", "HK", "HQ", "C7"], 20, 40),
    # Plain 8-9-T: natural ...T 9 8 is a run (20); plain rank order ... J 9 8 7: T is far away.
    ("C", ["S8", "S9", "ST", "H7"], 20, 0),
]


@pytest.mark.parametrize("trump,trick,natural,rank", ROEM_CASES)
def test_hand_checked_roem(trump: str, trick: list[str], natural: int, rank: int) -> None:
    for order, expected in (("natural", natural), ("rank", rank)):
        g = Klaverjas(trump, 0, "seed", order)  # seed rules: any card when out of the suit
        assert g.roem(trick) == expected
        # plis: play the trick from a position of two cards a hand and read what it scored
        # each hand's second card is of neither trump nor the suit led, so it never constrains the trick
        spare = [c for c in DECK if c not in trick and c[0] not in (trump, trick[0][0])]
        state = State(tuple((c, spare[i]) for i, c in enumerate(trick)), (), 0, (0, 0), (6, 0))
        pos = Position.from_dict(position_dict(g, state))
        for c in trick:
            pos = pos.play(c)
        winner = g.winner_index(trick) % 2
        gained = pos.to_dict()["scored"][winner]
        assert gained == sum(g.card_points(c) for c in trick) + expected, (order, trick)


# The last trick, hearts trump, declarer 0, seat 0 leads HJ and wins 20 + 10 (last trick).
# (scored, tricks, nat_on_tie, score value for side 0, raw value), worked out by hand from
# RULES.md "Settlement" and "Pit".
SETTLEMENT_CASES = [
    ([70, 72], [4, 3], False, 28, 28),  # 100 against 72: made, each scores its own
    ([40, 72], [4, 3], False, -142, -2),  # 70 against 72: nat, the defenders score 70 + 72
    ([42, 72], [4, 3], False, 0, 0),  # 72 against 72: "at least the defenders' same total": made
    ([42, 72], [4, 3], True, -144, 0),  # nat_on_tie: the tie is nat
    ([130, 0], [7, 0], False, 260, 260),  # all 8 tricks: 160 + pit 100 against 0
    ([0, 130], [0, 7], False, -160, -100),  # the defenders took 7: no pit for anyone; 30 against 130: nat, 0 vs 160
]


@pytest.mark.parametrize("scored,tricks,tie,score,raw", SETTLEMENT_CASES)
def test_hand_checked_settlement(scored: list[int], tricks: list[int], tie: bool, score: int, raw: int) -> None:
    g = Klaverjas("H", 0, nat_on_tie=tie)
    state = State((("HJ",), ("S7",), ("C7",), ("D7",)), (), 0, (scored[0], scored[1]), (tricks[0], tricks[1]))
    for objective, expected in (("score", score), ("raw", raw)):
        assert g.values(state, objective) == {"HJ": expected}
        assert analyse(position_dict(g, state), objective=objective).value == expected


# ---------------------------------------------------------------------------
# Random playouts, endgames, complete deals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("opts", OPTION_COMBOS, ids=option_id)
def test_playouts_legal_moves_and_scores(opts: dict[str, object]) -> None:
    rng = random.Random("legal-" + option_id(opts))
    for _ in range(6):
        g = random_config(rng, opts)
        checked_playout(rng, g, 32)


def pit_at_stake(rng: random.Random, state: State) -> State:
    """The same cards with one side, at random, having taken every trick so far (and so
    everything scored so far)."""
    side = rng.randrange(2)
    pts = [0, 0]
    pts[side] = state.scored[0] + state.scored[1]
    return swept(state, side, (pts[0], pts[1]))


def endgame_variants(rng: random.Random, state: State, g: Klaverjas) -> list[State]:
    """The cut position with its own history, plus variants that put pit and nat at stake."""
    out = [state, pit_at_stake(rng, state)]
    # nat at stake: shift `scored` so that the raw best line ends in a tie, or near one
    d = g.declarer % 2
    v = g.values(replace(state, scored=(0, 0)), "raw")
    best = max(v.values()) if state.to_move % 2 == d else -max(v.values())  # declarers' raw margin
    shift = -best + rng.choice([0, 0, -1, 1, rng.randint(-20, 20)])
    base = rng.randint(20, 60)
    pts = [0, 0]
    pts[d] = base + max(shift, 0)
    pts[1 - d] = base + max(-shift, 0)
    out.append(replace(state, scored=(pts[0], pts[1])))
    return out


def roem_rich_endgame(rng: random.Random, g: Klaverjas, tricks_left: int, on_table: int) -> State:
    """A position built from a card pool full of roem: a four of a kind, runs, the stuk."""
    pool: list[str] = []
    kind = rng.choice("AJTKQ9")
    if rng.random() < 0.7:
        pool += [s + kind for s in SUITS]
    suit = rng.choice(SUITS)
    order = rng.choice([NATURAL_ORDER, TRUMP_ORDER if suit == g.trump else PLAIN_ORDER])
    start = rng.randrange(0, 5)
    pool += [suit + r for r in order[start : start + rng.randint(3, 5)]]
    pool += [g.trump + "K", g.trump + "Q"]
    pool = list(dict.fromkeys(pool))
    rng.shuffle(pool)
    rest = [c for c in DECK if c not in pool]
    rng.shuffle(rest)
    cards = (pool + rest)[: 4 * tricks_left]
    rng.shuffle(cards)
    hands = tuple(tuple(sorted(cards[i * tricks_left : (i + 1) * tricks_left], key=DECK.index)) for i in range(4))
    scored, tricks = endgame_history(g, rng, tricks_left, sum(g.card_points(c) for c in DECK if c not in cards))
    state = State(hands, (), rng.randrange(4), scored, tricks)
    for _ in range(on_table):
        state = g.play(state, rng.choice(sorted(g.moves(state))))
    return state


@pytest.mark.parametrize("opts", OPTION_COMBOS, ids=option_id)
def test_endgame_values(opts: dict[str, object]) -> None:
    rng = random.Random("endgame-" + option_id(opts))
    for i in range(6):
        g = random_config(rng, opts)
        tricks_left = 2 if i % 2 == 0 else 3
        cut = 32 - 4 * tricks_left + rng.choice([0, 0, 1, 2, 3])
        _, _, _, state = checked_playout(rng, g, cut)
        for variant in endgame_variants(rng, state, g):
            assert plis_legal(Position.from_dict(position_dict(g, variant))) == sorted(g.moves(variant))
            check_values(g, variant)
    for i in range(4):
        g = random_config(rng, opts)
        state = roem_rich_endgame(rng, g, 2 + i % 2, rng.choice([0, 1, 2, 3]))
        for variant in endgame_variants(rng, state, g):
            check_values(g, variant)


@pytest.mark.parametrize(("rules", "roem_order"), RULES_AND_ORDERS)
def test_deeper_endgame_values(rules: str, roem_order: str) -> None:
    """Endgames of 4 and 5 tricks, some in the middle of a trick, each also with the pit at
    stake: the memoised minimax against plis, for `raw`. `score`'s nat does not add up
    trick by trick: it is checked too, with nat also at stake, by a minimax memoised on
    whole states (with 5 tricks left only with nat at stake and a card or more on the
    table: seconds a position, 10 to 20 at a trick's start, minutes with 6 tricks)."""
    rng = random.Random(f"deeper-{rules}-{roem_order}")
    compared = 0
    for i in range(4):
        g = random_config(rng, {"rules": rules, "roem_order": roem_order, "nat_on_tie": i % 2 == 1})
        left = 5 if i == 0 else 4
        _, _, _, state = checked_playout(rng, g, 32 - 4 * left + rng.choice([0, 0, 1, 2, 3] if left == 4 else [1, 2, 3]))
        if left == 5:
            pit, nat = endgame_variants(rng, state, g)[1:]
            compared += check_deeper_endgames(g, [state, pit], ("raw",))
            check_moves(position_dict(g, nat), "score", g.whole_memo_values(nat, "score"))
            continue
        variants = endgame_variants(rng, state, g)  # its own history, the pit and nat at stake
        compared += check_deeper_endgames(g, variants, ("raw",))
        for variant in variants:
            check_moves(position_dict(g, variant), "score", g.whole_memo_values(variant, "score"))
    assert compared > 8


def nat_at_stake(rng: random.Random, g: Klaverjas, state: State) -> State:
    """`state` with `scored` set so that the declarers' best line under `raw` ends in a tie of
    the totals, or within a point or two of one: best play then turns on the settlement."""
    d = g.declarer % 2
    me = g.side(state.to_move)
    raw = alphabeta_move_values(g, replace(state, scored=(0, 0)), g.leaf(me, "raw"))
    margin = max(raw.values()) if me == d else -max(raw.values())  # the declarers' raw margin
    shift = rng.choice([0, 0, -1, 1, -2, 2]) - margin  # what the declarers' `scored` should lead by
    pts = [0, 0]
    if 0 in state.tricks and sum(state.tricks):  # one side took every trick: the other has scored nothing
        side = state.tricks.index(0)
        pts[1 - side] = shift if side != d else -shift
        return replace(state, scored=(pts[0], pts[1])) if pts[1 - side] > 0 else state
    pts[d] = rng.randint(10, 50) + max(shift, 0)
    pts[1 - d] = pts[d] - shift
    return replace(state, scored=(pts[0], pts[1]))


@pytest.mark.parametrize("rules", ["rotterdam", "amsterdam", "seed"])
def test_nat_six_tricks(rules: str) -> None:
    """Endgames of 6 tricks, some in the middle of a trick, with nat at stake (and once with
    the pit at stake too): `score` against the alpha-beta search on whole states, a trick
    deeper than test_deeper_endgame_values reaches (nat's settlement does not add up trick
    by trick, so the memoised minimax cannot share positions across histories)."""
    rng = random.Random(f"nat-six-tricks-{rules}")
    for i in range(3):
        g = random_config(rng, {"rules": rules, "roem_order": ("natural", "rank")[i % 2], "nat_on_tie": i != 1})
        _, _, _, state = checked_playout(rng, g, 8 + rng.choice([0, 1, 2, 3]))
        variants = [nat_at_stake(rng, g, state)] + ([nat_at_stake(rng, g, pit_at_stake(rng, state))] if i == 1 else [])
        for variant in variants:
            mine = alphabeta_move_values(g, variant, g.leaf(g.side(variant.to_move), "score"))
            check_moves(position_dict(g, variant), "score", mine)


def forced_end(g: Klaverjas, state: State) -> State:
    """Play out a last trick (one card a hand: forced)."""
    while not state.over:
        state = g.play(state, state.hands[state.to_move][0])
    return state


@pytest.mark.parametrize("opts", OPTION_COMBOS, ids=option_id)
def test_complete_deal_scoring(opts: dict[str, object]) -> None:
    rng = random.Random("deal-" + option_id(opts))
    for _ in range(6):
        g = random_config(rng, opts)
        start, _, played, state = checked_playout(rng, g, 28)
        end = forced_end(g, state)
        # plis adds up the whole deal itself from `deal` + `played` ...
        deal_form = deal_dict(g, start.hands, played)
        # ... or takes our `scored`; and once more with `scored` moved so that the totals tie
        gap = g.final(end)[0] - g.final(end)[1]
        tied = replace(state, scored=(state.scored[0] + max(-gap, 0), state.scored[1] + max(gap, 0)))
        cases = [(deal_form, end), (position_dict(g, state), end), (position_dict(g, tied), forced_end(g, tied))]
        side = state.leader % 2
        for objective in ("score", "raw"):
            for form, final_state in cases:
                final = g.settle(g.final(final_state), objective)
                result = analyse(form, objective=objective)
                assert result.value == final[side] - final[1 - side], (objective, form)
                assert tuple(result.points) == tuple(final), (objective, form)
