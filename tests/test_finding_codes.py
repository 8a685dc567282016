"""The tables of finding codes hold every code the validator writes, and no other.

The engines' own reason codes are checked by tests/test_citations.py. The codes the rest of
the validator writes (about the record as a whole, a ply no move can stand for, a seal) are in
``gamerec.validator.finding_codes``, which the docs' finding codes reference is made from: a
code written but missing there would be missing from the docs, and one there but written
nowhere would document something that cannot happen.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from gamerec.validator.finding_codes import RECORD_CODES, SEAL_CODES
from gamerec.validator.games.registry import entries

ROOT = Path(__file__).resolve().parent.parent
ENGINE_MODULES = {"one.py", "aronda.py", "oust.py", "ohwahree.py", "protocol.py"}
CODE = re.compile(r"[A-Z][A-Z_]+[A-Z]")


def written_codes() -> dict[str, str]:
    """Every finding code the validator's modules (engines apart) write, with where."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "validator").rglob("*.py")):
        if path.parent.name == "games" and path.name in ENGINE_MODULES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                for text in codes_of_call(node):
                    found.setdefault(text, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def codes_of_call(call: ast.Call) -> list[str]:
    """``code="X"``, or ``"X"`` first to a ``...Error(...)`` or ``..._finding(...)``."""
    values = [keyword.value for keyword in call.keywords if keyword.arg == "code"]
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    if call.args and (name.endswith("Error") or name.endswith("_finding")):
        values.append(call.args[0])
    return [
        value.value
        for value in values
        if isinstance(value, ast.Constant)
        and isinstance(value.value, str)
        and CODE.fullmatch(value.value)
    ]


def test_every_code_the_validator_writes_is_in_a_table() -> None:
    engine_codes = {code for entry in entries() for code in entry.engine.reason_codes}
    tables = {*RECORD_CODES, *SEAL_CODES} | engine_codes
    missing = {code: where for code, where in written_codes().items() if code not in tables}
    assert not missing, f"codes written but in no table of finding_codes.py: {missing}"


def test_every_code_of_the_tables_is_written_somewhere() -> None:
    written = set(written_codes())
    assert set(RECORD_CODES) - written == set()
    assert set(SEAL_CODES) - written == set()


def test_the_scan_finds_codes_of_each_kind() -> None:
    written = written_codes()
    for code in ("UNKNOWN_GAME", "MALFORMED_MOVE", "RESULT_MISMATCH", "SEAL_BROKEN", "NO_KEY"):
        assert code in written, code
    assert "GAME_ALREADY_OVER" in written  # written by the replay, declared by every engine


def test_cited_sections_name_fields_of_the_registry_citation() -> None:
    fields = {"end", "score", "ranking", "terminations"}
    for code, meaning in RECORD_CODES.items():
        assert set(filter(None, meaning.cites.split("+"))) <= fields, code
