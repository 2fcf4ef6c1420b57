"""The plis gRPC service (proto/plis/v1/plis.proto).

- `service.server`: the asyncio server (`plis serve`), `PlisServer`, `BackgroundServer`.
- `service.client`: `Client` and `AsyncClient`, which return the library's own
  result classes (`solver.Result`, `Hint`, `PlayAnalysis`, `TrumpTable`, `Verdict`).
- `service.convert`: protocol messages to and from the library's dicts and results.
- `service.plis.v1`: the code generated from the .proto (`service/gen_proto.py`).

    from service.client import Client
    with Client("localhost:50051") as client:
        print(client.hint({"game": "belote", "trump": "H", "hands": [...]}).best)
"""

from .config import DEFAULT_ADDRESS, ServerConfig

__all__ = ["DEFAULT_ADDRESS", "ServerConfig"]
