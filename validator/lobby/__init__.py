"""The lobby: open challenges that players take seat by seat, and the live matches to watch.

A player opens a challenge (a game and variant, the seat count, a clock, rated or not) and
holds its first seat; others take the free seats; when the last one is taken the match is
created by the live referee's own ``Referee.create`` (the code CreateMatch runs), with the
seat holders' lobby tokens as the match's seat tokens (protos/gamerec/v1/lobby.proto,
docs/lobby.md).

- ``table``: the challenge as a row and every change to it, as pure decisions (no I/O);
- ``store``: the interface of where challenges and the lobby's events are kept, with its
  two backends ``sqlite_store`` and ``postgres_store`` (tables beside the match store's, in
  the same file or database: a restart keeps the challenges);
- ``lobby``: one server process's lobby (the store, the referee, expiry, the watchers);
- ``servicer``: the gRPC ``LobbyService``, a thin shell over ``lobby``;
- ``acceptor``: a client, the bot that takes open challenges it can play and plays them
  (``gamerec bot --accept-any``).

It may import ``gamerec.recorder``, ``gamerec.v1``, ``gamerec.validator.live`` and
``gamerec.validator.identity``; only ``servicer`` (the statuses, the gate's principal) and
``acceptor`` (the seat bot, the movers) import ``gamerec.validator.service`` and
``gamerec.validator.players``; nothing here imports ``gamerec.cli``.
"""
