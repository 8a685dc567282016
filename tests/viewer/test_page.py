"""The viewer's pages without a browser: what each ply draws, the verdict, the offline file."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.annotation import edit_ply
from gamerec.validator.generation import generate
from gamerec.validator.judge import validate
from gamerec.validator.render import draw_svg, scene_at
from gamerec.validator.render.viewer import render_html, view_page
from tests.viewer.records import legal_moves, one_record

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "fixtures" / "games").glob("*.grn"))
DATA = re.compile(r'<script type="application/json" id="game-data">(.*?)</script>', re.DOTALL)


def data_of(html: str) -> dict[str, Any]:
    found = DATA.search(html)
    assert found is not None
    parsed: dict[str, Any] = json.loads(found.group(1))
    return parsed


def fixed_of(html: str) -> list[str]:
    """The site shapes the page draws once (the board's ``<g class="sites">``)."""
    found = re.search(r'<g class="sites">\n(.*?)</g>\n<g id="position">', html, re.DOTALL)
    assert found is not None
    return [line for line in found.group(1).split("\n") if line]


def rendered(svg: str) -> Counter[str]:
    """The elements ``gamerec render`` draws for the position: sites, contents and marks."""
    elements: Counter[str] = Counter()
    for name in ("sites", "contents", "marks"):
        found = re.search(rf'<g class="{name}">\n(.*?)</g>\n<g class', svg, re.DOTALL)
        assert found is not None
        elements.update(line for line in found.group(1).split("\n") if line)
    return elements


def drawn(html: str, data: dict[str, Any], number: int) -> Counter[str]:
    return Counter(fixed_of(html) + [data["elements"][i] for i in data["nodes"][number]["e"]])


def assert_every_ply_drawn_as_render(record: pb.GameRecord) -> None:
    html = render_html(record)
    data = data_of(html)
    main = data["lines"][0]["n"]
    assert len(main) == len(record.moves) + 1
    for ply, number in enumerate(main):
        scene = scene_at(record, ply)
        assert drawn(html, data, number) == rendered(draw_svg(scene)), ply
        node = data["nodes"][number]
        assert (node["p"], node["t"], node["ti"]) == (ply, scene.token, scene.title)
        assert node["sc"] == list(scene.scores)


@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.stem)
def test_every_ply_of_every_game_is_drawn_as_render_draws_it(path: Path) -> None:
    assert_every_ply_drawn_as_render(one_record(path))


@settings(max_examples=12, deadline=None)
@given(
    game=st.sampled_from(
        [
            ("ONE", {"Players": "3"}),
            ("Aronda", {}),
            ("Oust", {"Board": "5"}),
            ("Oh-Wah-Ree", {"Players": "4"}),
        ]
    ),
    seed=st.integers(0, 10_000),
    cut=st.integers(0, 80),
)
def test_generated_games_are_drawn_as_render_draws_them(
    game: tuple[str, dict[str, str]], seed: int, cut: int
) -> None:
    (record,) = generate(game[0], game[1], count=1, seed=seed)
    del record.moves[cut:]
    record.ClearField("result")
    assert_every_ply_drawn_as_render(record)


def test_the_page_asks_nothing_of_the_network() -> None:
    html = render_html(one_record(ROOT / "fixtures" / "valid" / "one-e2-two-jumps.grn"))
    assert set(re.findall(r"https?://[^\s\"'<>)]+", html)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"<(script|img|iframe|link)[^>]*\ssrc=", html)
    assert "@import" not in html and "url(" not in html
    assert re.findall(r"<link[^>]*>", html) == ['<link rel="icon" href="data:,">']


def test_a_comment_cannot_close_the_page_script() -> None:
    record = one_record(ROOT / "fixtures" / "games" / "aronda.grn")
    evil = "</script><script>alert(1)</script> & <b>"
    record = edit_ply(record, 3, comment=evil)
    html = render_html(record)
    assert html.count("</script>") == 2
    assert "<b>" not in html and "&lt;/script&gt;&lt;script&gt;alert(1)" in html
    assert data_of(html)["nodes"][0]["p"] == 0


def test_an_invalid_record_opens_at_its_wrong_ply_with_the_legal_moves() -> None:
    record = one_record(ROOT / "fixtures" / "invalid" / "one-landing-occupied.grn")
    page = view_page(record)
    data = data_of(page.html)
    opening = data["nodes"][data["open"]]
    (finding,) = page.verdict.errors
    assert opening["p"] == finding.ply == 23 and opening["t"] == "c15xa8"
    assert opening["w"]["code"] == finding.code == "LANDING_OCCUPIED"
    assert opening["w"]["rule"] == "docs/rules/one.md §4.2"
    assert opening["w"]["legal"] == legal_moves(record, 22)[:60]
    assert opening["w"]["count"] == len(legal_moves(record, 22))
    assert "Rule: docs/rules/one.md §4.2" in page.html
    assert '<a href="#ply=23">ply 23</a>' in page.html


def test_a_wrong_claim_opens_at_the_end_and_shows_both_results() -> None:
    record = one_record(ROOT / "fixtures" / "invalid" / "result-mismatch.grn")
    page = view_page(record)
    data = data_of(page.html)
    assert data["open"] == data["lines"][0]["n"][-1]
    assert "w" not in data["nodes"][data["open"]]
    assert "Result 14-33" in page.html and "scores 13-33" in page.html
    assert "RESULT_MISMATCH" in page.html and "docs/rules/one.md §6.3" in page.html


