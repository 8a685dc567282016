"""The viewer's win-probability graph and marks, from a real ``gamerec annotate --engine`` run.

Each record is annotated by the command (fixed seed, few playouts) and its page written by
``gamerec view``; the page's embedded graph must hold exactly the chances and marks the
library's own analysis of the same record computes (rounded as ``[%win]`` writes them).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamerec.cli.main import app
from gamerec.recorder.codecs import Encoding, encode_record
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.analysis.marks import EngineAnnotation, engine_annotate
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.render.svg import SEAT_COLOURS
from gamerec.validator.render.viewer import view_page
from gamerec.validator.search.core import Limits
from tests.analysis.test_analysis import BLUNDER
from tests.imports import loaded_after
from tests.viewer.records import engine_annotated, one_record
from tests.viewer.test_page import data_of

ROOT = Path(__file__).resolve().parents[2]
#: A record per seat count, its playouts a position and seed: 2 seats (the known blunder of
#: tests/analysis, as docs/analysis.md annotates it), 3 (as docs/analysis.md), 4 and 6 seats.
CASES: dict[str, tuple[Path | None, int, int]] = {
    "one-2-seats-blunder": (None, 300, 1),
    "ohwahree-3p": (ROOT / "fixtures/games/ohwahree-3p.grn", 40, 2),
    "ohwahree-4p": (ROOT / "fixtures/games/ohwahree-4p.grn", 40, 2),
    "one-6p-three-rings": (ROOT / "fixtures/games/one-6p-three-rings.grn", 40, 2),
}
SEATS = {"one-2-seats-blunder": 2, "ohwahree-3p": 3, "ohwahree-4p": 4, "one-6p-three-rings": 6}


@dataclass(frozen=True)
class Annotated:
    """A record, the same annotated by the command, its page, and the library's analysis."""

    name: str
    source: pb.GameRecord
    record: pb.GameRecord
    html: str
    analysis: EngineAnnotation


def annotate_and_view(name: str, folder: Path) -> Annotated:
    """``gamerec annotate --engine`` then ``gamerec view`` on a case."""
    source_path, playouts, seed = CASES[name]
    if source_path is None:
        source_path = folder / "blunder.grn"
        source_path.write_bytes(encode_record(BLUNDER, Encoding.GRN))
    record = engine_annotated(source_path, folder / "marked.grn", playouts=playouts, seed=seed)
    page = folder / "marked.html"
    result = CliRunner().invoke(app, ["view", str(folder / "marked.grn"), "-o", str(page)])
    assert result.exit_code == 0, result.output
    source = one_record(source_path)
    analysis = engine_annotate(source, SearchSettings(Limits(playouts=playouts), seed=seed))
    return Annotated(name, source, record, page.read_text(encoding="utf-8"), analysis)


