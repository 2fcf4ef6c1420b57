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
from typing import NamedTuple

import pytest

from solver import Position, analyse

# ---------------------------------------------------------------------------
# Independent rules (RULES.md, "Klaverjas")
# ---------------------------------------------------------------------------

SUITS = "CSHD"
RANKS = "AKQJT987"
DECK = [s + r for s in SUITS for r in RANKS]
TRUMP_ORDER = "J9ATKQ87"  # trick ranking, strongest first
PLAIN_ORDER = "ATKQJ987"
NATURAL_ORDER = "AKQJT987"  # roem_order=natural, every suit
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
FOUR_OF_A_KIND = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100}
LAST_TRICK = 10
PIT = 100

OPTION_COMBOS = [
    {"rules": r, "roem_order": o, "nat_on_tie": t}
    for r, o, t in itertools.product(("rotterdam", "amsterdam", "seed"), ("natural", "rank"), (False, True))
]


class Config(NamedTuple):
    trump: str
    declarer: int
    rules: str = "rotterdam"
    roem_order: str = "natural"
    nat_on_tie: bool = False


class State(NamedTuple):
    hands: tuple[tuple[str, ...], ...]
    trick: tuple[str, ...]
    leader: int
    pts: tuple[int, int]  # scored so far: card points, last trick, roem (pit comes at the end)
    tricks: tuple[int, int]


def strength(card: str, trump: str) -> int:
    """Trick strength: any trump above any plain card; within a suit, its trick ranking."""
    if card[0] == trump:
        return 100 - TRUMP_ORDER.index(card[1])
    return 10 - PLAIN_ORDER.index(card[1])


def card_points(card: str, trump: str) -> int:
    return (TRUMP_POINTS if card[0] == trump else PLAIN_POINTS)[card[1]]


def winner_index(trick: tuple[str, ...] | list[str], trump: str) -> int:
    """Index in the trick of the winning card: highest trump, else highest of the suit led."""
    led = trick[0][0]
    best = 0
    for i, c in enumerate(trick):
        if c[0] not in (led, trump):
            continue
        if strength(c, trump) > strength(trick[best], trump):
            best = i
    return best


def legal_cards(hand: tuple[str, ...], trick: tuple[str, ...], leader: int, cfg: Config) -> set[str]:
    if not trick:
        return set(hand)
    trump = cfg.trump
    led = trick[0][0]
    seat = (leader + len(trick)) % 4
    follow = [c for c in hand if c[0] == led]
    my_trumps = [c for c in hand if c[0] == trump]
    trick_trumps = [strength(c, trump) for c in trick if c[0] == trump]
    top = max(trick_trumps) if trick_trumps else None
    # trumps above the highest trump on the trick (any trump if none lies there)
    over = [c for c in my_trumps if top is None or strength(c, trump) > top]
    # trumps below the highest trump on the trick
    under = {c for c in my_trumps if top is not None and strength(c, trump) < top}

    if cfg.rules == "seed":
        # "follow suit if you can, and then, if the previous player's card is of the suit
        # led, beat it if you can" (any lead, docs/rules-choices.md)
        if follow:
            prev = trick[-1]
            if prev[0] == led:
                higher = [c for c in follow if strength(c, trump) > strength(prev, trump)]
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
    if cfg.rules == "rotterdam" or led == trump:
        # must trump, overtrumping if possible, else with a lower trump
        return set(over or my_trumps)
    # amsterdam, cannot follow a plain-suit lead, holding a trump
    partner_wins = (leader + winner_index(trick, trump)) % 2 == seat % 2
    if not partner_wins and over:
        return set(over)  # an opponent is winning: beat with a trump if you can
    # partner winning, or an opponent winning that we cannot overtrump: no undertrump,
    # unless every card is such a lower trump
    allowed = set(hand) - under
    return allowed or set(hand)


def run_length(ranks: list[str], order: str) -> int:
    """Longest run of consecutive positions in `order` among `ranks`."""
    idx = sorted(order.index(r) for r in ranks)
    best = cur = 1
    for a, b in zip(idx, idx[1:]):
        cur = cur + 1 if b == a + 1 else 1
        best = max(best, cur)
    return best


