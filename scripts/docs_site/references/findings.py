"""The finding codes (``reference/findings.md``), each with a sentence judged from fixtures.

It imports ``gamerec.validator`` (the finding codes, the registry, ``validate``), the codecs
that read ``fixtures/invalid/``, markdown's ``slugify`` and the package's ``common``.
"""

from markdown.extensions.toc import slugify  # type: ignore[import-untyped]

from gamerec.recorder.codecs import read_records
from gamerec.validator.finding_codes import RECORD_CODES, SEAL_CODES
from gamerec.validator.games.registry import entries, entry_of
from gamerec.validator.judge import validate
from scripts.docs_site.references.common import (
    GENERATED_NOTE,
    ROOT,
    one_line,
    reference_page,
)


def example_sentences() -> dict[tuple[str, str], str]:
    """A real finding per (game, code), judged now from the records of ``fixtures/invalid/``."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted((ROOT / "fixtures" / "invalid").iterdir()):
        for record in read_records(path):
            entry = entry_of(record.rules.game)
            game = entry.name if entry is not None else ""
            for finding in validate(record).errors:
                found.setdefault((game, finding.code), finding.message)
    return found


def cited(file: str, sections: tuple[str, ...] | list[str]) -> str:
    """``§4.1, §4.2`` as links to those headings of a rules page."""
    return ", ".join(f"[{section}]({section_link(file, section)})" for section in sections)


def section_link(file: str, section: str) -> str:
    """The link from a reference page to a numbered heading (``§4.2``) of a docs file."""
    number = section.removeprefix("§").split("-")[0]
    heading = numbered_heading(file, number)
    return f"../{file.removeprefix('docs/')}#{slugify(heading, '-')}"


def numbered_heading(file: str, number: str) -> str:
    """The text of the heading numbered ``number`` (``4.2``) in a docs file."""
    for line in (ROOT / file).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip()
            if text.split(" ", 1)[0].rstrip(".") == number:
                return text
    raise LookupError(f"{file} has no heading numbered {number}")


def registry_sections(cites: str) -> str:
    """The sections of each game's rules a record finding cites (``score``: ONE §6.3, ...)."""
    parts = [part for part in cites.split("+") if part]
    if not parts:
        return ""
    return "; ".join(
        f"{entry.name} "
        + cited(
            entry.citation.file,
            [section for part in parts for section in getattr(entry.citation, part).split(", ")],
        )
        for entry in entries()
    )


@reference_page("reference/findings.md")
def findings_page() -> str:
    """Every finding code: the record's, the seals', and each game's, with a real sentence."""
    examples = example_sentences()
    lines = [
        "# Finding codes",
        "",
        GENERATED_NOTE.format(
            source="the engines' reason codes, `gamerec.validator.finding_codes` and the "
            "records of `fixtures/invalid/`, judged during the build"
        ),
        "A finding names its ply (1-based; 0 for the record as a whole), the seat, the move "
        "as written, a stable **code** and a sentence that cites the rule. The codes are "
        "stable: a platform may count and filter by them (`validate` prints the count per "
        "code under its summary; `find --finding CODE` selects records by them). The example "
        "sentences are what the referee writes for the records of `fixtures/invalid/`, which "
        "hold one record per code.",
        "",
        "## About the record",
        "",
        "These are written for any game; a sentence that cites the rules cites the game's "
        "own rules page (the section each game's registry entry names).",
        "",
        "| code | when | cites | example |",
        "| --- | --- | --- | --- |",
    ]
    for code, meaning in RECORD_CODES.items():
        example = next((text for (_, seen), text in examples.items() if seen == code), "")
        sections = registry_sections(meaning.cites) or "-"
        lines.append(
            f"| `{code}` | {one_line(meaning.meaning)} | {sections} | {one_line(example)} |"
        )
    lines += [
        "",
        "## About seals and signatures",
        "",
        "Written by `gamerec verify` and the `Verify` RPC ([seals guide](../signing.md), "
        "[specification](../seals.md)); `validate` checks the chain and the signatures only.",
        "",
        "| code | when |",
        "| --- | --- |",
    ]
    lines += [f"| `{code}` | {one_line(meaning.meaning)} |" for code, meaning in SEAL_CODES.items()]
    lines.append("")
    for entry in entries():
        file = entry.citation.file
        lines += [
            f"## {entry.name}",
            "",
            f"The moves the rules of {entry.name} refuse ([rules]"
            f"(../{file.removeprefix('docs/')})).",
            "",
            "| code | when | cites | example |",
            "| --- | --- | --- | --- |",
        ]
        citations = entry.engine.citations
        for code, description in entry.engine.reason_codes.items():
            cited_sections = [part.split(" ", 1)[1] for part in citations[code]]
            example = examples.get((entry.name, code), "")
            lines.append(
                f"| `{code}` | {one_line(description)} | {cited(file, cited_sections)} | "
                f"{one_line(example)} |"
            )
        lines.append("")
    return "\n".join(lines)
