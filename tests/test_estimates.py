"""Estimates: best play over the next few tricks, for a hint or an analysis whose time ran out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from solver import Card, Engine, OptionError, Position, analyse, hint
from solver.analysis import estimate_unsolved
from solver.compile import estimate, settled_guess
from solver.reference import reference_values

from .randompos import random_positions
from .test_engine import full_deal


@pytest.mark.parametrize("game", ["belote", "jass", "klaberjass"])
@pytest.mark.parametrize("horizon", [1, 2])
def test_estimates_are_the_reference_search_cut_at_the_horizon(game: str, horizon: int) -> None:
    engine = Engine(1)
    checked = 0
    for position in random_positions(game, 6, seed=5, max_tricks=4):
        if position.objective not in ("score", "raw") or position.rules.name == "klaberjass" and position.objective == "score":
            continue
        expected = {str(c): v for c, v in reference_values(position, horizon=horizon).items()}
        got = estimate(position, engine, horizon)
        assert got is not None
        assert {str(c): v for c, v in got.items()} == expected, position.to_dict()
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("game", ["belote", "jass", "putz", "bassadewitz"])
def test_an_estimate_to_the_end_is_the_value(game: str) -> None:
    engine = Engine(1)
    checked = 0
    for position in random_positions(game, 3, seed=6, max_tricks=3):
        if position.objective not in ("score", "raw", "points"):
            continue
        exact = {m.move: m.value for m in analyse(position).moves}
        got = estimate(position, engine, position.tricks_left)
        assert got is not None
        assert {str(c): v for c, v in got.items()} == exact
        checked += 1
    assert checked >= 3


def test_estimates_leave_no_trace_in_the_table() -> None:
    position = full_deal("belote", 4, trump="S")
    engine = Engine(8)
    fresh = analyse(position, engine=Engine(8)).to_dict()["moves"]
    analyse(position, engine=engine)
    estimate(position, engine, 2)  # on the same engine, between two analyses
    assert analyse(position, engine=engine).to_dict()["moves"] == fresh


def test_an_engine_searches_alike_after_an_estimate() -> None:
    """An estimate switches levers off in the engine's tables; the next search with
    the same rules must get them back (the engine keeps a copy of the tables it
    built for those rules): the same nodes as on a new engine."""
    position = full_deal("belote", 4, trump="S")
    engine = Engine(8)
    analyse(position, engine=engine)
    estimate(position, engine, 2)
    engine.clear()
    again = analyse(position, engine=engine)
    fresh = analyse(position, engine=Engine(8))
    assert again.nodes == fresh.nodes
    assert again.to_dict()["moves"] == fresh.to_dict()["moves"]


def test_no_estimates_where_values_do_not_add_up() -> None:
    nat = full_deal("klaverjas", 2, trump="H", declarer=1)  # objective score: nat
    assert estimate(nat, Engine(1), 2) is None


def test_a_hint_out_of_time_still_suggests_a_move() -> None:
    """A complete Jass deal no search solves in 50 ms: the hint names the move the
    estimates prefer, with its estimate and no value."""
    position = Position.from_dict(
        {
            "game": "jass",
            "trump": "S",
            "hands": [
                "CK C8 SA SK SQ HA DA DK D6",
                "CQ CJ C9 C7 S9 HJ HT H8 D8",
                "CT C6 S7 S6 HQ H9 H7 DT D7",
                "CA SJ ST S8 HK H6 DQ DJ D9",
            ],
        }
    )
    found = hint(position, time_limit=0.05)
    assert not found.exact and found.value is None
    assert len(found.best) == 1 and found.best[0] in {str(c) for c in position.legal_moves()}
    assert found.estimate is not None
    assert found.time_ms < 1000
    # the move is the first best by the estimates over the horizon the hint reports
    # (the deepest the time allowed, three tricks at most; each horizon's estimates are
    # checked against the reference above), and the estimate shown is its own
    assert found.estimate_tricks is not None and 1 <= found.estimate_tricks <= 3
    values = estimate(position, Engine(1), found.estimate_tricks)
    assert values is not None
    top = max(v for v in values.values() if v is not None)
    assert (found.best, found.estimate) == ((str(min(c for c, v in values.items() if v == top)),), top), found


# objectives whose values do not add up, the additive measure whose estimates choose a
# hint's move when nothing is solved (solver.analysis.GUIDE_OBJECTIVES), and the
# estimates shown: a settled score's best raw estimate and that settled (hand-checked
# below), else None: the guide's
GUIDED = [
    # side 0 defends; its best estimate, 99 behind (an odd guess: 100), lets the
    # declarer make: each keeps its own
    ("klaverjas", {"trump": "H", "declarer": 1, "options": {"rules": "amsterdam"}}, "score", "raw", (-99, -100)),
    # side 0 declares; 6 behind at best, it is nat: the defenders score all 162
    ("klaverjas", {"trump": "S", "declarer": 0, "options": {"rules": "rotterdam"}}, "score", "raw", (-6, -162)),
    # side 0 defends; 100 behind: the taker makes, each scores his own
    ("klaberjass", {"trump": "D", "taker": 1, "options": {"players": 4}}, "score", "raw", (-100, -100)),
    ("putz", {"trump": "C"}, "pomme", "points", None),
    ("bassadewitz", {}, "all_tricks", "points", None),
]


@pytest.mark.parametrize("game, fields, objective, guide, settled", GUIDED, ids=[g[0] + "-" + g[2] for g in GUIDED])
def test_a_hint_that_solves_nothing_names_the_best_move_by_a_guides_estimates(
    game: str, fields: dict, objective: str, guide: str, settled: tuple[int, int] | None
) -> None:
    """Such a hint gave `best: []`: the nat, bate and yes/no objectives have no
    estimates.  Under a node limit the estimates look a trick ahead: the move named is
    the first, in canonical order, of those the guide's estimates rank highest (for
    `all_tricks` the most points, though Bassadewitz's `points` wants the fewest).  A
    settled `score`'s estimate is that `raw` estimate settled, in the hint's own
    measure; `pomme`'s and `all_tricks`' stay in points."""
    position = full_deal(game, 1, **fields).with_objective(objective)
    found = hint(position, node_limit=1, engine=Engine(8))
    assert not found.exact and found.value is None and found.limit == "nodes"
    guided = estimate(position.with_objective(guide), Engine(1), 1)
    assert guided is not None and len(set(guided.values())) > 1  # the choice means something
    top = max(v for v in guided.values() if v is not None)
    assert found.best == (str(min(c for c, v in guided.items() if v == top)),)
    if settled is None:
        assert found.estimate_objective == guide and found.to_dict()["estimate_objective"] == guide
        assert found.estimate == top
    else:
        assert found.estimate_objective is None and "estimate_objective" not in found.to_dict()
        assert (position.side, position.scored, position.points_to_come) == (0, (0, 0), 162)
        assert (top, found.estimate) == settled
        assert found.lower is not None and found.upper is not None and found.lower <= found.estimate <= found.upper
    assert found.nodes > 1  # the estimates' nodes are counted
    assert found.estimate_tricks == 1 and found.to_dict()["estimate_tricks"] == 1  # a trick ahead: a node limit


@pytest.mark.parametrize("game, fields, diff, expected", [
    # Klaverjas, seat 0 (side 0) to move, 162 card points to come, no score yet
    ("klaverjas", {"declarer": 1}, -20, -20),  # the declarer 20 ahead: made, each keeps its own
    ("klaverjas", {"declarer": 1}, 20, 162),  # the declarer 20 behind: nat, side 0 scores both totals
    ("klaverjas", {"declarer": 1}, 0, 0),  # equal: made ("autant ou plus")
    ("klaverjas", {"declarer": 1, "options": {"nat_on_tie": True}}, 0, 162),  # equal, nat_on_tie: nat
    ("klaverjas", {"declarer": 1}, 7, 162),  # an odd guess: 8, one point further from even: nat
    ("klaverjas", {"declarer": 1}, -7, -8),  # -8: the declarer 8 ahead, made
    ("klaverjas", {"declarer": 1}, 300, 300),  # more than the card points (roem): 300 to 0, nat
    ("klaverjas", {"declarer": 0}, -20, -162),  # side 0 declares, 20 behind: nat
    ("klaverjas", {"declarer": 0}, 20, 20),
    # Klaberjass with four players, side 0 against the taker
    ("klaberjass", {"taker": 1, "options": {"players": 4}}, -20, -20),  # the taker ahead: made
    ("klaberjass", {"taker": 1, "options": {"players": 4}}, 20, 162),  # bate: both totals
    ("klaberjass", {"taker": 1, "options": {"players": 4}}, 0, 81),  # half bate, own: 81 to 0
    ("klaberjass", {"taker": 1, "options": {"players": 4, "half_bate": "seed"}}, 0, 40),  # half of 81
    # scored -50 and 60 (Klaberjass's totals may go below zero): 172 in all; 200 ahead
    # is 186 to -14, bate: side 0 scores both totals, 172 (no roem: not 200)
    ("klaberjass", {"taker": 1, "options": {"players": 4}, "scored": [-50, 60]}, 200, 172),
])
def test_a_raw_difference_settled_by_hand(game: str, fields: dict, diff: int, expected: int) -> None:
    """`settled_guess`: how a `raw` estimate becomes a settled `score` one."""
    position = full_deal(game, 1, trump="H", **fields).with_objective("score")
    assert (position.side, position.points_to_come) == (0, 162)
    assert settled_guess(position, diff) == expected


def test_a_node_limited_hint_names_a_move_by_the_estimates_a_trick_ahead() -> None:
    position = full_deal("jass", 2, trump="S")
    found = hint(position, node_limit=1, engine=Engine(8))
    assert not found.exact and found.value is None and found.limit == "nodes"
    assert found.estimate_objective is None and "estimate_objective" not in found.to_dict()
    ahead = estimate(position, Engine(1), 1)
    assert ahead is not None
    top = max(v for v in ahead.values() if v is not None)
    assert (found.best, found.estimate, found.estimate_tricks) == ((str(min(c for c, v in ahead.items() if v == top)),), top, 1)


def test_no_move_without_estimates_or_once_cancelled() -> None:
    position = full_deal("klaverjas", 1, trump="H", declarer=1)
    assert hint(position, node_limit=1, engine=Engine(8), estimates=False).best == ()
    engine = Engine(8)
    engine.cancel(before_start=True)
    cancelled = hint(position, time_limit=1.0, engine=engine)
    assert (cancelled.best, cancelled.limit, cancelled.estimate) == ((), "cancelled", None)


# --- a limited analysis: each unsolved move's estimate -------------------------------


def unsolved(result: Any) -> list[Any]:
    return [m for m in result.moves if m.value is None]


def test_a_node_limited_analysis_estimates_the_moves_it_left_a_trick_ahead() -> None:
    position = full_deal("jass", 2, trump="S")
    result = analyse(position, node_limit=1, engine=Engine(8))
    assert not result.exact and result.limit == "nodes" and result.estimate_tricks == 1
    assert result.estimate_objective is None and "estimate_objective" not in result.to_dict()
    ahead = estimate(position, Engine(1), 1)
    assert ahead is not None
    left = unsolved(result)
    assert left and len({m.estimate for m in left}) > 1
    for move in left:
        assert move.lower is not None and move.upper is not None
        # the estimate a trick ahead, within the move's bounds
        assert move.estimate == max(move.lower, min(move.upper, ahead[Card.parse(move.move)]))
        assert move.to_dict()["estimate"] == move.estimate
    # best estimate first, ties in canonical order
    keys = [(-m.estimate, Card.parse(m.move)) for m in left]
    assert keys == sorted(keys)
    assert result.nodes > 1  # the estimates' nodes are counted


def test_a_time_limited_analysis_keeps_time_for_its_estimates() -> None:
    position = full_deal("jass", 4, trump="H")  # more than 3 million nodes: not valued in 50 ms
    result = analyse(position, time_limit=0.05, engine=Engine(8))
    assert not result.exact and result.limit == "time"
    assert result.estimate_tricks is not None and 1 <= result.estimate_tricks <= 3
    assert result.time_ms < 1000
    deeper = estimate(position, Engine(1), result.estimate_tricks)
    assert deeper is not None
    for move in unsolved(result):
        assert move.lower is not None and move.upper is not None
        assert move.estimate == max(move.lower, min(move.upper, deeper[Card.parse(move.move)]))


@pytest.mark.parametrize("game, fields, objective, guide, settled", GUIDED, ids=[g[0] + "-" + g[2] for g in GUIDED])
def test_a_limited_analysis_estimates_in_a_guides_values(
    game: str, fields: dict, objective: str, guide: str, settled: tuple[int, int] | None
) -> None:
    """A settled `score`'s estimates are the `raw` ones settled (within the moves'
    bounds, in the same measure); `pomme`'s and `all_tricks`' stay in points."""
    position = full_deal(game, 1, **fields).with_objective(objective)
    result = analyse(position, node_limit=1, engine=Engine(8))
    guided = estimate(position.with_objective(guide), Engine(1), 1)
    assert guided is not None
    left = unsolved(result)
    assert left
    if settled is None:
        assert result.estimate_objective == guide and result.to_dict()["estimate_objective"] == guide
        for move in left:  # not kept within the bounds: those are in the objective's values
            assert move.estimate == guided[Card.parse(move.move)]
        return
    assert result.estimate_objective is None and "estimate_objective" not in result.to_dict()
    for move in left:
        assert move.lower is not None and move.upper is not None
        guessed = settled_guess(position, int(guided[Card.parse(move.move)]))
        assert move.estimate == max(move.lower, min(move.upper, guessed)), move
    assert len({m.estimate for m in left}) > 1 or settled == (-6, -162)  # all nat there
    # listed by the settled estimates, then among equals (every nat alike) by the raw
    # ones they came from, then in canonical order
    order = {m.move: (-int(m.estimate), -int(guided[Card.parse(m.move)]), Card.parse(m.move)) for m in left}
    assert [m.move for m in left] == sorted(order, key=order.__getitem__)
    if settled == (-6, -162):
        assert [m.move for m in left] != sorted(order, key=lambda move: order[move][::2])  # the raw ones decided


@pytest.mark.parametrize("game, fields, objective", [
    ("jass", {"trump": "S"}, "score"),
    ("klaverjas", {"trump": "H", "declarer": 1}, "score"),  # raw's estimates, settled
    ("putz", {"trump": "C"}, "points"),  # lowest is best, the even share
])
def test_estimates_added_to_a_result_are_those_analyse_gives(game: str, fields: dict, objective: str) -> None:
    position = full_deal(game, 2, **fields).with_objective(objective)
    plain = analyse(position, node_limit=1, engine=Engine(8), estimates=False)
    assert plain.estimate_tricks is None and unsolved(plain)
    added = estimate_unsolved(position, plain)
    assert added == analyse(position, node_limit=1, engine=Engine(8))  # moves, order, bounds, estimates
    assert added.estimate_tricks == 1 and all(m.estimate is not None for m in unsolved(added))
    assert added.nodes > plain.nodes and added.time_ms > plain.time_ms
    # deeper within a time limit, never past FAVOURITE_TRICKS
    deeper = estimate_unsolved(position, plain, time_limit=5.0)
    assert deeper.estimate_tricks == 3
    guide = position.with_objective("raw") if game == "klaverjas" else position
    ahead = estimate(guide, Engine(1), 3)
    assert ahead is not None
    for move in unsolved(deeper):
        guess = int(ahead[Card.parse(move.move)])
        if guide is not position:
            guess = settled_guess(position, guess)
        assert move.lower is not None and move.upper is not None
        assert move.estimate == max(move.lower, min(move.upper, guess))


def test_estimates_need_the_analysis_of_that_position() -> None:
    position = full_deal("jass", 2, trump="S")
    plain = analyse(position, node_limit=1, engine=Engine(8), estimates=False)
    late = next(iter(random_positions("belote", 1, seed=3, max_tricks=2)))
    exact = analyse(late)
    # nothing left unsolved: the result as it was, nothing searched
    same = estimate_unsolved(late, exact)
    assert same == exact and same.nodes == exact.nodes and same.estimate_tricks is None
    # where analyse makes none: exact with exact_moves (the others not wanted), a forced move
    chosen = analyse(position, exact_moves=[position.legal_moves()[0]], engine=Engine(64))
    assert chosen.exact and any(m.value is None for m in chosen.moves)
    assert estimate_unsolved(position, chosen) is chosen
    forced = next(p for p in random_positions("jass", 400, seed=5, max_tricks=4) if len(p.legal_moves()) == 1)
    alone = analyse(forced, node_limit=1, estimates=False)
    assert estimate_unsolved(forced, alone) is alone and alone == analyse(forced, node_limit=1)
    with pytest.raises(OptionError, match="result.*legal moves"):
        estimate_unsolved(position, replace(plain, moves=plain.moves[1:]))
    renamed = replace(plain, moves=(replace(plain.moves[0], move="??"), *plain.moves[1:]))
    with pytest.raises(OptionError, match="result.*legal moves"):
        estimate_unsolved(position, renamed)
    with pytest.raises(OptionError, match="result.*objective 'score'.*'raw'"):
        estimate_unsolved(position.with_objective("raw"), plain)
    with pytest.raises(OptionError, match="result.*solver.Result"):
        estimate_unsolved(position, plain.to_dict())  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="time_limit"):
        estimate_unsolved(position, plain, time_limit=-1)


@pytest.mark.parametrize("game, fields, objective, guide, settled", GUIDED, ids=[g[0] + "-" + g[2] for g in GUIDED])
def test_no_estimates_for_chosen_moves_where_every_move_is_valued(
    game: str, fields: dict, objective: str, guide: str, settled: tuple[int, int] | None
) -> None:
    """Where every move is valued all the same (`has_transform`), `exact_moves` named
    no focus, and the estimates came as without it (a helper's audit): a play
    analysis, trump table or puzzle check under a time limit lost a tenth of it."""
    position = full_deal(game, 1, **fields).with_objective(objective)
    chosen = analyse(position, node_limit=1, engine=Engine(8), exact_moves=[position.legal_moves()[0]])
    assert not chosen.exact and chosen.estimate_tricks is None and chosen.estimate_objective is None
    assert all(m.estimate is None for m in chosen.moves)


def test_no_estimates_when_not_asked_for_exact_or_for_chosen_moves() -> None:
    position = full_deal("jass", 2, trump="S")
    plain = analyse(position, node_limit=1, engine=Engine(8), estimates=False)
    assert plain.estimate_tricks is None and all(m.estimate is None for m in plain.moves)
    assert all("estimate" not in m.to_dict() for m in plain.moves)
    chosen = analyse(position, node_limit=1, engine=Engine(8), exact_moves=[position.legal_moves()[0]])
    assert chosen.estimate_tricks is None and all(m.estimate is None for m in chosen.moves)
    late = next(iter(random_positions("belote", 1, seed=3, max_tricks=2)))
    exact = analyse(late, time_limit=5.0)
    assert exact.exact and exact.estimate_tricks is None
    with pytest.raises(OptionError, match="estimates"):
        analyse(late, estimates="no")  # type: ignore[arg-type]


def test_a_besigue_result_keeps_the_estimates_its_search_made() -> None:
    import random

    from .besigue_random import random_position

    deep = random_position(random.Random(3), 30)
    made = analyse(deep, node_limit=2000)
    assert not made.exact and made.estimate_tricks is not None
    assert estimate_unsolved(deep, made) is made
    bare = analyse(deep, node_limit=2000, estimates=False)
    assert bare.estimate_tricks is None and estimate_unsolved(deep, bare) is bare  # only its search makes them


def test_added_estimates_are_kept_within_the_results_bounds() -> None:
    """Within each move's bounds where in the objective's own values (a result whose
    bounds were narrowed: an analysis's all-moves search leaves the static ones)."""
    position = full_deal("jass", 2, trump="S")
    plain = analyse(position, node_limit=1, engine=Engine(8), estimates=False)
    free = {m.move: m.estimate for m in estimate_unsolved(position, plain).moves}
    assert free["CQ"] == -83
    narrowed = replace(plain, moves=tuple(replace(m, upper=-100) if m.move == "CQ" else m for m in plain.moves))
    assert {m.move: m.estimate for m in estimate_unsolved(position, narrowed).moves}["CQ"] == -100


def test_estimates_for_a_choice_of_two() -> None:
    position = Position.from_dict({
        "game": "jass", "trump": "obenabe", "trick": ["C7"], "leader": 1, "scored": [37, 36], "tricks": [1, 0],
        "hands": ["CJ C9 C8 HQ H9 H8 H7 DT", "CA CQ SA HK HJ DJ D8", "CK C6 SK ST S6 HT H6 DA",
                  "CT SQ SJ HA DK DQ D9 D6"],
    })  # fmt: skip
    assert len(position.legal_moves()) == 2
    plain = analyse(position, node_limit=1, engine=Engine(8), estimates=False)
    added = estimate_unsolved(position, plain)
    assert [(m.move, m.estimate) for m in added.moves] == [("CK", -22), ("C6", -30)] and added.estimate_tricks == 1
    assert added == analyse(position, node_limit=1, engine=Engine(8))


def test_estimates_added_afterwards_keep_a_move_shown_better_first() -> None:
    """The limit stopped the search in H8 (exact -47) once its tests had shown it at
    least -49, better than SQ and S7 (solved, -53): `estimate_unsolved` gives the
    unsolved moves their estimates (H8's kept within its bounds, at -49) and leaves H8
    first and best, the solved moves next, the others best estimate first."""
    position = Position.from_dict({
        "game": "belote", "trump": "D", "objective": "raw", "scored": [79, 81], "tricks": [0, 2],
        "hands": ["SQ S7 HT H8 DA DK", "CQ CT C9 S8 HQ D9", "CK C8 SJ ST S9 H9", "CJ HA HJ H7 D8 D7"],
    })  # fmt: skip
    bare = analyse(position, node_limit=50, engine=Engine(8), estimates=False)
    assert (bare.best, bare.value) == (("H8",), -49)
    added = estimate_unsolved(position, bare)
    assert (added.best, added.value) == (("H8",), -49)
    assert [(m.move, m.value, m.lower) for m in added.moves[:3]] == [("H8", None, -49), ("SQ", -53, None), ("S7", -53, None)]
    assert added.moves[0].estimate == -49  # its estimate lies below -49: kept within the bounds
    rest = [m.estimate for m in added.moves[3:]]
    assert None not in rest and rest == sorted(rest, reverse=True)
    assert {m.move for m in added.moves} == {m.move for m in bare.moves}
