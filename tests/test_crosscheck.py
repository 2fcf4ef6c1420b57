"""benchmarks.crosscheck: the deep check's own logic (its runs are recorded in BENCHMARKS.md)."""

import io
from dataclasses import replace
from types import SimpleNamespace

from benchmarks import crosscheck


def test_leave_out_finds_only_the_lever_that_changes_a_value(monkeypatch):
    real_analyse = crosscheck.analyse

    def analyse(position, engine, engine_options=None):
        result = real_analyse(position, engine=engine, engine_options=engine_options)
        moves = [SimpleNamespace(move=m.move, value=m.value) for m in result.moves]
        if engine_options == {"claims": 0}:  # an unsound lever: without it, one value moves
            moves[0].value += 1
        return SimpleNamespace(moves=moves)

    monkeypatch.setattr(crosscheck, "analyse", analyse)
    out = io.StringIO()
    assert crosscheck.crosscheck("belote", 1, 2, 2, seed=1, out=out, leave_out=("bound_cuts",)) == 0
    assert "0 differ" in out.getvalue()
    out = io.StringIO()
    differ = crosscheck.crosscheck("belote", 1, 2, 2, seed=1, out=out, leave_out=("bound_cuts", "claims"))
    assert differ > 0
    assert "claims off" in out.getvalue() and "bound_cuts off" not in out.getvalue()


def test_every_cut_lever_is_a_lever_and_no_order_lever_is_one():
    assert set(crosscheck.CUT_LEVERS) <= set(crosscheck.ENGINE_OPTIONS)
    assert not set(crosscheck.CUT_LEVERS) & set(crosscheck.ORDER_LEVERS)
    assert {"bound_cuts", "claims", "shape_table", "run_margins", "prune_dominated"} <= set(crosscheck.CUT_LEVERS)


def test_exact_moves_mode_checks_the_focused_analysis(monkeypatch):
    out = io.StringIO()
    assert crosscheck.crosscheck("jass", 1, 2, 3, seed=1, out=out, exact_moves=True) == 0
    assert "0 differ" in out.getvalue()
    real_analyse = crosscheck.analyse

    def analyse(position, engine, exact_moves=None):
        result = real_analyse(position, engine=engine, exact_moves=exact_moves)
        if exact_moves is None:
            return result
        # a focused analysis whose exact values are all one too high
        moves = tuple(m if m.value is None else replace(m, value=m.value + 1) for m in result.moves)
        return replace(result, moves=moves)

    monkeypatch.setattr(crosscheck, "analyse", analyse)
    out = io.StringIO()
    assert crosscheck.crosscheck("jass", 1, 2, 3, seed=1, out=out, exact_moves=True) > 0
    assert "valued" in out.getvalue()


def test_the_reported_tricks_left_are_those_a_game_can_have():
    # belote hands hold 8 cards: asked for 9 tricks left, it gets (and says) 8
    out = io.StringIO()
    assert crosscheck.crosscheck("belote", 1, 9, 9, seed=1, out=out, exact_moves=True) == 0
    assert "4 positions, 8-8 tricks left: 0 differ" in out.getvalue()
