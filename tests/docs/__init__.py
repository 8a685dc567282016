"""The documentation site: its build, its console sessions, and the site in a browser."""
