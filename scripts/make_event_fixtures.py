"""Build the event fixtures of the collection tools (the README's tournament examples).

Usage: ``python -m scripts.make_event_fixtures`` writes ``fixtures/events/``; ``--check``
rebuilds them in memory and exits 1 when the committed files differ. Seeded: reproducible.

- ``club-night.grn``: a two-seat round robin of four players (``tests/collection/events.py``),
  one record claiming the wrong winner and one with an illegal ply;
- ``four-seat-open.grn``: three four-seat games of five players;
- ``club-night-second-scorer.jsonl``: the same evening as a second scorer entered it: round 1
  again with the site and clocks written (the same games), and round 2's Ben-Dev game with
  another last move (the same match, diverging moves).
"""

from __future__ import annotations

import argparse
import sys

from tests.collection.events import EVENTS, files


def main() -> None:
    """Write the fixtures, or with ``--check`` compare them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    check = parser.parse_args().check
    stale = []
    for name, data in files().items():
        path = EVENTS / name
        if check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
        else:
            EVENTS.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if stale:
        sys.exit(
            f"stale event fixtures: {', '.join(stale)} (run python -m scripts.make_event_fixtures)"
        )


if __name__ == "__main__":
    main()
