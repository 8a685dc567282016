"""The ``gamerec`` command-line tool: a thin Typer shell over the library."""
