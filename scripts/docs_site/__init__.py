"""The documentation site's own machinery (mkdocs.yml's hooks, docs/contributing.md).

- :mod:`~scripts.docs_site.hooks`: the MkDocs hooks; they add the reference pages, made from
  the code at build time, and take the session options out of console blocks.
- :mod:`~scripts.docs_site.references`: the reference pages (the command line, the gRPC API,
  the Python API, the finding codes, the limits), one module each.
- :mod:`~scripts.docs_site.sessions`: the console sessions of the pages and of README.md,
  run and compared with their recorded output by ``tests/docs/test_sessions.py``, rewritten
  by ``make docs-update``.
"""
