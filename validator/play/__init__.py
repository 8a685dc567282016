"""``gamerec play``: a person at a terminal, in a live match or against a bot.

- :mod:`.commands`: what the person types, read into commands, and move completion (pure);
- :mod:`.screen`: what the screen shows for a match's state (board, clocks, plies, status),
  as pure functions of the state;
- :mod:`.table`: the seat's side of a match: a :class:`~.table.Table` is a match on a
  server (``gamerec.validator.service.seat_table.ServerTable``, over MatchService: gRPC lives
  in ``validator/service``) or refereed in this process (:class:`~.table.LocalTable`, the
  server's own referee, with bots in the other seats);
- :mod:`.app`: the Textual application that puts them on the terminal.
"""
