"""Many positions at once (solver.batch): the order of the answers, errors in place,
items taken as needed, an early stop."""

from __future__ import annotations

import itertools
import random
import threading
import time
from typing import Any

import pytest

from solver import PlisError, Result, analyse, analyse_many
from solver.batch import AHEAD, ordered_map
from solver.errors import CardError, OptionError

from .besigue_random import random_deal
from .test_cli import BAD_CARD, SECOND, comparable
from .test_features import EXAMPLE, deal_of

# a complete deal first: with threads, the small positions after it finish first
DEAL = {"game": "klaverjas", "trump": "H", "declarer": 0, "hands": deal_of("klaverjas", 2, "H")}
PUTZ = {"game": "putz", "trump": "S", "hands": deal_of("putz", 3, "S")}
POSITIONS: list[Any] = [DEAL, EXAMPLE, PUTZ, SECOND, EXAMPLE]


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_come_in_the_positions_order(jobs: int) -> None:
    alone = [comparable(analyse(p).to_dict()) for p in POSITIONS]
    together = [comparable(r.to_dict()) for r in analyse_many(POSITIONS, jobs=jobs) if not isinstance(r, PlisError)]
    assert together == alone
    assert [r["value"] for r in together] == [r["value"] for r in alone] and len(together) == 5


def test_an_invalid_position_stands_as_its_error_or_is_raised_in_its_place() -> None:
    positions = [EXAMPLE, BAD_CARD, SECOND]
    returned = list(analyse_many(positions, jobs=2, errors="return"))
    assert isinstance(returned[1], CardError) and returned[1].field == "hands[0][2]"
    assert [r.value for r in (returned[0], returned[2]) if not isinstance(r, PlisError)] == [-96, analyse(SECOND).value]
    results = analyse_many(positions, jobs=2)
    first = next(results)
    assert not isinstance(first, PlisError) and first.value == -96  # the result before the error comes first
    with pytest.raises(CardError):
        next(results)


def test_the_options_apply_to_every_position() -> None:
    limited = list(analyse_many([DEAL, PUTZ], node_limit=50, jobs=2))
    assert all(not isinstance(r, PlisError) and not r.exact and r.limit == "nodes" for r in limited)
    raw = next(analyse_many([DEAL], objective="raw", jobs=1))
    assert not isinstance(raw, PlisError) and raw.value == analyse(DEAL, objective="raw").value


