"""Generate the Python protobuf, gRPC and Connect code from protos/ (the one way to make it).

Usage: ``python scripts/gen_proto.py`` writes ``gamerec/v1/*_pb2*.py[i]`` and, for each file
that declares a service, ``gamerec/v1/*_connect.py`` (the Connect stubs of the web door,
made by protoc-gen-connect-python);
``python scripts/gen_proto.py --check`` regenerates into a temporary folder and exits 1
when the committed files differ (CI runs this, so stale generated code fails the build).
Only ``gamerec/v1/`` is generated: the rest of the ``gamerec`` package (the front door, the
links to ``recorder/``, ``validator/`` and ``cli/``) is written by hand and left alone.
"""

from __future__ import annotations

import argparse
import filecmp
import re
import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "protos"
GENERATED = ROOT / "gamerec" / "v1"
MARKER = '"""Generated from protos/ by scripts/gen_proto.py (make proto). Do not edit."""\n'


def proto_files() -> list[Path]:
    """Return every .proto file under protos/, sorted for a stable run."""
    return sorted(PROTO_ROOT.rglob("*.proto"))


def has_service(proto: Path) -> bool:
    """Tell whether a .proto file declares a service (and so needs gRPC stubs)."""
    return any(line.startswith("service ") for line in proto.read_text().splitlines())


def generate(out: Path) -> None:
    """Run protoc with the Python, mypy, gRPC and Connect plugins, writing into ``out``."""
    include = Path(protoc.__file__).parent / "_proto"
    bindir = Path(sys.executable).parent
    for proto in proto_files():
        args = [
            "protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            f"--python_out={out}",
            f"--plugin=protoc-gen-mypy={bindir / 'protoc-gen-mypy'}",
            f"--mypy_out={out}",
        ]
        if has_service(proto):
            args += [
                f"--plugin=protoc-gen-mypy_grpc={bindir / 'protoc-gen-mypy_grpc'}",
                f"--grpc_python_out={out}",
                f"--mypy_grpc_out={out}",
                f"--plugin=protoc-gen-connect-python={bindir / 'protoc-gen-connect-python'}",
                f"--connect-python_out={out}",
            ]
        args.append(str(proto.relative_to(PROTO_ROOT)))
        if protoc.main(args) != 0:
            sys.exit(f"protoc failed on {proto}")
        if has_service(proto):
            _add_stream_types(proto, out / proto.relative_to(PROTO_ROOT).with_suffix(""))
    for leaf in {p.parent for p in out.rglob("*_pb2*.py*")}:
        for package in (leaf, *leaf.parents):
            if package == out or out not in package.parents:
                break
            init = package / "__init__.py"
            if not init.exists():
                init.write_text(MARKER)
            (package / "py.typed").touch()


_RPC = re.compile(r"rpc\s+(\w+)\s*\(\s*(stream\s+)?[\w.]+\s*\)\s*returns\s*\(\s*(stream\s+)?")
_METHOD_INFO = re.compile(r'(MethodInfo\(\s*name="(\w+)",.*?idempotency_level=[\w.]+,)', re.S)


def _add_stream_types(proto: Path, stem: Path) -> None:
    """Give each ``MethodInfo`` of ``STEM_connect.py`` its ``stream_type``.

    protoc-gen-connect-python 0.9 (the lock's) writes ``MethodInfo`` without the
    ``stream_type`` that connectrpc 0.13 (the lock's runtime) requires; the stream type is
    the .proto's (``rpc Watch(...) returns (stream ...)``).
    """
    kinds = {}
    for name, client, server in _RPC.findall(proto.read_text()):
        both = {(True, True): "BIDI_STREAM", (True, False): "CLIENT_STREAM"}
        kinds[name] = both.get((bool(client), bool(server)), "SERVER_STREAM" if server else "UNARY")
    path = stem.with_name(stem.name + "_connect.py")
    text = path.read_text()
    text = text.replace(
        "from connectrpc.method import IdempotencyLevel, MethodInfo",
        "from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType",
    )

    def typed(found: re.Match[str]) -> str:
        inner = found.group(1)
        indent = inner[inner.rfind("\n") : inner.rfind("idempotency")]  # the block's own
        return f"{inner}{indent}stream_type=StreamType.{kinds[found.group(2)]},"

    path.write_text(_METHOD_INFO.sub(typed, text))


def differing_files(left: Path, right: Path) -> list[str]:
    """List files that differ between two generated trees (relative paths)."""
    names = {p.relative_to(left) for p in left.rglob("*") if p.is_file()}
    names |= {p.relative_to(right) for p in right.rglob("*") if p.is_file()}
    return sorted(
        str(n)
        for n in names
        if "__pycache__" not in n.parts
        and not (
            (left / n).exists()
            and (right / n).exists()
            and filecmp.cmp(left / n, right / n, shallow=False)
        )
    )


def main() -> int:
    """Generate, or with --check compare against what is committed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail when generated code is stale")
    check = parser.parse_args().check
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        fresh = Path(tmp) / "gamerec" / "v1"
        if check:
            stale = differing_files(fresh, GENERATED)
            if stale:
                print("generated code is stale; run `make proto`:", *stale, sep="\n  ")
                return 1
            print("generated code is fresh")
            return 0
        if GENERATED.exists():
            shutil.rmtree(GENERATED)
        shutil.copytree(fresh, GENERATED)
    print(f"generated {sum(1 for _ in GENERATED.rglob('*_pb2*'))} files in gamerec/v1/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
