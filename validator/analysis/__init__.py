"""Analysis that looks ahead: the search of ``validator.search`` applied to games and records.

- :mod:`.searcher`: how a position is searched: the settings (limits, algorithm, workers),
  each game's evaluation and exact endgame answers taken from its registry entry, and the
  search chosen for its seat count;
- :mod:`.plies`: a record analysed ply by ply (``gamerec analyse``): each seat's chance of
  winning, the expected margin, the best line and the effort, before every ply;
- :mod:`.marks`: inaccuracies, mistakes and blunders by the drop in the mover's chance of
  winning (``gamerec annotate --engine``), with the better line as a variation;
- :mod:`.assessment`: the engine's assessment of an unfinished game for adjudication
  (``gamerec adjudicate --engine``), kept apart from the rules' provisional result.

Generic code: it reaches a game only through the registry and holds no per-game branch.
"""
