"""The pictures can be read: labels clear of the lines, a number on every stone, names large and
dark enough, and the result of a finished game written under the legend.

Everything is checked on the SVG itself (parsed with xml.etree), with its own estimate of the
room text takes, a little larger than the renderer's (DejaVu Sans averages under 0.6 em a
character; 0.7 em and lines of 1.3 em are assumed here).
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.games import aronda, engine
from gamerec.validator.games.protocol import Site
from gamerec.validator.generation import generate
from gamerec.validator.judge import score
from gamerec.validator.render import Scene, board_model, draw_svg, scenes
from gamerec.validator.render.svg import BOARD_FILL

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted((ROOT / "fixtures" / "games").glob("*.grn")) + sorted(
    (ROOT / "fixtures" / "valid").glob("*.grn")
)
WIDTH_EM, HEIGHT_EM = 0.7, 1.3

Box = tuple[float, float, float, float]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def number(element: ET.Element, name: str) -> float:
    return float(element.get(name, "nan"))


def text_box(text: ET.Element) -> Box:
    """The room a centred text element takes (text-anchor middle, baseline central)."""
    assert (text.get("text-anchor"), text.get("dominant-baseline")) == ("middle", "central")
    size = number(text, "font-size")
    half_width = WIDTH_EM * size * len(text.text or "") / 2
    half_height = HEIGHT_EM * size / 2
    x, y = number(text, "x"), number(text, "y")
    return (x - half_width, y - half_height, x + half_width, y + half_height)


def nearest(box: Box) -> float:
    """The distance from the board's centre to the nearest point of ``box``."""
    left, top, right, bottom = box
    dx = max(left, 0.0, -right)
    dy = max(top, 0.0, -bottom)
    return math.hypot(dx, dy)


def farthest(box: Box) -> float:
    left, top, right, bottom = box
    return math.hypot(max(abs(left), abs(right)), max(abs(top), abs(bottom)))


def crosses_circle(box: Box, radius: float) -> bool:
    """Whether the circle of ``radius`` round the centre passes through ``box``."""
    return nearest(box) <= radius <= farthest(box)


def overlap(first: Box, second: Box) -> bool:
    return not (
        first[2] <= second[0]
        or second[2] <= first[0]
        or first[3] <= second[1]
        or second[3] <= first[1]
    )


def circle_box(circle: ET.Element) -> Box:
    x, y, r = number(circle, "cx"), number(circle, "cy"), number(circle, "r")
    return (x - r, y - r, x + r, y + r)


def arc_radii(root: ET.Element) -> set[float]:
    """The radii of every arc of the blocks' outlines (``A r,r ...`` in their paths)."""
    radii: set[float] = set()
    for block in with_class(root, "block"):
        radii.update(float(r) for r in re.findall(r"A([\d.]+),", block.get("d", "")))
    return radii


def end_of(players: int) -> Scene:
    record = next(read_records(ROOT / "fixtures" / "games" / f"ohwahree-{players}p.grn"))
    *_, last = scenes(record)
    return last


# -- Oh-Wah-Ree's seat labels ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_labels_cross_no_arc_and_touch_no_pit_store_or_other_label(players: int) -> None:
    root = parse(draw_svg(end_of(players)))
    labels = with_class(root, "block-label")
    assert [label.text for label in labels] == [f"seat {seat}" for seat in range(1, players + 1)]
    radii = arc_radii(root)
    assert len(radii) == 2  # every block runs between the same two circles
    boxes = [text_box(label) for label in labels]
    # Inside the inner circle: then no arc and no edge between two blocks reaches the label.
    assert all(farthest(box) < min(radii) for box in boxes)
    assert not any(crosses_circle(box, radius) for box in boxes for radius in radii)
    others = [circle_box(pit) for pit in with_class(root, "pit")] + [
        (number(r, "x"), number(r, "y"), number(r, "x") + number(r, "width"), number(r, "y") + 26)
        for r in with_class(root, "store")
    ]
    for index, box in enumerate(boxes):
        assert not any(overlap(box, other) for other in others)
        assert not any(overlap(box, other) for other in boxes[index + 1 :])


