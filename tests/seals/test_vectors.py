"""gamerec agrees with every seal test vector in docs/seal-vectors/ (docs/seals.md "Test vectors").

The manifest is read as a third-party verifier reads it: each case's files are read, and what
gamerec finds must be the case's ``expect`` (or the file must be refused). The folder must be
what ``python -m scripts.make_seal_vectors`` makes, and small.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.signing import fingerprint, parse_openssh_line
from tests.seals.vectors import FOLDER, MANIFEST_FORMAT, expected, files

MANIFEST: dict[str, Any] = json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in MANIFEST["cases"]}
FILES = [(case["name"], name) for case in MANIFEST["cases"] for name in case["files"]]
NODE = shutil.which("node")


def test_the_folder_is_what_the_script_makes_and_small() -> None:
    made = files()
    present = {str(path.relative_to(FOLDER)) for path in FOLDER.rglob("*") if path.is_file()}
    assert present == set(made)
    stale = [name for name, data in made.items() if (FOLDER / name).read_bytes() != data]
    assert not stale, f"run python -m scripts.make_seal_vectors: {stale}"
    assert sum(len(data) for data in made.values()) < 512 * 1024


def test_the_manifest_names_its_format_its_keys_and_existing_files() -> None:
    assert MANIFEST["format"] == MANIFEST_FORMAT
    for name, entry in MANIFEST["keys"].items():
        line = (FOLDER / "keys" / f"{name}.pub").read_text().strip()
        public = parse_openssh_line(line)
        assert public.hex() == entry["public"] and fingerprint(public) == entry["fingerprint"]
    for case in MANIFEST["cases"]:
        assert case["files"] and all((FOLDER / name).is_file() for name in case["files"])
        for name in case["trusted"] or []:
            assert name in MANIFEST["keys"]


@pytest.mark.parametrize(("case", "name"), FILES)
def test_gamerec_finds_what_the_vector_expects(case: str, name: str) -> None:
    entry = CASES[case]
    if entry["expect"].get("unreadable"):
        with pytest.raises(GamerecError):
            list(read_records(str(FOLDER / name)))
        return
    (record,) = read_records(str(FOLDER / name))
    trusted = None if entry["trusted"] is None else tuple(entry["trusted"])
    assert expected(record, trusted) == entry["expect"]


def test_every_finding_code_of_the_seal_has_a_vector() -> None:
    found = {
        finding["code"]
        for case in MANIFEST["cases"]
        for finding in case["expect"].get("findings", [])
    }
    assert found == {
        "NOT_SEALED",
        "SEAL_MALFORMED",
        "SEAL_BROKEN",
        "SIGNATURE_INVALID",
        "NO_KEY",
        "UNSIGNED_PLIES",
        "UNSIGNED_RESULT",
        "UNTRUSTED_KEY",
    }
    statuses = {case["expect"].get("status") for case in MANIFEST["cases"]}
    assert {"NONE", "HOLDS", "BROKEN"} <= statuses


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_node_verifier_written_from_the_docs_agrees_on_every_json_vector(
    tmp_path: Path,
) -> None:
    """The second verifier (tests/seals/node_verifier.mjs) on the vectors' ProtoJSON files."""
    chosen = [
        (case, name)
        for case, name in FILES
        if name.endswith(".json") and not CASES[case]["expect"].get("unreadable")
    ]
    lines = [
        json.dumps(json.loads((FOLDER / name).read_text(encoding="utf-8"))) for _, name in chosen
    ]
    path = tmp_path / "vectors.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert NODE is not None
    verifier = Path(__file__).with_name("node_verifier.mjs")
    done = subprocess.run(
        [NODE, str(verifier), str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    for (case, _), line in zip(chosen, done.stdout.splitlines(), strict=True):
        answer, expect = json.loads(line), CASES[case]["expect"]
        if CASES[case]["trusted"] is not None:
            continue  # the Node verifier checks no trust
        assert answer["status"] == expect["status"], case
        assert answer["findings"] == expect["findings"], case


def test_the_steps_of_each_genuine_case_hash_to_its_chain() -> None:
    """What a verifier can check first: section 3's chain over the manifest's step bytes."""
    genuine = [case for case in MANIFEST["cases"] if "steps" in case]
    assert len(genuine) == 4
    for case in genuine:
        steps, chain = case["steps"], case["expect"]["chain"]
        head = hashlib.sha256(bytes.fromhex(steps["identity"])).digest()
        assert head.hex() == chain["identity"]
        for index, ply in enumerate(steps["plies"]):
            head = hashlib.sha256(head + bytes.fromhex(ply)).digest()
            assert head.hex() == chain["plies"][index]
        final = hashlib.sha256(head + bytes.fromhex(steps["result"])).digest()
        assert final.hex() == chain["final"]
        assert bytes.fromhex(steps["identity"])[8:22] == b"gamerec-seal-1"
