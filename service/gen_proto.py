"""Generate the Python code of proto/plis/v1/plis.proto into service/plis/v1/.

    python service/gen_proto.py           # regenerate (commit the result)
    python service/gen_proto.py --check   # exit 1 if the committed code is stale

The generated gRPC module imports its messages relatively, so the package works as
`service.plis.v1` without putting `plis` on sys.path.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PROTO = Path("plis/v1/plis.proto")
OUT = ROOT / "service"
GENERATED = ("plis_pb2.py", "plis_pb2.pyi", "plis_pb2_grpc.py")
PACKAGE_DOC = '"""Generated from proto/plis/v1/plis.proto by service/gen_proto.py; do not edit."""\n'


def generate(out: Path) -> list[Path]:
    """Write the generated modules under `out`/plis/v1/ and return their paths."""
    from grpc_tools import protoc

    try:
        import importlib.resources as resources

        include = str(resources.files("grpc_tools") / "_proto")
    except (ImportError, AttributeError):  # pragma: no cover - old Pythons
        import pkg_resources  # type: ignore[import-not-found]

        include = pkg_resources.resource_filename("grpc_tools", "_proto")
    out.mkdir(parents=True, exist_ok=True)
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        str(PROTO_ROOT / PROTO),
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed on {PROTO}")
    package = out / "plis" / "v1"
    grpc_module = package / "plis_pb2_grpc.py"
    text = grpc_module.read_text()
    text = text.replace("from plis.v1 import plis_pb2", "from . import plis_pb2")
    grpc_module.write_text(text)
    for directory in (out / "plis", package):
        (directory / "__init__.py").write_text(PACKAGE_DOC)
    return [package / name for name in GENERATED] + [out / "plis" / "__init__.py", package / "__init__.py"]


def stale(out: Path = OUT) -> list[str]:
    """The generated files under `out` that differ from a fresh generation."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        differ = []
        for path in fresh:
            committed = out / path.relative_to(tmp)
            if not committed.exists() or committed.read_text() != path.read_text():
                differ.append(str(committed.relative_to(ROOT)))
        return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the committed code is up to date")
    args = parser.parse_args(argv)
    if not (PROTO_ROOT / PROTO).is_file():  # an installed copy: the .proto is not installed
        print(f"gen_proto: no {PROTO_ROOT / PROTO}: run it from a checkout of plis", file=sys.stderr)
        return 2
    if args.check:
        differ = stale()
        for name in differ:
            print(f"stale: {name} (run python service/gen_proto.py)", file=sys.stderr)
        return 1 if differ else 0
    for path in generate(OUT):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
