"""Coverage-guided fuzzing of what callers send (atheris, libFuzzer): not part of `pytest`.

    pip install -e ".[fuzz]"
    python -m tests.fuzz.fuzz_input lines   [libFuzzer flags, e.g. -max_total_time=600 -jobs=1]
    python -m tests.fuzz.fuzz_input service [the same]

`lines`: a JSON line through each command's handler (analyse, hint, play-analysis,
trumps), as `plis` answers it, then a puzzle's claim. `service`: raw request bytes
(the first byte picks the RPC) sent to a real server. A bug is any other exception, an
error with no field, a command's INTERNAL error, or a status other than OK,
INVALID_ARGUMENT, DEADLINE_EXCEEDED or RESOURCE_EXHAUSTED (or INVALID_ARGUMENT without
its details). The fuzzer then stops and writes the input to `crash-*`.

Inputs start from valid positions of every game (`tests.test_input_fuzz`); a JSON
input is changed field by field (a value swapped, dropped, a card changed) as often as
byte by byte. Corpus and findings go to `fuzz-work/<target>/` (git ignores it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import atheris

with atheris.instrument_imports(include=["solver", "service"]):
    import grpc
    from google.rpc import status_pb2

    from service import convert
    from service.config import ServerConfig
    from service.plis.v1 import plis_pb2 as pb
    from service.server import BackgroundServer
    from solver import PlisError, load_position, verify_puzzle
    from solver.cli import _analyse_handler, _hint_handler, _play_handler, _trumps_handler, answer_line

LIMIT = 400  # nodes a search: the fuzzer wants many inputs a second, not deep searches
CARDS = [suit + rank for suit in "HSDC" for rank in "6789TJQKA"]
WORDS = [
    "game", "options", "trump", "leader", "scored", "tricks", "objective", "deal", "played", "declarer", "taker",
    "talon", "melded", "sevens", "exchanged", "dealer", "to_declare", "hands", "trick", "claim", "best", "value",
    "unique", "rules", "players", "match_bonus", "amsterdam", "rotterdam", "obenabe", "undeufe", "belote",
    "klaverjas", "klaberjass", "jass", "putz", "bassadewitz", "besigue", "score", "raw", "points", "pomme",
    "all_tricks", "roem_order", "nat_on_tie", "half_bate", "buur_exception", "scoring", "kinds", "card", "H", "S",
]  # fmt: skip
NUMBERS = [0, 1, -1, 2, 3, 4, 5, 8, 9, 10, 16, 36, 152, 162, 252, 257, 1000, 5000, 5001, 10000, 10001, 2**31, 2**63]


def junk(rng: random.Random) -> Any:
    kind = rng.randrange(9)
    if kind == 0:
        return rng.choice(NUMBERS) * rng.choice((1, 1, -1))
    if kind == 1:
        return rng.choice(WORDS)
    if kind == 2:
        return " ".join(rng.choice(CARDS) for _ in range(rng.randrange(10)))
    if kind == 3:
        return rng.choice(CARDS)
    if kind == 4:
        return [junk(rng) for _ in range(rng.randrange(5))]
    if kind == 5:
        return {rng.choice(WORDS): junk(rng) for _ in range(rng.randrange(3))}
    if kind == 6:
        return rng.choice([None, True, False, 1.5, -0.0, 1e300])
    if kind == 7:
        return [rng.choice(CARDS) for _ in range(rng.randrange(10))]
    return rng.choice(["", " ", "hj", "H10", "HJ HJ", "\u2665J", "x.y"])


def containers(value: Any, found: list[Any]) -> list[Any]:
    if isinstance(value, (list, dict)):
        found.append(value)
        for inner in value.values() if isinstance(value, dict) else value:
            containers(inner, found)
    return found


def changed_cards(text: str, rng: random.Random) -> str:
    cards = text.split()
    at = rng.randrange(len(cards))
    kind = rng.randrange(3)
    if kind == 0:
        cards[at] = rng.choice(CARDS)
    elif kind == 1:
        del cards[at]
    else:
        cards.append(rng.choice(CARDS))
    return " ".join(cards)


def mutate(data: Any, rng: random.Random) -> Any:
    """One to three changes anywhere in the JSON value."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        target = rng.choice(containers(data, []))
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        roll = rng.randrange(5)
        if roll == 0 and keys:
            del target[rng.choice(keys)]
        elif roll == 1 and keys:
            key = rng.choice(keys)
            value = target[key]
            if isinstance(value, str) and value.split():
                target[key] = changed_cards(value, rng)
            elif isinstance(value, int) and not isinstance(value, bool):
                target[key] = value + rng.choice((-1, 1, -10, 10, 100))
            else:
                target[key] = junk(rng)
        elif roll == 2 and keys:
            target[rng.choice(keys)] = junk(rng)
        elif isinstance(target, dict):
            target[rng.choice(WORDS)] = junk(rng)
        else:
            target.append(junk(rng))
    return data