def test_the_check_finds_the_labels_where_they_stood() -> None:
    """Before the fix, a label's centre was 72 units inside the pits' ring at its block's middle."""
    root = parse(draw_svg(end_of(4)))
    (label, *_) = with_class(root, "block-label")
    angle = math.radians(225.0)  # seat 1's block of three pits, 195° to 270° of the clock
    label.set("x", str(133.0 * math.sin(angle)))
    label.set("y", str(-133.0 * math.cos(angle)))
    assert crosses_circle(text_box(label), min(arc_radii(root)))


# -- a number on every stone ----------------------------------------------------------------


def full_aronda() -> Scene:
    """Every Aronda field with the most pieces the rules allow: cap - 1 of each seat."""
    found = engine("Aronda")
    variant = found.variant()
    position = found.new_game(variant).position()
    sites = tuple(
        Site(site.name, 0, (cap - 1, cap - 1))
        for site, cap in zip(position.sites, aronda.CAPACITY, strict=True)
    )
    return Scene(board_model("Aronda", variant), position._replace(sites=sites), (0, 0))


def stone_scenes() -> Iterator[tuple[str, Scene]]:
    for name in ("one-3p", "one-6p-three-rings", "oust-side7", "oust-side5-pie-off", "aronda"):
        record = next(read_records(ROOT / "fixtures" / "games" / f"{name}.grn"))
        middle = len(record.moves) // 2
        for scene in scenes(record):
            if scene.ply == middle:
                yield name, scene
    tiny = engine("ONE").variant(players=2, rings=(5, 10, 20, 40, 80, 160, 320))
    game = next(generate("ONE", {"Players": "2", "Board": "5,10,20,40,80,160,320"}, 1, seed=1))
    *_, last = scenes(game)
    assert last.model is board_model("ONE", tiny)
    yield "one-tiny-board", last
    yield "aronda-full", full_aronda()


@pytest.mark.parametrize(("name", "scene"), list(stone_scenes()))
def test_every_stone_and_piece_carries_its_seat_number(name: str, scene: Scene) -> None:
    root = parse(draw_svg(scene))
    stones = with_class(root, "stone") + with_class(root, "piece")
    marks = with_class(root, "stone-mark") + with_class(root, "piece-mark")
    assert stones, name
    assert len(marks) == len(stones)
    if scene.model.kind == "field":  # pieces stand on fields nobody owns yet
        drawn = sum(sum(site.pieces) for site in scene.position.sites if not site.owner)
    else:
        drawn = sum(1 for site in scene.position.sites if site.owner)
    assert len(stones) == drawn
    for stone in stones:
        seat = int(stone.get("class", "").split("seat-")[1])
        x, y, r = number(stone, "cx"), number(stone, "cy"), number(stone, "r")
        inside = [m for m in marks if math.hypot(number(m, "x") - x, number(m, "y") - y) < r]
        assert len(inside) == 1, (name, stone.attrib)
        (mark,) = inside
        assert mark.text == scene.model.mark(seat)
        assert 0 < number(mark, "font-size") <= 2 * r
        assert mark.get("fill") != stone.get("fill")


