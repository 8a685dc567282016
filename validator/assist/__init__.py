"""Clicks into moves for a page that plays by clicking on the board (docs/web-client.md).

:func:`clicks.answer_clicks` is the library call the ``AssistService.Click`` RPC is a shell
over: the board after a record's plies, drawn by the SVG renderer, and what the sites
clicked so far this turn allow next, found from the engine's own legal decisions.
"""
