"""Build the seal test vectors in docs/seal-vectors/ (docs/seals.md "Test vectors").

Usage: ``python -m scripts.make_seal_vectors`` writes the folder (and removes files it no
longer makes); ``--check`` rebuilds it in memory and exits 1 when the committed files differ.
Fixed keys from fixed seeds and fixed games: every run writes the same bytes.
"""

from __future__ import annotations

import argparse
import sys

from tests.seals.vectors import FOLDER, files


def main() -> None:
    """Write the vectors, or with ``--check`` compare them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    check = parser.parse_args().check
    made = files()
    present = (
        {str(path.relative_to(FOLDER)) for path in FOLDER.rglob("*") if path.is_file()}
        if FOLDER.exists()
        else set()
    )
    stale = sorted(
        name
        for name in made.keys() | present
        if name not in made or name not in present or (FOLDER / name).read_bytes() != made[name]
    )
    if check:
        if stale:
            sys.exit(
                f"stale seal vectors: {', '.join(stale)} (run python -m scripts.make_seal_vectors)"
            )
        return
    for name in present - made.keys():
        (FOLDER / name).unlink()
    for name, data in made.items():
        path = FOLDER / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"{len(made)} files in {FOLDER} ({sum(map(len, made.values())):,} bytes)")


if __name__ == "__main__":
    main()
