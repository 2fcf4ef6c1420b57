"""The benchmark commands as a new contributor meets them: fixed deal sets, statistics
that compute what they say, and bad arguments refused before any work, by name."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from benchmarks import (
    besigue_bench,
    builds,
    call_cost,
    crosscheck,
    cut_counts,
    deals,
    features,
    hint_quality,
    leaf_fit,
    levers,
    midgame,
    oracles,
    played,
    run,
    service_bench,
    service_deals,
    vs_colver,
)
from benchmarks.deals import DEAL_SETS

from .helpers import needs_colver


def refused(main: Callable[[list[str]], Any], argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The argparse error `main(argv)` stops with (status 2, no traceback), after a usage
    line that names the command as it is run."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: python -m {main.__module__} ")
    return err.splitlines()[-1]


def test_every_set_is_fixed_and_has_200_playable_deals_with_their_trump_and_contract() -> None:
    from solver.position import load_position

    for key, deal_set in DEAL_SETS.items():
        sample = deals.deals(key, 200)
        assert sample == deals.deals(key, 200) and sample[:7] == deals.deals(key, 7)  # the first n never change
        assert len({str(d) for d in sample}) == 200
        for deal in sample:
            assert load_position(deal).to_move == 0
            assert ("trump" in deal) == bool(deal_set.trumps)
            if deal_set.contract_field is not None:
                assert deal[deal_set.contract_field] in range(deal_set.players)


def test_nearest_rank_percentiles_and_the_summary_by_hand() -> None:
    assert [run.percentile([1.0, 2.0, 3.0, 4.0, 5.0], p) for p in (1, 20, 21, 50, 90, 99, 100)] == [1, 1, 2, 3, 5, 5, 5]
    ten = [float(t) for t in range(1, 11)]
    assert run.percentile(ten, 90) == 9.0 and run.percentile(ten, 99) == 10.0
    column = run.Column(times_ms=[4.0, 1.0, 3.0, 2.0], nodes=[100, 200, 300, 400])
    summary = column.summary()
    assert (summary["median_ms"], summary["p90_ms"], summary["max_ms"]) == (2.5, 4.0, 4.0)
    assert summary["mean_nodes"] == 250.0 and summary["nodes_per_s"] == 1000 / 0.010
    assert run.Column(times_ms=[0.0], nodes=[5]).summary()["nodes_per_s"] is None  # no time: no rate
    assert besigue_bench.nearest_rank(ten, 0.9) == 9.0 and besigue_bench.nearest_rank(ten, 0.91) == 10.0


SHORT_RUN = ["--games", "belote", "--deals", "1", "--quiet", "--yardstick", "0", "--no-value-only"]
SHORT_SERVICE = ["--positions", "1", "--clients", "1", "--seconds", "0.2"]
BAD_ARGUMENTS = [
    (hint_quality.main, ["--limits", "0"], "--limits: must be a finite number of seconds above 0, got 0"),
    (run.main, ["--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (run.main, ["--tt-megabytes", "0"], "argument --tt-megabytes: must be a whole number of megabytes, at least 1"),
    (run.main, ["--time-limit", "0"], "argument --time-limit: must be a finite number of seconds above 0, got 0"),
    (run.main, ["--engine-option", "merge_equivalent=x"], "argument --engine-option: merge_equivalent: must be a whole"),
    (run.main, ["--engine-option", "merge_equivalnt=0"], "argument --engine-option: unknown lever 'merge_equivalnt'"),
    (levers.main, ["--deals", "-1", "-"], "argument --deals: must be at least 1, got -1"),
    (levers.main, ["-", "claims=2,bogus=0"], "argument settings: unknown lever 'bogus'"),
    (midgame.main, ["--games", "belote", "--tricks", "8", "-"], "--tricks: a belote deal has 8 tricks, give at most 7"),
    (midgame.main, ["--games", "jass", "--deals", "0", "-"], "argument --deals: must be at least 1, got 0"),
    (cut_counts.main, ["--game", "putz", "--tricks", "9"], "--tricks: a putz deal has 9 tricks, give at most 8"),
    (cut_counts.main, ["bounds_first=x"], "argument setting: bounds_first: must be a whole number, got 'x'"),
    (played.main, ["--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (leaf_fit.main, ["--positions", "0"], "argument --positions: must be at least 1, got 0"),
    (features.main, ["--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (call_cost.main, ["--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (call_cost.main, ["--rounds", "0"], "argument --rounds: must be at least 1, got 0"),
    (oracles.main, ["ceiling", "--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (deals.main, ["--deals", "-3"], "argument --deals: must be at least 1, got -3"),
    (builds.main, [".", "--deals", "0"], "argument --deals: must be at least 1, got 0"),
    (crosscheck.main, ["--min-tricks", "4", "--max-tricks", "3"], "--min-tricks 4 is more than --max-tricks 3"),
    (crosscheck.main, ["--min-tricks", "0"], "argument --min-tricks: must be at least 1, got 0"),
    (crosscheck.main, ["--max-tricks", "99"], "--max-tricks 99 is more than a full hand of these games (9 tricks)"),
    (crosscheck.main, ["--games", "belote", "--max-tricks", "9"], "more than a full hand of these games (8 tricks)"),
    (vs_colver.main, ["--deals", "-1"], "argument --deals: must be at least 0, got -1"),
    (besigue_bench.main, ["--deals", "1", "--levels", "3"], "argument --levels: invalid choice: 3"),
    (besigue_bench.main, ["--tt-megabytes", "1", "--option", "bound=0"], "--option: unknown option 'bound'"),
    (service_bench.main, ["--positions", "0"], "argument --positions: must be at least 1, got 0"),
    (service_bench.main, ["--clients", "0"], "argument --clients: must be at least 1, got 0"),
    (service_bench.main, ["--seconds", "0"], "argument --seconds: must be a finite number of seconds above 0, got 0"),
    (service_bench.main, ["--tricks-left", "5", "3"], "--tricks-left: give FEWEST <= MOST <= 8"),
    (service_deals.main, ["--clients", "0"], "argument --clients: must be at least 1, got 0"),
    (service_deals.main, ["--game", "besigue", "--talon", "99"], "--talon: a Bésigue talon holds at most 46 cards, got 99"),
    (service_deals.main, ["--game", "jass", "--talon", "4"], "--talon: only Bésigue has a talon, not jass"),
    # a JSON file that cannot be written: refused at once, not with a traceback after the
    # run (its numbers lost; the short runs here keep a build without the check quick)
    (run.main, [*SHORT_RUN, "--json", "/nonexistent-dir/run.json"], "argument --json: no such directory: /nonexistent-dir"),
    (run.main, [*SHORT_RUN, "--json", "."], "argument --json: . is a directory"),
    (service_bench.main, [*SHORT_SERVICE, "--json", "/nonexistent-dir/s.json"], "argument --json: no such directory"),
]


@pytest.mark.parametrize(
    ("main", "argv", "said"),
    BAD_ARGUMENTS,
    ids=[f"{main.__module__.split('.')[-1]} {' '.join(argv)}" for main, argv, _ in BAD_ARGUMENTS],
)
def test_a_bad_argument_is_refused_by_name_before_any_work(
    main: Callable[[list[str]], Any], argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert said in refused(main, argv, capsys)


def test_the_warm_up_keeps_no_idle_table_in_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # the thread's default engine, made by the warm-up and never used again, held
    # 8 MB in the RSS reported for every set (each set runs on its own engine)
    import solver.analysis

    def no_thread_engine(tt_megabytes: int) -> Any:
        raise AssertionError(f"a thread engine of {tt_megabytes} MB was made")

    monkeypatch.setattr(solver.analysis, "_engine", no_thread_engine)
    assert run.main(["--games", "belote", "--deals", "1", "--quiet", "--yardstick", "0", "--no-value-only"]) == 0


@needs_colver
def test_vs_colver_builds_its_table_before_the_first_timed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import solver.analysis

    real = vs_colver.our_values
    ready: list[bool] = []

    def timed(position: Any, tt_megabytes: int) -> Any:
        ready.append(tt_megabytes in getattr(solver.analysis._local, "engines", {}))
        return real(position, tt_megabytes)

    monkeypatch.setattr(vs_colver, "our_values", timed)
    status: list[int] = []
    # a thread of its own: its engines are new, whatever ran before in this process
    thread = threading.Thread(target=lambda: status.append(vs_colver.compare(2, 2, False, io.StringIO())))
    thread.start()
    thread.join()
    assert status == [0] and ready == [True, True]


def test_played_compares_values_not_the_line_of_best_play(capsys: pytest.CaptureFixture[str]) -> None:
    """Kept tables may follow another line of best play, as good: the check compared the
    lines too, so README's command failed on right answers (Jass: 1 of 2 deals)."""
    assert played.main(["--games", "jass", "--kinds", "play", "--deals", "2"]) == 0
    assert "differ" in capsys.readouterr().out