def test_a_threads_table_set_up_counts_in_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in analyse (README: the time limit counts from the start of the call): a new
    thread's table, set up before the search to be cancellable, is within the limit."""
    import solver.batch as batch

    set_up = batch.thread_engine
    limits: list[float | None] = []

    def slow_set_up(*args: Any) -> Any:
        time.sleep(0.05)  # a cold 64 MB table
        return set_up(*args)

    def recording(position: Any, **kwargs: Any) -> Any:
        limits.append(kwargs["time_limit"])
        return analyse(position, **kwargs)

    monkeypatch.setattr(batch, "thread_engine", slow_set_up)
    monkeypatch.setattr(batch, "analyse", recording)
    results = list(analyse_many([EXAMPLE, SECOND], time_limit=5.0, jobs=2))
    assert len(results) == 2 and len(limits) == 2
    assert all(limit is not None and limit <= 4.95 for limit in limits), limits


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"jobs": -1}, "jobs"), ({"jobs": 1.5}, "jobs"), ({"jobs": False}, "jobs"), ({"errors": "skip"}, "errors"),
        ({"jobs": 10**6}, "jobs"),  # a table each: far more memory than the machine has
        ({"jobs": 2, "tt_megabytes": 20_000}, "jobs"), ({"jobs": 2, "tt_megabytes": 10**9}, "tt_megabytes"),
    ],
)  # fmt: skip
def test_bad_options_are_refused_at_once(options: dict[str, Any], field: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the memory held fixed: 20,000 MB once fits, twice does not, however much the
    # machine has free now (a busy machine had made it the table's error, not the jobs')
    import solver.batch
    import solver.errors

    for module in (solver.batch, solver.errors):
        monkeypatch.setattr(module, "memory_megabytes", lambda: 24_000)
    monkeypatch.setattr(solver.errors, "spare_megabytes", lambda: 22_000)
    with pytest.raises(OptionError) as info:
        analyse_many([EXAMPLE], **options)
    assert info.value.field == field


def test_items_are_taken_as_they_are_needed() -> None:
    taken = []

    def numbers() -> Any:
        for n in itertools.count():
            taken.append(n)
            yield n

    squares = ordered_map(lambda n: n * n, numbers(), jobs=3)
    assert list(itertools.islice(squares, 10)) == [n * n for n in range(10)]
    assert len(taken) <= 10 + AHEAD * 3  # an endless iterator: only a few ahead
    squares.close()


def test_an_early_stop_drops_the_items_not_started() -> None:
    started = []
    lock = threading.Lock()

    def slow(n: int) -> int:
        with lock:
            started.append(n)
        time.sleep(0.02)
        return n

    answers = ordered_map(slow, range(100), jobs=2)
    assert next(answers) == 0
    answers.close()  # waits for the running calls, cancels the rest
    count = len(started)
    time.sleep(0.1)
    assert len(started) == count <= AHEAD * 2 + 1


def test_an_exception_of_the_function_is_raised_in_its_place() -> None:
    def fail_on_three(n: int) -> int:
        if n == 3:
            raise RuntimeError("three")
        return n

    answers = ordered_map(fail_on_three, range(8), jobs=2)
    assert [next(answers) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(RuntimeError, match="three"):
        next(answers)


def test_an_answer_does_not_wait_for_the_next_item() -> None:
    """An app feeding positions one at a time gets each answer before it sends the next."""
    answered = threading.Event()

    def positions() -> Any:
        yield 1
        assert answered.wait(30), "the first answer waited for the second item"
        yield 2

    for background, jobs in ((False, 2), (True, 1), (True, 3)):
        answered.clear()
        answers = ordered_map(lambda n: n * 10, positions(), jobs, background=background)
        assert next(answers) == 10
        answered.set()
        assert list(answers) == [20]


def test_an_exception_of_the_items_is_raised_in_its_place() -> None:
    def numbers() -> Any:
        yield from range(3)
        raise OSError("the file went away")

    answers = ordered_map(lambda n: n, numbers(), jobs=2)
    assert [next(answers) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(OSError, match="went away"):
        next(answers)


def test_a_stop_of_fn_is_an_error_not_the_end_of_the_answers() -> None:
    """With one job, a StopIteration of fn's used to end the answers early, unseen."""

    def stop_on_two(n: int) -> int:
        if n == 2:
            raise StopIteration
        return n

    for jobs in (1, 2):
        answers = ordered_map(stop_on_two, range(5), jobs)
        assert [next(answers), next(answers)] == [0, 1]
        with pytest.raises(RuntimeError):
            next(answers)


@pytest.mark.parametrize("how", ["close", "break"])
def test_an_early_stop_stops_the_searches_running(how: str) -> None:
    """Whole Bésigue deals are beyond exact search: stopping the batch used to wait
    for them, that is for ever; now it cancels them."""
    endless = [random_deal(random.Random(seed)).to_dict() for seed in range(4)]
    quick = {"game": "belote", "trump": "H", "hands": ["HJ H9", "HT HK", "HQ H8", "H7 SJ"], "tricks": [3, 3]}
    done = threading.Event()

    def consume() -> None:
        results = analyse_many([quick, *endless], jobs=2)
        for result in results:
            assert isinstance(result, Result) and result.exact
            if how == "break":
                break
            results.close()
        done.set()

    threading.Thread(target=consume, daemon=True).start()
    assert done.wait(30), "the stop waited for the searches"


def test_the_callers_own_engine_is_not_cancelled_by_a_stop() -> None:
    """With one job the positions are searched in the caller's thread, on its engines."""
    position = {"game": "belote", "trump": "H", "hands": ["HJ H9", "HT HK", "HQ H8", "H7 SJ"], "tricks": [3, 3]}
    results = analyse_many([position, position], jobs=1)
    next(results)
    results.close()
    assert analyse(position).exact and analyse(position).limit is None
