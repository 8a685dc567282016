"""Live matches: the referee core, its store, the service through a real server."""
