"""Positions that kill plausible engine bugs the rest of the suite let through.

Each test was found by mutation testing (a small change to solver/_engine.pyx, built in
a scratch copy): with the change the engine's value differs from the reference search's,
and no other test failed.  The docstrings name the change.
"""

from __future__ import annotations

from solver import analyse
from solver.position import Position
from solver.reference import reference_values

# the main table and the full search in positions small enough for the reference
# (as in test_engine_vs_reference.DEEP_PATHS)
DEEP_PATHS = {"shape_alone_tricks": 0, "endgame_tricks": 0}


def _check(data: dict, expected: dict[str, int]) -> None:
    position = Position.from_dict(data)
    assert {str(card): value for card, value in reference_values(position).items()} == expected
    for options in (DEEP_PATHS, None):
        got = {m.move: m.value for m in analyse(position, engine_options=options).moves}
        assert got == expected, options


def test_a_nat_shape_bound_widens_by_what_this_total_ends_higher() -> None:
    """Kills nat_bounds using `above` for `below` in the declarers' lower bound
    (`lo[0] = e.lower - above`): a position of the same shape whose totals will end
    higher lends its lower bound unwidened, and CQ came out 169, not 189."""
    data = {
        "game": "klaverjas",
        "options": {"rules": "amsterdam", "roem_order": "natural", "nat_on_tie": True},
        "trump": "S",
        "declarer": 2,
        "hands": ["SK H8 H7 D7", "CA S9 DK D8", "CK S8 DQ D9", "CQ CT SA ST"],
        "trick": [],
        "leader": 3,
        "scored": [36, 49],
        "tricks": [0, 4],
        "objective": "score",
    }
    _check(data, {"CQ": 189, "CT": 169, "SA": 289, "ST": 309})
