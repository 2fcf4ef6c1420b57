"""Threads: solving at once shares nothing, a shared engine is refused, a cancel leaves
nothing wrong behind (the standards: no global mutable solver state)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from solver import (
    BesigueEngine,
    Engine,
    analyse,
    analyse_many,
    analyse_play,
    analysis,
    hint,
    trump_table,
    verify_puzzle,
)
from solver.besigue import BesiguePosition

from .besigue_random import random_deal, random_move, random_position
from .randompos import random_positions
from .test_engine import full_deal
from .test_features import deal_of, klaberjass_play


def _answer(result: Any) -> Any:
    """What a call reports, but its nodes and time (which depend on the table's history)."""
    data = result.to_dict()
    for key in ("nodes", "time_ms"):
        data.pop(key, None)
    return data


def _late_positions() -> list[Any]:
    positions: list[Any] = []
    for game in ("belote", "klaverjas", "klaberjass", "jass", "putz", "bassadewitz"):
        positions += list(random_positions(game, 1, seed=21, max_tricks=4, min_tricks=2))[:3]
    rng = random.Random(21)
    return positions + [random_position(rng, talon) for talon in (0, 2)]


def _calls() -> list[tuple[str, Callable[[], Any]]]:
    """Every entry point, with and without an engine of the caller's (one per thread)."""
    own = threading.local()

    def engine(position: Any) -> Any:
        kind = BesigueEngine if isinstance(position, BesiguePosition) else Engine
        if not hasattr(own, kind.__name__):
            setattr(own, kind.__name__, kind(2))
        return getattr(own, kind.__name__)

    calls: list[tuple[str, Callable[[], Any]]] = []
    for i, p in enumerate(_late_positions()):
        last = str(p.legal_moves()[-1])
        calls += [
            (f"analyse {i}", lambda p=p: analyse(p)),
            (f"analyse exact_moves {i}", lambda p=p, m=last: analyse(p, exact_moves=[m])),
            (f"analyse engine {i}", lambda p=p: analyse(p, engine=engine(p))),
            (f"hint {i}", lambda p=p: hint(p)),
            (f"hint engine {i}", lambda p=p: hint(p, engine=engine(p))),
            (f"verify_puzzle {i}", lambda p=p, m=last: verify_puzzle(p, {"best": [m]})),
            (f"verify_puzzle engine {i}", lambda p=p, m=last: verify_puzzle(p, {"best": [m]}, engine=engine(p))),
        ]
    play = klaberjass_play(2)
    deal = {"game": "belote", "deal": deal_of("belote", 3)}
    calls += [
        ("analyse_play", lambda: analyse_play(play, first=10)),
        ("analyse_play engine", lambda: analyse_play(play, first=10, engine=engine(None))),
        ("trump_table", lambda: trump_table(deal)),
        ("trump_table engine", lambda: trump_table(deal, engine=engine(None))),
        ("trump_table jobs", lambda: trump_table(deal, jobs=2)),
        ("analyse_many", lambda: [_answer(r) for r in analyse_many(_late_positions()[:6], jobs=2)]),
    ]
    return calls


def _run(call: Callable[[], Any]) -> Any:
    found = call()
    return found if isinstance(found, list) else _answer(found)


def test_every_entry_point_on_several_threads_at_once_answers_as_alone() -> None:
    calls = _calls()
    alone: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: alone.update((name, _run(call)) for name, call in calls))
    thread.start()
    thread.join()
    differences: list[str] = []
    failures: list[BaseException] = []

    def work(seed: int) -> None:
        order = list(calls)
        random.Random(seed).shuffle(order)
        for name, call in order:
            try:
                if _run(call) != alone[name]:
                    differences.append(name)
            except BaseException as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    assert not differences


def test_an_engine_busy_in_another_thread_is_refused_by_every_entry_point() -> None:
    engine = Engine(1)
    deal = full_deal("jass", 5, trump="D")  # more than 5 s of search: busy for the whole limit
    small = {"game": "belote", "trump": "H", "hands": ["HJ SA", "H9 C7", "S8 D7", "S7 DA"], "scored": [50, 46],
             "tricks": [3, 3]}
    started = threading.Event()

    def long_search() -> None:
        started.set()
        analyse(deal, engine=engine, time_limit=1.5)

    holder = threading.Thread(target=long_search)
    holder.start()
    started.wait()
    threading.Event().wait(0.2)
    refusals = []
    for call in (
        lambda: analyse(small, engine=engine),
        lambda: hint(small, engine=engine),
        lambda: verify_puzzle(small, {"best": ["HJ"]}, engine=engine),
        lambda: analyse_play(klaberjass_play(2), engine=engine, first=16),
        lambda: trump_table({"game": "klaberjass", "deal": deal_of("klaberjass", 9)}, engine=engine),
    ):
        try:
            call()
        except RuntimeError as exc:
            refusals.append(str(exc))
    holder.join()
    assert len(refusals) == 5 and all("another thread" in r for r in refusals)
    assert analyse(small, engine=engine).exact  # free again once that search is done


