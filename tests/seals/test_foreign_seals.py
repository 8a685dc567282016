"""A seal on an Abstract Play file or a Ludii trial covers what that file shows (issue 38).

The seal rides in the file's embedded gamerec record. A sealed record's foreign form is made
from its fields alone (each trial move's effects from the rules engine; no kept text, no
patch), and reading refuses a file whose own parts are not exactly that form: every edit of
what the tool would show (a stone's owner, a move's from and to, a captured stone, a "same
player moves again", the winner, a player's name, a move label, a result), also when the
embedded copy's unsealed tags are edited to match, is a refusal, never "verified".
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from gamerec.cli.main import app
from gamerec.recorder.codecs import Encoding, read_records, write_records
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.foreign import abstractplay as ap
from gamerec.recorder.foreign import ludii
from gamerec.recorder.foreign.keeping import record_copy, store_json, stored_json
from gamerec.recorder.foreign.ludii import lines as ludii_lines
from gamerec.recorder.seal import seal_record
from gamerec.recorder.signing import sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.registry import entries
from gamerec.validator.verification import verify
from tests.sealing import key, public

ROOT = Path(__file__).resolve().parents[2]
TRIALS = ROOT / "fixtures" / "foreign" / "ludii"
AP_FILES = ROOT / "fixtures" / "foreign" / "abstractplay"

entries()  # the rules engines register each game's Ludii moves (as the command line does)


def sealed(record: pb.GameRecord) -> pb.GameRecord:
    """The record sealed with keys for both seats and the host, and signed by all three."""
    record = seal_record(record, [public(1), public(2)], public(0))
    for signer in (1, 2, 0):
        record = sign_record(record, key(signer), signer)
    return record


def written(record: pb.GameRecord, encoding: Encoding) -> str:
    stream = io.BytesIO()
    write_records([record], stream, encoding)
    return stream.getvalue().decode()


def read(text: str, encoding: Encoding) -> pb.GameRecord:
    (record,) = read_records(io.BytesIO(text.encode()), encoding, name="f")
    return record


def refused(text: str, encoding: Encoding) -> str:
    with pytest.raises(RecordMalformedError) as caught:
        read(text, encoding)
    return caught.value.reason


# -- Ludii -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trial() -> tuple[pb.GameRecord, str]:
    """The rules' example E1 (a capture, then the mover again), sealed, and its trial text."""
    (record,) = read_records(TRIALS / "oust-win-in-three.trl")
    record = sealed(record)
    return record, written(record, Encoding.LUDII)


def test_a_sealed_trial_reads_back_as_its_record_and_verifies(
    trial: tuple[pb.GameRecord, str],
) -> None:
    record, text = trial
    back = read(text, Encoding.LUDII)
    assert back == record
    assert verify(back).verified


LUDII_EDITS: dict[str, Callable[[str], str]] = {
    "the owner of a placed stone": lambda text: text.replace("to=64,what=2", "to=64,what=1"),
    "a move's from": lambda text: text.replace("from=62,to=62", "from=61,to=62"),
    "a move's to": lambda text: text.replace("mover=2,from=64,to=64", "mover=2,from=64,to=65"),
    "the stone a capture removes": lambda text: text.replace("Cell,to=64]", "Cell,to=65]"),
    "a capture's removal dropped": lambda text: text.replace(",[Remove:type=Cell,to=64]", ""),
    "the same player moves again, removed": lambda text: text.replace(
        ",[SetNextPlayer:player=1]", ""
    ),
    "an action added": lambda text: text.replace("decision=true]]", "decision=true],[Pass:x]]", 1),
    "the winner": lambda text: text.replace("winner=1", "winner=2"),
    "the rankings": lambda text: text.replace("rankings=0.0,1.0,2.0", "rankings=0.0,2.0,1.0"),
    "the end type": lambda text: text.replace("endtype=NaturalEnd", "endtype=MoveLimit"),
    "a line added": lambda text: text.replace("SANDBOX=false", "SANDBOX=false\nnote=hello"),
    "Windows line ends": lambda text: text.replace("\n", "\r\n"),
}


@pytest.mark.parametrize("edit", LUDII_EDITS.values(), ids=LUDII_EDITS.keys())
def test_every_edit_of_what_a_sealed_trial_shows_is_refused(
    trial: tuple[pb.GameRecord, str], edit: Callable[[str], str]
) -> None:
    _, text = trial
    forged = edit(text)
    assert forged != text
    assert "not this file's" in refused(forged, Encoding.LUDII)


def test_the_kept_move_text_of_a_sealed_copy_cannot_vouch_for_an_edit(
    trial: tuple[pb.GameRecord, str],
) -> None:
    # The attack: edit a move line, and the copy's unsealed LudiiMoves tag to match it.
    record, text = trial
    assert stored_json(record, ludii.MOVES_TAG, "") is not None  # read from Ludii: kept
    edited = text.replace(",[SetNextPlayer:player=1]", "")
    third = [line for line in edited.split("\n") if line.startswith("Move=")][2]
    before, _, after = third.removeprefix("Move=").partition(
        "[Add:type=Cell,to=62,what=1,decision=true]"
    )
    forged_copy = pb.GameRecord()
    forged_copy.CopyFrom(record)
    store_json(forged_copy, ludii.MOVES_TAG, [[1, 63], [2, 64], [1, 62, before, after]])
    assert verify(forged_copy).verified  # the tag is outside the seal...
    old_line = next(line for line in edited.split("\n") if line.startswith("gamerec="))
    new_line = "gamerec=" + orjson.dumps(record_copy(forged_copy)).decode()
    forged = edited.replace(old_line, new_line)
    assert "not this file's" in refused(forged, Encoding.LUDII)  # ...so it vouches for nothing


