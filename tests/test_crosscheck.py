"""benchmarks.crosscheck: the deep check's own logic (its runs are recorded in BENCHMARKS.md)."""

import io
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
