"""SVG pictures: valid XML, one shape per site, the position's stones, marks and golden files.

The golden files in ``tests/render/golden/`` guard the drawing. After an intended change of the
pictures, regenerate them and look at the difference before committing::

    GAMEREC_UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_svg.py
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.validator.games import engine
from gamerec.validator.generation import generate
from gamerec.validator.render import SEAT_COLOURS, Scene, board_model, draw_svg, scenes

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
GAMES = ROOT / "fixtures" / "games"
GOLDEN = Path(__file__).resolve().parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"

#: Golden pictures: (file name, fixture, ply). Each shows a capture or a possession.
GOLDEN_SCENES = [
    ("one-e3-ply-4.svg", VALID / "one-e3-round-completion.grn", 4),
    ("aronda-e4-ply-7.svg", VALID / "aronda-e4-inside-then-outside.grn", 7),
    ("oust-e2-ply-9.svg", VALID / "oust-e2-two-groups.grn", 9),
    ("ohwahree-e2-ply-5.svg", VALID / "ohwahree-e2-three-seats.grn", 5),
    # The end of a four-seat game: the seat labels on the slant and the result under the legend.
    ("ohwahree-4p-end.svg", GAMES / "ohwahree-4p.grn", 38),
]

#: Fixtures of every game and board, with the number of sites their board has.
BOARDS = [
    (GAMES / "one-3p.grn", 60, "point"),
    (GAMES / "one-6p-three-rings.grn", 40, "point"),
    (VALID / "one-e3-round-completion.grn", 12, "point"),
    (GAMES / "aronda.grn", 25, "field"),
    (GAMES / "oust-side7.grn", 127, "cell"),
    (GAMES / "oust-side5-pie-off.grn", 61, "cell"),
    (VALID / "oust-e3-forced-pass.grn", 19, "cell"),
    (GAMES / "ohwahree-2p.grn", 12, "pit"),
    (GAMES / "ohwahree-4p.grn", 12, "pit"),
]


def scene_at(path: Path, ply: int | None = None) -> Scene:
    """The scene after ``ply`` (default: the last ply) of the first record of ``path``."""
    found = None
    for scene in scenes(next(read_records(path))):
        found = scene
        if scene.ply == ply:
            break
    assert found is not None
    return found


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def texts(root: ET.Element, name: str) -> list[str]:
    return [e.text or "" for e in with_class(root, name)]


@pytest.mark.parametrize(("path", "sites", "kind"), BOARDS)
def test_one_shape_per_site_with_a_stable_id(path: Path, sites: int, kind: str) -> None:
    scene = scene_at(path)
    root = parse(draw_svg(scene))
    shapes = with_class(root, "site")
    assert len(shapes) == sites == len(scene.position.sites)
    assert [shape.get("id") for shape in shapes] == [
        f"site-{site.name}" for site in scene.position.sites
    ]
    assert {shape.get("class") for shape in shapes} == {f"site {kind}"}


@pytest.mark.parametrize(("path", "sites", "kind"), BOARDS)
def test_the_position_is_drawn_site_by_site(path: Path, sites: int, kind: str) -> None:
    scene = scene_at(path, ply=len(next(read_records(path)).moves) // 2)
    root = parse(draw_svg(scene))
    position = scene.position
    if kind in ("point", "cell"):
        stones = with_class(root, "stone")
        owners = [site.owner for site in position.sites if site.owner]
        assert [int(s.get("class", "").split("-")[-1]) for s in stones] == owners
        assert [s.get("fill") for s in stones] == [SEAT_COLOURS[o - 1] for o in owners]
    elif kind == "field":
        pieces = with_class(root, "piece")
        assert len(pieces) == sum(sum(site.pieces) for site in position.sites if not site.owner)
        assert texts(root, "possessor") == [f"#{s.owner}" for s in position.sites if s.owner]
        assert texts(root, "capacity")[:9] == ["cap 4"] + ["cap 3"] * 8
    else:
        assert texts(root, "count") == [str(site.pieces[0]) for site in position.sites]
        stores = [f"store seat {seat}: {n}" for seat, n in enumerate(position.captured, 1)]
        assert texts(root, "store-count") == stores
    assert texts(root, "site-label") == [site.name for site in position.sites] or (
        not scene.model.label_size
    )


def test_the_title_names_the_game_the_ply_and_the_seat_to_move() -> None:
    root = parse(draw_svg(scene_at(VALID / "one-e3-round-completion.grn", 4)))
    title = "ONE · after ply 4 of 12, seat 1 a1xa3 · seat 2 to move"
    assert root.findtext(f"{SVG}title") == title
    assert texts(root, "title") == [title]
    end = parse(draw_svg(scene_at(VALID / "one-e3-round-completion.grn")))
    assert end.findtext(f"{SVG}title", "").endswith("game over")


def test_the_last_move_is_ringed_and_its_captures_dashed() -> None:
    root = parse(draw_svg(scene_at(VALID / "oust-e2-two-groups.grn", 9)))
    # Ply 9 is g7,b9,k9: three placements; it removes f7 h7 i7, then c9.
    assert len(with_class(root, "last-move")) == 3
    assert len(with_class(root, "taken")) == 4
    start = parse(draw_svg(scene_at(VALID / "oust-e2-two-groups.grn", 0)))
    assert not with_class(start, "last-move") and not with_class(start, "taken")


def test_the_legend_has_a_line_per_seat_with_names_scores_and_the_seat_to_move() -> None:
    root = parse(draw_svg(scene_at(VALID / "one-e3-round-completion.grn", 4)))
    assert texts(root, "seat-line") == [
        "seat 1 Ana · score 3 · supply 3 · captured 1",
        "seat 2 Ben · score 0 · supply 3 · captured 0",  # its a2 stone was jumped
        "seat 3 Chi · score 1 · supply 3 · captured 0",
    ]
    assert len(with_class(root, "to-move")) == 1


def test_six_seats_get_six_distinct_colours() -> None:
    assert len(set(SEAT_COLOURS)) == 6
    record = next(generate("ONE", {"Players": "6"}, 1, seed=3))
    last = list(scenes(record))[-1]
    root = parse(draw_svg(last))
    used = {e.get("fill") for e in with_class(root, "swatch")}
    assert used == set(SEAT_COLOURS)


def test_seat_names_are_escaped() -> None:
    record = next(read_records(VALID / "oust-e1-pie.grn"))
    record.seats[0].name = 'Kim <"&">'
    root = parse(draw_svg(list(scenes(record))[-1]))
    assert texts(root, "seat-line")[0].startswith('seat 1 Kim <"&">')


def test_a_tiny_board_leaves_out_the_names_but_keeps_every_site() -> None:
    found = engine("ONE")
    variant = found.variant(players=2, rings=(5, 10, 20, 40, 80, 160, 320))
    model = board_model("ONE", variant)
    scene = Scene(model, found.new_game(variant).position(), (0, 0))
    root = parse(draw_svg(scene))
    assert len(with_class(root, "site")) == 635
    assert model.label_size == 0 and not with_class(root, "site-label")


def test_drawing_is_deterministic() -> None:
    scene = scene_at(GAMES / "aronda.grn", 12)
    assert draw_svg(scene) == draw_svg(scene)
    coordinates = re.findall(r' (?:x|y|cx|cy|r|d|points)="([^"]*)"', draw_svg(scene))
    assert coordinates
    assert not [value for value in coordinates if re.search(r"\.\d\d", value)]


@pytest.mark.parametrize(("name", "path", "ply"), GOLDEN_SCENES)
def test_golden_pictures(name: str, path: Path, ply: int) -> None:
    drawn = draw_svg(scene_at(path, ply))
    golden = GOLDEN / name
    if os.environ.get("GAMEREC_UPDATE_GOLDEN"):
        golden.write_text(drawn, encoding="utf-8")
    assert drawn == golden.read_text(encoding="utf-8"), (
        f"{name} changed; if intended, run GAMEREC_UPDATE_GOLDEN=1 pytest {__file__}"
    )
