"""Limits on what one record may hold, so that hostile input gets a clear error, not a hang.

Every decoder (``.pb``, ``.pbs``, ``.json``, ``.jsonl``, ``.grn``) checks each record against a
:class:`Limits` value (:data:`DEFAULT_LIMITS` unless the caller gives one) and raises
:class:`~gamerec.recorder.errors.LimitExceededError` at the first limit a record exceeds. The error
names the limit (``error.limit``, the name used by ``--limit NAME=N`` on the command line), the
value found (``error.value``), the limit's value (``error.maximum``) and the place: the line
and column in GRN, the record and the field path (``moves[12].comment``) in binary and JSON.

======================  ==============  ====================================================
limit (``--limit``)     default         what it bounds
======================  ==============  ====================================================
``record-bytes``        64 MiB          one record: a ``.pb`` or ``.json`` file, a ``.pbs``
                                        frame (checked before the frame is read), a JSON
                                        line, a GRN record (in characters)
``plies``               100,000         plies of the main line
``moves``               250,000         moves of the whole record, variations included,
                                        and each variation as one more
``variation-depth``     48              variations nested in variations (48 at most: the
                                        deepest the protobuf decoders read back)
``tags``                1,000           free tags (GRN tags without a field of their own,
                                        ``metadata.extra_tags``)
``tag-chars``           16,384          characters of one tag value (GRN: every tag; binary
                                        and JSON: every text field but comments, and the
                                        names and values of free tags)
``seats``               64              seats of a record (GRN: the highest ``SeatN``)
``comment-chars``       2 MiB           characters of one comment (a move's or the game's)
``list-items``          16,384          items of one list: the places of one move (ONE's
                                        points, Aronda's fields, Oust's cells), ring sizes,
                                        claimed scores, winners
======================  ==============  ====================================================

Counts are checked before the costly work they bound: a JSON record's seats, free tags and
lists before the mapping becomes a message; a binary record's lists are counted only when its
size could hold a list that long.

The defaults are far above any real game (the longest games the engines play run to a few
thousand plies) and low enough that reading and judging a record stays fast. The validator
checks the plies limit itself before replaying a record held in memory
(``gamerec.validator.judge.validate``), because a record that was never decoded was never checked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from gamerec.recorder.errors import LimitExceededError

if TYPE_CHECKING:  # the checks read records without importing protobuf (fast start-up)
    from gamerec.v1 import record_pb2 as pb

#: The deepest variation nesting any limit may allow: the protobuf decoders stop at 100
#: nested messages, and a variation level takes two (Variation, Move) and a move's own action
#: two more (OneMove, OnePoint), so deeper records could not be read back from binary or JSON.
HARDEST_VARIATION_DEPTH = 48

#: What the moves limit counts: every move, and every variation as one more.
_MOVES_UNIT = "moves and variations"
#: Paths longer than this many steps are shown with an ellipsis in the middle.
_PATH_STEPS_SHOWN = 6


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits one record must keep (see the module docstring for each one).

    Attributes:
        max_record_bytes: bytes of one record (characters for GRN).
        max_plies: plies of the main line.
        max_moves: moves of the whole record, variations included, and each variation
            counting as one more (so empty variations are bounded too).
        max_variation_depth: levels of variations nested in variations.
        max_tags: free tags (``metadata.extra_tags``).
        max_tag_chars: characters of one tag value or text field (comments apart).
        max_seats: seats of a record.
        max_comment_chars: characters of one comment.
        max_list_items: items of one list (the places of one move, ring sizes, claimed
            scores, winners).
    """

    max_record_bytes: int = 64 * 1024 * 1024
    max_plies: int = 100_000
    max_moves: int = 250_000
    max_variation_depth: int = HARDEST_VARIATION_DEPTH
    max_tags: int = 1_000
    max_tag_chars: int = 16_384
    max_seats: int = 64
    max_comment_chars: int = 2 * 1024 * 1024
    max_list_items: int = 16_384

    def __post_init__(self) -> None:
        """Check every limit is a whole number, and the depth one protobuf can read back.

        Raises:
            ValueError: a limit is negative or not an integer, or the depth is above 48.
        """
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if type(value) is not int or value < 0:
                raise ValueError(f"limit {limit_name(field.name)} must be a whole number >= 0")
        if self.max_variation_depth > HARDEST_VARIATION_DEPTH:
            raise ValueError(
                f"limit variation-depth may be at most {HARDEST_VARIATION_DEPTH}, the deepest "
                "nesting the protobuf decoders read back"
            )

    def with_settings(self, settings: Iterable[str]) -> Limits:
        """These limits with some changed by ``NAME=N`` settings (``plies=500000``).

        Names are those of ``--limit`` (``record-bytes``, ``plies``, ...); a value may use
        ``_`` between digits.

        Raises:
            ValueError: an unknown name, or a value that is not a whole number.
        """
        changes: dict[str, int] = {}
        for setting in settings:
            name, equals, text = setting.partition("=")
            field = _FIELDS_BY_NAME.get(name.strip().lower())
            if field is None or not equals:
                raise ValueError(
                    f"expected NAME=N with NAME one of {', '.join(LIMIT_NAMES)}, found {setting!r}"
                )
            try:
                changes[field] = int(text.strip())
            except ValueError:
                raise ValueError(f"limit {name.strip()}: {text!r} is not a whole number") from None
        return dataclasses.replace(self, **changes)


