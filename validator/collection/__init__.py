"""Collections as tournament directors and archive keepers use them.

- :mod:`.find`: the records that meet some criteria (metadata, the referee's verdict, a
  position reached), as pgn-extract selects chess games;
- :mod:`.dedupe`: the same game entered twice, and the same match with diverging moves;
- :mod:`.stats`: figures per game and variant (validity, lengths, results by seat, ...);
- :mod:`.standings`: the crosstable of an event, with points and tie-breaks.

Each reads a collection through :mod:`.source` (files, folders and ``-`` through the one
reader of inputs, or records in memory), record by record, on all cores when asked
(``gamerec.validator.batch.map_chunks``), so memory does not grow with the size of the
records read. Nothing here names a game: games are reached through the registry.
"""
