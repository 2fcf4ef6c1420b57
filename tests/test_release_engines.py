"""A thread's kept engines can be let go: release_engines() frees their tables."""

from __future__ import annotations

import gc
import random
import sys
import threading

from solver import BesigueEngine, Engine, analyse, hint
from solver.analysis import estimate_engine, release_engines, thread_engine
from solver.besigue import BesiguePosition
from solver.position import Position

from .besigue_random import random_position

JASS_DEAL = {
    "game": "jass", "trump": "D",
    "hands": ["CT C9 C6 ST S9 HJ HT DK D7", "CK CJ S7 HK HQ H9 DA DQ DJ", "C8 C7 SQ S8 S6 H8 H7 D9 D8",
              "CA CQ SA SK SJ HA H6 DT D6"],
}  # fmt: skip
SMALL = {"game": "belote", "trump": "H", "hands": ["HJ SA", "H9 C7", "S8 D7", "S7 DA"], "leader": 0,
         "scored": [50, 46], "tricks": [3, 3]}  # fmt: skip


def rss_megabytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


def alive(ids: set[int]) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, (Engine, BesigueEngine)) and id(o) in ids)


def test_release_engines_frees_what_a_thread_keeps() -> None:
    """A thread keeps up to 81 MB of tables until it ends (the card games' 64 and 8 MB,
    the estimates' 1, Bésigue's 8): a long-lived thread had no way to let them go."""
    besigue = random_position(random.Random(1), 0, 2)
    assert isinstance(besigue, BesiguePosition)
    out: dict[str, object] = {}

    def work() -> None:
        analyse(JASS_DEAL, node_limit=2000)  # the 64 MB engine
        analyse(SMALL)  # the 8 MB one
        hint(SMALL, time_limit=0.5)
        analyse(besigue, node_limit=2000)  # the Bésigue engine
        ids = {
            id(thread_engine(Position.from_dict(JASS_DEAL), None)),
            id(thread_engine(Position.from_dict(SMALL), None)),
            id(estimate_engine()),
            id(thread_engine(besigue, None)),
        }
        out["before"] = alive(ids), rss_megabytes()
        out["released"] = release_engines()
        out["after"] = alive(ids), rss_megabytes()
        out["again"] = analyse(SMALL).value  # the thread goes on: new engines are made

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert out["before"][0] == 4
    assert out["released"] == 64 + 8 + 1 + 8
    assert out["after"][0] == 0
    if sys.platform.startswith("linux"):
        assert out["before"][1] - out["after"][1] >= 60, (out["before"], out["after"])
    assert out["again"] == analyse(SMALL).value
