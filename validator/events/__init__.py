"""Events: pairings round by round, results matched to pairings, standings and tie-breaks.

What it holds: the event as data (``model``), round robins (``roundrobin``: FIDE's Berger
tables for two seats, schedules of tables for 3-6 seats), the FIDE Dutch Swiss for two seats
(``dutch``: py4swiss's engine, given the event as TRF(x) by ``trf``), the Swiss for tables
of 3-6 seats (``tables``), the director's operations on an event (``event``: players, late
entries, withdrawals, pairing, byes, a pairing changed by hand, results), tie-breaks and the
crosstable (``tiebreaks``), the standings as text, JSON and HTML (``report``), FIDE's TRF
export and the TRF(x) a Dutch round is paired from (``trf``), the event file (``store``:
SQLite, the only module here that opens a file) and the reading of record files into
results (``intake``, through ``gamerec.validator.collection``); a round on a match server:
its matches created in one call (``on_server``), the players' tickets (``tickets``) and the
results collected from the server's sealed records (``collect``).

What it may import: the standard library, py4swiss (``dutch`` only, when a Dutch round is
paired), ``gamerec.recorder``, ``gamerec.validator.collection`` (records, their reading and
their judged results) and ``gamerec.validator.render.tables`` (the HTML page); the server's
modules also the gRPC client (``gamerec.validator.service``) and the verification and
adjudication of records; nothing of ``gamerec.cli``. Everything but ``store``, ``intake``,
``on_server``, ``tickets`` and ``collect`` is pure: no I/O, no protobuf.
docs/events.md describes each method exactly enough to reproduce a round.
"""