class CancelledInTheLine(Engine):
    """An engine whose cancel() lands while it follows the line of best play, once every
    move is valued: it reports, as the engine then does, the limit "cancelled", no best
    move, and the line's first moves with the scores where it stopped."""

    def solve(self, spec: dict[str, Any], *args: Any) -> dict[str, Any]:
        raw: dict[str, Any] = super().solve(spec, *args)
        if raw["line"]:
            raw.update(limit="cancelled", best=None, value=None, best_moves=[], line=raw["line"][:1],
                       line_scores=[0] * len(raw["line_scores"]))
        return raw


def test_a_cancel_while_the_line_is_followed_gives_no_points() -> None:
    """A cancel that landed while the engine followed the line of best play gave the
    scores where the line stopped as the result's `points` (a Putz deal: (0, 0, 18, 0, 0)
    for (52, 26, 18, 0, 51)): a limited result has none (README)."""
    position = next(iter(random_positions("belote", 1, seed=3, max_tricks=4, min_tricks=4)))
    exact = analyse(position, engine=Engine(1))
    values = {m.move: m.value for m in exact.moves}
    analysed = analyse(position, engine=CancelledInTheLine(1))
    verdict = verify_puzzle(position, {"best": [exact.best[0]]}, engine=CancelledInTheLine(1))
    for found in (analysed, verdict.result):
        assert found is not None and not found.exact and found.limit == "cancelled"
        assert found.points is None and found.line == ()
        assert all(m.value == values[m.move] for m in found.moves if m.value is not None)  # the values stand
    # every move was valued before the line began: none of the values is lost, nor the
    # claimed move's in the puzzle (the other is only shown worse there)
    assert [(m.move, m.value) for m in analysed.moves] == [(m.move, m.value) for m in exact.moves]
    assert [(m.move, m.value) for m in verdict.claimed] == [(exact.best[0], values[exact.best[0]])]


class BesigueCancelledInTheLine(BesigueEngine):
    """A Bésigue engine cancelled as the line of best play begins (its searches' windows
    are two wide; no other search of the analysis has such a window)."""

    def search(self, state: dict[str, Any], alpha: int = -(1 << 20), beta: int = 1 << 20, **limits: Any) -> Any:
        if beta - alpha == 2:
            self.cancel()
        return super().search(state, alpha, beta, **limits)


def test_a_besigue_cancel_while_the_line_is_followed_makes_the_result_not_exact() -> None:
    """It gave an exact result (no limit) without its points, which an exact result always
    has (README); as in the card games, the values stand and the limit says "cancelled"."""
    position = random_position(random.Random(5), 4)
    exact = analyse(position, engine=BesigueEngine(2))
    found = analyse(position, engine=BesigueCancelledInTheLine(2))
    assert exact.exact and exact.points is not None
    assert not found.exact and found.limit == "cancelled" and found.points is None
    assert [(m.move, m.value) for m in found.moves] == [(m.move, m.value) for m in exact.moves]
    assert found.value == exact.value and found.best == exact.best
    # a hint follows no line (its result has none): the same cancel leaves it exact
    found_hint = hint(position, engine=BesigueCancelledInTheLine(2))
    assert found_hint.exact and found_hint == hint(position, engine=BesigueEngine(2))


def test_a_besigue_analysis_keeps_no_card_game_table_in_its_thread() -> None:
    """verify_puzzle and analyse_play on a Bésigue position made the thread an 8 MB
    card-game engine that no search used (the search runs on its BesigueEngine)."""
    position = random_position(random.Random(4), 0)
    played = random_deal(random.Random(5))
    rng = random.Random(6)
    while len(played.talon) > 2 or played.to_declare is not None:
        played = played.play(random_move(rng, played))
    kept: list[Any] = []

    def work() -> None:
        verify_puzzle(position, {"best": [str(position.legal_moves()[0])]})
        analyse_play(played.to_deal_dict(), first=len(played.played) - 2)
        kept.append(dict(getattr(analysis._local, "engines", {})))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert kept == [{}]