#: The limits every reader applies unless it is given others.
DEFAULT_LIMITS = Limits()


def limit_name(field: str) -> str:
    """A limit's name as ``--limit`` and the errors write it: ``max_plies`` is ``plies``."""
    return field.removeprefix("max_").replace("_", "-")


_FIELDS_BY_NAME = {limit_name(field.name): field.name for field in dataclasses.fields(Limits)}
#: The names ``--limit`` takes, in the order of :class:`Limits`.
LIMIT_NAMES = tuple(_FIELDS_BY_NAME)


def resolved(limits: Limits | None, max_record_bytes: int | None = None) -> Limits:
    """The limits to apply: ``limits``, else :data:`DEFAULT_LIMITS`.

    An explicit ``max_record_bytes`` (the readers' older keyword) takes precedence.
    """
    chosen = limits or DEFAULT_LIMITS
    if max_record_bytes is None or max_record_bytes == chosen.max_record_bytes:
        return chosen
    return dataclasses.replace(chosen, max_record_bytes=max_record_bytes)


def exceeded(
    limit: str,
    prefix: str,
    value: int,
    unit: str,
    maximum: int,
    *,
    source: str = "",
    where: str = "",
) -> LimitExceededError:
    """The error for a limit exceeded: ``<prefix><value> <unit>, more than the limit of <max>``.

    Args:
        limit: the field of :class:`Limits` (``max_plies``).
        prefix: what holds the value, e.g. ``"moves[3].comment: "``, ``"the main line has "``.
        value: the value found.
        unit: what the value counts (``plies``, ``characters``).
        maximum: the limit.
        source: the input's name.
        where: the place in the input.
    """
    name = limit_name(limit)
    return LimitExceededError(
        f"{prefix}{value:,}{' ' if unit else ''}{unit}, more than the limit of {maximum:,} "
        f"(limit {name})",
        source=source,
        where=where,
        limit=name,
        value=value,
        maximum=maximum,
    )


# -- checking a record held in memory ----------------------------------------------------------


def check_plies(
    record: pb.GameRecord, limits: Limits | None = None, *, source: str = "", where: str = ""
) -> None:
    """Check the main line's length alone (constant time: what a replay's cost depends on).

    Raises:
        LimitExceededError: more plies than ``limits.max_plies``.
    """
    maximum = (limits or DEFAULT_LIMITS).max_plies
    if len(record.moves) > maximum:
        raise exceeded(
            "max_plies",
            "the main line has ",
            len(record.moves),
            "plies",
            maximum,
            source=source,
            where=where,
        )


