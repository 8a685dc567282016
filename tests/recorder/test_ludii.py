"""Ludii's trials: reading, writing, byte-exact round trips, each move's effects, bad input.

The trials of fixtures/foreign/ludii/ are the text Ludii's Trial.convertTrialToString writes
(docs/formats.md): the rules' examples E1 (finished, also with Windows line ends) and E2
(unfinished) of docs/rules/oust.md, written by hand with their effects, and a finished 5x5
game with Ludii's forced passes after captures that left no placement.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import Encoding, encode_record, read_records, write_records
from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.foreign import ludii
from gamerec.recorder.foreign.ludii import lines as ludii_lines
from gamerec.recorder.notation import format_action
from gamerec.recorder.syntax import oust
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.registry import entries
from gamerec.validator.generation import generate
from gamerec.validator.judge import validate
from tests.reference.oust_rules import OustRules, OustState

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "fixtures" / "foreign" / "ludii"
FIXTURES = sorted(FOLDER.glob("*.trl"))
BROKEN = ROOT / "fixtures" / "broken"
WIN = FOLDER / "oust-win-in-three.trl"
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
ACTION = re.compile(r"\[(\w+):([^\[\]]*)\]")

entries()  # the rules engines register each game's Ludii moves (as the command line does)


def trial(record: pb.GameRecord, notes: list[str] | None = None) -> str:
    return ludii.trial_text(record, None if notes is None else notes.append)


def read(text: str | bytes) -> pb.GameRecord:
    data = text.encode() if isinstance(text, str) else text
    (record,) = read_records(io.BytesIO(data), Encoding.LUDII, name="t.trl")
    return record


# -- the trials of the fixtures ----------------------------------------------------------------


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
def test_every_trial_is_a_valid_game(path: Path) -> None:
    (record,) = read_records(path)  # .trl: the extension names the format
    verdict = validate(record)
    assert verdict.valid, [error.message for error in verdict.errors]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
@pytest.mark.parametrize("through", [None, Encoding.GRN, Encoding.PB, Encoding.JSON])
def test_a_trial_read_and_written_back_is_the_same_file(
    path: Path, through: Encoding | None
) -> None:
    (record,) = read_records(path)
    if through is not None:
        (record,) = read_records(io.BytesIO(encode_record(record, through)), through)
    stream = io.BytesIO()
    write_records([record], stream, Encoding.LUDII)
    assert stream.getvalue() == path.read_bytes()


def test_the_fields_of_a_trial() -> None:
    record = read(WIN.read_bytes())
    assert [format_action(move) for move in record.moves] == ["g7", "h7", "f7"]
    assert [move.seat for move in record.moves] == [1, 2, 1]
    assert record.rules.oust.pie == pb.OUST_PIE_OFF  # Ludii's Oust has no pie rule
    assert not record.rules.oust.HasField("board_side")  # Board Size/7x7, the default
    assert len(record.seats) == 2 and not any(seat.name for seat in record.seats)
    assert list(record.result.scores.values) == [1, 0]
    assert list(record.result.winners) == [1]
    assert record.result.termination == pb.TERMINATION_NORMAL
    tags = record.metadata.extra_tags
    assert tags["LudiiRNG"] == "0,0,0,0,0,0,0,0" and tags["LudiiVersion"] == "1.3.12"
    kept = orjson.loads(tags["LudiiMoves"])
    assert kept[:2] == [[1, 63], [2, 64]]  # no effects: Ludii's text for the decision alone
    assert kept[2] == [
        1,
        62,
        "[Move:mover=1,from=62,to=62,actions=",
        ",[Remove:type=Cell,to=64],[SetNextPlayer:player=1]]",
    ]


def test_a_run_of_one_movers_placements_is_one_turn_and_a_pass_after_them_closes_it() -> None:
    (record,) = read_records(FOLDER / "oust-unfinished.trl")
    assert [format_action(move) for move in record.moves][3] == "i7,c9"
    assert format_action(record.moves[8]) == "g7,b9,k9"
    assert record.result.HasField("unfinished")
    (record,) = read_records(FOLDER / "oust-5x5-forced-pass.trl")
    assert record.rules.oust.board_side == 5
    assert "pass" not in [format_action(move) for move in record.moves]
    lines = (FOLDER / "oust-5x5-forced-pass.trl").read_text().splitlines()
    moves = [line for line in lines if line.startswith("Move=")]
    placements = sum(format_action(move).count(",") + 1 for move in record.moves)
    assert placements + sum("[Pass:" in line for line in moves) == len(moves)


def test_a_pass_at_the_start_of_a_turn_is_a_ply() -> None:
    lines = WIN.read_text().splitlines()
    passing = "Move=[Move:mover=2,actions=[Pass:decision=true,forced=true]]"
    text = "\n".join([*lines[:6], passing, lines[6], "rankings=0.0,0.0,0.0", ""])
    record = read(text)
    assert [format_action(move) for move in record.moves] == ["g7", "pass", "h7"]
    assert [move.seat for move in record.moves] == [1, 2, 2]
    assert ludii.trial_text(record) == text  # kept as it was, illegal or not


# -- gamerec's records ---------------------------------------------------------------------------


@st.composite
def generated_oust(draw: st.DrawFn) -> pb.GameRecord:
    """An Oust record gamerec generates, on a board Ludii offers."""
    tags = {"Board": draw(st.sampled_from(["5", "7", "9"]))}
    if draw(st.booleans()):
        tags["Pie"] = "off"
    return next(generate("Oust", tags, 1, draw(st.integers(0, 10**6))))


@PROPERTY
@given(generated_oust())
def test_import_of_export_is_the_record_for_every_generated_oust_record(
    record: pb.GameRecord,
) -> None:
    if any(move.WhichOneof("action") == "swap" for move in record.moves):
        with pytest.raises(EncodingError, match="ply 2: swap has no Ludii move"):
            trial(record)  # Ludii's Oust has no pie rule
        return
    text = trial(record)
    assert read(text) == record
    # Without the embedded copy, the trial's own lines hold the moves and the winner.
    own = read("\n".join(line for line in text.split("\n") if not line.startswith("gamerec=")))
    assert [format_action(m) for m in own.moves] == [format_action(m) for m in record.moves]
    assert list(own.result.winners) == list(record.result.winners)


def replayed_sites(text: str, cells: list[str]) -> dict[str, int]:
    """The stones after applying every Move line's actions as written, as Ludii's referee
    replays a saved trial (Referee.makeSavedMoves): ``{cell: seat}``."""
    stones: dict[int, int] = {}
    for line in text.split("\n"):
        if not line.startswith("Move="):
            continue
        for kind, fields in ACTION.findall(line):
            values = dict(part.split("=", 1) for part in fields.split(","))
            if kind == "Add":
                stones[int(values["to"])] = int(values["what"])
            elif kind == "Remove":
                del stones[int(values["to"])]
    return {cells[site]: owner for site, owner in stones.items()}


@pytest.mark.parametrize("side", ["5", "7", "9"])
def test_each_moves_effects_replayed_as_written_give_the_rules_position(side: str) -> None:
    """Ludii replays a trial's actions as written: they must leave the position the rules do
    (tests/reference/oust_rules.py, a second referee), and give the mover another move
    exactly after a capture that leaves the game going."""
    cells = oust.ludii_cells({"Board": side})
    for record in generate("Oust", {"Board": side, "Pie": "off"}, 6, seed=int(side)):
        text = trial(record)
        reference = OustState(OustRules(int(side), pie=False))
        for move in record.moves:
            reference.play(format_action(move))
        assert replayed_sites(text, cells) == reference.stone_at
        for line in (line for line in text.split("\n") if line.startswith("Move=")):
            captured = "[Remove:" in line
            assert ("[SetNextPlayer:" in line) == captured, line


def test_what_a_trial_has_no_place_for_is_named_and_kept() -> None:
    record = next(generate("Oust", {}, 1, seed=4))
    notes: list[str] = []
    text = trial(record, notes)
    assert notes == [
        "Ludii's trial has no place for rules.oust, seats[*].name, metadata.event, "
        "metadata.round, metadata.client; kept in the last line (gamerec=...), which only "
        "gamerec reads"
    ]
    assert text.split("\n")[-2].startswith("gamerec=") and text.endswith("\n")
    assert read(text) == record


def test_a_last_resignation_has_no_ludii_move_and_rides_in_the_copy() -> None:
    record = next(generate("Oust", {"Pie": "off"}, 1, seed=2))
    del record.moves[10:]
    resign = record.moves.add(seat=record.moves[-1].seat % 2 + 1)
    resign.resign.SetInParent()
    record.result.Clear()
    record.result.winners.append(3 - resign.seat)
    record.result.termination = pb.TERMINATION_RESIGNATION
    text = trial(record)
    assert "rankings=0.0,0.0,0.0" in text and "winner=" not in text
    assert read(text) == record


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda r: r.moves[1].swap.SetInParent(), "ply 2: swap has no Ludii move"),
        (lambda r: r.rules.oust.__setattr__("board_side", 6), "boards of side 5, 7 and 9"),
        (lambda r: r.moves[3].oust.placements[0].__setattr__("row", 30), "not a cell"),
        (lambda r: r.rules.oust.__setattr__("players", 3), "the record's variant: Oust is"),
        (lambda r: r.result.winners.__setitem__(0, 3), "claims winners [3] of 2 seats"),
    ],
)
def test_what_ludii_cannot_hold_is_refused_with_the_reason(change: object, reason: str) -> None:
    record = next(generate("Oust", {}, 1, seed=6))
    change(record)  # type: ignore[operator]
    with pytest.raises(EncodingError, match=re.escape(reason)):
        trial(record)


def test_an_illegal_game_has_no_effects_to_write() -> None:
    record = next(generate("Oust", {}, 1, seed=6))
    record.moves[4].CopyFrom(record.moves[2])  # the cell is taken
    with pytest.raises(EncodingError, match=r"ply 5: .*only a legal game is written"):
        trial(record)


def test_without_the_rules_engines_a_trial_cannot_be_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ludii_lines, "STEPS", {})  # looked up there
    record = next(generate("Oust", {}, 1, seed=6))
    with pytest.raises(EncodingError, match=r"load gamerec\.validator\.games first"):
        trial(record)
    read(WIN.read_bytes())  # a trial read by gamerec keeps its own moves: no engine needed
    assert ludii.trial_text(read(WIN.read_bytes())) == WIN.read_text()


def test_a_trial_holds_one_record() -> None:
    records = list(generate("Oust", {}, 2, seed=6))
    with pytest.raises(EncodingError, match="a Ludii trial holds one record and there are"):
        write_records(records, io.BytesIO(), Encoding.LUDII)


def test_an_embedded_copy_that_no_longer_matches_the_trial_is_refused() -> None:
    record = next(generate("Oust", {}, 1, seed=3))
    text = re.sub(
        r"\[Add:type=Cell,to=(\d+)",
        lambda found: f"[Add:type=Cell,to={0 if found.group(1) != '0' else 1}",
        trial(record),
        count=1,
    )
    with pytest.raises(RecordMalformedError, match="remove the gamerec= line") as caught:
        read(text)
    assert caught.value.where.startswith("line ")


# -- what is no trial ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "line", "reason"),
    [
        ("ludii-unknown-game.trl", 1, "the game '/lud/board/space/connection/Hex.lud' is not"),
        ("ludii-unknown-option.trl", 2, "option 'Board Size/11x11' is not one of Ludii's"),
        ("ludii-off-board.trl", 7, "site 127 is not a cell of this board (sites 0 to 126)"),
        ("ludii-truncated.trl", 7, "expected Move=[Move:mover=N,...], found"),
    ],
)
def test_bad_trials_are_refused_naming_the_line(name: str, line: int, reason: str) -> None:
    with pytest.raises(RecordMalformedError) as caught:
        list(read_records(BROKEN / name))
    assert caught.value.where == f"line {line}"
    assert reason in caught.value.reason


@pytest.mark.parametrize(
    ("replace", "line", "reason"),
    [
        (("mover=2,from=64", "mover=3,from=64"), 7, "mover 3 is no seat of this game"),
        ((",decision=true]]\nMove=[Move:mover=2", "]]\nMove=[Move:mover=2"), 6, "without a deci"),
        (("[Add:type=Cell,to=64", "[Swap:player=1,to=64"), 7, "has no gamerec form"),
        (("numInitialPlacementMoves=0", "numInitialPlacementMoves=2"), 9, "2 set-up moves"),
        (("winner=1", "winner=7"), 10, "winner='7' names no seat"),
        (("END GAME OPTIONS\n", ""), 2, "START GAME OPTIONS without END GAME OPTIONS"),
        (("game=", "gam="), 1, "a Ludii trial starts with game="),
        # issue 38: a line given twice is refused (readers differ on which one they keep)
        (("Board Size/7x7\n", "Board Size/7x7\nBoard Size/9x9\n"), 4, "'Board Size' is given"),
        (("Board Size/7x7\n", "Board Size/9x9\nBoard Size/7x7\n"), 4, "(first on line 3)"),
        (("winner=1\n", "winner=1\nwinner=2\n"), 11, "'winner=' is given twice"),
        (("rankings=", "rankings=0.0,2.0,1.0\nrankings="), 13, "'rankings=' is given twice"),
        (("SANDBOX=false\n", "game=Oust.lud\nSANDBOX=false\n"), 13, "'game=' is given twice"),
        (("RNG internal", "RNG internal state=1\nRNG internal"), 6, "'RNG internal state="),
        (("END GAME OPTIONS\n", "END GAME OPTIONS\nSTART GAME OPTIONS\n"), 5, "START GAME OP"),
    ],
)
def test_a_trial_of_the_wrong_shape_names_the_line(
    replace: tuple[str, str], line: int, reason: str
) -> None:
    text = WIN.read_text().replace(*replace, 1)
    with pytest.raises(RecordMalformedError) as caught:
        read(text)
    assert caught.value.where == f"line {line}"
    assert reason in caught.value.reason


def test_a_trial_that_is_not_utf8_names_the_byte() -> None:
    with pytest.raises(RecordMalformedError, match="a Ludii trial is UTF-8 text") as caught:
        read(WIN.read_bytes()[:20] + b"\xff" + WIN.read_bytes()[20:])
    assert caught.value.where == "byte 20"


def test_text_starting_with_game_is_sniffed_as_a_trial() -> None:
    (record,) = read_records(io.BytesIO(WIN.read_bytes()))  # no name: sniffed
    assert [format_action(move) for move in record.moves] == ["g7", "h7", "f7"]


# -- issue 34 item 10: a winner that follows from the result -----------------------------------


@pytest.mark.parametrize(("scores", "winner"), [((1, 0), 1), ((0, 1), 2)])
def test_a_result_without_a_winner_tag_gives_the_trial_its_winner(
    scores: tuple[int, int], winner: int
) -> None:
    # A finished Oust game, its Winner removed: the Result still names the winner (GRN's
    # Winner is needed only where the scores do not say it), and the trial alone says it too.
    games = generate("Oust", {"Pie": "off"}, 40, seed=5)
    record = next(found for found in games if list(found.result.winners) == [winner])
    assert list(record.result.scores.values) == list(scores)
    del record.result.winners[:]
    text = trial(record)
    assert f"winner={winner}\n" in text
    assert ("rankings=0.0,1.0,2.0" if winner == 1 else "rankings=0.0,2.0,1.0") in text
    plain = read("\n".join(line for line in text.split("\n") if not line.startswith("gamerec=")))
    assert list(plain.result.scores.values) == list(scores)
    assert list(plain.result.winners) == [winner]


def test_equal_scores_without_a_winner_tag_name_no_winner() -> None:
    (record,) = read_records(WIN)
    del record.result.winners[:]
    record.result.scores.values[:] = [0, 0]
    text = trial(record)
    assert "winner=0\n" in text and "rankings=0.0,1.5,1.5" in text
