"""Second, independent referees for differential testing of the rules engines.

Each module re-implements one game from ``rules/<game>.md`` and ``notation.md`` alone, written
for clarity, not speed: plain dicts and sets, flood fills, step-by-step sowing. They speak move
TEXT only (the tokens of notation.md), so they share no code, no move type and no board table
with ``validator/games``. ``test_against_engines.py`` plays both side by side.

Every reference state offers the same small surface (see ``ReferenceState`` in
``standing.py``): the seat to move, whether the game is over, the scores, the ranking and
winners, the set of legal next tokens, why a token is illegal, and ``play(token)``.
"""