def check_record(
    record: pb.GameRecord,
    limits: Limits | None = None,
    *,
    source: str = "",
    where: str = "",
    serialized: bytes | None = None,
) -> None:
    """Check a record against every limit but its size in bytes (which only its reader knows).

    The cheap counts come first, then one walk over the texts and the move tree; the walk is
    iterative, so no nesting can exhaust the stack. The message names the field. When the
    record was parsed from ``serialized``, the walk is skipped whenever those bytes alone
    prove that no text, comment, move count or variation depth can exceed its limit (see
    :func:`within_by_size`; ``serialized`` must parse to the record): the answer is the
    same, found in constant time or one parse of the bytes. Otherwise the
    move tree is counted without paths first, and walked with them only to name the place of
    a limit exceeded.

    Raises:
        LimitExceededError: the first limit the record exceeds.
    """
    limits = limits or DEFAULT_LIMITS
    check = _Checker(limits, source, where)
    check("max_seats", "seats: ", len(record.seats), "seats")
    check_plies(record, limits, source=source, where=where)
    check("max_tags", "metadata.extra_tags: ", len(record.metadata.extra_tags), "free tags")
    if serialized is not None and within_by_size(serialized, limits):
        return
    check_lists(record, limits, source=source, where=where)
    for path, text in _texts(record):
        check("max_tag_chars", f"{path}: ", len(text), "characters")
    check("max_comment_chars", "comment: ", len(record.comment), "characters")
    if _moves_within(record.moves, limits):
        return
    total = 0
    for path, depth, move in walk_moves(
        record.moves, lambda move: move.variations, lambda line: line.moves
    ):
        total += 1 + len(move.variations)
        check("max_moves", "the record has at least ", total, _MOVES_UNIT)
        if move.variations:
            check("max_variation_depth", f"{path}: variations nested ", depth + 1, "deep")
        check("max_comment_chars", f"{path}.comment: ", len(move.comment), "characters")


def _moves_within(moves: Sequence[pb.Move], limits: Limits) -> bool:
    """Whether :func:`check_record`'s walk of a move tree would find every limit kept.

    The same counts, without the paths that only an error needs.
    """
    total = 0
    lines = [(moves, 0)]
    while lines:
        line, depth = lines.pop()
        total += len(line)
        for move in line:
            if len(move.comment) > limits.max_comment_chars:
                return False
            variations = move.variations
            if variations:
                if depth >= limits.max_variation_depth:
                    return False
                total += len(variations)
                lines.extend((variation.moves, depth + 1) for variation in variations)
        if total > limits.max_moves:
            return False
    return True


#: The first byte of every encoding of the tag of ``Move.variations`` (field 13, wire type 2:
#: the varint 106), canonical (``0x6a``) or padded with continuation bytes (``0xea 0x80 ...``,
#: which protobuf's decoders accept too). A group-encoded field 13 is not a variation (the
#: decoders keep it as an unknown field), so a record whose bytes hold neither has none.
VARIATION_TAG_FIRST_BYTES: Final = (b"\x6a", b"\xea")


def within_by_size(serialized: bytes, limits: Limits) -> bool:
    """Whether a record's serialized bytes alone prove it keeps the limits the walk checks.

    Exact, because a record of N bytes cannot hold more than its bytes allow:

    - a list of more than N items (each takes at least a byte);
    - a text field or comment of more than N characters (a UTF-8 character takes at least
      one byte, and repeated occurrences of a singular field replace, never append);
    - more than N / 2 moves and variations (each element of a repeated message field takes
      at least its tag byte and its length byte);
    - a variation at all, when no byte is the first byte of the variations field's tag (see
      :data:`VARIATION_TAG_FIRST_BYTES`): its variation depth is 0; or else variations nested
      deeper than the limit, read by one parse of the bytes a level of nesting
      (``recorder.main_line.move_facts``).

    ``serialized`` must parse to the record (the bytes it was read from, or its
    serialization). The seats, plies and free-tag counts are not covered (they cost nothing
    to count).
    """
    size = len(serialized)
    if not (
        size <= limits.max_list_items
        and size <= limits.max_tag_chars
        and size <= limits.max_comment_chars
        and size // 2 <= limits.max_moves
    ):
        return False
    if not any(first in serialized for first in VARIATION_TAG_FIRST_BYTES):
        return True
    # A tag byte is also any 'j' of a name or any byte of a clock: ask the moves themselves.
    from gamerec.recorder.main_line import move_facts  # noqa: PLC0415 (protobuf, late)

    facts = move_facts(serialized)
    return facts is not None and facts.depth <= limits.max_variation_depth


