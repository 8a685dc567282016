"""Players: programs that play gamerec's games through the engine protocol.

docs/engine-protocol.md is the contract. The modules, from the wire up:

- ``lines``: every message of the protocol, parsed and written both ways (pure text);
- ``clocks``: :class:`~gamerec.validator.players.clocks.ClockState`, the clocks a referee hands
  over with each move;
- ``search_info``: an engine's ``info`` and the move comment it becomes;
- ``faults``: :class:`~gamerec.validator.players.faults.EngineFault`, every way an engine can
  fail its seat, with a stable code;
- ``host``: :class:`~gamerec.validator.players.host.EngineProcess`, an engine process and the
  conversation with it (asyncio);
- ``policy_engine``: the built-in policies as engines (``gamerec engine``);
- ``engine_game``: one refereed game between engine processes, the seed of tournaments.
"""
