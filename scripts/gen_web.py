"""Build the browser client (web/) into validator/web/static/ (make web; make web-check).

Usage: ``python -m scripts.gen_web`` generates the client code from protos/ into ``web/gen/``
with buf and the ``@bufbuild/protoc-gen-es`` plugin that ``web/package-lock.json`` pins
(web/buf.gen.yaml), then bundles ``web/src/`` with esbuild into
``validator/web/static/`` (``app.js``, beside the page and style copied from ``web/src/``).
``--check`` builds the same into a temporary folder and exits 1 when the committed
generated code or bundle differ: both are a function of the lock, the protos and the sources.
Needs ``make web-deps`` (``npm ci`` in web/) first; the Makefile targets run it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from scripts.gen_proto import differing_files

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
GENERATED = WEB / "gen"
STATIC = ROOT / "validator" / "web" / "static"
#: The files of web/src/ served as they are (the rest is bundled into app.js).
COPIED = ("index.html", "app.css")
BUF = Path(sys.executable).parent / "buf"
ESBUILD = WEB / "node_modules" / ".bin" / "esbuild"


def build(out: Path) -> None:
    """Generate into ``out/gen`` and bundle into ``out/static`` (out is a copy of web/)."""
    shutil.copytree(WEB / "src", out / "web" / "src")
    shutil.copy(WEB / "buf.gen.yaml", out / "web" / "buf.gen.yaml")
    (out / "web" / "node_modules").symlink_to(WEB / "node_modules")
    _run(
        [str(BUF), "generate", str(ROOT / "protos"), "--template", "web/buf.gen.yaml"],
        cwd=out,
    )
    static = out / "static"
    static.mkdir()
    _run(
        [
            str(ESBUILD),
            "web/src/main.js",
            "--bundle",
            "--format=esm",
            "--target=es2022",
            "--minify",
            "--legal-comments=none",
            f"--outfile={static / 'app.js'}",
        ],
        cwd=out,
    )
    for name in COPIED:
        shutil.copy(WEB / "src" / name, static / name)


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{Path(command[0]).name} failed:\n{done.stdout}{done.stderr}")


def main() -> int:
    """Build, or with --check compare against what is committed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail when the build is stale")
    check = parser.parse_args().check
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build(out)
        pairs = ((out / "web" / "gen", GENERATED), (out / "static", STATIC))
        if check:
            stale = [
                f"{committed.relative_to(ROOT)}/{name}"
                for fresh, committed in pairs
                for name in differing_files(fresh, committed)
            ]
            if stale:
                print("the web client's build is stale; run `make web`:", *stale, sep="\n  ")
                return 1
            print("the web client's build is fresh")
            return 0
        for fresh, committed in pairs:
            if committed.exists():
                shutil.rmtree(committed)
            shutil.copytree(fresh, committed)
    print(f"built the web client into {STATIC.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
