"""The engine as a component: threads, limits, table size and reuse, complete deals."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest

from solver import BesigueEngine, Engine, OptionError, Position, analyse, hint
from solver.cards import format_cards
from solver.games import get_game
from solver.reference import reference_values

from .randompos import CONFIGS, random_positions

KLAVERJAS_DEAL = {
    "game": "klaverjas",
    "trump": "S",
    "declarer": 1,
    "hands": [
        "SJ S9 HA HT CK C8 D9 D7",
        "SA SK HK HQ CA C9 DT D8",
        "ST S8 H9 H8 CT CQ DA DQ",
        "SQ S7 HJ H7 CJ C7 DK DJ",
    ],
}


def full_deal(game: str, seed: int, **fields: object) -> Position:
    rng = random.Random(seed)
    options = fields.pop("options", {})
    cls = get_game(game)
    trump = fields.get("trump")
    rules = cls(cls.check_options(options), trump if isinstance(trump, str) else None, None)
    deck = list(rules.deck)
    rng.shuffle(deck)
    k = rules.hand_size
    hands = [format_cards(deck[i * k : (i + 1) * k]) for i in range(rules.n_players)]
    return Position.from_dict({"game": game, "options": options, "hands": hands, **fields})


def test_two_threads_with_their_own_engines_agree_with_one_thread() -> None:
    positions = list(random_positions("belote", 5, seed=11, max_tricks=5))
    expected = [analyse(p, engine=Engine(2)).to_dict()["moves"] for p in positions]
    results: dict[int, list] = {0: [], 1: []}

    def work(index: int) -> None:
        engine = Engine(2)
        for p in positions:
            results[index].append(analyse(p, engine=engine).to_dict()["moves"])

    threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == expected
    assert results[1] == expected


def test_a_solving_thread_needs_little_stack() -> None:
    """The search's context and its recursion live on the solving thread's stack:
    a thread of 128 KiB (musl's default) solves the deepest deals. Measured: a
    complete Jass deal runs in 64 KiB and crashes in 48."""
    jass = full_deal("jass", 3, trump="H")
    putz = full_deal("putz", 7, trump="S")
    expected = [analyse(jass, engine=Engine(8), node_limit=200_000).to_dict(), analyse(putz, engine=Engine(8)).to_dict()]
    answers: list = []

    def work() -> None:
        engine = Engine(8)
        answers.append(analyse(jass, engine=engine, node_limit=200_000).to_dict())
        answers.append(analyse(putz, engine=engine).to_dict())

    before = threading.stack_size(128 * 1024)
    try:
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(before)
    for answer in answers + expected:
        answer.pop("time_ms")
    assert answers == expected


def test_default_engines_are_per_thread() -> None:
    """analyse() without an engine gives each thread its own: concurrent calls are right."""
    position = Position.from_dict(KLAVERJAS_DEAL)
    expected = analyse(position).to_dict()["moves"]
    answers: list = []
    threads = [threading.Thread(target=lambda: answers.append(analyse(position).to_dict()["moves"])) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [expected] * 3


def refused_while_another_thread_solves(engine: Engine, call: Callable[[], object]) -> list[Exception]:
    """What `call` raises, tried again and again while another thread runs a search of up
    to a second on `engine` (a Jass deal under a time limit)."""
    position = full_deal("jass", 5, trump="H")
    refused: list[Exception] = []
    started = threading.Event()

    def long_solve() -> None:
        started.set()
        analyse(position, engine=engine, time_limit=1.0)

    t = threading.Thread(target=long_solve)
    t.start()
    started.wait()
    for _ in range(200):
        try:
            call()
        except RuntimeError as exc:
            refused.append(exc)
            break
        threading.Event().wait(0.005)
    t.join()
    return refused


def test_an_engine_refuses_a_second_thread_while_busy() -> None:
    engine = Engine(1)
    position = full_deal("jass", 5, trump="H")
    # the first thread holds the engine for up to a second; a second caller is told so
    errors = refused_while_another_thread_solves(engine, lambda: analyse(position, engine=engine, node_limit=10))
    assert errors and "another thread" in str(errors[0])


def test_an_engine_refuses_to_clear_its_table_under_another_threads_search() -> None:
    """Clearing empties the table a search is using: refused, like a second search
    (an audit found exact results wrong with clear() called meanwhile)."""
    engine = Engine(1)
    refused = refused_while_another_thread_solves(engine, engine.clear)
    assert refused and "another thread" in str(refused[0])
    engine.clear()  # once the search is done, it may


def test_node_limit_stops_cleanly_and_marks_the_result() -> None:
    position = full_deal("jass", 3, trump="S")
    result = analyse(position, node_limit=20_000)
    assert not result.exact
    assert result.limit == "nodes"
    assert result.nodes < 40_000
    unsolved = [m for m in result.moves if m.value is None]
    assert unsolved, "a 20k-node search cannot solve every first card of a Jass deal"
    for move in unsolved:
        assert move.lower is not None and move.upper is not None and move.lower < move.upper
    assert len(result.moves) == 9  # every legal move is still listed


@pytest.mark.parametrize("game", ["belote", "klaverjas", "putz"])
def test_a_limit_never_reports_a_wrong_value(game: str) -> None:
    """A search stopped while valuing a move leaves that move unvalued: every value
    a limited analysis or hint gives is the exact one (a regression: the move being
    searched when the limit struck was reported with an arbitrary value)."""
    fields: dict[str, object] = {"trump": "H", "declarer": 1} if game == "klaverjas" else {"trump": "H"}
    position = full_deal(game, 2, **fields)
    other = full_deal(game, 3, **fields)
    exact = {m.move: m.value for m in analyse(position).moves}
    best = max(v for v in exact.values() if v is not None)
    reported = 0
    for limit in (300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000):
        analyse(other)  # whatever it leaves behind must not leak into the next answer
        limited = analyse(position, node_limit=limit, engine=Engine(8))
        for move in limited.moves:
            if move.value is not None:
                reported += 1
                assert move.value == exact[move.move], (limit, move)
        # FORMAT.md: `best` is every move whose value is `value` (solved ones, when limited,
        # or the move the limit stopped in, shown better than them: `value` its bound)
        solved_best = {m.move for m in limited.moves if m.value is not None and m.value == limited.value}
        shown_better = {m.move for m in limited.moves if m.value is None and limited.value in (m.lower, m.upper)}
        assert set(limited.best) in (solved_best, shown_better), (limit, limited)
        analyse(other)
        found = hint(position, node_limit=limit, engine=Engine(8))
        if found.exact:
            assert found.value == best
        elif found.value is not None:
            assert found.value == exact[found.best[0]], (limit, found)
    assert reported  # some limits fell between the moves


def test_time_limit_stops_cleanly() -> None:
    # a deal that takes some 300 ms (4.1M nodes): far beyond the limit on any machine
    position = full_deal("jass", 2, trump="obenabe")
    result = analyse(position, time_limit=0.02)
    assert not result.exact
    assert result.limit == "time"
    assert result.time_ms < 1000


def test_a_time_limit_bounds_the_whole_call_with_its_engines_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread's first call allocates its table, which on a cold machine took up to
    200 ms: that counts against the call's limit, and the search gets what is left."""
    import time

    import solver.analysis

    position = full_deal("belote", 3, trump="H")  # solved in milliseconds
    assert analyse(position, time_limit=0.5).exact and hint(position, time_limit=0.5).exact
    real_engine_for = solver.analysis.engine_for

    def slow_engine_for(*args: object) -> object:
        time.sleep(0.6)  # the limit spent before the search starts
        return real_engine_for(*args)

    monkeypatch.setattr(solver.analysis, "engine_for", slow_engine_for)
    limited = analyse(position, time_limit=0.5)
    assert not limited.exact and limited.limit == "time"  # it was exact: the search had its own 0.5 s
    assert not hint(position, time_limit=0.5, estimates=False).exact
    assert analyse(position).exact  # no limit: the setup's time does not matter


def test_a_limited_hint_says_which_limit_stopped_it() -> None:
    position = full_deal("jass", 2, trump="obenabe")  # some 4M nodes
    assert hint(position, node_limit=5000).limit == "nodes"
    assert hint(position, time_limit=0.005).to_dict()["limit"] == "time"
    engine = Engine(8)
    engine.cancel(before_start=True)
    cancelled = hint(position, engine=engine)
    assert not cancelled.exact and cancelled.limit == "cancelled"  # was told from a timed-out hint by nothing
    engine.forget_cancel()
    small = full_deal("belote", 3, trump="H")
    assert hint(small).limit is None and "limit" not in hint(small).to_dict()


def test_small_table_gives_the_same_values() -> None:
    position = Position.from_dict(KLAVERJAS_DEAL)
    big = analyse(position, engine=Engine(64))
    small = analyse(position, engine=Engine(1))
    assert Engine(1).tt_bytes <= 1024 * 1024
    assert big.to_dict()["moves"] == small.to_dict()["moves"]


@pytest.mark.parametrize("size", [0, -1, 1.5, "8", None, 10**12])
def test_table_size_is_checked_by_both_engines(size: object) -> None:
    for engine in (Engine, BesigueEngine):
        with pytest.raises(OptionError) as info:
            engine(size)
        assert info.value.field == "tt_megabytes"


def test_one_engine_through_a_played_deal_matches_fresh_engines() -> None:
    """The table is kept between the positions of one deal; another deal in between
    starts a generation of its own (and parks this one's)."""
    engine = Engine(8)
    position = Position.from_dict(KLAVERJAS_DEAL)
    other = full_deal("klaverjas", 9, trump="S", declarer=1)
    while not position.is_over:
        shared = analyse(position, engine=engine).to_dict()["moves"]
        assert shared == analyse(position, engine=Engine(8)).to_dict()["moves"]
        # another deal in between must not leave entries that lie
        analyse(other, engine=engine)
        position = position.play(analyse(position, engine=engine).best[0])


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_hint_agrees_with_analyse(game: str) -> None:
    for position in random_positions(game, 6, seed=4, max_tricks=5):
        full = analyse(position)
        h = hint(position)
        assert h.value == full.value
        assert set(h.best) == set(full.best)


@pytest.mark.parametrize(
    "rules, objective, seed",
    [("seed", "score", 1), ("pagat", "score", 2), ("seed", "raw", 3)],
)
def test_complete_two_player_deals_match_the_reference(rules: str, objective: str, seed: int) -> None:
    position = full_deal(
        "klaberjass", seed, options={"rules": rules}, trump="CSHD"[seed % 4], taker=seed % 2, objective=objective
    )
    expected = {str(c): v for c, v in reference_values(position).items()}
    got = {m.move: m.value for m in analyse(position).moves}
    assert got == expected


def test_cancel_from_another_thread_stops_the_search() -> None:
    engine = Engine(2)
    position = full_deal("jass", 5, trump="C")
    results = []
    worker = threading.Thread(target=lambda: results.append(analyse(position, engine=engine)))
    worker.start()
    threading.Event().wait(0.1)
    engine.cancel()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert not results[0].exact
    assert results[0].limit == "cancelled"


def test_a_cancel_before_start_stops_every_search_until_forgotten() -> None:
    """The service cancels its call's engine before the search may have started:
    that search, and any other started before `forget_cancel()`, stop at once."""
    engine = Engine(2)
    deal = full_deal("jass", 5, trump="C")  # seconds of search
    small = full_deal("klaverjas", 6, trump="H", declarer=1)  # about 100,000 nodes
    exact = analyse(small, engine=Engine(2))
    values = [(m.move, m.value) for m in exact.moves]
    engine.cancel()  # no search running: the next one starts afresh
    assert [(m.move, m.value) for m in analyse(small, engine=engine).moves] == values
    engine.cancel(before_start=True)
    for position in (deal, small):
        stopped = analyse(position, engine=engine)
        assert stopped.limit == "cancelled" and not stopped.exact
        assert stopped.nodes < 20_000  # the first check of the limits
    engine.forget_cancel()
    assert [(m.move, m.value) for m in analyse(small, engine=engine).moves] == values
    assert exact.exact and exact.nodes > 20_000


@pytest.mark.parametrize("seed", [6, 13, 14, 15])
def test_the_search_does_not_depend_on_the_engines_history(seed: int) -> None:
    """The same position takes the same nodes in a fresh engine and in one that solved
    other deals before (the Klaverjas nat entries once chose their set by the table's
    generation).  Emptied before each (`clear`), as the engine would otherwise take up
    the deal's own entries again."""
    position = full_deal("klaverjas", seed, trump="HSDC"[seed % 4], declarer=seed % 4)
    fresh = analyse(position, engine=Engine(8)).nodes
    engine = Engine(8)
    for other in range(3):
        analyse(full_deal("klaverjas", 100 + other, trump="S", declarer=other), engine=engine)
        engine.clear()  # the other deal's entries stay in the table, under an old generation
        assert analyse(position, engine=engine).nodes == fresh


def test_an_engine_serving_deals_in_turn_takes_each_up_again() -> None:
    """An engine that searches another deal parks the deal it leaves, its entries under
    their generation; a later position of it takes them up (`resumed`), answering as a
    fresh engine does in fewer nodes."""
    deals = [full_deal("klaverjas", seed, trump="HSDC"[seed], declarer=seed) for seed in range(3)]
    engine = Engine(8)
    shared_nodes = fresh_nodes = 0
    for step in range(3):
        for i, position in enumerate(deals):
            shared = analyse(position, engine=engine)
            fresh = analyse(position, engine=Engine(8))
            assert _answer(shared) == _answer(fresh), (step, i)
            if step:
                shared_nodes += shared.nodes
                fresh_nodes += fresh.nodes
            deals[i] = position.play(fresh.best[0])
        assert engine.resumed == 3 * step  # each deal but in the first round
    assert shared_nodes < fresh_nodes / 2


def test_an_engine_keeps_its_last_deals_parked() -> None:
    """A deal left for MOST_PARKED_DEALS - 1 others is taken up (that many parked: the
    others and it); left for one more, it has been dropped (the one left longest ago
    goes as the last is parked) and is searched as by a fresh engine."""
    from solver._engine import MOST_PARKED_DEALS

    assert MOST_PARKED_DEALS == 32
    first = full_deal("belote", 0, trump="H")
    fresh = analyse(first, engine=Engine(8))
    for others, taken_up in ((MOST_PARKED_DEALS - 1, True), (MOST_PARKED_DEALS, False)):
        engine = Engine(8)
        analyse(first, engine=engine)
        for seed in range(1, others + 1):
            analyse(full_deal("belote", seed, trump="H"), engine=engine)
        before = engine.resumed
        again = analyse(first, engine=engine)
        assert _answer(again) == _answer(fresh)
        assert (engine.resumed == before + 1) == taken_up
        assert (again.nodes < fresh.nodes / 2) if taken_up else again.nodes == fresh.nodes


def test_a_deals_entries_outlast_its_estimates_and_other_rules() -> None:
    """Estimates search under a generation of their own and then give the deal's back;
    other rules (another trump) park the deal as another deal does."""
    from solver.compile import estimate_search

    position = full_deal("belote", 3, trump="C")
    engine = Engine(8)
    fresh = analyse(position, engine=engine)
    found, _ = estimate_search(position, engine, 2)
    assert found is not None and engine.resumed == 1
    other_trump = Position.from_dict({**position.to_dict(), "trump": "S"})
    assert _answer(analyse(other_trump, engine=engine)) == _answer(analyse(other_trump, engine=Engine(8)))
    again = analyse(position, engine=engine)
    assert _answer(again) == _answer(fresh) and engine.resumed == 2
    assert again.nodes < fresh.nodes / 2


def test_a_wrapped_generation_forgets_the_parked_deals() -> None:
    """Generations are bytes: when they run out, the tables are zeroed and the parked
    deals forgotten, so that none takes up entries of a generation used again since."""
    from solver.compile import estimate_search

    parked = full_deal("belote", 0, trump="H")
    fresh = analyse(parked, engine=Engine(8))
    engine = Engine(8)
    analyse(parked, engine=engine)
    other = next(iter(random_positions("belote", 1, seed=5, max_tricks=2)))
    analyse(other, engine=engine)
    for _ in range(130):  # two generations each: past 255
        estimate_search(other, engine, 1)
    before = engine.resumed
    again = analyse(parked, engine=engine)
    assert engine.resumed == before  # forgotten
    assert _answer(again) == _answer(fresh) and again.nodes == fresh.nodes


def _answer(result: object) -> tuple:
    """What an analysis reports, but nodes, time and `points` (which may follow
    another line of best play: README)."""
    data = result.to_dict()  # type: ignore[attr-defined]
    return data["value"], data["best"], [(m["move"], m["value"]) for m in data.get("moves", [])]


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_an_engine_kept_through_a_played_deal_answers_as_fresh_ones(game: str) -> None:
    """One engine's tables serve every position of a deal (README: `engine=`), the
    sides to move taking turns: each answer is a fresh engine's."""
    rng = random.Random(game)
    for start in random_positions(game, 3, seed="kept", min_tricks=6, max_tricks=8):
        engine = Engine(8)
        position = start
        while not position.is_over:
            for call in (hint, analyse):
                assert _answer(call(position, engine=engine)) == _answer(call(position, engine=Engine(8))), position.to_dict()
            position = position.play(rng.choice(position.legal_moves()))


def test_roem_to_come_is_judged_by_every_card_the_tables_saw() -> None:
    """Klaverjas: a shape entry from an earlier position of the deal, where a run of
    three (H9 H8 H7) could still fall, once served a later position where H7 was gone,
    as if the roem to come were the same: C7 (-16) came out as good as DK (-14).
    The values are the reference search's."""
    rules = {"game": "klaverjas", "options": {"rules": "rotterdam"}, "trump": "H", "declarer": 0}
    earlier = {
        **rules,
        "hands": ["CK SJ HA HQ H8 H7 DQ", "CA C7 S8 S7 HJ HT DK DJ", "CJ CT C9 SK ST S9 H9 D8", "CQ C8 SA SQ HK DA DT D7"],
        "trick": ["D9"],
        "leader": 0,
    }
    later = {
        **rules,
        "hands": ["HA HQ H8 H7 DQ", "C7 S8 HJ HT DK", "CJ CT SK S9 H9", "CQ SA HK DT D7"],
        "leader": 1,
        "scored": [35, 28],
        "tricks": [1, 2],
    }
    expected = {str(card): value for card, value in reference_values(Position.from_dict(later)).items()}
    assert expected == {"C7": -16, "S8": -16, "HJ": -16, "HT": -48, "DK": -14}
    engine = Engine(8)
    hint(earlier, engine=engine)
    result = hint(later, engine=engine)
    assert (result.value, result.best) == (-14, ("DK",))
    assert {m.move: m.value for m in analyse(later, engine=engine).moves} == expected


def test_step_objective_lines_do_not_depend_on_earlier_searches() -> None:
    """A Putz pomme line after a Klaverjas nat search elsewhere is still a whole line
    (the root once left the line's settlement mode uninitialised for step objectives)."""
    nat = {
        "game": "klaverjas", "options": {"rules": "rotterdam", "roem_order": "rank", "nat_on_tie": True},
        "trump": "D", "declarer": 3, "hands": ["DA DT D9", "SK S7", "DK DJ", "CA DQ D8"],
        "trick": ["HJ", "HT"], "leader": 1, "scored": [5, 41], "tricks": [2, 3], "objective": "score",
    }
    pomme = {
        "game": "putz", "trump": "H", "hands": ["S8 HK HJ", "S9 DQ", "H7 DT D8"], "trick": ["CK"],
        "leader": 1, "scored": [73, 82, 18], "tricks": [2, 3, 1], "objective": "pomme",
    }
    analyse(nat, engine=Engine(8))
    result = analyse(pomme, engine=Engine(8))
    end = Position.from_dict(pomme)
    for move in result.line:
        end = end.play(move)
    assert end.is_over
    assert list(result.points) == end.final_scores()


def test_roem_merging_knows_who_played_the_cards_on_the_trick() -> None:
    """Cards already on the trick belong to the seats that played them: a roem set
    with one of them can still fall in this trick (a merge once ignored that)."""
    position = Position.from_dict(
        {
            "game": "klaverjas",
            "options": {"rules": "seed", "roem_order": "rank", "nat_on_tie": True},
            "trump": "D",
            "declarer": 1,
            "hands": ["SJ DA D9", "SK DQ D7", "SQ ST DK D8", "C9 C7 HA H7"],
            "trick": ["CQ", "CJ"],
            "leader": 0,
            "scored": [5, 72],
            "tricks": [1, 3],
            "objective": "score",
        }
    )
    expected = {str(card): value for card, value in reference_values(position).items()}
    assert {m.move: m.value for m in analyse(position, engine=Engine(1)).moves} == expected


PUTZ = {"trump": "S"}
KLABERJASS = {"trump": "H", "taker": 0}


AMSTERDAM = {"trump": "C", "declarer": 1, "options": {"rules": "amsterdam"}}
ROTTERDAM = {"trump": "C", "declarer": 1, "options": {"rules": "rotterdam"}}
MOBILITY = {"lead_mobility": 0}
KILLERS = {"trick_killers": 0, "lead_killers": 0}
LEAD_KILLERS = {"lead_killers": 0}


@pytest.mark.parametrize(
    "game, fields", [("belote", {"trump": "H"}), ("klaverjas", ROTTERDAM), ("klaberjass", KLABERJASS), ("jass", {"trump": "S"})]
)
def test_the_positions_of_a_deal_share_the_tables_whichever_side_moves(game: str, fields: dict) -> None:
    """After a full analysis, the position after one of its cards (the other side to
    move) is valued from the tables it left: in under half the nodes a fresh engine
    needs, with the same answer (the engine searches for side 0 in both)."""
    deal = full_deal(game, 4, **fields)
    rng = random.Random(4)
    while game == "jass" and deal.tricks_left > 7:  # a complete Jass deal takes seconds
        deal = deal.play(rng.choice(deal.legal_moves()))
    engine = Engine(8)
    first = analyse(deal, engine=engine)
    after = deal.play(first.moves[-1].move)
    assert after.side != deal.side
    fresh = analyse(after, engine=Engine(8))
    kept = analyse(after, engine=engine)
    assert _answer(kept) == _answer(fresh)
    assert kept.nodes * 2 < fresh.nodes, (kept.nodes, fresh.nodes)


@pytest.mark.parametrize(
    "off, game, seed, fields",
    [
        # lead_mobility: leads leaving the other sides the fewest replies first
        (MOBILITY, "belote", 11, {"trump": "H"}),
        (MOBILITY, "klaverjas", 5, AMSTERDAM),
        (MOBILITY, "klaberjass", 5, KLABERJASS),
        (MOBILITY, "putz", 7, PUTZ),
        (MOBILITY, "bassadewitz", 2, {}),
        # trick_killers and lead_killers: inside a trick, the card that last cut off
        # with the same leader, trick, mover and winning card first (in the paranoid
        # games at the coalition's seats only); at a lead, after the same trick
        (KILLERS, "belote", 11, {"trump": "H"}),
        (KILLERS, "klaverjas", 5, AMSTERDAM),
        (KILLERS, "klaverjas", 5, ROTTERDAM),
        (KILLERS, "klaberjass", 8, KLABERJASS),
        (KILLERS, "jass", 3, {"trump": "H"}),
        (KILLERS, "putz", 7, PUTZ),
        (KILLERS, "bassadewitz", 2, {}),
        # lead_killers alone
        (LEAD_KILLERS, "belote", 11, {"trump": "H"}),
        (LEAD_KILLERS, "klaverjas", 5, AMSTERDAM),
        (LEAD_KILLERS, "jass", 3, {"trump": "H"}),
    ],
)
def test_proof_size_orders_change_the_search_not_the_values(off: dict, game: str, seed: int, fields: dict) -> None:
    """Move orders on by default that aim at small proofs: with them switched off
    (`off`), the same values; on these deals, more nodes."""
    position = full_deal(game, seed, **fields)
    on = analyse(position, engine=Engine(8))
    without = analyse(position, engine=Engine(8), engine_options=off)
    assert on.to_dict()["moves"] == without.to_dict()["moves"]
    assert on.nodes < without.nodes


# Jass, hearts trump, three tricks left, seat 0 to lead: it holds the Aces of spades
# and clubs and the King of spades, above every other spade and club in play
CLAIM = {"game": "jass", "trump": "H", "leader": 0, "tricks": [3, 3], "scored": [40, 50]}


def assert_claimed(position: Position, expected: dict[str, int]) -> None:
    """The values expected, the same with the lever `claims` off, and fewer nodes
    with it on (a claim settles a trick boundary of the search at once)."""
    on = analyse(position, engine=Engine(1))
    off = analyse(position, engine=Engine(1), engine_options={"claims": 0})
    assert {m.move: m.value for m in on.moves} == expected
    assert on.to_dict()["moves"] == off.to_dict()["moves"]
    assert on.nodes < off.nodes


def test_a_leader_holding_only_masters_takes_every_trick() -> None:
    """Lever `claims`: nobody else holds a trump, so seat 0 takes the three tricks
    whatever anyone plays. Its side gets the 51 card points left and the last
    trick's 5: 96 to 50, a value of 46 for every card it can lead."""
    position = Position.from_dict({**CLAIM, "hands": ["SA SK CA", "SQ CK D6", "S6 C6 DA", "DK DQ D7"]})
    assert_claimed(position, {"SA": 46, "SK": 46, "CA": 46})


def test_a_side_holding_only_masters_takes_every_trick() -> None:
    """The claim of a side: seat 0 alone does not hold the masters (its partner's
    diamond Ace is above its King), but together they hold every master, and
    nobody holds a trump. Whichever of them leads, the side takes the three tricks:
    54 card points and the last trick's 5, 99 to 50, a value of 49."""
    position = Position.from_dict({**CLAIM, "hands": ["SA SK DK", "SQ DQ CQ", "DA CA CK", "S6 D7 C6"]})
    assert_claimed(position, {"SA": 49, "SK": 49, "DK": 49})


def test_a_coalition_holding_only_masters_takes_every_trick() -> None:
    """Putz for 3, spades trump, seat 0 analysed, seat 2 has led the heart Ace.
    Seat 0 must follow with a low heart; seat 1 follows with the King. Seat 2 then
    leads, and the coalition's cards (diamond and club Aces and Kings) beat seat 0's
    Sixes, with no trump in play: seat 0 takes nothing more. Its points stay the
    24 it has."""
    position = Position.from_dict(
        {
            "game": "putz",
            "trump": "S",
            "hands": ["H6 H7 D6 C6", "HK DA CA C7", "DK CK D7"],
            "trick": ["HA"],
            "leader": 2,
            "tricks": [2, 2, 1],
            "scored": [24, 30, 20],
        }
    )
    assert_claimed(position, {"H6": 24, "H7": 24})


def test_an_opponents_trump_breaks_the_claim() -> None:
    """The same hands but seat 1's Six of hearts for its Six of diamonds. In Jass a
    trump may fall at any time, so the leader's masters are no longer sure.
    - After the spade Ace (or King), seat 1 holds on to the trump. Seat 2 smears the
      diamond Ace on the spade King, and the trump takes the club Ace at the end: 36
      of the 56 points left, a value of 76 - 70 = 6.
    - After the club Ace, the trump takes it. The club King is then a master: 30
      points, a value of 70 - 76 = -6.
    No claim may settle these positions: the values are the full search's."""
    position = Position.from_dict({**CLAIM, "hands": ["SA SK CA", "SQ CK H6", "S6 C6 DA", "DK DQ D7"]})
    expected = {"SA": 6, "SK": 6, "CA": -6}
    assert {str(card): value for card, value in reference_values(position).items()} == expected
    assert {m.move: m.value for m in analyse(position, engine=Engine(1)).moves} == expected


def test_a_claim_is_forced_even_where_its_side_wants_no_points() -> None:
    """Bassadewitz: seat 0, which wants the fewest points, holds the top Jack and two
    Aces, and nobody else holds a Jack. It must take the three tricks, all 58
    points left: 20 + 58 = 78 whatever it leads."""
    position = Position.from_dict(
        {
            "game": "bassadewitz",
            "hands": ["CJ SA HA", "ST HT D7", "SK HK D8", "SQ HQ D9"],
            "leader": 0,
            "tricks": [5, 0, 0, 0],
            "scored": [20, 20, 10, 12],
        }
    )
    assert_claimed(position, {"CJ": 78, "SA": 78, "HA": 78})


@pytest.mark.parametrize(
    "lever, game, seed, fields",
    [
        # a master Jack or Nine of trumps after the cards that do not take a cheap trick
        ("master_duck", "putz", 3, PUTZ),
        ("master_duck", "putz", 7, PUTZ),
        ("master_duck", "klaberjass", 5, KLABERJASS),
        # a master trump orders as a card without points among rich cards
        ("safe_master_points", "klaberjass", 5, KLABERJASS),
        ("safe_master_points", "klaberjass", 4, KLABERJASS),
        # a coalition card that takes the trick, richest first
        ("coalition_rich_wins", "putz", 3, PUTZ),
        ("coalition_rich_wins", "putz", 7, PUTZ),
        # among those, a trump over a plain card after the winners of the suit led
        ("coalition_ruffs_late", "putz", 3, PUTZ),
        ("coalition_ruffs_late", "putz", 7, PUTZ),
    ],
)
def test_move_orders_change_the_search_not_the_values(lever: str, game: str, seed: int, fields: dict) -> None:
    """The eighth round's move orders, on by default in these games: the same values."""
    position = full_deal(game, seed, **fields)
    on = analyse(position, engine=Engine(8))
    off = analyse(position, engine=Engine(8), engine_options={lever: 0})
    assert on.to_dict()["moves"] == off.to_dict()["moves"]
    assert on.nodes != off.nodes  # the lever is on by default in this game


@pytest.mark.parametrize(
    "lever, seed, trump",
    [
        # second hand: a trump on an opponent's plain lead after the cards that do not take it
        ("second_ruffs_late", 3, "S"),
        ("second_ruffs_late", 8, "H"),
        # last hand: the cards that take the partner's trick after those that do not
        ("last_keeps_winners", 3, "S"),
        ("last_keeps_winners", 2, "obenabe"),
    ],
)
def test_jass_move_orders_change_the_search_not_the_values(lever: str, seed: int, trump: str) -> None:
    """The fifteenth round's Jass orders, on by default in Jass: the same values, two
    tricks into a deal (a complete deal takes seconds)."""
    position = full_deal("jass", seed, trump=trump)
    for _ in range(8):
        position = position.play(position.legal_moves()[-1])
    on = analyse(position, engine=Engine(8))
    off = analyse(position, engine=Engine(8), engine_options={lever: 0})
    assert on.to_dict()["moves"] == off.to_dict()["moves"]
    assert on.nodes != off.nodes  # the lever is on by default in Jass


@pytest.mark.parametrize(
    "game, fields",
    [("belote", {"trump": "H"}), ("bassadewitz", {}), ("putz", {"trump": "S"}), ("klaverjas", {"trump": "H", "declarer": 0})],
)
def test_shape_table_changes_the_search_not_the_values(game: str, fields: dict) -> None:
    position = full_deal(game, 11, **fields)
    with_shapes = analyse(position, engine=Engine(8))
    without = analyse(position, engine=Engine(8), engine_options={"shape_table": 0})
    assert with_shapes.to_dict()["moves"] == without.to_dict()["moves"]
    assert with_shapes.nodes < without.nodes


@pytest.mark.parametrize("seed, rules", [(19, "rotterdam"), (24, "rotterdam"), (29, "amsterdam")])  # nats and made
def test_nat_shapes_change_the_search_not_the_values(seed: int, rules: str) -> None:
    position = full_deal("klaverjas", seed, trump="S", declarer=1, options={"rules": rules})
    with_bounds = analyse(position, engine=Engine(8))
    without = analyse(position, engine=Engine(8), engine_options={"nat_shapes": 0})
    assert with_bounds.to_dict()["moves"] == without.to_dict()["moves"]
    assert with_bounds.nodes < without.nodes


@pytest.mark.parametrize("seed", [16, 19, 23, 37, 38])
@pytest.mark.parametrize("rules, nat_on_tie", [("rotterdam", False), ("amsterdam", True)])
def test_nat_grid_changes_the_passes_not_the_values(seed: int, rules: str, nat_on_tie: bool) -> None:
    """A nat settlement's MTD(f) tests only values it can take (nats 10 apart, made
    contracts of one parity): fewer passes on deals with nat first cards, the same values."""
    from solver.compile import build_spec

    position = full_deal(
        "klaverjas", seed, trump="S", declarer=seed % 4, options={"rules": rules, "nat_on_tie": nat_on_tie}
    )
    raw = {}
    for grid in (1, 0):
        spec = build_spec(position, {"nat_grid": grid})
        spec.pop("_bits")
        raw[grid] = Engine(8).solve(spec)
    assert raw[1]["values"] == raw[0]["values"]
    assert any(abs(value) >= 162 for value in raw[1]["values"].values())  # some first cards are nat
    assert raw[1]["stats"]["passes"] < raw[0]["stats"]["passes"]


@pytest.mark.parametrize(
    "game, fields, window",
    [
        ("bassadewitz", {}, 0),  # on by default there
        ("belote", {"trump": "H"}, 5),
        ("putz", {"trump": "S"}, 5),
        ("klaverjas", {"trump": "H", "declarer": 0}, 5),  # nat settlements too
    ],
)
def test_mtdf_windows_change_the_passes_not_the_values(game: str, fields: dict, window: int) -> None:
    position = full_deal(game, 12, **fields)
    plain = analyse(position, engine=Engine(8))
    other = analyse(position, engine=Engine(8), engine_options={"mtdf_window": window})
    assert plain.to_dict()["moves"] == other.to_dict()["moves"]
    assert plain.nodes != other.nodes


@pytest.mark.parametrize(
    "game, fields, other_set",
    [
        ("belote", {"trump": "H"}, 4),  # sets of two by default
        ("bassadewitz", {}, 4),
        ("putz", {"trump": "S"}, 2),  # sets of four by default
        ("klaverjas", {"trump": "H", "declarer": 0}, 2),  # nat settlements too
    ],
)
def test_shape_sets_and_the_shape_table_alone_change_the_search_not_the_values(game: str, fields: dict, other_set: int) -> None:
    position = full_deal(game, 12, **fields)
    plain = analyse(position, engine=Engine(8))
    for options in ({"shape_alone_tricks": 0}, {"shape_alone_tricks": 8}, {"shape_set": other_set}):
        other = analyse(position, engine=Engine(8), engine_options=options)
        assert plain.to_dict()["moves"] == other.to_dict()["moves"], options
        assert plain.nodes != other.nodes, options
    with pytest.raises(ValueError, match="shape_set"):
        analyse(position, engine=Engine(8), engine_options={"shape_set": 3})


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_kept_rules_specs_give_the_specs_built_afresh(game: str) -> None:
    """build_spec keeps the rules' part of a spec; positions of the same rules must
    still get their own hands, trick, leader, scores and tricks."""
    from solver.compile import build_spec, rules_spec

    for position in random_positions(game, 2, seed=9, max_tricks=5):
        for levers in (None, {"shape_table": 0}):
            spec = build_spec(position, levers)  # the second position of a rules: kept
            fresh, bits = rules_spec(position, levers)
            assert spec["_bits"] == bits
            assert {k: v for k, v in spec.items() if k in fresh} == fresh
            assert spec["hands"] == [[bits[c] for c in hand] for hand in position.hands]
            assert spec["trick"] == [bits[c] for c in position.trick]
            assert spec["leader"] == position.leader
            assert (spec["tricks"], spec["tricks_left"]) == (list(position.tricks), position.tricks_left)
            counts_tricks = position.objective == "all_tricks" and position.rules.individual
            assert spec["scores"] == list(position.tricks if counts_tricks else position.scored)


def test_per_root_move_statistics_add_up() -> None:
    from solver.compile import build_spec

    spec = build_spec(Position.from_dict(KLAVERJAS_DEAL))
    spec.pop("_bits")
    raw = Engine(8).solve(spec)
    per_move = raw["stats"]["moves"]
    assert {bit for bit, _, _, _ in per_move} <= set(raw["values"])
    assert sum(nodes for _, nodes, _, _ in per_move) <= raw["nodes"]
    assert sum(passes for _, _, passes, _ in per_move) <= raw["stats"]["passes"]
    assert all(nodes > 0 for _, nodes, _, _ in per_move)


@pytest.mark.parametrize(
    "game, seed, fields",
    [
        ("belote", 11, {"trump": "H"}),
        ("klaverjas", 11, {"trump": "H", "declarer": 0}),
        ("klaverjas", 5, {"trump": "C", "declarer": 1, "options": {"rules": "amsterdam"}}),
        ("klaberjass", 5, KLABERJASS),
        ("putz", 3, PUTZ),
        ("bassadewitz", 2, {}),
    ],
)
def test_dominated_cards_left_out_change_the_search_not_the_values(game: str, seed: int, fields: dict) -> None:
    """prune_dominated (on by default) leaves cards out, never a value."""
    position = full_deal(game, seed, **fields)
    on = analyse(position, engine=Engine(8))
    off = analyse(position, engine=Engine(8), engine_options={"prune_dominated": 0})
    assert on.to_dict()["moves"] == off.to_dict()["moves"]
    assert on.nodes < off.nodes


def buur_and_nell_together(game: str, count: int, seed: int) -> list[Position]:
    """Positions of 2 to 4 tricks where one hand holds the trump Jack (the Buur, with
    its exception to following trumps) and the trump Nine next to it: two adjacent
    cards of different points that prune_dominated must not treat as a run."""
    rng = random.Random(f"buur-{game}-{seed}")
    positions = []
    while len(positions) < count:
        options = {"buur_exception": True, **({"players": 3} if game == "putz" else {})}
        trump = rng.choice("CSHD")
        cls = get_game(game)
        rules = cls(cls.check_options(options), trump, None)
        buur, nell = (c for rank in "J9" for c in rules.deck if c.suit == trump and c.rank == rank)
        deck = [c for c in rules.deck if c not in (buur, nell)]
        rng.shuffle(deck)
        n, k = rules.n_players, rng.randint(2, 4)
        hands = [deck[i * k : (i + 1) * k] for i in range(n)]
        holder = rng.randrange(n)
        hands[holder][:2] = [buur, nell]
        data = {
            "game": game,
            "options": options,
            "trump": trump,
            "hands": [format_cards(hand) for hand in hands],
            "leader": rng.randrange(n),
            "tricks": [rules.hand_size - k] + [0] * (rules.n_sides - 1),
            "objective": "raw" if game == "jass" else "points",
        }
        position = Position.from_dict(data)
        for _ in range(rng.randrange(n)):
            position = position.play(rng.choice(position.legal_moves()))
        positions.append(position)
    return positions


@pytest.mark.parametrize("game", ["jass", "putz"])
def test_the_buur_is_never_pruned_as_dominated(game: str) -> None:
    for position in buur_and_nell_together(game, 40, seed=1):
        expected = {str(card): value for card, value in reference_values(position).items()}
        assert {m.move: m.value for m in analyse(position, engine=Engine(1)).moves} == expected, position.to_dict()


def test_bounds_first_off_still_cuts_where_the_main_table_is_not_used() -> None:
    """With `bounds_first` off the bound cuts come after the main table's probe; from
    `shape_alone_tricks` (5) tricks left there is no probe, and they used to be left
    out there altogether, which made the lever's measurement that of no bound cuts."""
    position = next(iter(random_positions("belote", 40, seed=5, min_tricks=5, max_tricks=5)))
    assert len(position.hands[position.to_move]) == 5
    default = analyse(position, engine=Engine(1))
    late = analyse(position, engine=Engine(1), engine_options={"bounds_first": 0})
    none = analyse(position, engine=Engine(1), engine_options={"bound_cuts": 0})
    assert default.to_dict()["moves"] == late.to_dict()["moves"] == none.to_dict()["moves"]
    assert late.nodes == default.nodes < none.nodes  # with no probe, the one check is the first


def test_a_nat_search_and_its_raw_searches_never_share_a_table_key() -> None:
    """Klaverjas `score` (nat) searches raw values inside (made_or_nat and
    settle_by_raw_difference: no more roem, or a window past every nat value) in the
    same table.  A nat key holds both totals so far and a raw one none (its values are
    relative to them), so with both totals 0 the cards' words are the same: only the
    nat flag in `hi` keeps the two kinds of value apart."""
    from solver.compile import build_spec

    data = {**KLAVERJAS_DEAL, "hands": [" ".join(h.split()[:3]) for h in KLAVERJAS_DEAL["hands"]],
            "tricks": [3, 2], "leader": 2}
    engine = Engine(1)
    nat_lo, nat_hi = engine._table_key(build_spec(Position.from_dict({**data, "scored": [0, 0], "objective": "score"})))
    raw_lo, raw_hi = engine._table_key(build_spec(Position.from_dict({**data, "scored": [0, 0], "objective": "raw"})))
    assert nat_lo == raw_lo and nat_hi != raw_hi
    # the totals are part of a nat key, and not of a raw one
    scored = {**data, "scored": [20, 41]}
    assert engine._table_key(build_spec(Position.from_dict({**scored, "objective": "score"})))[0] != nat_lo
    assert engine._table_key(build_spec(Position.from_dict({**scored, "objective": "raw"}))) == (raw_lo, raw_hi)


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_a_first_move_is_searched_first_and_changes_no_value(game: str) -> None:
    """`first_move` (a time-limited hint's favourite by its estimates) only reorders the
    root: each legal card given goes first (a card merged with an equivalent one has
    its stand-in searched), and the value and every best move stay those found without."""
    from solver.analysis import has_transform
    from solver.compile import build_spec, solve

    reordered = 0
    for position in random_positions(game, 3, seed="first-move", min_tricks=3, max_tricks=4):
        if has_transform(position):
            continue  # every move is valued there (a hint goes through analyse)
        spec = build_spec(position)
        bits = spec.pop("_bits")
        searched = {m[0] for m in Engine(2).solve(dict(spec), all_moves=True, want_line=False)["stats"]["moves"]}
        natural = Engine(2).solve(dict(spec), all_moves=False, want_line=False)["stats"]["moves"][0][0]
        plain = solve(position, Engine(2), all_moves=False)
        for card in position.legal_moves():
            first = Engine(2).solve(dict(spec), all_moves=False, want_line=False, first_move=bits[card])
            if bits[card] in searched:
                assert first["stats"]["moves"][0][0] == bits[card], card
                reordered += bits[card] != natural
            found = solve(position, Engine(2), all_moves=False, first_move=card)
            assert (found.value, sorted(found.best_moves or [])) == (plain.value, sorted(plain.best_moves or [])), card
    assert reordered
