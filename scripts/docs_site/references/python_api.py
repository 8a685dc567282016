"""The Python API reference (``reference/python.md``): the front door's names, by module.

The docstrings are rendered by mkdocstrings; it imports ``gamerec`` and the package's
``common``.
"""

import importlib

import gamerec
from scripts.docs_site.references.common import (
    GENERATED_NOTE,
    reference_page,
)


@reference_page("reference/python.md")
def python_page() -> str:
    """The front door's names (``gamerec.__all__``), grouped by the module that holds them."""
    exports: dict[str, str | tuple[str, str]] = gamerec._EXPORTS
    missing = sorted(set(gamerec.__all__) - set(exports) - {"__version__"})
    if missing:
        raise RuntimeError(f"gamerec.__all__ names {missing} that _EXPORTS does not place")
    by_module: dict[str, list[str]] = {}
    for name in gamerec.__all__:
        where = exports.get(name)
        if where is not None:
            module = where if isinstance(where, str) else where[0]
            by_module.setdefault(module, []).append(name)
    lines = [
        "# Python API reference",
        "",
        GENERATED_NOTE.format(source="the docstrings of the names in `gamerec.__all__`"),
        "Everything below is on the front door: `import gamerec`, then `gamerec.validate`, "
        "`gamerec.RecordBuilder`... (names load on first use, so the import costs nothing). "
        "The [library guide](../library.md) shows them at work. Each section is named after "
        "the module that holds its names.",
        "",
        "`gamerec.__version__` is the installed distribution's version.",
        "",
    ]
    for module, names in sorted(by_module.items(), key=lambda item: module_order(item[0])):
        lines += [f"## {module_title(module)}", "", f"In `{module}`.", ""]
        lines += [f"::: gamerec.{name}\n" for name in names]
    return "\n".join(lines)


def module_order(module: str) -> tuple[int, str]:
    """Records first, then the referee, then the rest, each by name."""
    for rank, prefix in enumerate(("gamerec.recorder", "gamerec.v1", "gamerec.validator")):
        if module.startswith(prefix):
            return rank, module
    return 3, module


def module_title(module: str) -> str:
    """The first line of a module's docstring, as a section title."""
    if module.startswith("gamerec.v1."):
        return "The record message"
    loaded = importlib.import_module(module)
    first = (loaded.__doc__ or module).strip().splitlines()[0].rstrip(".")
    return first.replace("``", "`")
