"""The move-order counting tool (benchmarks/cut_counts.py); its patch: test_measuring_builds."""

from __future__ import annotations

from benchmarks.cut_counts import kind_name


def test_kind_names_decode_the_patchs_kinds() -> None:
    # the patch's node_kind: 2 + ((place - 1) * 2 + maximising) * 12 + winner * 4 + follows * 2 + trump_led
    assert kind_name(0) == "lead, min"
    assert kind_name(1) == "lead, max"
    assert kind_name(2 + 0 * 12 + 0 * 4 + 1 * 2 + 0) == "card 2, min, opponent winning, follows, plain led"
    assert kind_name(2 + (2 * 2 + 1) * 12 + 2 * 4 + 0 * 2 + 1) == "card 4, max, own side winning, void, trump led"
