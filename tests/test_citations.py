"""Every citation a finding makes names a file and a section heading that exist in docs/.

Engines declare the sections each reason code cites (``Engine.citations``); the registry
declares where each game's rules say how games end, score and rank (``GameEntry.citation``).
These tests walk both tables, then every sentence the referee actually writes: the fixture
of every finding code, a sweep of illegal moves from positions of random games, and
impossible variants. A sentence must cite only what its code declares.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.validator.games.protocol import GameState, MoveSyntaxError, VariantError
from gamerec.validator.games.registry import GameEntry, entries, entry_of
from gamerec.validator.judge import validate

ROOT = Path(__file__).resolve().parent.parent
#: ``docs/rules/one.md §4.2``, ``docs/rules/aronda.md §6.1-6.2``, ``... §2.1, §4.2``.
CITATION = re.compile(r"(docs/[a-z/]+\.md) (§[0-9.]+(?:-[0-9.]+)?(?:, §[0-9.]+(?:-[0-9.]+)?)*)")
HEADING = re.compile(r"^#{2,4} ([0-9]+(?:\.[0-9]+)*)\.? ", re.MULTILINE)


@cache
def headings(file: str) -> frozenset[str]:
    """The numbered section headings of a docs file (``2``, ``2.1``, ...)."""
    return frozenset(HEADING.findall((ROOT / file).read_text(encoding="utf-8")))


def sections_of(cited: str) -> list[str]:
    """``§2.1, §4.2`` -> ``["2.1", "4.2"]``; a range ``§6.1-6.2`` gives both ends."""
    found = []
    for part in cited.split(", "):
        found.extend(part.removeprefix("§").split("-"))
    return found


def assert_exists(citation: str) -> None:
    match = CITATION.fullmatch(citation)
    assert match is not None, f"not a citation: {citation!r}"
    file, cited = match.groups()
    assert (ROOT / file).is_file(), f"{citation}: no file {file}"
    missing = [section for section in sections_of(cited) if section not in headings(file)]
    assert not missing, f"{citation}: {file} has no section {', '.join(missing)}"


def citations_in(message: str) -> list[tuple[str, list[str]]]:
    """Every citation in a sentence, as (file, sections)."""
    return [(file, sections_of(cited)) for file, cited in CITATION.findall(message)]


ENTRIES = entries()


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_every_reason_code_cites_sections_that_exist(entry: GameEntry) -> None:
    citations = entry.engine.citations
    assert set(citations) == set(entry.engine.reason_codes)
    for code, cited in citations.items():
        assert cited, code
        for citation in cited:
            assert citation.startswith(entry.citation.file + " "), citation
            assert_exists(citation)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_the_registry_cites_sections_that_exist(entry: GameEntry) -> None:
    citation = entry.citation
    for section in (citation.end, citation.score, citation.ranking, citation.terminations):
        assert_exists(citation.cite(section))


def declared_sections(entry: GameEntry, code: str) -> set[str]:
    return {
        section
        for citation in entry.engine.citations[code]
        for section in sections_of(citation.split(" ", 1)[1])
    }


def assert_cites_as_declared(entry: GameEntry, code: str, message: str) -> None:
    found = citations_in(message)
    assert found, f"{entry.name} {code}: {message!r} cites nothing"
    for file, sections in found:
        assert_exists(f"{file} §{', §'.join(sections)}")
        assert set(sections) <= declared_sections(entry, code), (code, message)


def candidate_tokens(state: GameState[Any]) -> list[str]:
    """Tokens to try in a position: every place, pairs and paths of places, the specials."""
    places = [site.name for site in state.position().sites]
    rng = random.Random(len(places))
    picked = rng.sample(places, min(len(places), 24))
    tokens = ["resign", "pass", "swap", *places]
    tokens += [f"{a},{b}" for a in picked for b in picked]
    tokens += [f"{a}x{b}" for a in picked for b in picked]
    tokens += [f"{a}{direction}" for a in picked for direction in ("cw", "ccw")]
    tokens += ["a99", "i9", "o0", "z1", "13", "o1,o2,o3"]
    return tokens


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_every_illegal_move_of_a_sweep_cites_what_its_code_declares(entry: GameEntry) -> None:
    engine = entry.engine
    seen: set[str] = set()
    for players in (2, 3, 4):
        try:
            variant = engine.variant_from_tags({"Players": str(players)})
        except VariantError:
            continue
        for seed in range(6):
            rng = random.Random(seed)
            moves = engine.random_game(variant, rng)
            state = engine.new_game(variant)
            for move in moves[: rng.randrange(len(moves) + 1)]:
                state.play(move)
            for token in candidate_tokens(state):
                try:
                    move = engine.parse_move(variant, token)
                except MoveSyntaxError:
                    continue
                for seat in (None, 1, 2):
                    illegal = state.check(move, seat)
                    if illegal is not None:
                        seen.add(illegal.code)
                        assert_cites_as_declared(entry, illegal.code, illegal.message)
            for move in moves[len(moves) - 1 :]:
                over = engine.new_game(variant)
                for played in moves:
                    over.play(played)
                illegal = over.check(move)
                assert illegal is not None and illegal.code == "GAME_ALREADY_OVER"
                assert_cites_as_declared(entry, illegal.code, illegal.message)
    assert len(seen) >= len(engine.reason_codes) // 2


def fixture_findings() -> list[tuple[GameEntry | None, str, str]]:
    """(the record's game, code, message) of every finding of the invalid fixtures."""
    found = []
    for path in sorted((ROOT / "fixtures" / "invalid").iterdir()):
        for record in read_records(path):
            for finding in validate(record).errors:
                found.append((entry_of(record.rules.game), finding.code, finding.message))
    return found


def test_every_finding_of_the_fixtures_cites_sections_that_exist() -> None:
    findings = fixture_findings()
    codes = {code for _, code, _ in findings}
    for entry in ENTRIES:
        assert set(entry.engine.reason_codes) - {"NO_STONES_LEFT"} <= codes, entry.name
    for game, code, message in findings:
        for file, sections in citations_in(message):
            assert_exists(f"{file} §{', §'.join(sections)}")
        if game is not None and code in game.engine.reason_codes and code != "GAME_ALREADY_OVER":
            assert_cites_as_declared(game, code, message)


@pytest.mark.parametrize(
    ("game", "tags"),
    [
        ("ONE", {"Players": "7"}),
        ("ONE", {"Players": "2", "Board": "4,8"}),
        ("ONE", {"Players": "2", "Board": "6,9"}),
        ("Oust", {"Board": "1"}),
        ("Oh-Wah-Ree", {"Players": "5"}),
        ("Oh-Wah-Ree", {"Players": "2", "Direction": "free"}),
    ],
)
def test_impossible_variants_cite_sections_that_exist(game: str, tags: dict[str, str]) -> None:
    entry = next(entry for entry in ENTRIES if entry.name == game)
    with pytest.raises(VariantError) as raised:
        entry.engine.variant_from_tags(tags)
    found = citations_in(str(raised.value))
    assert found, str(raised.value)
    for file, sections in found:
        assert_exists(f"{file} §{', §'.join(sections)}")
