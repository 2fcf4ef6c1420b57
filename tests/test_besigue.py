"""Bésigue analysis: the fast search against the slow reference, limits, threads, features."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from solver import analyse, analyse_play, hint, load_position, trump_table, verify_puzzle
from solver._besigue import BesigueEngine
from solver.besigue import BesiguePosition, reference_values
from solver.besigue_solve import future_reach, possible_melds, solve_besigue
from solver.cards import SUITS, Card
from solver.errors import CardError, DuplicateCardError, IllegalMoveError, OptionError, PositionError
from tests.besigue_random import play_until, random_deal, random_move, random_position, small_position

# (hand size, talon cards left, where to stop): small positions (the rules do not depend
# on hand sizes) reach the talon's end, declarations and phase 2 within the reference's reach
SMALL_SHAPES = [(3, 2), (4, 2), (3, 4), (4, 4), (5, 2), (2, 0), (4, 0), (6, 0)]


def small_cases(count: int, seed: int) -> list[BesiguePosition]:
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        hand_size, talon_left = SMALL_SHAPES[i % len(SMALL_SHAPES)]
        position = small_position(rng, hand_size, talon_left, warmup_tricks=4, phase1=("seed", "standard")[i % 2])
        # stop at a lead, mid-trick or (phase 1) at the winner's declaration
        for _ in range(rng.randrange(4)):
            if position.is_over or len(position.talon) < talon_left:
                break
            position = position.play(random_move(rng, position))
        if not position.is_over:
            cases.append(position)
    return cases


@pytest.mark.parametrize("seed", range(6))
def test_engine_equals_reference_on_small_positions(seed: int) -> None:
    cases = small_cases(40, seed)
    kinds = {"declare": 0, "trick": 0, "phase1": 0, "phase2": 0, "marked": 0}
    for position in cases:
        result = analyse(position)
        expected = reference_values(position)
        assert {m.move: m.value for m in result.moves} == expected, json.dumps(position.to_dict())
        assert result.value == max(expected.values())
        # the line reproduces the value and the points
        end = position
        for move in result.line:
            end = end.play(move)
        assert end.is_over and result.points == tuple(end.scored)
        assert end.value_for(position.side) == result.value
        kinds["declare"] += position.to_declare is not None
        kinds["trick"] += bool(position.trick)
        kinds["phase1"] += position.phase == 1
        kinds["phase2"] += position.phase == 2
        kinds["marked"] += any(c.marks for hand in position.hands for c in hand)
    assert all(n >= 3 for n in kinds.values()), kinds


def test_engine_equals_reference_in_real_phase2_endings() -> None:
    rng = random.Random(77)
    for i in range(12):
        position = random_position(rng, 0, tricks_left=4 + i % 2, stop=("lead", "trick")[i % 2])
        assert {m.move: m.value for m in analyse(position).moves} == reference_values(position)


def test_a_complete_phase2_is_instant_and_exact() -> None:
    rng = random.Random(3)
    for index in range(5):
        position = random_position(rng, 0)
        assert position.tricks_left == 9
        result = analyse(position)
        assert result.exact and result.nodes < 200_000
        if index < 2:  # the reference takes a few seconds over 9 tricks
            assert {m.move: m.value for m in result.moves} == reference_values(position)


def test_hint_agrees_with_analyse() -> None:
    for position in small_cases(30, 99):
        result = analyse(position)
        found = hint(position)
        assert found.value == result.value and found.best == result.best and found.exact


def test_horizon_estimates_equal_the_reference_horizon() -> None:
    from solver.besigue import Reference, engine_state
    from solver.besigue_solve import besigue_engine

    engine = besigue_engine(8)
    checked = 0
    for position in small_cases(40, 31):
        for horizon in range(2, len(position.talon) + 1, 2):
            got = engine.search(engine_state(position), horizon=horizon)["value"]
            assert got == Reference(horizon).future(position), (horizon, position.to_dict())
            checked += 1
    assert checked >= 20


def test_a_limited_search_gives_estimates_beyond_its_reach() -> None:
    position = random_position(random.Random(3), 30)
    result = analyse(position, time_limit=0.3)
    assert not result.exact and result.limit == "time" and result.value is None
    assert result.estimate_tricks is not None and result.estimate_tricks >= 2
    estimates = [m.estimate for m in result.moves]
    assert all(e is not None for e in estimates) and estimates == sorted(estimates, reverse=True)
    assert all(m.lower <= m.estimate <= m.upper for m in result.moves)  # type: ignore[operator]
    found = hint(position, time_limit=0.2)
    assert not found.exact and found.value is None and found.estimate is not None and len(found.best) == 1


def test_limited_search_is_marked_and_its_bounds_hold() -> None:
    rng = random.Random(5)
    position = random_position(rng, 6)
    full = analyse(position)
    # on an engine of its own: the thread's engine keeps the full analysis's table
    limited = analyse(position, node_limit=20_000, engine=BesigueEngine(8))
    assert not limited.exact and limited.limit == "nodes" and limited.nodes <= 20_000 + 5_000
    exact = {m.move: m.value for m in full.moves}
    unsolved = [m for m in limited.moves if m.value is None]
    assert unsolved
    for move in limited.moves:
        if move.value is None:
            assert move.lower is not None and move.upper is not None
            assert move.lower <= exact[move.move] <= move.upper
        else:
            assert move.value == exact[move.move]
    timed = analyse(random_position(rng, 16), time_limit=0.05)
    assert not timed.exact and timed.limit == "time" and timed.time_ms < 1000


def test_an_exact_result_under_a_limit_has_its_line_and_points() -> None:
    """A limit that falls after every move is valued but before the line of best play is
    found still gives an exact result with its points (the line is finished past it)."""
    with open("examples/besigue.jsonl") as lines:
        position = load_position(json.loads(lines.readlines()[1]))
    full = analyse(position)
    assert full.exact and full.points is not None
    exact_with_limit = 0
    for step in range(10, 21):
        limited = analyse(position, node_limit=full.nodes * step // 20)
        if limited.exact:
            exact_with_limit += 1
            assert limited.value == full.value and limited.best == full.best
            assert limited.points is not None and limited.line
            assert limited.points[0] - limited.points[1] == full.points[0] - full.points[1]
    assert exact_with_limit >= 3


def test_future_reach_bounds_every_small_position() -> None:
    for position in small_cases(40, 11):
        values = reference_values(position)
        sign = 1 if position.side == 0 else -1
        now = sign * (position.scored[0] - position.scored[1])
        reach = future_reach(position)
        assert all(now - reach <= v <= now + reach for v in values.values())


def test_possible_melds_reads_each_copy_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limited search bounds every move it left after its deadline (future_reach):
    the melds still possible read each copy's card once, not the whole deal for each
    card asked about (33 scans of 64 copies: 1 to 3 ms past a time limit at a deal's
    start).  The melds are those a plain count of the free copies gives."""
    from solver.besigue import Copy
    from solver.games.besigue import FOUR_KIND, SEQUENCE_RANKS

    rng = random.Random(5)
    positions = [random_deal(rng) for _ in range(3)] + [random_position(rng, t) for t in (30, 16, 6, 2)]

    def plain(pos: BesiguePosition) -> list[int]:
        copies = [c for hand in pos.hands for c in hand] + [Copy(c) for c in pos.talon]

        def free(card: str, kind: str) -> int:
            return sum(1 for c in copies if str(c.card) == card and kind not in c.marks)

        points = pos.rules.meld_points
        values = []
        for suit in SUITS:
            values += [points("marriage", [Card.parse(suit + "K")])] * min(free(suit + "K", "marriage"),
                                                                          free(suit + "Q", "marriage"))
        values += [points("besigue", [])] * min(free("SQ", "besigue"), free("DJ", "besigue"))
        if free("SQ", "double_besigue") == 2 and free("DJ", "double_besigue") == 2:
            values.append(points("double_besigue", []))
        for rank, kind in FOUR_KIND.items():
            values += [points(kind, [])] * (sum(free(s + rank, kind) for s in SUITS) // 4)
        trump = pos.rules.trump_suit
        values += [points("sequence", [])] * min(free(trump + r, "sequence") for r in SEQUENCE_RANKS)
        return values

    assert all(sorted(possible_melds(p)) == sorted(plain(p)) for p in positions)
    named = 0
    real_str = Card.__str__

    def counted(card: Card) -> str:
        nonlocal named
        named += 1
        return real_str(card)

    monkeypatch.setattr(Card, "__str__", counted)
    for position in positions:
        named = 0
        possible_melds(position)
        copies = sum(len(hand) for hand in position.hands) + len(position.talon)
        assert named <= copies + 8, (named, copies)


def test_two_threads_solve_at_once() -> None:
    rng = random.Random(8)
    positions = [random_position(rng, 4) for _ in range(4)]
    expected = [analyse(p).moves for p in positions]
    results: dict[int, object] = {}

    def work(index: int) -> None:
        for _ in range(2):
            results[index] = [analyse(p).moves for p in positions]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {0: expected, 1: expected}


def test_play_analysis_of_a_deal_end() -> None:
    rng = random.Random(21)
    position = random_deal(rng)
    while len(position.talon) > 2 or position.to_declare is not None:
        position = position.play(random_move(rng, position))
    replayed = load_position(position.to_deal_dict())
    assert isinstance(replayed, BesiguePosition) and replayed.to_dict() == position.to_dict()
    first = len(replayed.played) - 4
    analysis = analyse_play(replayed, first=first)
    assert [c.card for c in analysis.cards] == list(replayed.played[first:])
    current = replayed.start_of_deal()
    for move in replayed.played[:first]:
        current = current.play(move)
    for played in analysis.cards:
        expected = reference_free = analyse(current)
        assert played.before == expected.value
        assert played.after == next(m.value for m in reference_free.moves if m.move == played.card)
        assert played.lost == expected.value - played.after  # a difference of points: higher is better
        assert played.best == expected.best and played.seat == played.side == current.to_move
        assert played.forced == (len(current.legal_moves()) == 1)
        current = current.play(played.card)


def test_verify_a_puzzle_with_declarations() -> None:
    """Seat 0 has won a trick and declares, the last two cards to draw (DA to it, the
    retourne H9 to seat 1); small hands, as small_position makes them.  By hand: either
    meld scores 40 (the trump marriage, or the bésigue), passing nothing.  In phase 2
    seat 0 (HK HQ SQ DJ DA) leads HK, which draws seat 1's only trump H9, and then wins
    every trick (DA's 10 and the last trick's 10): 60, 60 and 20."""
    from solver.besigue import Copy, _sorted
    from solver.cards import parse_cards
    from solver.games.besigue import Besigue

    def hand(text: str) -> tuple[Copy, ...]:
        return _sorted([Copy(c) for c in parse_cards(text, "test")])

    position = BesiguePosition(
        Besigue({"phase1": "seed"}, parse_cards("H9", "test")[0].suit, None),
        (hand("HK HQ SQ DJ"), hand("C7 C8 S8 S9")),
        tuple(parse_cards("DA H9", "test")),
        leader=0,
        to_declare=0,
        tricks=(12, 11),
    )
    marriage, besigue = "meld:marriage:HK HQ", "meld:besigue:SQ DJ"
    assert reference_values(position) == {marriage: 60, besigue: 60, "pass": 20}
    verdict = verify_puzzle(position, {"best": [besigue], "value": 60})
    assert verdict.holds and verdict.best_holds and verdict.value_holds and verdict.value == 60
    assert verdict.best == (marriage, besigue) and verdict.unique is False and verdict.missing == (marriage,)
    passing = verify_puzzle(position, {"best": ["pass"]})
    assert passing.holds is False and passing.best_holds is False and passing.wrong == ("pass",)
    assert [(m.move, m.value) for m in passing.claimed] == [("pass", 20)]
    unique = verify_puzzle(position, {"best": [marriage], "unique": True})
    assert unique.holds is False and unique.best_holds is True and unique.missing == (besigue,)
    assert verify_puzzle(position, {"value": 20}).value_holds is False
    with pytest.raises(IllegalMoveError):
        verify_puzzle(position, {"best": ["CA"]})


def test_a_marked_copy_may_be_named_with_its_marks_in_any_order_or_case() -> None:
    # examples/besigue.jsonl's second position, with a second, fresh SQ in seat 0's hand
    data = json.loads(open("examples/besigue.jsonl").read().splitlines()[1])
    data["hands"] = ["CQ C9 C8 SQ SQ S9 HT DA DQ", "CA C8 C7 C7 SJ S8 S8 HQ DK"]
    data["melded"][1] = []
    position = load_position(data)
    assert {"SQ", "SQ[besigue,four_queens]"} <= set(position.legal_moves())
    for written in ("SQ[besigue,four_queens]", "SQ[four_queens,besigue]", "sq[besigue,four_queens]", "SQ[BESIGUE, Four_Queens]"):
        # but for the first, each was "ambiguous"
        assert position.play(written).played == ("SQ[besigue,four_queens]",), written
    assert position.play("sq").played == ("SQ",)  # the fresh copy, as "SQ" names it


def test_play_analysis_numbers_the_moves_as_played_lists_them() -> None:
    """FORMAT.md lets `played` leave out a trick winner's pass: the replay adds it, but
    the analysis numbers moves (and counts `first`) in the list as given."""
    start = random_deal(random.Random(1))
    position, written, explicit, place_in_explicit = start, [], [], []
    while position.legal_moves():  # the whole deal, passes written out in `explicit` only
        move = str(position.legal_moves()[0])
        position = position.play(move)
        explicit.append(move)
        if move != "pass":
            written.append(move)
            place_in_explicit.append(len(explicit) - 1)
    assert len(explicit) > len(written)  # some trick winner passed
    short = dict(start.to_deal_dict(), played=written)
    full = dict(start.to_deal_dict(), played=explicit)
    assert load_position(short).to_deal_dict()["played"] == written  # read back as given
    first = len(written) - 4  # in phase 2: solved at once
    analysis = analyse_play(short, first=first)
    assert [(c.index, c.card) for c in analysis.cards] == [(i, written[i]) for i in range(first, len(written))]
    every = {c.index: c for c in analyse_play(full, first=place_in_explicit[first]).cards}
    for card in analysis.cards:  # the same values as with the passes written out
        same = every[place_in_explicit[card.index]]
        fields = ("card", "before", "after", "lost", "best")
        assert [getattr(card, f) for f in fields] == [getattr(same, f) for f in fields]
    with pytest.raises(OptionError) as info:
        analyse_play(short, first=len(written) + 1)  # was accepted: the list with the passes is longer
    assert info.value.field == "first"
    assert analyse_play(short, first=len(written)).cards == ()


def test_no_trump_table_for_besigue() -> None:
    data = random_deal(random.Random(2)).to_deal_dict()
    with pytest.raises(PositionError) as caught:
        trump_table(data)
    assert caught.value.field == "game"


def test_raw_equals_score_in_besigue() -> None:
    """RULES.md: `score` is `raw` after a contract settlement, which Bésigue lacks."""
    for position in small_cases(8, 5):
        score, raw = analyse(position), analyse(position.with_objective("raw"))
        assert raw.objective == "raw" and score.objective == "score"
        assert [(m.move, m.value) for m in raw.moves] == [(m.move, m.value) for m in score.moves]


def test_a_cancel_between_two_engine_searches_stops_the_solve() -> None:
    """A cancel that lands while no engine search runs (each starts afresh) still stops
    the solve: it watches the engine's count of cancels."""
    class CancelsAfterFirstSearch:
        def __init__(self) -> None:
            self.engine = BesigueEngine(8)
            self.searches = 0

        @property
        def cancels(self) -> int:
            return self.engine.cancels

        def search(self, *args: object, **kwargs: object) -> dict:
            answer = self.engine.search(*args, **kwargs)
            self.searches += 1
            self.engine.cancel()  # between this search and the next
            return answer

    position = random_position(random.Random(5), 6)
    engine = CancelsAfterFirstSearch()
    outcome = solve_besigue(position, engine, all_moves=True)
    assert engine.searches == 1 and outcome.limit == "cancelled"
    assert sum(v is not None for v in outcome.values.values()) <= 1


def test_a_hint_names_a_move_when_its_limit_is_spent_before_the_search() -> None:
    """The first look a trick ahead runs past the limit (a few hundred nodes), so that
    a time limit spent on the engine's set-up still gets a move, as in the card games."""
    for seed in range(5):
        deal = random_deal(random.Random(seed))
        found = hint(deal, time_limit=1e-9, engine=BesigueEngine(1))
        assert not found.exact and found.limit == "time" and found.value is None
        assert len(found.best) == 1 and found.best[0] in {str(m) for m in deal.legal_moves()}
        assert found.estimate is not None and found.estimate_tricks == 1  # the first look, a phase-1 trick ahead


def test_a_hint_with_two_talon_cards_names_the_move_that_scores_most_at_once() -> None:
    """No phase-1 trick is left to look ahead to, so there are no estimates: such a
    hint, its limit spent, gave `best: []`.  Here the trump sequence (250) scores more
    at once than the royal marriage (40) or a pass, and is the best move too (280)."""
    position = load_position(
        {"game": "besigue", "trump": "H", "hands": ["HA HT HK HQ HJ C7 C8 S7", "S8 S9 D8 D9 C7 S7 D7 CJ"],
         "talon": ["S9", "H9"], "to_declare": 0, "tricks": [12, 11]}
    )
    found = hint(position, time_limit=1e-9, engine=BesigueEngine(1))
    assert (found.best, found.value, found.exact, found.estimate, found.limit) == (
        ("meld:sequence:HA HK HQ HJ HT",), None, False, None, "time"
    )
    assert hint(position, time_limit=1e-9, engine=BesigueEngine(1), estimates=False).best == ()
    solved = hint(position)
    assert (solved.best, solved.value, solved.exact) == (("meld:sequence:HA HK HQ HJ HT",), 280, True)


def test_declaration_words_are_read_in_any_case() -> None:
    """`PASS`, `Seven` and `MELD:` were "not a card"; cards and marks were already read in any case."""
    examples = Path(__file__).resolve().parent.parent / "examples" / "besigue.jsonl"
    data = json.loads(examples.read_text().splitlines()[3])
    written = {"seven": "Seven", "meld:marriage:CK CQ": "MELD:marriage:ck cq", "pass": "PASS"}
    shouted = {**data, "played": [written.get(move, move) for move in data["played"]]}
    assert shouted["played"] != data["played"]
    assert load_position(shouted).played == load_position(data).played


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        ("HK[foo]", CardError, 'unknown mark "foo"'),
        ("HA[four_kings]", IllegalMoveError, "may not play HA[four_kings] here"),
        ("SQ[marriage]", IllegalMoveError, "may not play SQ[marriage] here"),  # the copy lies face up for besigue
        ("SQ[besigue,marriage]", IllegalMoveError, "may not play"),
    ],
)
def test_marks_that_name_no_copy_held_are_errors_not_dropped(move: str, error: type, message: str) -> None:
    """Marks were stripped when one legal move had the card: `SQ[marriage]` was taken
    as `SQ[besigue]`, and a puzzle claiming it held."""
    position = load_position({
        "game": "besigue", "trump": "H", "hands": ["HA HT HK HQ HJ C7 C8 S7 SQ", "S8 S9 D8 D9 C7 S7 D7 CJ DJ"],
        "talon": ["C9", "D7", "S9", "H9"], "leader": 0, "tricks": [12, 9],
        "melded": [[{"card": "SQ", "kinds": ["besigue"]}], []],
    })  # fmt: skip
    with pytest.raises(error, match=re.escape(message)):
        position.play(move)
    assert position.play("SQ").played == position.play("sq[BESIGUE]").played == ("SQ[besigue]",)


