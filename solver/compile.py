"""From a `Position` to the engine's tables and back.

The engine knows cards only as bits (bit = group * 12 + strength within the group)
and values only as integers to maximise for the analysed side.  This module builds
that description from the game's `Rules`, runs the engine and turns its answer back
into cards and the objective's values (RULES.md, "Value of a position").
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import RANKS, Card
from .games.base import YES_NO_OBJECTIVES, Rules
from .games.jass import Putz
from .games.klaverjas import FOUR_OF_A_KIND
from .leaf import leaf_weights
from .position import Position

Value = int | bool

POMME_POINTS = Putz.POMME_BELOW  # a seat with this many points is not pomme
GROUP_WIDTH = 12
GROUP_INDEX = {"C": 0, "S": 1, "H": 2, "D": 3, "J": 4}
SETTLE_ADDITIVE, SETTLE_NAT = 0, 1


@dataclass
class Outcome:
    """What a search found, in cards: values per move (None if not solved)."""

    values: dict[Any, Value | None]  # by move: a Card, or a Bésigue move string
    bounds: dict[Any, tuple[int, int]]
    line: list[Card]
    nodes: int
    limit: str | None
    best: Card | None = None
    value: Value | None = None
    best_moves: list[Card] | None = None
    line_scores: list[int] | None = None  # each side's score at the end of `line`
    # a limited search: estimates of the moves it could not solve, from best play over
    # the next `estimate_tricks` tricks (Bésigue: phase-1 tricks, what follows counted
    # as even; the card games: what follows guessed, solver/leaf.py), in
    # `estimate_objective` where not the position's own
    estimates: dict[Any, int | None] | None = None
    estimate_tricks: int | None = None
    estimate_objective: str | None = None
    # a settled score's estimates: the `raw` ones they were settled from, which order
    # the moves the settlement makes equal
    estimate_ranks: dict[Any, int] | None = None
    # the cards merged with an equivalent one at the root, each with the card searched
    # for it: it plays the same (taking the same tricks, worth the same points)
    merged: dict[Any, Any] | None = None


def card_bit(rules: Rules, card: Card) -> int:
    return GROUP_INDEX[rules.group(card)] * GROUP_WIDTH + rules.strength(card)


# the games where these move orders are on (measured: BENCHMARKS.md, the eighth round)
MASTER_DUCK_GAMES = ("putz", "klaberjass")  # Tables.master_duck
SAFE_MASTER_GAMES = ("klaberjass",)  # Tables.safe_master_points

ENGINE_OPTIONS = (  # search levers: 1 on, 0 off (endgame_tricks: a number of tricks)
    "merge_equivalent",  # on
    "prune_dominated",  # on: in a trick whose taking side is certain, only the run's richest or poorest card
    "lead_mobility",  # on: leads that leave the other sides the fewest replies first
    "bound_cuts",  # on
    "claims",  # on: a leader, or its camp, holding only cards nobody else can beat takes every trick left
    "null_window_root",  # on
    "relative_ranks",  # on
    "trick_killers",  # on: inside a trick, the card that last cut off with the same leader, trick, mover and winning card first
    "lead_killers",  # on: among leads leaving as few replies, the lead that last cut off after the same trick first
    "bounds_first",  # on
    "roem_free_levers",  # on
    "endgame_tricks",  # 2
    "cautious_smear",  # on with two sides
    "suit_guess",  # on with two sides
    "nat_ceiling",  # on
    "nat_roem_bound",  # on
    "made_guess",  # on
    "plan_guess",  # on
    "plan_line",  # on: a step objective's line stays in the best value's region
    "made_fold",  # on: Klaverjas, a made guess starts an MTD(f) kept to the made values
    "plan_fold",  # on: a step plan's guess in the exact region starts an MTD(f) kept to it
    "nat_fold",  # on: Klaverjas, a nat guess starts an MTD(f) of the settlement without the made test
    "nat_grid",  # on: Klaverjas, an MTD(f) of the settlement tests only the values it can take
    "roem_last_card",  # on
    "trump_order",  # on in Jass and Putz for three (trumping at any time); off in Putz for five
    "trump_leads",  # on in Jass: trump leads are tried first
    "safe_smear",  # on in Jass and Putz
    "coalition_trump_leads",  # on in Putz
    "coalition_smear",  # on in Putz, Bassadewitz all_tricks: onto a coalition winner after the analysed seat, richest first
    "master_duck",  # on in Putz and Klaberjass: a master Jack or Nine of trumps kept from a cheap trick an opponent is winning
    "coalition_rich_wins",  # on in Putz and Bassadewitz all_tricks: a coalition card that takes the trick, richest first
    "coalition_ruffs_late",  # on in Putz and Bassadewitz all_tricks: a coalition trump over a plain card after its winners
    "safe_master_points",  # on in Klaberjass: a master trump orders as a card without points among rich cards
    "own_trump_leads",  # on with 3+ sides: the analysed seat's trumps first (Putz) or last (Bassadewitz)
    "second_ruffs_late",  # on in Jass: second hand tries a trump on an opponent's plain lead after the cards that do not take it
    "last_keeps_winners",  # on in Jass: the last hand tries the cards that take its partner's trick after those that do not
    "camp_order",  # on with 3 or 4 sides: the analysed seat orders as against one camp; off in Putz for five
    "root_order",  # on with two sides but Jass: root moves best first by how the current trick ends
    "mtdf_window",  # 0 (null windows), or half the width of each MTD(f) test's window (Bassadewitz points: 6)
    "nat_shapes",  # on: Klaverjas nat, bounds between positions of one shape whose totals are ordered
    "shape_table",  # on: positions of the same shape (cards by rank and holder) share bounds, within a margin
    "shape_set",  # entries per shape set, 2 (one cache line) or 4 (two): 4 in Klaverjas, Putz, Bassadewitz all_tricks
    "shape_alone_tricks",  # 5: from this many tricks left, no main-table probe
    "run_margins",  # on where points do not follow ranks (Jass, Putz, Bassadewitz old): margins pair a seat's run by points
)


# the part of a spec that depends on the rules, objective, side and levers alone, kept
# by those, per thread (nothing shared between solving threads): built once, as it
# took half of a small analysis's time outside the search
_local = threading.local()
RULES_SPECS_KEPT = 256


def forget_rules_specs() -> None:
    """Drop this thread's kept rule specs (analysis.release_engines)."""
    _local.__dict__.pop("rules_specs", None)