def test_builds_refuses_a_checkout_that_is_not_there_or_not_built(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(builds.main, [str(tmp_path / "nowhere")], capsys).endswith("no such directory: " + str(tmp_path / "nowhere"))
    (tmp_path / "solver").mkdir()
    assert "no built engine in solver/" in refused(builds.main, [str(tmp_path)], capsys)


def test_hint_quality_measures_the_loss_of_the_move_named() -> None:
    """Without time to spare every hint is exact and names a best move; at a limit too
    short to solve a Jass deal a move is still named, some by the estimates alone."""
    roomy, short = hint_quality.measure("belote", 3, [10.0, 0.001])
    assert (roomy.best, roomy.mean_loss, roomy.max_loss, roomy.exact, roomy.by_estimates) == (3, 0, 0, 3, 0)
    assert short.deals == 3 and 0 <= short.best <= 3 and short.max_loss >= 0
    (jass,) = hint_quality.measure("jass", 1, [0.002])
    assert (jass.exact, jass.by_estimates) == (0, 1)
    (nodes,) = hint_quality.measure("jass", 1, [1_000])
    assert (nodes.exact, nodes.by_estimates) == (0, 1) and nodes.line().split()[1:3] == ["1000", "n"]
    assert "best" in roomy.line() and "by estimates" in roomy.line()


def test_hint_quality_measures_limited_trump_tables() -> None:
    """With time to spare every entry is solved and the choice loses nothing; at a
    limit too short for a Jass deal the entries are left with bounds that hold."""
    (roomy,) = hint_quality.measure_trumps("belote", 2, [10.0])
    assert (roomy.entries, roomy.unsolved, roomy.outside, roomy.loss_by_estimate, roomy.loss_by_lower) == (8, 0, 0, 0, 0)
    assert roomy.median_error is None and "trumps" in roomy.line()
    (short,) = hint_quality.measure_trumps("jass", 1, [0.002])
    assert short.entries == 6 and short.unsolved > 0 and short.outside == 0
    assert short.median_error is not None and short.loss_by_estimate >= 0


def test_hint_quality_measures_the_estimates_of_limited_analyses() -> None:
    """A limit too short to value a Jass deal leaves every first card unsolved, each
    with an estimate; with time to spare nothing is unsolved and there is no row."""
    known = hint_quality.exact_values("jass", 1)
    (row,) = hint_quality.measure_analyses("jass", 1, [0.002], known)
    assert row.unsolved == row.moves == len(known[1][0]) > 1
    assert 0 <= row.median_error <= row.mean_error * 2 and row.mean_midpoint >= 0
    assert "estimate error" in row.line()
    assert hint_quality.measure_analyses("belote", 2, [10.0]) == []


def test_vs_colver_alternates_prints_each_ratio_and_their_median_and_fails_on_a_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's comparison, with both solvers stood in for: plis first on even deals,
    colver first on odd ones; the ratio plis/colver per deal and its median; a value
    that differs is a failure (status 1), named by its card."""
    import io
    import statistics

    calls: list[str] = []
    plis_ms, colver_ms = [3.0, 1.0, 8.0], [6.0, 4.0, 2.0]
    values = {"SA": 100, "S7": 80}

    def ours(position: Any, tt_megabytes: int) -> Any:
        calls.append("plis")
        return dict(values), plis_ms[(calls.count("plis") - 1) % 3], 10

    def theirs(env: Any) -> Any:
        calls.append("colver")
        return dict(values), colver_ms[(calls.count("colver") - 1) % 3]

    monkeypatch.setattr(vs_colver, "engine_available", lambda: None)
    monkeypatch.setattr(vs_colver, "warm_up", lambda tt_megabytes: None)
    monkeypatch.setattr(vs_colver, "colver_env", lambda deal, played=(): None)
    monkeypatch.setattr(vs_colver, "our_values", ours)
    monkeypatch.setattr(vs_colver, "colver_values", theirs)
    out = io.StringIO()
    assert vs_colver.compare(3, 8, False, out) == 0
    assert calls == ["plis", "colver", "colver", "plis", "plis", "colver"]
    text = out.getvalue()
    ratios = [p / c for p, c in zip(plis_ms, colver_ms)]
    for i, ratio in enumerate(ratios):
        assert f"deal {i:4}" in text and f"ratio {ratio:7.3f}  ok" in text
    assert f"ratio plis/colver: median {statistics.median(ratios):.3f}," in text
    assert "deals whose values differ: 0" in text

    values_theirs = {"SA": 100, "S7": 81}  # one card one point apart
    monkeypatch.setattr(vs_colver, "colver_values", lambda env: (dict(values_theirs), 5.0))
    out = io.StringIO()
    assert vs_colver.compare(2, 8, False, out) == 1
    assert out.getvalue().count("MISMATCH on S7") == 2 and "deals whose values differ: 2" in out.getvalue()


def test_vs_colver_without_the_plis_engine_times_colver_alone_and_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without our engine nothing is compared: colver is still timed, but the run says so
    and ends with status 2, not as a comparison that passed."""
    import io

    monkeypatch.setattr(vs_colver, "engine_available", lambda: "no module named solver._engine")
    monkeypatch.setattr(vs_colver, "colver_env", lambda deal, played=(): None)
    monkeypatch.setattr(vs_colver, "colver_values", lambda env: ({"SA": 100}, 4.0))

    def ours(position: Any, tt_megabytes: int) -> Any:
        raise AssertionError("our engine is not there to call")

    monkeypatch.setattr(vs_colver, "our_values", ours)
    out = io.StringIO()
    assert vs_colver.compare(2, 8, False, out) == 2
    text = out.getvalue()
    assert text.startswith("plis engine not available (no module named solver._engine): timing colver alone")
    assert "colver median 4.0 ms" in text and "no value compared: the plis engine is not available" in text