def test_a_trial_read_from_ludii_then_sealed_is_written_from_the_rules_and_verifies() -> None:
    # Ludii's own text (another order of removals, kept in LudiiMoves) is not the seal's:
    # once sealed, the trial is written from the record, and reads back.
    (record,) = read_records(TRIALS / "oust-5x5-forced-pass.trl")
    record = sealed(record)
    text = written(record, Encoding.LUDII)
    back = read(text, Encoding.LUDII)
    assert back == record and verify(back).verified


def test_a_sealed_trial_without_the_rules_engine_says_what_is_missing(
    trial: tuple[pb.GameRecord, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, text = trial
    monkeypatch.setattr(ludii_lines, "STEPS", {})  # looked up there
    reason = refused(text, Encoding.LUDII)
    assert "needs the rules engine" in reason


# -- Abstract Play ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ap_file() -> tuple[pb.GameRecord, str]:
    """A hand-made Abstract Play record with quirks kept in its patch, sealed, and its file."""
    (record,) = read_records(AP_FILES / "oust-hex7.json")
    record = sealed(record)
    return record, written(record, Encoding.ABSTRACT_PLAY)


def test_a_sealed_abstract_play_file_reads_back_as_its_record_and_verifies(
    ap_file: tuple[pb.GameRecord, str],
) -> None:
    record, text = ap_file
    back = read(text, Encoding.ABSTRACT_PLAY)
    assert back == record
    assert verify(back).verified


def _patched(change: Callable[[dict[str, Any]], object], patch: list[dict[str, Any]]) -> Any:
    """Change the file's own fields, and add ``patch`` to the embedded copy's patch tag."""

    def forge(value: dict[str, Any]) -> None:
        change(value)
        tags = value["header"]["gamerec"].setdefault("metadata", {}).setdefault("extraTags", {})
        tags[ap.PATCH_TAG] = orjson.dumps(patch).decode()

    return forge


AP_EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "a player's name": _patched(
        lambda value: value["header"]["players"][0].__setitem__("name", "Mallory"),
        [{"at": ["header", "players", 0, "name"], "was": "NAME0", "is": "Mallory"}],
    ),
    "a move label": _patched(
        lambda value: value["moves"][0].__setitem__(0, "a2"),
        [{"at": ["moves", 0, 0], "was": "LABEL", "is": "a2"}],
    ),
    "the result (the loser shown as winner)": _patched(
        lambda value: [
            value["header"]["players"][0].__setitem__("result", 0),
            value["header"]["players"][1].__setitem__("result", 1),
        ],
        [
            {"at": ["header", "players", 0, "result"], "was": 1, "is": 0},
            {"at": ["header", "players", 1, "result"], "was": 0, "is": 1},
        ],
    ),
    "a plain edit of a name": lambda value: value["header"]["players"][1].__setitem__("name", "X"),
}


@pytest.mark.parametrize("edit", AP_EDITS.values(), ids=AP_EDITS.keys())
def test_every_edit_of_what_a_sealed_abstract_play_file_shows_is_refused(
    ap_file: tuple[pb.GameRecord, str], edit: Callable[[dict[str, Any]], None]
) -> None:
    _, text = ap_file
    value = orjson.loads(text)
    # the patch entries name the values the writer writes there
    names = {"NAME0": value["header"]["players"][0]["name"], "LABEL": value["moves"][0][0]}
    edit(value)
    tags = value["header"]["gamerec"].get("metadata", {}).get("extraTags", {})
    if ap.PATCH_TAG in tags:
        patch = orjson.loads(tags[ap.PATCH_TAG])
        for entry in patch:
            entry["was"] = names.get(entry["was"], entry["was"])
        tags[ap.PATCH_TAG] = orjson.dumps(patch).decode()
    forged = orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    assert "header.gamerec" in refused(forged, Encoding.ABSTRACT_PLAY)


def test_the_same_patch_on_an_unsealed_copy_is_still_applied() -> None:
    # Without a seal nothing is vouched for: the patch keeps what the writer cannot give back.
    (record,) = read_records(AP_FILES / "oust-quirks.json")
    assert ap.PATCH_TAG in record.metadata.extra_tags
    text = written(record, Encoding.ABSTRACT_PLAY)
    assert orjson.loads(text) == orjson.loads((AP_FILES / "oust-quirks.json").read_bytes())


def test_gamerec_verify_refuses_a_tampered_sealed_trial_and_verifies_the_genuine_one(
    trial: tuple[pb.GameRecord, str], tmp_path: Path
) -> None:
    _, text = trial
    genuine, tampered = tmp_path / "genuine.trl", tmp_path / "tampered.trl"
    genuine.write_text(text)
    tampered.write_text(LUDII_EDITS["the owner of a placed stone"](text))
    held = CliRunner().invoke(app, ["verify", str(genuine)])
    assert held.exit_code == 0, held.output
    assert "seal holds" in held.output
    refused_run = CliRunner().invoke(app, ["verify", str(tampered)])
    assert refused_run.exit_code == 2, refused_run.output
    assert "tampered.trl: line 15: the embedded gamerec record's trial is not this file's" in (
        refused_run.output
    )