def mutate_json(data: bytes, max_size: int, seed: int) -> bytes:
    """A JSON input changed as JSON most of the time; otherwise (or not JSON) as bytes."""
    rng = random.Random(seed)
    try:
        value = json.loads(data.decode("utf-8"))
    except ValueError:
        return atheris.Mutate(data, max_size)
    if not isinstance(value, dict) or rng.random() < 0.1:
        return atheris.Mutate(data, max_size)
    text = json.dumps(mutate(value, rng))
    if value and rng.random() < 0.05:  # a key given twice (JSON text only: a dict cannot hold it)
        key = rng.choice(list(value))
        text = "{" + json.dumps({key: junk(rng)})[1:-1] + ", " + text[1:]
    return text.encode()[:max_size]


def lines_target() -> Any:
    limits = argparse.Namespace(objective=None, time_limit=None, node_limit=LIMIT, tt_mb=1, exact=None, first=None)
    handlers = [make(limits) for make in (_analyse_handler, _hint_handler, _play_handler, _trumps_handler)]

    def one_input(data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        for handle in handlers:
            answer, _, answered = answer_line(1, text, handle)
            if not answered and (answer["error"]["reason"] == "INTERNAL" or not answer["error"]["field"]):
                raise RuntimeError(answer)
        try:
            given = json.loads(text)
            position = load_position(given)
            claim = given["claim"]
        except (ValueError, KeyError, TypeError):
            return
        try:
            verify_puzzle(position, claim, node_limit=LIMIT, tt_megabytes=1)
        except PlisError as error:
            if not (error.field and error.message):
                raise

    return one_input


RPCS = ["Analyse", "Hint", "AnalysePlay", "TrumpTable", "VerifyPuzzle", "AnalyseBatch"]
ALLOWED = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}


def service_target() -> Any:
    server = BackgroundServer(ServerConfig(address="localhost:0", workers=1, tt_memory_mb=4, max_batch=8)).start()
    channel = grpc.insecure_channel(server.address)
    calls = {
        name: (channel.unary_stream if name == "AnalyseBatch" else channel.unary_unary)(f"/plis.v1.Solver/{name}")
        for name in RPCS
    }

    def one_input(data: bytes, server: BackgroundServer = server) -> None:  # the server lives as long as this
        if not data:
            return
        name = RPCS[data[0] % len(RPCS)]
        try:
            answer = calls[name](data[1:], timeout=3)
            if name == "AnalyseBatch":
                for item in answer:
                    reply = pb.AnalyseBatchResponse.FromString(item)
                    if reply.HasField("error") and not (reply.error.field and reply.error.reason):
                        raise RuntimeError(reply)
        except grpc.RpcError as error:
            if error.code() not in ALLOWED:
                raise RuntimeError((error.code(), error.details())) from None
            if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                details = dict(error.trailing_metadata() or ()).get("grpc-status-details-bin")
                if details is None or not status_pb2.Status.FromString(details).details:
                    raise RuntimeError(("no details", error.details())) from None

    return one_input


def seed_corpus(target: str, folder: Path) -> None:
    """Valid positions of every game (and puzzles, and every RPC's request)."""
    from tests.test_input_fuzz import valid_positions

    folder.mkdir(parents=True, exist_ok=True)
    limits = pb.SearchLimits(node_limit=LIMIT)
    for number, data in enumerate(valid_positions()):
        if target == "lines":
            (folder / f"seed{number}").write_text(json.dumps(data))
            (folder / f"claim{number}").write_text(json.dumps({**data, "claim": {"best": ["HJ"], "value": 10}}))
            continue
        message = convert.position_from_dict(data)
        requests = [
            pb.AnalyseRequest(position=message, limits=limits),
            pb.HintRequest(position=message, limits=limits),
            pb.AnalysePlayRequest(position=message, limits=limits),
            pb.TrumpTableRequest(position=message, limits=limits),
            pb.VerifyPuzzleRequest(position=message, claim=pb.Claim(best=["HJ"]), limits=limits),
            pb.AnalyseBatchRequest(positions=[message, message], limits=limits),
        ]
        for rpc, request in enumerate(requests):
            (folder / f"seed{number}-{rpc}").write_bytes(bytes([rpc]) + request.SerializeToString())


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("lines", "service"):
        sys.exit(__doc__)
    target = sys.argv[1]
    work = Path("fuzz-work") / target
    corpus, seeds = work / "corpus", work / "seeds"
    if not seeds.exists():
        seed_corpus(target, seeds)
    corpus.mkdir(parents=True, exist_ok=True)
    os.chdir(work)  # crash-* files land here
    flags = [arg for arg in sys.argv[2:] if arg.startswith("-")] or ["-max_total_time=600"]
    argv = [sys.argv[0], *flags, "-timeout=30", "-rss_limit_mb=4000", "corpus", "seeds"]
    if target == "lines":
        atheris.Setup(argv, lines_target(), custom_mutator=mutate_json)
    else:
        atheris.Setup(argv, service_target())
    atheris.Fuzz()


if __name__ == "__main__":
    main()