def roem(trick: tuple[str, ...] | list[str], cfg: Config) -> int:
    total = 0
    for suit in SUITS:
        ranks = [c[1] for c in trick if c[0] == suit]
        if len(ranks) < 3:
            continue
        if cfg.roem_order == "natural":
            order = NATURAL_ORDER
        else:
            order = TRUMP_ORDER if suit == cfg.trump else PLAIN_ORDER
        n = run_length(ranks, order)
        total += 50 if n >= 4 else 20 if n == 3 else 0
    ranks = {c[1] for c in trick}
    if len(trick) == 4 and len(ranks) == 1:
        total += FOUR_OF_A_KIND.get(trick[0][1], 0)
    if cfg.trump + "K" in trick and cfg.trump + "Q" in trick:  # stuk, on top of a run
        total += 20
    return total


def to_move(state: State) -> int:
    return (state.leader + len(state.trick)) % 4


def play(state: State, card: str, cfg: Config) -> State:
    seat = to_move(state)
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    trick = state.trick + (card,)
    if len(trick) < 4:
        return State(tuple(hands), trick, state.leader, state.pts, state.tricks)
    winner = (state.leader + winner_index(trick, cfg.trump)) % 4
    gain = sum(card_points(c, cfg.trump) for c in trick) + roem(trick, cfg)
    if not any(hands):
        gain += LAST_TRICK
    pts = list(state.pts)
    tricks = list(state.tricks)
    pts[winner % 2] += gain
    tricks[winner % 2] += 1
    return State(tuple(hands), (), winner, (pts[0], pts[1]), (tricks[0], tricks[1]))


def totals(state: State) -> list[int]:
    """Each side's total at the end: everything scored, plus the pit for 8 tricks."""
    return [state.pts[s] + (PIT if state.tricks[s] == 8 else 0) for s in (0, 1)]


def final_scores(state: State, cfg: Config, objective: str) -> list[int]:
    tot = totals(state)
    if objective == "raw":
        return tot
    d = cfg.declarer % 2
    made = tot[d] > tot[1 - d] if cfg.nat_on_tie else tot[d] >= tot[1 - d]
    if made:
        return tot
    out = [0, 0]
    out[1 - d] = tot[0] + tot[1]  # nat: the defenders score both totals
    return out


def solve(state: State, cfg: Config, objective: str, memo: dict[State, int]) -> int:
    """Plain minimax (memoised, no pruning): final score of side 0 minus side 1's."""
    if not state.trick and not any(state.hands):
        f = final_scores(state, cfg, objective)
        return f[0] - f[1]
    if state in memo:
        return memo[state]
    seat = to_move(state)
    values = [
        solve(play(state, c, cfg), cfg, objective, memo) for c in legal_cards(state.hands[seat], state.trick, state.leader, cfg)
    ]
    v = max(values) if seat % 2 == 0 else min(values)
    memo[state] = v
    return v


def move_values(state: State, cfg: Config, objective: str) -> dict[str, int]:
    """Each legal move's value for the side to move (RULES.md, "Value of a position")."""
    sign = 1 if to_move(state) % 2 == 0 else -1
    memo: dict[State, int] = {}
    hand = state.hands[to_move(state)]
    return {c: sign * solve(play(state, c, cfg), cfg, objective, memo) for c in legal_cards(hand, state.trick, state.leader, cfg)}


# ---------------------------------------------------------------------------
# Bridges to plis's public API
# ---------------------------------------------------------------------------


def options_of(cfg: Config) -> dict[str, object]:
    return {"rules": cfg.rules, "roem_order": cfg.roem_order, "nat_on_tie": cfg.nat_on_tie}


def plis_dict(state: State, cfg: Config) -> dict[str, object]:
    return {
        "game": "klaverjas",
        "options": options_of(cfg),
        "trump": cfg.trump,
        "declarer": cfg.declarer,
        "hands": [" ".join(h) for h in state.hands],
        "trick": list(state.trick),
        "leader": state.leader,
        "scored": list(state.pts),
        "tricks": list(state.tricks),
    }


def plis_legal(pos: Position) -> set[str]:
    return {str(c) for c in pos.legal_moves()}


