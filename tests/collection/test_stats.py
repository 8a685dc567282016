"""``collection_stats`` over the planted collection: every figure against a count made here."""

from __future__ import annotations

import statistics
from collections import Counter

from gamerec.recorder.notation import game_label
from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.stats import collection_stats
from gamerec.validator.identity import identify
from gamerec.validator.replay import walk
from tests.collection.planted import (
    ABANDONED,
    ENDS_EARLY,
    INVALID,
    MISMATCH,
    OCCUPIED,
    planted,
)

RECORDS = planted()
GROUPS = {
    ("ONE", '[Players "2"]'): range(0, 12),
    ("ONE", '[Players "3"]'): range(12, 20),
    ("Aronda", "(defaults)"): range(20, 28),
    ("Oust", '[Board "4"]'): range(28, 36),
    ("Oh-Wah-Ree", '[Players "2"]'): range(36, 44),
}


def by_group() -> dict[tuple[str, str], cpb.GroupStats]:
    figures = collection_stats(RECORDS)
    assert figures.records == 44 and figures.unreadable == 0
    return {(group.game, group.variant): group for group in figures.groups}


def final_state(record: pb.GameRecord):  # type: ignore[no-untyped-def]
    """The engine's state after the last ply, replayed here step by step."""
    identity = identify(record)
    *_, last = walk(record, identity, steps=True, include_start=True)
    return last.state


def test_groups_and_record_counts() -> None:
    groups = by_group()
    assert list(groups) == list(GROUPS)
    for key, indices in GROUPS.items():
        group = groups[key]
        assert group.records == len(indices)
        valid = [i for i in indices if i not in INVALID]
        assert group.valid == len(valid)
        assert group.valid_share == len(valid) / len(indices)


def test_plies_mean_median_longest_shortest() -> None:
    groups = by_group()
    for key, indices in GROUPS.items():
        lengths = [len(RECORDS[i].moves) for i in indices]
        plies = groups[key].plies
        assert plies.mean == statistics.mean(lengths)
        assert plies.median == statistics.median(lengths)
        assert (plies.longest, plies.shortest) == (max(lengths), min(lengths))


def test_results_by_seat_from_the_rules_of_finished_games() -> None:
    groups = by_group()
    for key, indices in GROUPS.items():
        finished = [
            state
            for i in indices
            if i not in OCCUPIED and (state := final_state(RECORDS[i])).is_over
        ]
        group = groups[key]
        assert group.finished == len(finished)
        for line in group.seats:
            seat = line.seat
            alone = sum(1 for s in finished if list(s.winners()) == [seat])
            shared = sum(1 for s in finished if seat in s.winners() and len(s.winners()) > 1)
            assert (line.wins, line.shared_wins) == (alone, shared)
            assert line.losses == sum(1 for s in finished if seat not in s.winners())
            share = sum(1 / len(s.winners()) for s in finished if seat in s.winners())
            assert abs(line.win_share - share / len(finished)) < 1e-12
            mean = sum(s.scores()[seat - 1] for s in finished) / len(finished)
            assert abs(line.mean_score - mean) < 1e-12


def test_endings_findings_and_players() -> None:
    groups = by_group()
    for key, indices in GROUPS.items():
        group = groups[key]
        endings = Counter(
            "void"
            if i in OCCUPIED
            else "unfinished"
            if i in ENDS_EARLY
            else "abandoned"
            if i in ABANDONED
            else "normal"
            for i in indices
        )
        assert {c.name: c.count for c in group.terminations} == dict(endings)
        codes: Counter[str] = Counter()
        for i in indices:
            codes.update(
                {"OCCUPIED"}
                if i in OCCUPIED
                else {"RECORD_ENDS_EARLY"}
                if i in ENDS_EARLY
                else set()
            )
        codes.update("RESULT_MISMATCH" for i in indices if i in MISMATCH)
        assert {c.name: c.count for c in group.findings} == dict(codes)
        players = Counter(seat.name for i in indices for seat in RECORDS[i].seats)
        top = sorted(players.items(), key=lambda pair: (-pair[1], pair[0]))[:10]
        assert [(c.name, c.count) for c in group.players] == top
        assert game_label(RECORDS[indices[0]].rules.game) == key[0]
