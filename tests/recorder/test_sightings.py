"""The admission note of the readers' memos: an item is "seen before" from its second sighting."""

from __future__ import annotations

import pytest

from gamerec.recorder.sightings import DEFAULT_NOTES, Sightings


def test_an_item_is_seen_before_from_its_second_sighting() -> None:
    note = Sightings()
    assert note.size == 0 and note.notes == 0  # nothing made before the first question
    assert note.seen_before(b"e5,f5") is False
    assert note.seen_before(b"e5,f5") is True
    assert note.seen_before(b"e5,f5") is True
    assert note.seen_before(b"k9") is False
    assert note.size == 128 * 1024 and note.notes == 2


def test_the_note_starts_again_after_its_notes() -> None:
    note = Sightings(bits=1 << 12, notes=3)
    for item in ("a", "b", "c"):
        assert note.seen_before(item) is False
    assert note.notes == 3
    assert note.seen_before("a") is False  # the fourth question found the note full: it restarted
    assert note.notes == 1 and note.seen_before("a") is True


def test_a_flood_of_distinct_items_keeps_the_note_at_its_size_and_lets_few_through() -> None:
    note = Sightings()
    passed = sum(note.seen_before(index) for index in range(1_000_000))
    assert note.size == 128 * 1024
    assert note.notes <= DEFAULT_NOTES
    # At most 6% of the bits are ever set, so about 3% of distinct items pass as seen.
    assert passed < 60_000


@pytest.mark.parametrize(("bits", "notes"), [(0, 1), (4, 1), (1000, 10), (1 << 10, 0)])
def test_a_note_refuses_a_size_not_a_power_of_two_or_no_notes(bits: int, notes: int) -> None:
    with pytest.raises(ValueError, match="power of two"):
        Sightings(bits, notes)
