"""``python -m gamerec``: the ``gamerec`` command."""

from gamerec.cli.main import main

main()
