"""One registry entry per game (see ``gamerec.validator.games.registry``).

Each module holds one game's ``ENTRY``: its record syntax, its engine, where its rules text
says how games end, score and rank, what the annotator values, and how its board is drawn.
"""
