"""``python -m gamerec``: the ``gamerec`` command."""

from gamerec.cli.entry import main

main()
