"""The timing commands of issue 3 (benchmarks/run.py, features.py, played.py): their tables and the yardstick."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks.run import goal_lines, main, paced, print_rows, yardstick, yardstick_line

from .helpers import needs_colver


def test_a_run_prints_the_sets_row_and_writes_the_json(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.json"
    assert main(["--games", "belote", "--deals", "2", "--quiet", "--yardstick", "0", "--json", str(out)]) == 0
    text = capfd.readouterr().out
    rows = [line for line in text.splitlines() if line.startswith("belote")]
    assert [row.split()[1:3] for row in rows] == [["analyse", "2"], ["value_only", "2"]]
    assert "yardstick before: none (--yardstick 0)" in text
    report = json.loads(out.read_text())
    assert report["yardstick_ms"] == {"deals": 0, "before": None, "after": None}
    assert report["yardstick_missing"] == {"before": "--yardstick 0", "after": "--yardstick 0"}
    assert report["deals_per_set"] == 2


def test_a_lever_switched_leaves_out_the_value_only_column(capfd: pytest.CaptureFixture[str]) -> None:
    """hint takes no levers: its column was printed beside the lever's analyse row as if
    the lever applied to it too."""
    argv = ["--games", "belote", "--deals", "1", "--quiet", "--yardstick", "0", "--engine-option", "merge_equivalent=0"]
    assert main(argv) == 0
    out, err = capfd.readouterr()
    rows = [line.split()[1] for line in out.splitlines() if line.startswith("belote")]
    assert rows == ["analyse"] and "the levers apply to analyse only; no value_only column" in err


def test_no_yardstick_when_asked_for_none() -> None:
    assert yardstick(0) == (None, "--yardstick 0")
    assert yardstick_line("after", 41.25, 30) == (
        "yardstick after: colver's median on 30 belote deals 41.2 ms (about 30 on this machine at its fastest)"
    )


@needs_colver
def test_the_yardstick_times_colver_in_a_child_process() -> None:
    ms, why = yardstick(2)
    assert ms is not None and 0.0 < ms < 60_000.0 and why == ""


def test_the_yardstick_says_why_it_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without colver, or when colver's run fails, the line says which."""
    from benchmarks import run

    monkeypatch.setattr(run.importlib.util, "find_spec", lambda name: None)
    ms, why = yardstick(30)
    assert ms is None and "colver is not installed" in why
    assert yardstick_line("before", ms, 30, why) == f"yardstick before: none ({why})"
    monkeypatch.setattr(run.importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(run.subprocess, "run", lambda *a, **k: run.subprocess.CompletedProcess(
        a, 1, stdout="", stderr="Traceback\nModuleNotFoundError: No module named 'colver'\n"))
    assert yardstick(30) == (None, "colver's run failed: ModuleNotFoundError: No module named 'colver'")


def test_a_paced_set_scales_its_medians_to_colvers_30_ms(capfd: pytest.CaptureFixture[str]) -> None:
    """--pace: each set's medians and 99th percentiles times 30 ms over colver's median during the set."""
    summary = {"n": 3, "median_ms": 12.0, "p90_ms": 20.0, "p99_ms": 30.0, "max_ms": 30.0, "mean_nodes": 1.0,
               "nodes_per_s": 1.0, "inexact": 0}  # fmt: skip
    row = {"set": "klaverjas-amsterdam", "analyse": summary, "value_only": {**summary, "median_ms": 6.0, "p99_ms": 9.0},
           "tt_megabytes": 8, "peak_rss_mb": 30.0}  # fmt: skip
    paced(row, [60.0, 40.0, 20.0, 45.0])  # median 42.5 ms: a slow machine
    assert row["pace"] == {"colver_median_ms": 42.5, "colver_deals": 4, "analyse_median_ms": 12.0 * 30 / 42.5,
                           "analyse_p99_ms": 30.0 * 30 / 42.5, "value_only_median_ms": 6.0 * 30 / 42.5,
                           "value_only_p99_ms": 9.0 * 30 / 42.5}  # fmt: skip
    print_rows(row)
    assert capfd.readouterr().out.splitlines()[-1] == (
        "klaverjas-amsterdam   at colver's 30 ms: analyse median 8.5 ms, p99 21.2 ms, value_only median 4.2 ms, "
        "p99 6.4 ms (colver's median meanwhile 42.5 ms)"
    )
    # over the goal on this machine's time, within it at colver's 30 ms
    assert goal_lines([row]) == [
        "goal klaverjas-amsterdam   median <= 10 ms, p99 <= 100 ms median 12.0 ms, p99 30.0 ms      NOT met; "
        "at colver's 30 ms: median 8.5 ms, p99 21.2 ms, met"
    ]
    # a paced median within the goal does not make up for a paced p99 beyond it
    row["analyse"] = {**summary, "p99_ms": 150.0}
    paced(row, [42.5])
    assert goal_lines([row])[0].endswith("at colver's 30 ms: median 8.5 ms, p99 105.9 ms, NOT met")
    # a goal without a p99 names none
    row["set"] = "putz"
    assert goal_lines([row])[0].endswith("at colver's 30 ms: median 8.5 ms, met")


def test_pacing_needs_colver(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    from benchmarks import run

    monkeypatch.setattr(run.importlib.util, "find_spec", lambda name: None)
    assert main(["--games", "belote", "--deals", "1", "--pace", "--yardstick", "0"]) == 2
    assert "--pace: colver is not installed" in capfd.readouterr().err


@needs_colver
def test_the_pacer_times_colver_deal_by_deal_in_a_child_process() -> None:
    from benchmarks.run import Pacer

    pacer = Pacer(2)
    try:
        for _ in range(3):
            pacer.step()
        times = pacer.take()
        # three deals, then the second of the two again: take finishes the round
        assert len(times) == 4 and all(0.0 < ms < 60_000.0 for ms in times) and pacer.take() == []
    finally:
        pacer.close()
    assert pacer.child.returncode == 0


def test_the_features_benchmark_compares_both_searches(capfd: pytest.CaptureFixture[str]) -> None:
    from benchmarks import features

    assert features.main(["--games", "putz", "bassadewitz", "--deals", "2"]) == 0
    rows = [line.split() for line in capfd.readouterr().out.splitlines()[1:]]
    # Bassadewitz has no trump: no trump table
    assert [row[:3] for row in rows] == [
        ["putz", "play", "2"], ["putz", "trumps", "2"], ["putz", "puzzle", "2"],
        ["bassadewitz", "play", "2"], ["bassadewitz", "puzzle", "2"],
    ]
    assert all(row[-1] == "0" for row in rows)  # no answer differs
    row = features.compare("belote", "play", 2, seed=1)
    assert row["differ"] == 0 and len(row["focused"]) == len(row["full"]) == 2


def test_the_played_benchmark_keeps_and_empties_the_tables(capfd: pytest.CaptureFixture[str]) -> None:
    from benchmarks import played

    assert played.main(["--games", "klaverjas-amsterdam", "putz", "--deals", "2"]) == 0
    rows = [line.split() for line in capfd.readouterr().out.splitlines()[1:]]
    assert [row[:3] for row in rows] == [
        ["klaverjas-amsterdam", "hints", "2"], ["klaverjas-amsterdam", "play", "2"],
        ["putz", "hints", "2"], ["putz", "play", "2"],
    ]
    assert all(row[-1] == "0" for row in rows)  # no answer differs
    row = played.compare("belote", "hints", 2, seed=1)
    assert row["differ"] == 0 and len(row["kept"]) == len(row["emptied"]) == 2


def test_the_service_deals_benchmark_runs_clients_at_once_and_alone(capfd: pytest.CaptureFixture[str]) -> None:
    from benchmarks import service_deals

    assert service_deals.main(["--game", "klaverjas-amsterdam", "--deals", "2", "--clients", "2"]) == 0
    lines = capfd.readouterr().out.splitlines()
    assert lines[0] == "klaverjas-amsterdam: 4 deals, a hint at every card, 2 workers"
    together, alone = (int(re.search(r"([\d,]+) nodes", line)[1].replace(",", "")) for line in lines[1:3])  # type: ignore[index]
    # each client's deal keeps its engine: about the nodes of one client (any free
    # engine took about 1.4 times as many; a search cut into slices may differ a little)
    assert 0 < alone and together / alone < 1.15
    assert lines[3] == f"  nodes, at once / one client: {together / alone:.3f}"


def test_the_pacer_paces_each_set_over_whole_rounds_of_its_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """colver's times differ widely between the yardstick's deals: a set paced by only
    some of them (one of 10 deals by the first 10 of 30, the next by the next 10) got a
    pace of those deals, not the machine's.  Each set's times cover whole rounds."""
    from benchmarks.run import Pacer

    # a stand-in for colver: deal i of each round takes i + 1 ms
    monkeypatch.setattr(Pacer, "CHILD", (
        "import sys\n"
        "n = int(sys.argv[1])\n"
        "for i, line in enumerate(sys.stdin):\n"
        "    print(float(i % n + 1), flush=True)\n"
    ))  # fmt: skip
    pacer = Pacer(3)
    try:
        for _ in range(2):
            pacer.step()
        assert pacer.take() == [1.0, 2.0, 3.0]  # the round finished
        pacer.step()
        assert pacer.take() == [1.0, 2.0, 3.0]  # the next set starts at the first deal
        for _ in range(3):
            pacer.step()
        assert pacer.take() == [1.0, 2.0, 3.0]  # a whole round: nothing added
    finally:
        pacer.close()


def test_each_timed_call_starts_from_an_emptied_table() -> None:
    """BENCHMARKS.md's numbers are of calls from an emptied table: the value alone,
    timed on the engine that has just analysed the same deal, would otherwise find the
    analysis's entries (belote, 20 deals: a fifteenth of the nodes, a seventh of the
    time), and no test noticed.  The nodes of each column are those of calls on
    engines of their own."""
    from benchmarks.deals import deals
    from benchmarks.run import bench_set
    from solver import Engine
    from solver.analysis import analyse, hint

    row = bench_set("belote", 3, None, None, True, False)
    fresh_analyse = [analyse(deal, engine=Engine(8)).nodes for deal in deals("belote", 3)]
    fresh_hint = [hint(deal, engine=Engine(8)).nodes for deal in deals("belote", 3)]
    assert row["analyse"]["mean_nodes"] == sum(fresh_analyse) / 3
    assert row["value_only"]["mean_nodes"] == sum(fresh_hint) / 3