def check_values(state: State, cfg: Config, label: str) -> int:
    """analyse() of every legal move against our minimax, both objectives; returns moves compared."""
    compared = 0
    for objective in ("score", "raw"):
        mine = move_values(state, cfg, objective)
        result = analyse(plis_dict(state, cfg), objective=objective)
        theirs = {m.move: m.value for m in result.moves}
        assert result.exact
        assert theirs == mine, f"{label} {objective}: {plis_dict(state, cfg)}"
        assert result.value == max(mine.values())
        compared += len(mine)
    return compared


# ---------------------------------------------------------------------------
# Deals and playouts
# ---------------------------------------------------------------------------


def new_deal(rng: random.Random, cfg: Config, strong_side: int | None) -> State:
    """A shuffled deal; with `strong_side`, that team gets most of the top cards."""
    deck = DECK[:]
    rng.shuffle(deck)
    hands: list[list[str]] = [[], [], [], []]
    if strong_side is not None:
        top = [cfg.trump + r for r in "J9AT"] + [s + "A" for s in SUITS if s != cfg.trump] + [cfg.trump + "K"]
        top = top[: rng.randint(6, 8)]
        seats = [strong_side, strong_side + 2]
        for i, c in enumerate(top):
            hands[seats[i % 2]].append(c)
        deck = [c for c in deck if c not in top]
    for c in deck:
        open_seats = [s for s in range(4) if len(hands[s]) < 8]
        hands[rng.choice(open_seats)].append(c)
    ordered = tuple(tuple(sorted(h, key=DECK.index)) for h in hands)
    return State(ordered, (), 0, (0, 0), (0, 0))


def choose(rng: random.Random, state: State, cfg: Config, greedy_side: int | None) -> str:
    """A random legal card; the greedy side plays its strongest card, the other side its weakest."""
    seat = to_move(state)
    legal = sorted(legal_cards(state.hands[seat], state.trick, state.leader, cfg), key=DECK.index)
    if greedy_side is None or rng.random() < 0.25:
        return rng.choice(legal)
    led = state.trick[0][0] if state.trick else None

    def key(c: str) -> int:  # a discard (neither trump nor the suit led) is the weakest card
        return strength(c, cfg.trump) if c[0] == cfg.trump or c[0] == led or led is None else 0

    return max(legal, key=key) if seat % 2 == greedy_side else min(legal, key=key)


def random_config(rng: random.Random, opts: dict[str, object]) -> Config:
    return Config(rng.choice(SUITS), rng.randrange(4), str(opts["rules"]), str(opts["roem_order"]), bool(opts["nat_on_tie"]))


def playout(rng: random.Random, cfg: Config, cards: int) -> tuple[State, list[State], list[str], State]:
    """Play `cards` cards of a fresh deal, checking plis's legal moves and scores on the way.

    Returns the deal, the states after each card, the cards played, and the last state.
    """
    strong = rng.choice([None, None, 0, 1])
    start = new_deal(rng, cfg, strong)
    state = start
    pos = Position.from_dict(plis_dict(state, cfg))
    states: list[State] = []
    played: list[str] = []
    for _ in range(cards):
        mine = legal_cards(state.hands[to_move(state)], state.trick, state.leader, cfg)
        assert plis_legal(pos) == mine, f"legal moves differ at {plis_dict(state, cfg)}"
        card = choose(rng, state, cfg, strong)
        state = play(state, card, cfg)
        pos = pos.play(card)
        played.append(card)
        states.append(state)
        if not state.trick:  # a trick just ended: card points and roem so far must agree
            d = pos.to_dict()
            # once the deal is over, plis's `scored` holds the pit too
            expected = tuple(totals(state)) if not any(state.hands) else state.pts
            assert (tuple(d["scored"]), tuple(d["tricks"])) == (expected, state.tricks), f"after {played}"
    return start, states, played, state


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