DECLARING = {
    "game": "besigue", "trump": "H", "hands": ["HA HT HK HQ HJ C7 C8 S7", "S8 S9 D8 D9 C7 S7 D7 CJ"],
    "talon": ["C9", "D7", "S9", "H9"], "to_declare": 0, "tricks": [12, 10],
}  # fmt: skip


@pytest.mark.parametrize(
    ("move", "error", "message"),
    [
        ("meld:mariage:HK HQ", IllegalMoveError, '"mariage" is not a meld (the melds: marriage, besigue'),
        ("meld:bezique:SQ DJ", IllegalMoveError, 'did you mean "besigue"?'),
        ("meld:marriage", IllegalMoveError, "meld:marriage: names no cards (a meld is written meld:KIND:CARDS"),
        ("meld:marriage:HKHQ", CardError, '"HKHQ" is not a card'),
        ("meld:marriage:SK SQ", IllegalMoveError, "meld:marriage:SK SQ: seat 0 does not hold SK"),
        ("meld:marriage:HK HJ", IllegalMoveError, "seat 0 may not declare meld:marriage:HK HJ here (legal: meld:marriage:HK HQ"),
    ],
)
def test_a_meld_written_wrongly_is_told_what_is_wrong(move: str, error: type, message: str) -> None:
    """A meld that is no legal move was "may not play meld:mariage:HK HQ here": a kind
    misspelt, no cards, a card not held are now said so."""
    with pytest.raises(error, match=re.escape(message)) as info:
        load_position(DECLARING).play(move, "played[0]", 0)
    assert (info.value.field, info.value.index) == ("played[0]", 0)


