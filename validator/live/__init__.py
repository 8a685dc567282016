"""Live matches: the referee of games being played (docs/live.md).

Layered so that each part can be used without the ones above it:

- :mod:`.timecontrol` and :mod:`.clocks`: the time-control notation, the clock arithmetic of
  each kind, and the readings of time the referee takes (an injectable clock);
- :mod:`.match`: one match as a pure state machine over the engines and the record builder,
  with no I/O: commands are decided into events, and events are applied; a tournament runner
  drives it in process;
- :mod:`.players`: choosing a whole ply for a seat (random, greedy), for bots;
- :mod:`.store`: the match store interface (the source of truth: events are accepted by a
  conditional append) and :mod:`.sqlite_store`, its embedded backend (its file's tables:
  :mod:`.sqlite_file`);
- :mod:`.referee`: one server process's referee of every live match: the store, the matches
  it holds, the clocks' timers and the watchers (asyncio, no gRPC).

The gRPC servicer (``gamerec.validator.service.match_servicer``) and the CLI are thin shells
over :mod:`.referee`.
"""