def filler_position(leader: int, trick: list[str], hand: list[str], cfg: Config) -> State:
    """A legal-looking position around a hand-checked trick: other seats get unused clubs/diamonds."""
    used = set(trick) | set(hand)
    spare = [c for c in DECK if c not in used and c[0] in "CD"]
    seat = (leader + len(trick)) % 4
    size = len(hand)
    hands: list[tuple[str, ...]] = []
    for s in range(4):
        if s == seat:
            hands.append(tuple(hand))
            continue
        n = size - 1 if (s - leader) % 4 < len(trick) else size
        hands.append(tuple(spare[:n]))
        spare = spare[n:]
    played = 8 - size
    return State(tuple(hands), tuple(trick), leader, (0, 0), (played, 0))


@pytest.mark.parametrize("leader,trick,hand,expected", HAND_CASES)
@pytest.mark.parametrize("rules", ["rotterdam", "amsterdam", "seed"])
def test_hand_checked_legal_moves(
    rules: str, leader: int, trick: list[str], hand: list[str], expected: dict[str, set[str]]
) -> None:
    cfg = Config("H", 0, rules)
    state = filler_position(leader, trick, hand, cfg)
    assert legal_cards(state.hands[to_move(state)], state.trick, state.leader, cfg) == expected[rules]
    assert plis_legal(Position.from_dict(plis_dict(state, cfg))) == expected[rules]


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
        cfg = Config(trump, 0, "seed", order)  # seed rules: any card when out of the suit
        assert roem(trick, cfg) == expected
        # plis: play the trick from a position of two cards a hand and read what it scored
        # each hand's second card is of neither trump nor the suit led, so it never constrains the trick
        spare = [c for c in DECK if c not in trick and c[0] not in (trump, trick[0][0])]
        state = State(tuple((c, spare[i]) for i, c in enumerate(trick)), (), 0, (0, 0), (6, 0))
        pos = Position.from_dict(plis_dict(state, cfg))
        for c in trick:
            pos = pos.play(c)
        winner = winner_index(trick, trump) % 2
        gained = pos.to_dict()["scored"][winner]
        assert gained == sum(card_points(c, trump) for c in trick) + expected, (order, trick)


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
    cfg = Config("H", 0, nat_on_tie=tie)
    state = State((("HJ",), ("S7",), ("C7",), ("D7",)), (), 0, (scored[0], scored[1]), (tricks[0], tricks[1]))
    for objective, expected in (("score", score), ("raw", raw)):
        assert move_values(state, cfg, objective) == {"HJ": expected}
        assert analyse(plis_dict(state, cfg), objective=objective).value == expected


# ---------------------------------------------------------------------------
# Random playouts, endgames, complete deals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("opts", OPTION_COMBOS, ids=option_id)
def test_playouts_legal_moves_and_scores(opts: dict[str, object]) -> None:
    rng = random.Random("legal-" + option_id(opts))
    for _ in range(6):
        cfg = random_config(rng, opts)
        playout(rng, cfg, 32)


def endgame_variants(rng: random.Random, state: State, cfg: Config) -> list[State]:
    """The cut position with its own history, plus variants that put pit and nat at stake."""
    played = 8 - (len(state.hands[state.leader]) + (1 if state.trick else 0))
    out = [state]
    # pit at stake: one side took every trick so far (it then has everything scored so far)
    side = rng.randrange(2)
    tricks = [0, 0]
    tricks[side] = played
    pts = [0, 0]
    pts[side] = state.pts[0] + state.pts[1]
    out.append(state._replace(pts=(pts[0], pts[1]), tricks=(tricks[0], tricks[1])))
    # nat at stake: shift `scored` so that the raw best line ends in a tie, or near one
    d = cfg.declarer % 2
    v = move_values(state._replace(pts=(0, 0)), cfg, "raw")
    best = max(v.values()) if to_move(state) % 2 == d else -max(v.values())  # declarers' raw margin
    shift = -best + rng.choice([0, 0, -1, 1, rng.randint(-20, 20)])
    base = rng.randint(20, 60)
    pts = [0, 0]
    pts[d] = base + max(shift, 0)
    pts[1 - d] = base + max(-shift, 0)
    out.append(state._replace(pts=(pts[0], pts[1])))
    return out


