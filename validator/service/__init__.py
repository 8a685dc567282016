"""The gRPC service of gamerec: the servicer, the server factory, the worker pool, the call log."""