def test_a_meld_without_its_prefix_and_a_card_three_times_are_told_plainly() -> None:
    examples = Path(__file__).resolve().parent.parent / "examples" / "besigue.jsonl"
    data = json.loads(examples.read_text().splitlines()[3])
    with pytest.raises(CardError) as info:
        load_position({**data, "played": [*data["played"][:2], "marriage:CK CQ"]})
    assert info.value.field == "played[2]"
    assert info.value.message.endswith('; a meld is written "meld:marriage:CK CQ"')
    hands = ["HA HT HK HQ HJ C7 C8 S7", "S8 S9 D8 D9 C7 S7 D7 C7"]  # C7 in both hands, twice in the second
    with pytest.raises(DuplicateCardError) as dup:
        load_position({**DECLARING, "hands": hands})
    assert dup.value.field == "hands[1]"
    assert dup.value.message == "C7 appears three times (also in hands[0] and hands[1]); there are two of each"


def test_a_limited_search_tries_the_estimates_favourite_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """After its look-ahead passes, the exact pass searches the moves in the order of
    the deepest pass's estimates, best first (it went in the moves' legal order): a
    search stopped after one move has solved the likeliest best."""
    import solver.besigue_solve as besigue_solve

    calls: list[tuple[int, list[str], dict]] = []
    real = besigue_solve._value_moves

    def recorded(engine: Any, budget: Any, children: dict, now: dict, sign: int, all_moves: bool, horizon: int) -> Any:
        found = real(engine, budget, children, now, sign, all_moves, horizon)
        calls.append((horizon, list(children), found))
        return found

    monkeypatch.setattr(besigue_solve, "_value_moves", recorded)
    rng = random.Random(38)
    reordered = 0
    for _ in range(6):
        position = play_until(rng, random_deal(rng), 8)
        calls.clear()
        besigue_solve.solve_besigue(position, BesigueEngine(8), time_limit=60.0)
        passes = [(order, found) for horizon, order, found in calls if horizon > 0]
        exact_order = [order for horizon, order, _ in calls if horizon == 0][0]
        deepest = passes[-1][1]
        assert [deepest[m] for m in exact_order] == sorted(deepest.values(), reverse=True)
        reordered += exact_order != passes[-1][0]
    assert reordered  # the legal order was not already the estimates'


