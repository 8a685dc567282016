"""Allow ``python -m cli``."""

from cli.main import main

main()