def check_lists(
    record: pb.GameRecord, limits: Limits | None = None, *, source: str = "", where: str = ""
) -> None:
    """Check every list of a record against the list-items limit.

    The lists: the claimed scores and winners, the lists of the variant (ring sizes) and of
    every move's action (the places of a capture or a turn), variations included. Generic: a
    list is any repeated field of those messages.

    Raises:
        LimitExceededError: a list longer than ``limits.max_list_items`` (its path named).
    """
    limits = limits or DEFAULT_LIMITS
    check = _Checker(limits, source, where)
    check("max_list_items", "result.scores.values: ", len(record.result.scores.values), "items")
    check("max_list_items", "result.winners: ", len(record.result.winners), "items")
    variant = record.rules.WhichOneof("variant")
    if variant is not None:
        _check_message_lists(check, f"rules.{variant}", getattr(record.rules, variant))
    for path, _, move in walk_moves(
        record.moves, lambda move: move.variations, lambda line: line.moves
    ):
        action = move.WhichOneof("action")
        if action is not None:
            _check_message_lists(check, f"{path}.{action}", getattr(move, action))


def _check_message_lists(check: _Checker, path: str, message: Any) -> None:
    for field, value in message.ListFields():
        if field.is_repeated:
            check("max_list_items", f"{path}.{field.name}: ", len(value), "items")


@dataclass(frozen=True, slots=True)
class _Checker:
    """Raises the error of a value above its limit, placed in one source."""

    limits: Limits
    source: str
    where: str

    def __call__(self, limit: str, prefix: str, value: int, unit: str) -> None:
        maximum: int = getattr(self.limits, limit)
        if value > maximum:
            raise exceeded(
                limit, prefix, value, unit, maximum, source=self.source, where=self.where
            )


def _texts(record: pb.GameRecord) -> Iterator[tuple[str, str]]:
    """Every text field a tag stands for, with its path (comments apart)."""
    yield "rules.rules_version", record.rules.rules_version
    for index, seat in enumerate(record.seats):
        for field in ("name", "player_id", "colour"):
            yield f"seats[{index}].{field}", getattr(seat, field)
    metadata = record.metadata
    for field in ("event", "site", "round", "date", "time_control", "client"):
        yield f"metadata.{field}", getattr(metadata, field)
    for name, value in metadata.extra_tags.items():
        yield "metadata.extra_tags (a tag name)", name
        yield f"metadata.extra_tags[{name[:40]!r}]", value


def walk_moves(
    moves: Sequence[Any],
    variations_of: Callable[[Any], Sequence[Any]],
    moves_of: Callable[[Any], Sequence[Any]],
) -> Iterator[tuple[str, int, Any]]:
    """Every move of a move tree, depth first, with its path and its variation depth.

    The tree may be protobuf messages or their ProtoJSON mapping: ``variations_of`` and
    ``moves_of`` say how to go down. The main line is depth 0.
    """
    stack: list[tuple[tuple[str, ...], int, Iterator[tuple[int, Any]]]] = [
        (("moves",), 0, iter(enumerate(moves)))
    ]
    while stack:
        prefix, depth, line = stack[-1]
        step = next(line, None)
        if step is None:
            stack.pop()
            continue
        index, move = step
        steps = (*prefix[:-1], f"{prefix[-1]}[{index}]")
        yield _path(steps), depth, move
        for number, variation in enumerate(variations_of(move)):
            inner = (*steps, f"variations[{number}]", "moves")
            stack.append((inner, depth + 1, iter(enumerate(moves_of(variation)))))


def _path(steps: Sequence[str]) -> str:
    """A field path, its middle elided when it is long."""
    if len(steps) > _PATH_STEPS_SHOWN:
        return ".".join(steps[:3]) + " ... " + ".".join(steps[-3:])
    return ".".join(steps)


# -- checking a ProtoJSON mapping before it becomes a message -----------------------------------


