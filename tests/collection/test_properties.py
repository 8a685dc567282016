"""Properties of the collection tools' rules: readers of criteria, points, dedupe, the median.

The criteria readers (ply ranges, dates, variant tags, positions) are fuzzed: whatever the
text, they read it or raise ``CriteriaError``, never another exception. The points rule
shares out exactly the points of the places; pairings are zero-sum; dedupe's counts follow
from how many times each game was entered; the ply figures equal the statistics module's.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.dedupe import dedupe
from gamerec.validator.collection.find import CriteriaError, criteria, normalized_drawing
from gamerec.validator.collection.standings import competition_ranks, game_points, pairing_score
from gamerec.validator.collection.stats import ply_figures
from tests.collection.planted import planted

EXAMPLES = settings(
    max_examples=int(os.environ.get("GAMEREC_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TEXT = st.text(alphabet=".-=/?*0123456789 abcPlayers\n[]x", max_size=30) | st.text(max_size=20)


@EXAMPLES
@given(
    plies=st.lists(TEXT, max_size=2),
    dates=st.tuples(TEXT, TEXT),
    variants=st.lists(TEXT, max_size=2),
    positions=st.lists(TEXT, max_size=2),
    words=st.lists(TEXT, max_size=2),
)
def test_any_text_reads_as_criteria_or_says_why(
    plies: list[str],
    dates: tuple[str, str],
    variants: list[str],
    positions: list[str],
    words: list[str],
) -> None:
    try:
        read = criteria(
            plies=plies,
            date_from=dates[0],
            date_to=dates[1],
            variants=variants,
            positions=positions,
            terminations=words,
            games=words,
        )
    except CriteriaError as error:
        assert str(error) and len(str(error)) < 500
        return
    for found in read.plies:
        assert found.low is None or found.high is None or isinstance(found.low, int)


@EXAMPLES
@given(st.text(alphabet=" .[]12#:\nabcseat", max_size=200))
def test_a_normalized_drawing_is_a_fixed_point(text: str) -> None:
    once = normalized_drawing(text)
    assert normalized_drawing("\n".join(once)) in (once, once[1:])
    assert all(line and line == line.strip() and "  " not in line for line in once)


@EXAMPLES
@given(
    scores=st.lists(st.integers(0, 5), min_size=2, max_size=6),
    winners=st.sets(st.integers(1, 6), max_size=2),
    table=st.lists(st.integers(0, 10), min_size=6, max_size=6),
)
def test_points_share_out_exactly_the_points_of_the_places(
    scores: list[int], winners: set[int], table: list[int]
) -> None:
    seats = len(scores)
    chosen = sorted(w for w in winners if w <= seats)
    ranks = competition_ranks(chosen, scores, seats)
    assert sorted(ranks)[0] == 1 and all(1 <= rank <= seats for rank in ranks)
    places = [Fraction(p) for p in sorted(table, reverse=True)[:seats]]
    points = game_points(ranks, places)
    assert sum(points) == sum(places)
    for mine, theirs in zip(ranks, points, strict=True):
        better = [p for r, p in zip(ranks, points, strict=True) if r < mine]
        assert all(p >= theirs for p in better)
    for a in ranks:
        for b in ranks:
            assert pairing_score(a, b) + pairing_score(b, a) == 1


DISTINCT = planted()[:6]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(DISTINCT) - 1), min_size=1, max_size=12))
def test_dedupe_counts_follow_from_the_copies_entered(entered: list[int]) -> None:
    records = []
    for number, index in enumerate(entered):
        record = pb.GameRecord()
        record.CopyFrom(DISTINCT[index])
        record.metadata.site = f"copy {number}"  # other metadata, the same game
        records.append(record)
    found = dedupe(records)
    kept = list(found.records())
    assert len(kept) == found.report.written == len(set(entered))
    assert len(found.report.pairs) == len(entered) - len(set(entered))
    first_copy = {index: entered.index(index) for index in set(entered)}
    for pair in found.report.pairs:
        second = entered[pair.second.record_number - 1]
        assert pair.first.record_number - 1 == first_copy[second]
    assert [r.metadata.site for r in kept] == [f"copy {n}" for n in sorted(first_copy.values())]


@EXAMPLES
@given(st.lists(st.integers(0, 300), min_size=1, max_size=60))
def test_ply_figures_are_the_statistics_of_the_lengths(lengths: list[int]) -> None:
    figures = ply_figures(Counter(lengths))
    assert figures.mean == statistics.mean(lengths)
    assert figures.median == statistics.median(lengths)
    assert (figures.longest, figures.shortest) == (max(lengths), min(lengths))
