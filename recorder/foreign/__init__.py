"""Other tools' record formats, read into gamerec records and written back (docs/formats.md).

``abstractplay``: Abstract Play's game records (JSON); ``ludii``: Ludii's trials (``.trl``);
``json_array``: a JSON array of records cut into frames; ``keeping``: what one format holds
and the other has no field for, kept so that round trips lose nothing. A game's own part of
each format is its ``GameSyntax`` form (``gamerec.recorder.syntax.foreign``).
"""
