"""Records as data: the generated protobuf messages, the codecs and the record tools.

This package knows nothing of game rules. It reads, writes, converts and compares records of
any game without an engine. Importing the package itself is cheap and pulls in no protobuf
code; import the submodule you need (``gamerec.recorder.errors`` carries the error hierarchy that
every layer of gamerec shares).
"""
