"""The limits (``reference/limits.md``): every table ``gamerec limits`` prints.

It imports ``gamerec.cli.limits`` and the package's ``common``.
"""

from gamerec.cli.limits import limit_tables
from scripts.docs_site.references.common import (
    GENERATED_NOTE,
    one_line,
    reference_page,
)


@reference_page("reference/limits.md")
def limits_page() -> str:
    """Every table ``gamerec limits`` prints, each limit with its default and what it bounds."""
    lines = [
        "# Limits",
        "",
        GENERATED_NOTE.format(source="the tables `gamerec limits` prints"),
        "Every reader checks each record against the first table's limits; a record over one "
        "is refused with an error naming the limit, the value found and the place. Change "
        "them with `--limit NAME=N` (repeatable) on every command that reads records, or "
        "with a `gamerec.Limits` value in the library. What they guard against, and how, "
        "is in [Limits and robustness](../robustness.md).",
        "",
    ]
    for table in limit_tables():
        said = one_line(table.title.rstrip(":")) or f"Change one with `{table.option}`"
        lines += [f"## {table.heading}", "", f"{said}; [more]({_guide(table.guide)}).", ""]
        lines += [
            "| limit | default | what it bounds |",
            "| --- | --: | --- |",
        ]
        lines += [
            f"| `{name}` | {value} | {one_line(meaning)} |" for name, value, meaning in table.rows()
        ]
        lines.append("")
    return "\n".join(lines)


def _guide(page: str) -> str:
    """A link from the reference folder to a guide page of docs/."""
    return f"../{page}"