def roem_rich_endgame(rng: random.Random, cfg: Config, tricks_left: int, on_table: int) -> State:
    """A position built from a card pool full of roem: a four of a kind, runs, the stuk."""
    pool: list[str] = []
    kind = rng.choice("AJTKQ9")
    if rng.random() < 0.7:
        pool += [s + kind for s in SUITS]
    suit = rng.choice(SUITS)
    order = rng.choice([NATURAL_ORDER, TRUMP_ORDER if suit == cfg.trump else PLAIN_ORDER])
    start = rng.randrange(0, 5)
    pool += [suit + r for r in order[start : start + rng.randint(3, 5)]]
    pool += [cfg.trump + "K", cfg.trump + "Q"]
    pool = list(dict.fromkeys(pool))
    rng.shuffle(pool)
    rest = [c for c in DECK if c not in pool]
    rng.shuffle(rest)
    cards = (pool + rest)[: 4 * tricks_left]
    rng.shuffle(cards)
    hands = tuple(tuple(sorted(cards[i * tricks_left : (i + 1) * tricks_left], key=DECK.index)) for i in range(4))
    played = 8 - tricks_left
    split = rng.randint(0, played)
    scored = sum(card_points(c, cfg.trump) for c in DECK if c not in cards)
    pts = (scored * split // played, scored - scored * split // played)
    state = State(hands, (), rng.randrange(4), pts, (split, played - split))
    for _ in range(on_table):
        seat = to_move(state)
        state = play(state, rng.choice(sorted(legal_cards(state.hands[seat], state.trick, state.leader, cfg))), cfg)
    return state


@pytest.mark.parametrize("opts", OPTION_COMBOS, ids=option_id)
def test_endgame_values(opts: dict[str, object]) -> None:
    rng = random.Random("endgame-" + option_id(opts))
    for i in range(6):
        cfg = random_config(rng, opts)
        tricks_left = 2 if i % 2 == 0 else 3
        cut = 32 - 4 * tricks_left + rng.choice([0, 0, 1, 2, 3])
        _, _, _, state = playout(rng, cfg, cut)
        for variant in endgame_variants(rng, state, cfg):
            assert plis_legal(Position.from_dict(plis_dict(variant, cfg))) == legal_cards(
                variant.hands[to_move(variant)], variant.trick, variant.leader, cfg
            )
            check_values(variant, cfg, "playout endgame")
    for i in range(4):
        cfg = random_config(rng, opts)
        state = roem_rich_endgame(rng, cfg, 2 + i % 2, rng.choice([0, 1, 2, 3]))
        for variant in endgame_variants(rng, state, cfg):
            check_values(variant, cfg, "roem-rich endgame")


def forced_end(state: State, cfg: Config) -> State:
    """Play out a last trick (one card a hand: forced)."""
    while any(state.hands) or state.trick:
        state = play(state, state.hands[to_move(state)][0], cfg)
    return state


@pytest.mark.parametrize("opts", OPTION_COMBOS, ids=option_id)
def test_complete_deal_scoring(opts: dict[str, object]) -> None:
    rng = random.Random("deal-" + option_id(opts))
    for _ in range(6):
        cfg = random_config(rng, opts)
        start, _, played, state = playout(rng, cfg, 28)
        end = forced_end(state, cfg)
        # plis adds up the whole deal itself from `deal` + `played` ...
        deal_form = {**plis_dict(start, cfg), "deal": [" ".join(h) for h in start.hands], "played": played}
        for key in ("hands", "trick", "leader", "scored", "tricks"):
            del deal_form[key]
        # ... or takes our `scored`; and once more with `scored` moved so that the totals tie
        gap = totals(end)[0] - totals(end)[1]
        tied = state._replace(pts=(state.pts[0] + max(-gap, 0), state.pts[1] + max(gap, 0)))
        cases = [(deal_form, end), (plis_dict(state, cfg), end), (plis_dict(tied, cfg), forced_end(tied, cfg))]
        side = state.leader % 2
        for objective in ("score", "raw"):
            for form, final_state in cases:
                final = final_scores(final_state, cfg, objective)
                result = analyse(form, objective=objective)
                assert result.value == final[side] - final[1 - side], (objective, form)
                assert tuple(result.points) == tuple(final), (objective, form)