def build_spec(pos: Position, engine_options: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The engine's description of `pos` (tables, state, objective).

    `engine_options` switch search levers on (1) or off (0), for measuring them."""
    rules = pos.rules
    levers = tuple(sorted((engine_options or {}).items()))
    key = (rules, pos.objective, engine_side(pos), levers)  # rules compare by game, options, trump and contract seat
    kept: dict[tuple[Any, ...], tuple[dict[str, Any], dict[Card, int]]] | None = getattr(_local, "rules_specs", None)
    if kept is None or len(kept) >= RULES_SPECS_KEPT:
        kept = _local.rules_specs = {}
    found = kept.get(key)
    if found is None:
        found = kept[key] = rules_spec(pos, engine_options)
    rules_part, bits = found
    spec = dict(rules_part)
    spec.update(
        hands=[[bits[c] for c in hand] for hand in pos.hands],
        trick=[bits[c] for c in pos.trick],
        leader=pos.leader,
        scores=list(pos.tricks) if pos.objective == "all_tricks" and rules.individual else list(pos.scored),
        tricks=list(pos.tricks),
        tricks_left=pos.tricks_left,
    )
    spec["_bits"] = bits
    return spec


def engine_side(pos: Position) -> int:
    """The side whose value the engine maximises.  With two sides whose values are
    each other's negation, always side 0: the tables' entries then mean the same
    whichever side is to move, so the positions of one deal share them (a played
    deal's positions alternate sides, and a changed spec empties the tables).
    In the paranoid games each seat's search is a game of its own."""
    return pos.side if pos.rules.individual else 0


def rules_spec(pos: Position, engine_options: Mapping[str, int] | None = None) -> tuple[dict[str, Any], dict[Card, int]]:
    """build_spec's part that depends only on the rules, objective, engine's side and
    levers (never changed once built: build_spec copies it), and the cards' bits."""
    rules = pos.rules
    objective = pos.objective
    bits = {card: card_bit(rules, card) for card in rules.deck}
    side = engine_side(pos)
    n_sides = rules.n_sides
    points = {bits[c]: rules.points(c) for c in rules.deck}
    per_trick, last_trick, sweep = rules.per_trick_bonus, rules.last_trick_bonus, rules.sweep_bonus
    weight = [0] * n_sides
    settle = SETTLE_ADDITIVE
    roem = objective != "all_tricks" and rules.has_roem
    if rules.individual:
        weight[side] = -1 if rules.lowest_is_best and objective == "points" else 1
        if objective == "all_tricks":  # count tricks instead of points
            points = dict.fromkeys(points, 0)
            per_trick, last_trick, sweep = 1, 0, 0  # build_spec: scores are tricks
    else:
        weight[side], weight[1 - side] = 1, -1
        if objective == "score" and rules.name == "klaverjas":
            settle = SETTLE_NAT
    trump_group = GROUP_INDEX[rules.trump_group] if rules.trump_group is not None else -1
    buur = [bits[c] for c in rules.deck if c.suit == rules.trump and c.rank == "J"]
    spec: dict[str, Any] = {
        "n_players": rules.n_players,
        "n_sides": n_sides,
        "side_of": [rules.side_of(s) for s in range(rules.n_players)],
        "max_side": side,
        "weight": weight,
        "settle": settle,
        "nat_side": rules.side_of(rules.contract_seat) if settle == SETTLE_NAT and rules.contract_seat is not None else 0,
        "nat_on_tie": int(bool(rules.options.get("nat_on_tie", False))),
        "rule": rules.play_rule,
        "trump_group": trump_group,
        "buur_exception": int(bool(rules.buur_exception)),
        "buur_bit": buur[0] if buur else -1,
        "group_of": {bit: bit // GROUP_WIDTH for bit in bits.values()},
        "points": points,
        "per_trick_bonus": per_trick,
        "last_trick_bonus": last_trick,
        "sweep_bonus": sweep,
        "total_tricks": rules.hand_size,
        "roem": int(roem),
        "leaf_weights": leaf_weights(rules) or (),  # an estimate's leaf (solver/leaf.py)
    }
    if roem:
        position_of = rules.sequence_position
        spec["roem_cards"] = {bits[c]: ("CSHD".index(c.suit), position_of(c), RANKS.index(c.rank)) for c in rules.deck}
        spec["four_of_a_kind"] = {RANKS.index(r): v for r, v in FOUR_OF_A_KIND.items()}
        trump_kq = [bits[c] for c in rules.deck if c.suit == rules.trump and c.rank in "KQ"]
        spec["stuk_mask"] = sum(1 << b for b in trump_kq) if len(trump_kq) == 2 else 0
    spec["zero_segments"] = zero_segments(rules, bits, points)
    spec.update(step_plan(pos))
    spec["master_duck"] = int(rules.name in MASTER_DUCK_GAMES)
    spec["safe_master_points"] = int(rules.name in SAFE_MASTER_GAMES)
    for name, value in (engine_options or {}).items():
        if name not in ENGINE_OPTIONS:
            raise ValueError(f"engine_options: unknown lever {name!r} (known: {', '.join(ENGINE_OPTIONS)})")
        spec[name] = int(value)
    # everything above decides what a table entry means; a change empties the table
    spec["signature"] = repr(sorted(spec.items()))
    return spec, bits


def step_plan(pos: Position) -> dict[str, int]:
    """For objectives that are step functions of the engine's value, the steps at
    which a root move needs only a null-window test (see Tables.plan)."""
    rules, objective = pos.rules, pos.objective
    if objective == "pomme":
        return {"plan": 1, "plan_low": POMME_POINTS, "plan_high": POMME_POINTS, "plan_exact": 0}
    if objective == "all_tricks":
        return {"plan": 1, "plan_low": rules.hand_size, "plan_high": rules.hand_size, "plan_exact": 0}
    if objective == "score" and rules.name == "klaberjass" and rules.contract_seat is not None:
        # the raw difference d for the engine's side: the taker needs it exactly only
        # when above 0 (made), the opponent only when below 0 (the taker made it);
        # either side's objective needs d exactly where the taker made it
        taker = rules.side_of(rules.contract_seat) == engine_side(pos)
        return {"plan": 1, "plan_low": 0, "plan_high": 1, "plan_exact": 2 if taker else 1}
    return {"plan": 0}


def zero_segments(rules: Rules, bits: dict[Card, int], points: dict[int, int]) -> list[int]:
    """Masks of the runs of zero-point cards, adjacent in strength, in each group."""
    segments = []
    for group in {rules.group(c) for c in rules.deck}:
        run = 0
        for bit in sorted(bits[c] for c in rules.deck if rules.group(c) == group):
            if points[bit] == 0:
                run |= 1 << bit
            elif run:
                segments.append(run)
                run = 0
        if run:
            segments.append(run)
    return [m for m in sorted(segments) if bin(m).count("1") > 1]


def solve(
    pos: Position,
    engine: Any,
    time_limit: float | None = None,
    node_limit: int | None = None,
    all_moves: bool = True,
    engine_options: Mapping[str, int] | None = None,
    exact_moves: Iterable[Card] | None = None,
    first_move: Card | None = None,
) -> Outcome:
    """Run the engine on `pos` and return the objective's values per move.

    With `exact_moves`, only the best moves and those are valued: every other move
    is shown worse than the best (no value, a bound), and the line is kept.
    `first_move` (a legal card) is searched first."""
    spec = build_spec(pos, engine_options)
    bits = spec.pop("_bits")
    card_of = {b: c for c, b in bits.items()}
    want_line = all_moves
    mask = 0
    if exact_moves is not None:
        all_moves, want_line = False, True
        for card in exact_moves:
            mask |= 1 << bits[card]
    first = bits[first_move] if first_move is not None else -1
    raw = engine.solve(spec, time_limit or 0.0, node_limit or 0, all_moves, want_line, 0, mask, first)
    convert = _converter(pos)
    values: dict[Card, Value | None] = {}
    bounds: dict[Card, tuple[int, int]] = {}
    unsolved = [card_of[bit] for bit, v in raw["values"].items() if v is None]
    if unsolved:  # bounds for the moves a limit left (rare: not worth their time otherwise)
        bounds = dict.fromkeys(unsolved, static_bounds(pos))
    rising = _converter_rises(pos)
    engine_maximises = engine_side(pos) == pos.side
    for bit, bound in raw["worse"].items():
        # at most one step worse than another move's value, for the side to move: an
        # upper bound on the engine's value where it maximises for that side, else a
        # lower one; `convert` keeps the order where it rises, else reverses it
        lo, hi = bounds[card_of[bit]]
        worst = convert(bound)
        upper = engine_maximises == rising
        bounds[card_of[bit]] = (lo, min(hi, worst)) if upper else (max(lo, worst), hi)
    for bit, (low, high) in raw["stopped"].items():
        # the move a limit stopped in: what its finished tests proved of the engine's value
        lo, hi = bounds[card_of[bit]]
        if low is not None:
            lo, hi = (max(lo, convert(low)), hi) if rising else (lo, min(hi, convert(low)))
        if high is not None:
            lo, hi = (lo, min(hi, convert(high))) if rising else (max(lo, convert(high)), hi)
        bounds[card_of[bit]] = (lo, hi)
    for bit, v in raw["values"].items():
        values[card_of[bit]] = convert(v) if v is not None else None
    best = card_of[raw["best"]] if raw["best"] is not None else None
    value = convert(raw["value"]) if raw["value"] is not None else None
    best_moves = [card_of[b] for b in raw["best_moves"]]
    line = [card_of[b] for b in raw["line"]]
    # the engine counts tricks, not points, for all_tricks
    line_scores = raw["line_scores"] if pos.objective != "all_tricks" else None
    merged = {card_of[bit]: card_of[stand] for bit, stand in raw["merged"].items()}
    return Outcome(values, bounds, line, raw["nodes"], raw["limit"], best, value, best_moves, line_scores, merged=merged)


def estimate(pos: Position, engine: Any, horizon: int, time_limit: float | None = None) -> dict[Card, Value | None] | None:
    """Each move's estimate: best play over the next `horizon` tricks (the current one
    included), the points after them guessed (two sides: `leaf.rest_guess`) or
    shared out evenly among the seats (the paranoid games); None for a
    move the time limit left, and None in all when the objective's values do not add
    up (Klaverjas nat, step objectives).  Not a bound: a guide when nothing is solved."""
    return estimate_search(pos, engine, horizon, time_limit)[0]


def estimate_search(
    pos: Position, engine: Any, horizon: int, time_limit: float | None = None
) -> tuple[dict[Card, Value | None] | None, int]:
    """`estimate`, and the nodes it searched."""
    spec = build_spec(pos)
    if spec["settle"] != SETTLE_ADDITIVE or spec["plan"]:
        return None, 0
    card_of = {b: c for c, b in spec.pop("_bits").items()}
    raw = engine.solve(spec, time_limit or 0.0, 0, True, False, horizon)
    convert = _converter(pos)
    return {card_of[b]: (convert(v) if v is not None else None) for b, v in raw["values"].items()}, raw["nodes"]


def _converter(pos: Position) -> Any:
    """From the engine's number to the objective's value for the analysed side."""
    convert = _side_converter(pos)
    if engine_side(pos) != pos.side:  # the engine's value is the other side's difference
        return lambda v: convert(-v)
    return convert


def _converter_rises(pos: Position) -> bool:
    """Whether `_converter(pos)` never falls as the engine's number rises (else it
    never rises: every objective's value is a monotone function of it)."""
    falls = pos.rules.individual and pos.objective == "points" and pos.rules.lowest_is_best
    return (engine_side(pos) == pos.side) != falls


def _side_converter(pos: Position) -> Any:
    """From the analysed side's number (the engine's, when it maximises for that
    side) to the objective's value."""
    rules, objective = pos.rules, pos.objective
    if rules.individual:
        if objective == "points":
            return (lambda v: -v) if rules.lowest_is_best else (lambda v: v)
        if objective == "all_tricks":
            return lambda v: v == rules.hand_size
        if objective == "pomme":
            return lambda v: v >= POMME_POINTS
    if objective == "score" and rules.name == "klaberjass":
        return lambda diff: settled_difference(pos, diff)
    return lambda v: v


def settled_difference(pos: Position, diff: int, total: int | None = None) -> int:
    """The analysed side's `score` when its final total is `diff` more than the other
    side's (`raw`), the two adding up to `total` (by default the points scored and
    still to come: exact where no roem is to come, so in Klaberjass, whose score is a
    function of that difference)."""
    side = pos.side
    if total is None:
        total = sum(pos.scored) + pos.points_to_come
    totals = [0, 0]
    totals[side] = (total + diff) // 2
    totals[1 - side] = (total - diff) // 2
    finals = pos.rules.settle(totals, "score")
    return finals[side] - finals[1 - side]


def settled_guess(pos: Position, diff: int) -> int:
    """`settled_difference` for an estimate made in `raw`: the totals add up to the
    points scored and still to come, or in Klaverjas to `diff` if more (roem still to
    come); a guess no split of them gives (of the other parity) goes one point further
    from even, so that a nat's estimate is that total and a made one keeps its sign."""
    total = sum(pos.scored) + pos.points_to_come
    if pos.rules.has_roem:
        total = max(total, abs(diff))
    if (total + diff) % 2:
        if diff:
            diff += 1 if diff > 0 else -1
        else:
            total += 1
    return settled_difference(pos, diff, total)


def static_bounds(pos: Position) -> tuple[int, int]:
    """Bounds on any move's value that need no search (for moves a limit left unsolved)."""
    rules = pos.rules
    if pos.objective in YES_NO_OBJECTIVES:
        return (0, 1)
    reach = pos.points_to_come + (most_roem_to_come(pos) if rules.has_roem else 0)
    holder, sure = sure_points(pos)
    if rules.individual:
        # a seat's own points: at least those of the highest trumps it holds, and none
        # of those another seat holds
        own = pos.scored[pos.side]
        if holder == pos.side:
            return (own + sure, own + reach + rules.sweep_bonus)
        return (own, own + reach + rules.sweep_bonus - sure)
    side = pos.side
    bonus = [rules.sweep_bonus if can_sweep(pos, s) else 0 for s in (0, 1)]
    # the final totals' difference: the points so far, and at most `reach` more (and
    # the sweep bonus, where that side can still take every trick) to each side, less
    # what the other is sure to take
    lead = pos.scored[side] - pos.scored[1 - side]
    lower, upper = lead - reach - bonus[1 - side], lead + reach + bonus[side]
    lower, upper = (lower + 2 * sure, upper) if holder == side else (lower, upper - 2 * sure)
    if pos.objective == "raw" or type(rules).settle is Rules.settle:
        return lower, upper  # the totals are the final scores
    if not rules.has_roem:
        # Klaberjass: the score is a function of that difference (settled_difference),
        # the difference itself where the taker is ahead (or behind), a constant where
        # the other way: its extremes lie at the ends and where the taker's lead turns
        turns = [d for d in (-2, -1, 0, 1, 2) if lower <= d <= upper]
        scores = [settled_difference(pos, d) for d in (lower, upper, *turns)]
        return min(scores), max(scores)
    return nat_bounds(pos, lower, upper, sum(pos.scored) + reach + max(bonus))


def nat_bounds(pos: Position, lower: int, upper: int, most_total: int) -> tuple[int, int]:
    """Klaverjas's score bounds from those of the totals' difference (`lower`,
    `upper`, for the analysed side): where the contract is made, that difference;
    where it is nat, the defenders score both totals, the points scored and still to
    come at least (no more roem) and `most_total` at most."""
    rules = pos.rules
    assert rules.contract_seat is not None
    declares = rules.side_of(rules.contract_seat) == pos.side
    tie_nat = rules.options["nat_on_tie"]
    least_total = sum(pos.scored) + pos.points_to_come
    # the declaring side's lead runs over [lower, upper], or over [-upper, -lower]
    lead_low, lead_high = (lower, upper) if declares else (-upper, -lower)
    can_make = lead_high > 0 or (lead_high == 0 and not tie_nat)
    can_fail = lead_low < 0 or (lead_low == 0 and tie_nat)
    lows, highs = [], []
    if can_make:  # each keeps its own total: the difference
        lows.append(lower)
        highs.append(upper)
    if can_fail:  # the defenders score both totals
        lows.append(-most_total if declares else least_total)
        highs.append(-least_total if declares else most_total)
    return min(lows), max(highs)


def most_roem_to_come(pos: Position) -> int:
    """A bound on the roem the tricks still to play can bring (Klaverjas): a trick
    scores one four of a kind (of a rank whose four cards are all still in play, one
    in each seat's hand or played by it to the trick; each rank once), or else a run
    of four (50) at most; the stuk (the trump king and queen in play, in two seats) once."""
    held = cards_in_play(pos)
    kinds = []
    for rank, value in FOUR_OF_A_KIND.items():
        owners = [seat for card, seat in held if card.rank == rank]
        if len(owners) == 4 and len(set(owners)) == 4:  # each seat plays one card a trick
            kinds.append(value)
    kinds = sorted(kinds, reverse=True)[: pos.tricks_left]
    trump = pos.rules.trump
    stuk_owners = [seat for card, seat in held if card.suit == trump and card.rank in "KQ"]
    stuk = 20 if len(stuk_owners) == 2 and stuk_owners[0] != stuk_owners[1] else 0
    return sum(kinds) + 50 * (pos.tricks_left - len(kinds)) + stuk


def cards_in_play(pos: Position) -> list[tuple[Card, int]]:
    """Each card still in play and its seat: in the seat's hand, or put on the trick by it."""
    seats = pos.rules.n_players
    held = [(card, seat) for seat, hand in enumerate(pos.hands) for card in hand]
    return held + [(card, (pos.leader + i) % seats) for i, card in enumerate(pos.trick)]


def sure_points(pos: Position) -> tuple[int | None, int]:
    """The side (a seat, where each plays for itself) holding the highest trump in
    play, and the card points of the trumps from the top that it holds (or has put on
    the trick) before another side's first: each wins the trick it falls in (a higher
    trump there is that side's too), so that side takes them whatever the play.
    (None, 0) without trumps."""
    rules = pos.rules
    if rules.trump_group is None:
        return None, 0
    trumps = sorted(((rules.strength(card), card, seat) for card, seat in cards_in_play(pos) if rules.is_trump(card)),
                    reverse=True)
    if not trumps:
        return None, 0
    holder = rules.side_of(trumps[0][2])
    sure = 0
    for _, card, seat in trumps:
        if rules.side_of(seat) != holder:
            break
        sure += rules.points(card)
    return holder, sure


def can_sweep(pos: Position, side: int) -> bool:
    """Whether `side` may still take every trick: the other has taken none, and does not
    hold (or has not put on the trick) the highest trump left, which wins its trick."""
    if pos.tricks[1 - side]:
        return False
    holder, _ = sure_points(pos)
    return holder is None or holder == side