# -- Oust's cell names ----------------------------------------------------------------------


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def inside_polygon(point: tuple[float, float], corners: list[tuple[float, float]]) -> bool:
    """Whether ``point`` lies inside the convex polygon (corners in order, either way round)."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        cross = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)
        signs.add(cross > 0)
    return len(signs) == 1


def full_oust(side: int) -> Scene:
    """An Oust board of ``side`` with a stone on every cell (the names must clear them all)."""
    found = engine("Oust")
    variant = found.variant(side=side)
    position = found.new_game(variant).position()
    sites = tuple(Site(s.name, 1 + n % 2) for n, s in enumerate(position.sites))
    return Scene(board_model("Oust", variant), position._replace(sites=sites), (0, 0))


@pytest.mark.parametrize("side", [2, 4, 7, 10, 13])
def test_oust_names_are_large_dark_and_clear_of_the_stone_inside_their_cell(side: int) -> None:
    root = parse(draw_svg(full_oust(side)))
    cells = with_class(root, "cell")
    labels = with_class(root, "site-label")
    stones = with_class(root, "stone")
    assert len(cells) == len(labels) == len(stones) == 3 * side * (side - 1) + 1
    for cell, label, stone in zip(cells, labels, stones, strict=True):
        assert label.text == cell.get("data-name")
        assert number(label, "font-size") >= 11
        assert contrast(label.get("fill", ""), cell.get("fill", "")) >= 7.0
        assert cell.get("fill") == BOARD_FILL
        corners = [
            (float(x), float(y)) for x, y in (p.split(",") for p in cell.get("points", "").split())
        ]
        left, top, right, bottom = text_box(label)
        for corner in ((left, top), (right, top), (left, bottom), (right, bottom)):
            assert inside_polygon(corner, corners), (label.text, corner)
        assert not overlap((left, top, right, bottom), circle_box(stone)), label.text
        assert inside_polygon((number(stone, "cx"), number(stone, "cy")), corners)


# -- the result under the legend ------------------------------------------------------------


def expected_result(computed: vpb.ComputedResult, seats: int) -> str:
    """The caption of a finished game from the judge's computed result."""
    winners = sorted(computed.winners)
    scores = "-".join(str(s) for s in computed.scores)
    if not winners:
        verdict = "no seat wins"
    elif len(winners) == 1:
        verdict = f"seat {winners[0]} wins"
    elif len(winners) == seats:
        verdict = "draw"
    else:
        verdict = f"seats {','.join(map(str, winners))} share first place"
    return f"Result: {verdict} {scores}"


def captions(scene: Scene) -> list[str]:
    return [e.text or "" for e in with_class(parse(draw_svg(scene)), "result")]


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.name)
def test_the_result_is_written_exactly_when_the_game_is_finished(path: Path) -> None:
    record = next(read_records(path))
    computed = score(record)
    *earlier, last = scenes(record)
    assert all(not captions(scene) for scene in earlier)
    if computed.provisional:
        assert captions(last) == []
    else:
        assert captions(last) == [expected_result(computed, last.model.seats)]


def drawn_game(game: str, options: dict[str, str]) -> pb.GameRecord:
    """The first generated game (seeds 0, 1, ...) that the rules call a draw."""
    for seed in range(300):
        record = next(generate(game, options, 1, seed=seed))
        computed = score(record)
        if not computed.provisional and len(computed.winners) == len(record.seats):
            return record
    raise AssertionError(f"no drawn {game} game in 300 seeds")


@pytest.mark.parametrize(
    ("game", "options"),
    [("Oh-Wah-Ree", {"Players": "2"}), ("Aronda", {"Supply": "pass"}), ("ONE", {"Players": "3"})],
)
def test_a_drawn_game_says_draw_with_its_scores(game: str, options: dict[str, str]) -> None:
    record = drawn_game(game, options)
    *_, last = scenes(record)
    scores = "-".join(str(s) for s in score(record).scores)
    assert captions(last) == [f"Result: draw {scores}"]


def test_the_caption_lies_inside_the_picture_below_the_legend() -> None:
    root = parse(draw_svg(end_of(4)))
    (caption,) = with_class(root, "result")
    left, top, width, height = (float(v) for v in root.get("viewBox", "").split())
    size = number(caption, "font-size")
    y = number(caption, "y")
    assert y + HEIGHT_EM * size / 2 <= top + height
    assert number(caption, "x") + WIDTH_EM * size * len(caption.text or "") <= left + width
    assert y > max(number(line, "y") for line in with_class(root, "seat-line"))
    assert caption.get("font-weight") == "bold" and size >= 13
