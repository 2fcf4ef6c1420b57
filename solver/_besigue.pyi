# Type stub of the compiled Bésigue engine (solver/_besigue.pyx): what Python sees.
from typing import Any

MARRIAGE: int
BESIGUE: int
DOUBLE_BESIGUE: int
FOUR: int
SEQUENCE: int
SEVEN: int

class BesigueEngine:
    """Exact double-dummy search for Bésigue with its own bounded transposition table;
    one thread at a time (see the .pyx docstring)."""

    @property
    def tt_megabytes(self) -> int: ...
    @property
    def tt_entries(self) -> int: ...
    @property
    def cancels(self) -> int: ...
    options: dict[str, int]
    def __init__(self, tt_megabytes: int = 8) -> None: ...
    @property
    def tt_bytes(self) -> int: ...
    def clear(self) -> None: ...
    def cancel(self, before_start: bool = False) -> None: ...
    def forget_cancel(self) -> None: ...
    def stats(self) -> dict[str, int]: ...
    def search(
        self,
        state: dict[str, Any],
        alpha: int = ...,
        beta: int = ...,
        node_limit: int = 0,
        time_limit: float = 0.0,
        horizon: int = 0,
    ) -> dict[str, Any]: ...

def __getattr__(name: str) -> Any: ...  # module helpers for tests
