"""The web door: the server's services for browsers and curl (docs/web.md).

``gamerec serve --web PORT`` serves RecordService and MatchService over the Connect protocol
(JSON and protobuf bodies), gRPC-Web and gRPC, on HTTP/1.1 and HTTP/2, with Hypercorn in the
gRPC server's own process, and the web client's files at ``/``. Every call runs the very
handler its gRPC call runs (``bridge``), behind the same gate: access rules, limits per client,
the call log, the metrics are the gRPC door's.

- ``codecs``: request bodies as the servicers take them (strict ProtoJSON, raw protobuf);
- ``errors``: a gRPC status as a Connect error (same code, message and google.rpc details);
- ``bridge``: a Connect call onto the server's gated handlers;
- ``app``: the ASGI application (routes, content types, body limit, CORS, static files);
- ``calls``: the call line of a request refused before any handler took it;
- ``serving``: Hypercorn on the web port, its bounds, its life with the server;
- ``asgi``: the ASGI types the modules share;
- ``text``: gRPC-Web's text mode (base64 bodies) in front of a service;
- ``frames``: reads a Connect stream's frames (curl's output of Watch) as JSON lines;
- ``static/``: the web client's built files (package data).

It may import ``gamerec.recorder``, ``gamerec.v1`` (with the generated ``*_connect`` stubs),
``gamerec.validator.service`` and the web libraries (connectrpc, Hypercorn); nothing imports
it but ``gamerec.validator.service.server`` and ``processes`` (lazily, when a web door is
asked for) and ``gamerec.cli`` (``tests/test_layers.py``).
"""
