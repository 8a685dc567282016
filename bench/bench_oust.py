"""Oust: plies per second of its engine's checked replay over 2,000 seeded random games.

Run with ``.venv/bin/python -m bench.bench_oust``, the same as
``.venv/bin/python -m bench.engines Oust``; the timing lives in :mod:`bench.engines`, and
``python -m bench`` prints every game beside its peers.
"""

from __future__ import annotations

import sys

from bench.engines import main

if __name__ == "__main__":
    sys.argv[1:] = ["Oust"]
    main()