@pytest.fixture(scope="module", params=sorted(CASES))
def annotated(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Annotated:
    return annotate_and_view(request.param, tmp_path_factory.mktemp(request.param))


@pytest.fixture(scope="module")
def blunder(tmp_path_factory: pytest.TempPathFactory) -> Annotated:
    return annotate_and_view("one-2-seats-blunder", tmp_path_factory.mktemp("blunder"))


def written(value: float) -> float:
    """A chance as ``[%win]`` and ``[%drop]`` write it (two decimals)."""
    return float(f"{value:.2f}")


def test_the_embedded_graph_holds_the_annotated_chances_and_marks(annotated: Annotated) -> None:
    graph = data_of(annotated.html)["graph"]
    pairs = list(itertools.pairwise(annotated.analysis.positions))
    assert graph["plies"] == [before.ply for before, _ in pairs]
    assert graph["plies"] == list(range(1, len(annotated.record.moves) + 1))
    assert graph["win"] == [[written(chance) for chance in after.win] for _, after in pairs]
    assert graph["last"] == len(annotated.record.moves)
    assert graph["marks"] == [
        {"p": mark.ply, "s": mark.seat, "k": mark.kind, "d": written(mark.drop), "b": mark.best}
        for mark in annotated.analysis.marks
    ]


def test_the_graph_draws_one_line_per_seat_and_a_dot_per_mark(annotated: Annotated) -> None:
    html, marks = annotated.html, annotated.analysis.marks
    seats = len(data_of(html)["graph"]["win"][0])
    assert seats == SEATS[annotated.name]
    paths = re.findall(
        r'<path class="win-line" data-seat="(\d)" d="([^"]*)"[^>]*stroke="([^"]*)"', html
    )
    assert [int(seat) for seat, _, _ in paths] == list(range(1, seats + 1))
    assert [colour for _, _, colour in paths] == list(SEAT_COLOURS[:seats])
    for _, steps, _ in paths:  # one stretch through every ply
        commands = steps.split()
        assert len(commands) == len(annotated.record.moves)
        assert commands[0].startswith("M") and all(step.startswith("L") for step in commands[1:])
    dots = re.findall(r'<circle class="win-mark (\w+)" data-ply="(\d+)"', html)
    assert dots == [(mark.kind, str(mark.ply)) for mark in marks]


def test_the_move_list_shows_each_mark_and_the_better_move(blunder: Annotated) -> None:
    html, data = blunder.html, data_of(blunder.html)
    marks = blunder.analysis.marks
    assert {(mark.ply, mark.kind) for mark in marks} >= {(5, "blunder")}
    assert len(re.findall(r'<span class="mark \w+">', html)) == len(marks)
    for mark in marks:
        item = re.search(rf'<li><a class="mv" id="node-{mark.ply}" .*?</li>', html)
        assert item is not None
        glyph = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[mark.kind]
        assert f'<span class="mark {mark.kind}">{glyph} {mark.kind}: chance -' in item.group(0)
        assert f"{glyph}</span>" in item.group(0)  # the token's glyph
        better = re.search(r'better <a class="better" href="#([^"]+)">([^<]+)</a>', item.group(0))
        assert better is not None and better.group(2) == mark.best
        target = next(node for node in data["nodes"] if node["f"] == better.group(1))
        assert (target["l"] > 0, target["p"], target["t"]) == (True, mark.ply, mark.best)
    # The commands are read, not shown: the comments keep only what a person wrote.
    comments = re.findall(r"<span class=comment>(.*?)</span>", html)
    assert not any("[%" in comment for comment in comments)
    assert html.count("the engine&#39;s line: chance ") == len(marks)


def test_a_record_without_chances_has_no_graph(tmp_path: Path) -> None:
    plain = one_record(ROOT / "fixtures/valid/one-e2-two-jumps.grn")
    # The one-ply annotator writes facts, not chances: no graph either.
    out = tmp_path / "facts.grn"
    result = CliRunner().invoke(
        app, ["annotate", str(ROOT / "fixtures/games/one-2p.grn"), "-o", str(out), "--auto"]
    )
    assert result.exit_code == 0, result.output
    for record in (plain, one_record(out)):
        html = view_page(record).html
        assert 'id="win-graph"' not in html and "win-chart" not in html
        assert "graph" not in data_of(html)
        assert 'class="mark ' not in html


def test_unreadable_chances_are_not_drawn_and_the_caption_says_why(blunder: Annotated) -> None:
    record = pb.GameRecord()
    record.CopyFrom(blunder.record)
    record.moves[1].comment += " [%win 0.10,0.90]"
    record.moves[2].comment = "[%win 0.5]"
    html = view_page(record).html
    graph = data_of(html)["graph"]
    assert graph["plies"] == [1, *range(4, len(record.moves) + 1)]
    assert (
        "Not drawn: ply 2: [%win] is given twice; ply 3: [%win 0.5] gives 1 chances for 2 " in html
    )
    path = re.search(r'<path class="win-line" data-seat="1" d="([^"]*)"', html)
    assert path is not None
    assert [step[0] for step in path.group(1).split()] == ["M", "M", *"L" * (len(record.moves) - 4)]
    # A ply whose commands cannot be read has no mark either: nothing is guessed.
    assert all(mark["p"] not in (2, 3) for mark in graph["marks"])


def test_an_invalid_record_draws_the_plies_that_were_replayed(blunder: Annotated) -> None:
    record = pb.GameRecord()
    record.CopyFrom(blunder.record)
    refused = record.moves[7]  # seat 2 plays on seat 1's a1: refused, ply 8 is wrong
    chances = refused.comment
    refused.CopyFrom(record.moves[0])
    refused.seat, refused.comment = 2, chances
    page = view_page(record)
    assert not page.verdict.valid and page.verdict.errors[0].ply == 8
    graph = data_of(page.html)["graph"]
    assert graph["plies"] == list(range(1, 8)) and graph["last"] == 7
    assert graph["win"] == data_of(blunder.html)["graph"]["win"][:7]
    assert page.html.count('class="mark ') == sum(mark.ply < 8 for mark in blunder.analysis.marks)


def test_a_mark_on_a_ply_whose_glyph_a_person_chose_is_drawn_grey(blunder: Annotated) -> None:
    record = pb.GameRecord()
    record.CopyFrom(blunder.record)
    record.moves[4].glyph = pb.GLYPH_GOOD  # annotate keeps a person's glyph; [%drop] stays
    html = view_page(record).html
    assert '<circle class="win-mark marked" data-ply="5"' in html and 'fill="#777777"' in html
    assert '<span class="mark marked">! marked: chance -' in html
    assert data_of(html)["graph"]["marks"][-1]["k"] == "marked"


def test_the_viewer_reads_the_commands_without_loading_the_search() -> None:
    loaded = loaded_after(
        ["gamerec.validator.render.viewer"],
        ("gamerec.validator.analysis.", "gamerec.validator.search"),
    )
    assert loaded == ["gamerec.validator.analysis.commands"]