def check_mapping(
    value: Mapping[str, Any],
    limits: Limits | None = None,
    *,
    source: str = "",
    where: str = "",
    text: bytes | None = None,
    moves_text: bytes | None = None,
) -> None:
    """Check the move tree of a ProtoJSON record before it is turned into a message.

    Turning a mapping into a message costs far more than counting its moves, so a JSON
    record with too many plies or moves, or too deep variations, is refused first. Parts
    that are not shaped like a record are left for the conversion to report.

    The counts are taken first without paths; the walk that names the place runs only when a
    limit is exceeded.

    The seats and free tags are counted here too, and, unless the JSON text is at hand and
    too short to hold a list longer than the list-items limit, every list.
    ``text``: the JSON text the mapping was read from, when at hand; a text in which no key
    can be ``variations`` (the word is nowhere in it, nor any escape) has no move to look into.
    ``moves_text``: ``orjson.dumps(value["moves"])``, when at hand, which tells the same
    sooner: orjson writes every key as plain text (it escapes only quotes, backslashes and
    control characters), so a main line whose writing holds no ``v`` has no variations.

    Raises:
        LimitExceededError: the plies, moves, variation-depth, seats, tags or list-items limit
            is exceeded.
    """
    limits = limits or DEFAULT_LIMITS
    check = _Checker(limits, source, where)
    if moves_text is not None:
        any_variations = b"v" in moves_text and b'"variations":' in moves_text
    else:
        any_variations = text is None or _may_name_variations(text)
    if _mapping_within(value, limits, any_variations=any_variations):
        # In check_record's order; the lists only now that the move tree is known to be
        # small enough to walk (lists shared many times over make a tree far bigger than
        # its text).
        check("max_seats", "seats: ", len(_list(value.get("seats"))), "seats")
        extra_tags = _get(value.get("metadata"), "extraTags")
        tags = len(extra_tags) if isinstance(extra_tags, dict) else 0  # else refused later
        check("max_tags", "metadata.extra_tags: ", tags, "free tags")
        if text is None or len(text) > 2 * limits.max_list_items:  # "[1,1,...]": 2 chars an item
            _check_mapping_lists(check, value)
        return
    moves = _list(value.get("moves"))
    check("max_plies", "the main line has ", len(moves), "plies")
    total = 0
    for path, depth, move in walk_moves(
        moves, lambda move: _list(_get(move, "variations")), lambda line: _list(_get(line, "moves"))
    ):
        variations = len(_list(_get(move, "variations")))
        total += 1 + variations
        check("max_moves", "the record has at least ", total, _MOVES_UNIT)
        if variations:
            check("max_variation_depth", f"{path}: variations nested ", depth + 1, "deep")


def _check_mapping_lists(check: _Checker, value: Mapping[str, Any]) -> None:
    """The list-items limit on a ProtoJSON record's lists (as :func:`check_lists`)."""
    result = value.get("result")
    scores = _list(_get(_get(result, "scores"), "values"))
    check("max_list_items", "result.scores.values: ", len(scores), "items")
    check("max_list_items", "result.winners: ", len(_list(_get(result, "winners"))), "items")
    rules = value.get("rules")
    for name, part in rules.items() if isinstance(rules, dict) else ():
        _check_mapping_part(check, f"rules.{name}", part)
    for path, _, move in walk_moves(
        _list(value.get("moves")),
        lambda move: _list(_get(move, "variations")),
        lambda line: _list(_get(line, "moves")),
    ):
        for name, part in move.items() if isinstance(move, dict) else ():
            if name != "variations":
                _check_mapping_part(check, f"{path}.{name}", part)


def _check_mapping_part(check: _Checker, path: str, part: Any) -> None:
    for name, items in part.items() if isinstance(part, dict) else ():
        if isinstance(items, list):
            check("max_list_items", f"{path}.{name}: ", len(items), "items")


def _may_name_variations(text: bytes) -> bool:
    """Whether some key of a JSON text may be ``variations`` (spelled out or escaped)."""
    # A backslash is found at memchr speed; most texts hold none, and so no escape.
    return b"variations" in text or (b"\\" in text and b"\\u" in text)


def _mapping_within(
    value: Mapping[str, Any], limits: Limits, *, any_variations: bool = True
) -> bool:
    """Whether :func:`check_mapping`'s walk would find every limit kept (its counts, no paths).

    ``any_variations``: False when no move can have any (the main line alone is counted).
    """
    moves = _list(value.get("moves"))
    if len(moves) > limits.max_plies:
        return False
    if not any_variations:
        return len(moves) <= limits.max_moves
    total = 0
    lines = [(moves, 0)]
    while lines:
        line, depth = lines.pop()
        total += len(line)
        for move in line:
            variations = move.get("variations") if isinstance(move, dict) else None
            if isinstance(variations, list) and variations:
                if depth >= limits.max_variation_depth:
                    return False
                total += len(variations)
                lines.extend((_list(_get(each, "moves")), depth + 1) for each in variations)
        if total > limits.max_moves:
            return False  # so soon, as the walk stops, even if lists are shared many times over
    return True


def _get(value: Any, key: str) -> Any:
    return value.get(key) if isinstance(value, dict) else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