def test_the_horizon_guess_worked_by_hand() -> None:
    """What a limited search counts after its horizon (hearts trump, seat 0 to lead).

    Seat 0, HA HT HK CA C7 C8 S7 S8 D7: brisques HA HT CA (3 x 6.5), trumps HA HT HK
    (3 x 8), trump Ace and Ten (2 x 4 more), Aces HA CA (2 x 5): 61.5. Seat 1, SA ST DT
    D8 D9 C9 CJ SJ SQ: brisques SA ST DT (3 x 6.5), Ace SA (5): 24.5. Leading costs 5.5:
    61.5 - 24.5 - 5.5 = 31.5, to the nearest 10: 30 for seat 0. The hands and the lead
    swapped, -30; the hands alone, 24.5 - 61.5 - 5.5 = -42.5: -40.
    """
    from solver.besigue import engine_state, horizon_guess
    from solver.besigue_solve import besigue_engine

    hands = ["HA HT HK CA C7 C8 S7 S8 D7", "SA ST DT D8 D9 C9 CJ SJ SQ"]
    engine = besigue_engine(1)
    for order, leader, want in ((hands, 0, 30), (hands[::-1], 1, -30), (hands[::-1], 0, -40)):
        position = load_position({"game": "besigue", "trump": "H", "hands": order, "talon": ["DK", "H7"],
                                  "leader": leader, "tricks": [11, 11]})  # fmt: skip
        assert horizon_guess(position) == want
        assert engine.search(engine_state(position), horizon=2)["value"] == want  # the root is at the horizon
