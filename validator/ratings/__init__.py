"""Ratings over an archive: Glicko-2 for two seats, Weng-Lin (Plackett-Luce) for 3 to 6.

What it holds: Glicko-2 as Glickman's paper gives it (``glicko2``, gamerec's own: the
packages on PyPI were not fit, docs/ratings.md says why), Weng-Lin through openskill 6
(``wenglin``), the pools (one per game and seat count) and the forecasts a pool makes
(``pools``), the reading of an archive into games in a fixed order (``archive``, through
``gamerec.validator.collection``), and the rating list as text, JSON and one HTML page
(``report``).

What it may import: the standard library, openskill, ``gamerec.recorder`` and
``gamerec.validator.collection``; nothing of ``gamerec.cli``. Everything but ``archive`` is
pure: no I/O, no protobuf. docs/ratings.md describes the systems exactly.
"""