def test_a_record_that_cannot_be_replayed_gets_a_page_with_its_verdict() -> None:
    record = one_record(ROOT / "fixtures" / "invalid" / "unknown-game.pb")
    page = view_page(record)
    assert not page.verdict.valid
    assert "No board" in page.html and page.verdict.errors[0].code in page.html
    assert 'id="game-data"' not in page.html


def test_variations_are_lines_of_their_own() -> None:
    record = one_record(ROOT / "fixtures" / "valid" / "one-e2-two-jumps.grn")
    html = render_html(record)
    data = data_of(html)
    main, variation = data["lines"]
    assert (variation["p"], variation["b"]) == (0, main["n"][6])
    assert data["nodes"][main["n"][6]]["b"] == [1]
    (number,) = variation["n"]
    line = pb.GameRecord(rules=record.rules, seats=record.seats)
    line.moves.extend([*record.moves[:6], *record.moves[6].variations[0].moves])
    assert drawn(html, data, number) == rendered(draw_svg(scene_at(line, 7)))
    assert data["nodes"][number]["f"] == "line=1&ply=7"
    assert 'href="#line=1&ply=7"' in html.replace("&amp;", "&")
    assert "stopping after one jump is also legal" in html


def test_an_illegal_variation_ends_its_line_and_leaves_the_verdict_alone() -> None:
    record = one_record(ROOT / "fixtures" / "valid" / "one-e2-two-jumps.grn")
    refused = record.moves[6].variations.add().moves.add()
    refused.one.path.add(ring=3, index=8)  # c8: seat 2's stone stands there
    assert validate(record).valid
    data = data_of(render_html(record))
    wrong = data["nodes"][data["lines"][2]["n"][0]]
    assert (wrong["p"], wrong["t"], wrong["w"]["code"]) == (7, "c8", "OCCUPIED")
    assert wrong["w"]["legal"] == legal_moves(record, 6)[:60]
    assert data["open"] == 0


def test_a_collection_page_names_its_source_and_links_back() -> None:
    records = list(read_records(ROOT / "fixtures" / "valid" / "collection.pbs"))
    page = view_page(records[1], label="collection.pbs #2", index_href="index.html")
    assert "collection.pbs #2" in page.html and '<a class="back" href="index.html">' in page.html


def _line_record(record: pb.GameRecord, moves: list[pb.Move]) -> pb.GameRecord:
    line = pb.GameRecord(rules=record.rules, seats=record.seats)
    line.moves.extend(moves)
    return line


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    at=st.integers(1, 40),
    length=st.integers(1, 6),
    shift=st.integers(0, 3),
)
def test_every_variation_is_drawn_as_its_own_line_would_be(
    seed: int, at: int, length: int, shift: int
) -> None:
    (record,) = generate("ONE", {"Players": "3"}, count=1, seed=seed)
    at = min(at, len(record.moves))
    line = [pb.Move() for _ in record.moves[at - 1 + shift : at - 1 + shift + length]]
    for copy, move in zip(line, record.moves[at - 1 + shift :], strict=False):
        copy.CopyFrom(move)
    record.moves[at - 1].variations.add().moves.extend(line)
    record.moves[at - 1].variations.add()  # an empty variation shows nothing
    html = render_html(record)
    data = data_of(html)
    (variation,) = data["lines"][1:]
    assert variation["b"] == data["lines"][0]["n"][at - 1]
    played = _line_record(record, [*record.moves[: at - 1], *line])
    refused = validate(played).errors
    for offset, number in enumerate(variation["n"]):
        node, ply = data["nodes"][number], at + offset
        assert node["p"] == ply
        if "w" in node:  # the replay of the line refuses this ply, for the same reason
            assert (refused[0].ply, refused[0].code) == (ply, node["w"]["code"])
            assert offset == len(variation["n"]) - 1
        else:
            assert drawn(html, data, number) == rendered(draw_svg(scene_at(played, ply)))
    if shift == 0:  # the main line's own moves: the same pictures as the main line
        main = data["lines"][0]["n"]
        for offset, number in enumerate(variation["n"]):
            assert data["nodes"][number]["e"] == data["nodes"][main[at + offset]]["e"]


def test_the_verdict_says_why_the_game_ended_and_the_swap_what_it_did() -> None:
    """Issue 34: the end in words (render.ending), the pie swap in words, as play says them."""
    record = next(read_records(ROOT / "fixtures" / "games" / "oust-side7.grn"))
    html = render_html(record)
    assert (
        '<dt>Ended</dt><dd class="ending">At ply 62, seat 2 (Ben) captured the last stone of '
        "seat 1 (Ana): seat 2 (Ben) wins.</dd>"
    ) in html
    swap = re.search(r'<span class="token">swap</span></a><span class=said>([^<]*)</span>', html)
    assert swap is not None and swap.group(1).startswith("the pie rule: seat 2 takes the stone")
    going_on = next(read_records(ROOT / "fixtures" / "valid" / "oust-e2-two-groups.grn"))
    assert "<dt>Ended</dt>" not in render_html(going_on)
