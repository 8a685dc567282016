"""Aronda rules, clause by clause (docs/rules/aronda.md), and its worked examples E1-E4.

Positions are drawn as text, one row per ring, fields k = 1..8 left to right::

    c  .
    i  .    .    .    .    .    .    .    .
    m  .    .    .    .    1/0  .    .    .
    o  0/1  .    .    #1   #1   #1   .    #2

``.`` is an empty field without an owner, ``#1`` / ``#2`` a field owned by seat 1 / 2, and
``a/b`` a field holding a pieces of seat 1 and b pieces of seat 2.
"""

from __future__ import annotations

import pytest

from gamerec.validator.games import engine
from gamerec.validator.games.aronda import (
    ENDINGS,
    ENGINE,
    FIELD_CODES,
    FIELD_NAMES,
    PASS,
    REASON_CODES,
    RESIGN,
    ArondaState,
    ArondaVariant,
    Move,
    field_code,
    field_name,
    format_move,
    parse_move,
)
from gamerec.validator.games.protocol import (
    Engine,
    GameEvent,
    IllegalMoveError,
    MoveSyntaxError,
    VariantError,
)

DEFAULT = ArondaVariant()
PASS_VARIANT = ArondaVariant(supply="pass")
LOSE_VARIANT = ArondaVariant(second_piece="lose")
RING_ROWS = (("c", ["c"]), *((ring, [f"{ring}{k}" for k in range(1, 9)]) for ring in "imo"))


# -- drawing positions --------------------------------------------------------------------------


def canonical(diagram: str) -> str:
    """A diagram with its spacing normalised, for comparisons with readable failures."""
    return "\n".join(" ".join(line.split()) for line in diagram.strip().splitlines())


def draw(state: ArondaState) -> str:
    """The position of ``state`` as a canonical diagram."""
    cells = {}
    for site in state.position().sites:
        if site.owner:
            cells[site.name] = f"#{site.owner}"
        elif any(site.pieces):
            cells[site.name] = f"{site.pieces[0]}/{site.pieces[1]}"
        else:
            cells[site.name] = "."
    return "\n".join(f"{ring} " + " ".join(cells[f] for f in fields) for ring, fields in RING_ROWS)


def arrange(
    diagram: str, to_move: int = 1, variant: ArondaVariant = DEFAULT, ply: int = 2
) -> ArondaState:
    """The position drawn in ``diagram`` with ``to_move`` to move."""
    owners: dict[str, int] = {}
    pieces: dict[str, tuple[int, int]] = {}
    rows = dict(RING_ROWS)
    for line in diagram.strip().splitlines():
        ring, *cells = line.split()
        assert len(cells) == len(rows[ring]), line
        for name, cell in zip(rows[ring], cells, strict=True):
            if cell.startswith("#"):
                owners[name] = int(cell[1:])
            elif cell != ".":
                first, second = cell.split("/")
                pieces[name] = (int(first), int(second))
    return ArondaState.arranged(variant, owners, pieces, to_move, ply)


def played(moves: str, variant: ArondaVariant = DEFAULT) -> ArondaState:
    """The state after the move text ``moves`` (``1. o1 2. o4,o6`` or plain tokens)."""
    state = ENGINE.new_game(variant)
    for token in moves.split():
        if not token.endswith("."):
            state.play(parse_move(token))
    return state


def code_of(state: ArondaState, token: str, seat: int | None = None) -> str | None:
    """The reason code ``check`` gives for ``token`` (None when legal)."""
    illegal = state.check(parse_move(token), seat)
    return None if illegal is None else illegal.code


def fields(names: str) -> set[str]:
    """A set of field names from a space-separated list."""
    return set(names.split())


# -- the engine behind the protocol -------------------------------------------------------------


def test_registry_returns_this_engine_under_its_grn_name() -> None:
    typed: Engine[ArondaVariant, Move] = ENGINE
    assert engine("aronda") is typed
    assert ENGINE.name == "Aronda"


def test_reason_codes_are_upper_snake_and_described() -> None:
    assert set(ENGINE.reason_codes) == {
        "NOT_YOUR_TURN",
        "GAME_ALREADY_OVER",
        "NO_SUCH_FIELD",
        "FIELD_OWNED",
        "NOT_CONNECTED",
        "NO_PIECES_LEFT",
        "WRONG_PLACEMENT_COUNT",
        "PASS_NOT_ALLOWED",
    }
    assert all(description for description in ENGINE.reason_codes.values())


# -- §8.1 variant options -----------------------------------------------------------------------


def test_variant_defaults_are_supply_strict_and_second_piece_end() -> None:
    assert ENGINE.variant() == ArondaVariant("strict", "end", 2)
    assert ENGINE.variant_from_tags({}) == DEFAULT
    assert ENGINE.variant_from_tags({"Game": "Aronda", "Event": "x"}) == DEFAULT


def test_variant_from_tags_reads_supply_and_second_piece() -> None:
    tags = {"Supply": "Pass", "SecondPiece": " lose ", "Players": "2"}
    variant = ENGINE.variant_from_tags(tags)
    assert variant == ArondaVariant(supply="pass", second_piece="lose")
    assert ENGINE.variant_tags(variant) == {"Supply": "pass", "SecondPiece": "lose"}
    assert ENGINE.variant_from_tags(ENGINE.variant_tags(variant)) == variant


@pytest.mark.parametrize(
    "tags",
    [{"Supply": "wait"}, {"SecondPiece": "skip"}, {"Players": "3"}, {"Players": "two"}],
)
def test_unknown_tag_values_and_other_player_counts_are_variant_errors(
    tags: dict[str, str],
) -> None:
    with pytest.raises(VariantError):
        ENGINE.variant_from_tags(tags)


@pytest.mark.parametrize(
    "options",
    [{"supply": "loose"}, {"second_piece": 1}, {"players": 3}, {"players": True}, {"mirror": 1}],
)
def test_impossible_variant_options_are_variant_errors(options: dict[str, object]) -> None:
    with pytest.raises(VariantError):
        ENGINE.variant(**options)


# -- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move", "canonical_text"),
    [
        ("o1", (17,), "o1"),
        ("c", (0,), "c"),
        (" O1,O3 ", (17, 19), "o1,o3"),
        ("m2,m2", (10, 10), "m2,m2"),
        ("i8,m1", (8, 9), "i8,m1"),
        ("PASS", PASS, "pass"),
        ("\tresign\n", RESIGN, "resign"),
    ],
)
def test_turn_tokens_parse_and_format_canonically(
    text: str, move: Move, canonical_text: str
) -> None:
    assert ENGINE.parse_move(DEFAULT, text) == move
    assert ENGINE.format_move(DEFAULT, move) == canonical_text


@pytest.mark.parametrize("text", ["i9", "o0", "m10", "i9,o1", "o1,o2,o3"])
def test_field_tokens_off_the_board_parse_and_keep_their_text(text: str) -> None:
    assert format_move(parse_move(text)) == text


@pytest.mark.parametrize(
    "text",
    ["", "x1", "c1", "o", "o-1", "o1,", ",o1", "o1, o3", "o1 o3", "pass,o1", "o1;o3"],
)
def test_text_that_is_no_turn_is_a_syntax_error(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move(text)


@pytest.mark.parametrize(("text", "same_as"), [("o01", "o1"), ("i08", "i8"), ("m002,c", "m2,c")])
def test_leading_zeros_read_as_the_number_they_spell(text: str, same_as: str) -> None:
    # notation.md, "Indices that name nothing, and leading zeros": the record's grammar and
    # the engine's are one, so the engine reads a01-style tokens as the GRN reader does.
    assert parse_move(text) == parse_move(same_as)


def test_off_board_codes_and_names_are_one_to_one() -> None:
    names = [f"{ring}{k}" for ring in "imo" for k in (0, *range(9, 40))]
    codes = [field_code(name) for name in names]
    assert len(set(codes)) == len(codes)
    assert min(codes) == len(FIELD_NAMES)
    assert [field_name(code) for code in codes] == names
    assert [field_code(field_name(code)) for code in range(25, 200)] == list(range(25, 200))


# -- §3 set-up ----------------------------------------------------------------------------------


def test_setup_is_an_empty_board_16_pieces_each_seat_1_to_move() -> None:
    state = ENGINE.new_game(DEFAULT)
    position = state.position()
    assert state.to_move == 1 and not state.is_over and state.ply == 0
    assert all(site.owner == 0 and site.pieces == (0, 0) for site in position.sites)
    assert position.supplies == (16, 16)
    assert state.scores() == (0, 0) and state.winners() == ()


# -- §9 worked examples -------------------------------------------------------------------------


def test_e1_first_turn_is_one_piece_on_an_edge_field() -> None:
    state = ENGINE.new_game(DEFAULT)
    assert set(state.legal_fields()) == fields("o1 o2 o3 o4 o5 o6 o7 o8")
    assert state.legal_moves() == [(FIELD_CODES[f"o{k}"],) for k in range(1, 9)]


def test_e2_a_first_piece_opens_the_field_behind_it() -> None:
    state = played("1. o8")
    seconds = {field_name(move[1]) for move in state.legal_moves() if move[0] == FIELD_CODES["o8"]}
    assert seconds == fields("o1 o2 o3 o4 o5 o6 o7 o8 m1 m7 m8")
    assert state.check(parse_move("o8,m7")) is None
    illegal = state.check(parse_move("m7,o8"))
    assert illegal is not None and illegal.code == "NOT_CONNECTED"
    assert "first placement m7" in illegal.message and "§4.2" in illegal.message


def test_e3_possession_from_inside() -> None:
    state = played("1. o1 2. o4,o6")
    events = state.play(parse_move("o1,m1"))
    assert events == (GameEvent("possession-inside", 1, ("o1",), 2),)
    assert draw(state) == canonical(
        """
        c  .
        i  .    .    .    .    .    .    .    .
        m  1/0  .    .    .    .    .    .    .
        o  #1   .    .    0/1  .    0/1  .    .
        """
    )
    assert state.position().supplies == (15, 14)
    assert state.to_move == 2


E4_TABLE = [
    # ply, move, possession events, supplies after
    (1, "o4", [], (15, 16)),
    (2, "o5,o6", [], (15, 14)),
    (3, "o4,o4", [("possession-inside", ("o4",))], (16, 14)),
    (4, "o8,o8", [], (16, 12)),
    (5, "o6,o6", [], (14, 12)),
    (6, "o8,o1", [("possession-inside", ("o8",))], (14, 13)),
    (7, "o6,m5", [("possession-inside", ("o6",)), ("possession-outside", ("o5",))], (15, 15)),
]


def test_e4_inside_then_outside_the_opponents_pieces_go_home() -> None:
    state = ENGINE.new_game(DEFAULT)
    for ply, token, possessions, supplies in E4_TABLE:
        events = state.play(parse_move(token))
        assert [(e.kind, e.where) for e in events] == possessions, ply
        assert all(e.seat == 2 - ply % 2 for e in events), ply
        assert state.position().supplies == supplies, ply
    assert draw(state) == canonical(
        """
        c  .
        i  .    .    .    .    .    .    .    .
        m  .    .    .    .    1/0  .    .    .
        o  0/1  .    .    #1   #1   #1   .    #2
        """
    )
    assert state.scores() == (3, 1)
    assert set(state.legal_fields()) == fields("o1 o2 o3 o7 m1 m7 m8")


def test_e4_ply_7_returns_seat_2_pieces_and_leaves_m5_untaken() -> None:
    state = played("1. o4 2. o5,o6 3. o4,o4 4. o8,o8 5. o6,o6 6. o8,o1")
    events = state.play(parse_move("o6,m5"))
    assert events[0] == GameEvent("possession-inside", 1, ("o6",), 4)
    assert events[1] == GameEvent("possession-outside", 1, ("o5",), 1)
    assert state.owned(2) == 1 << FIELD_CODES["o8"]
    assert state.pieces(1, FIELD_CODES["m5"]) == 1


# -- §4.1 turns ---------------------------------------------------------------------------------


def test_seat_1_first_turn_places_exactly_one_piece() -> None:
    state = ENGINE.new_game(DEFAULT)
    assert code_of(state, "o1,o2") == "WRONG_PLACEMENT_COUNT"
    assert code_of(state, "o1,o1") == "WRONG_PLACEMENT_COUNT"
    assert all(len(move) == 1 for move in state.legal_moves())


def test_every_later_turn_places_two_pieces() -> None:
    state = played("o1")
    assert code_of(state, "o2") == "WRONG_PLACEMENT_COUNT"
    assert all(len(move) == 2 for move in state.legal_moves())
    state.play(parse_move("o4,o6"))
    assert code_of(state, "o2") == "WRONG_PLACEMENT_COUNT"


def test_two_pieces_may_go_on_one_field() -> None:
    state = played("1. o1 2. o4,o4")
    assert state.pieces(2, FIELD_CODES["o4"]) == 2


def test_a_turn_never_places_more_than_two_pieces() -> None:
    state = played("o1")
    assert code_of(state, "o2,o3,o4") == "WRONG_PLACEMENT_COUNT"


def test_each_piece_is_checked_after_the_previous_one_is_resolved() -> None:
    state = played("1. o1 2. o4,o6")
    illegal = state.check(parse_move("o1,o1"))
    assert illegal is not None and illegal.code == "FIELD_OWNED"
    assert "second placement o1" in illegal.message


# -- §4.2 where one piece may go ----------------------------------------------------------------


def test_a_piece_may_not_go_on_a_field_with_an_owner_not_even_its_own() -> None:
    state = played("1. o1 2. o4,o6 3. o1,m1 4. o3,o3 5. o5,o7")
    assert state.owned(1) == 1 << FIELD_CODES["o1"]
    assert state.owned(2) == 1 << FIELD_CODES["o3"]
    assert code_of(state, "o1,o2") == "FIELD_OWNED"
    assert code_of(state, "o3,o2") == "FIELD_OWNED"


def test_a_piece_may_go_on_any_edge_field_without_an_owner() -> None:
    state = played("1. o1 2. o4,o6")
    assert {"o2", "o3", "o4", "o5", "o6", "o7", "o8"} <= set(state.legal_fields())


def test_a_piece_may_go_next_to_its_seats_chain_but_nowhere_else() -> None:
    state = played("1. o1 2. o4,o6 3. o1,m1")
    assert code_of(state, "o5,m5") is None
    assert code_of(state, "o8,m1") is None  # seat 2's o8 piece opens m1
    assert code_of(state, "o8,i1") == "NOT_CONNECTED"
    assert code_of(state, "i4,o4") == "NOT_CONNECTED"


def test_the_opponents_pieces_on_a_field_do_not_matter() -> None:
    state = played("1. o8")
    assert code_of(state, "o8,o8") is None
    state.play(parse_move("o8,o1"))
    assert state.position().sites[FIELD_CODES["o8"]].pieces == (1, 1)


def test_the_opponents_chain_gives_no_access() -> None:
    state = played("1. o8 2. o1,o2 3. o8,m8")
    assert code_of(state, "o5,i8") == "NOT_CONNECTED"  # i8 touches seat 1's m8 only


def test_a_piece_counts_as_a_chain_link_on_a_shared_field() -> None:
    state = played("1. o8 2. o8,m7")
    assert state.position().sites[FIELD_CODES["o8"]].pieces == (1, 1)
    assert code_of(state, "m8,i8") is None


def test_owned_fields_are_chain_links() -> None:
    state = played("1. o1 2. o4,o6 3. o1,o3 4. o5,o5")
    assert state.owned(1) == 1 << FIELD_CODES["o1"]
    assert code_of(state, "m1,i1") is None  # the owned o1 is seat 1's only link to m1


CUT_OFF = """
c  .
i  .    .    .    .    .    .    .    .
m  1/0  .    .    .    .    .    .    .
o  #2   .    .    .    .    .    .    .
"""


def test_a_cut_off_piece_gives_no_access_and_its_field_is_not_playable_for_it() -> None:
    state = arrange(CUT_OFF, to_move=1)
    assert code_of(state, "o4,i1") == "NOT_CONNECTED"
    assert code_of(state, "o4,m1") == "NOT_CONNECTED"
    assert "m1" not in state.legal_fields() and "i1" not in state.legal_fields()


def test_a_cut_off_piece_counts_again_once_the_link_is_restored() -> None:
    state = arrange(CUT_OFF, to_move=1)
    assert code_of(state, "o2,i1") is None  # o2 joins m1 to the edge, m1 opens i1
    assert code_of(state, "o2,m1") is None


def test_the_chain_is_recomputed_before_every_piece_when_the_opponent_cuts_it() -> None:
    # Seat 1's m1 hangs on its o1 piece; seat 2's second piece on o1 takes o1 and cuts it off.
    state = played("1. o1 2. o4,o6 3. m1,o5 4. o1,o1")
    assert state.owned(2) == 1 << FIELD_CODES["o1"]
    assert state.pieces(1, FIELD_CODES["m1"]) == 1
    assert code_of(state, "i1,o3") == "NOT_CONNECTED"
    assert code_of(state, "m1,o3") == "NOT_CONNECTED"


NEARLY_EMPTY_SUPPLY = """
c  3/0
i  .    .    .    .    .    .    .    .
m  3/0  .    3/0  .    3/0  .    3/0  .
o  .    .    .    .    .    .    .    .
"""


def test_a_piece_needs_a_piece_in_supply() -> None:
    state = arrange(NEARLY_EMPTY_SUPPLY, to_move=1)
    assert state.supply(1) == 1
    illegal = state.check(parse_move("o2,o3"))
    assert illegal is not None and illegal.code == "NO_PIECES_LEFT"
    assert "second placement o3" in illegal.message


# -- §4.3 no legal piece ------------------------------------------------------------------------


EMPTY_SUPPLY_NEXT = """
c  .
i  .    .    .    .    .    .    .    .
m  0/3  .    0/3  .    0/3  .    0/3  .
o  .    0/2  .    0/2  .    .    .    .
"""


def test_strict_seat_without_a_legal_field_at_the_start_of_its_turn_loses() -> None:
    state = arrange(EMPTY_SUPPLY_NEXT, to_move=1)
    assert state.supply(2) == 0
    events = state.play(parse_move("o5,o7"))
    assert events[-1] == GameEvent("end", 1)
    assert state.is_over and state.ending == "blocked"
    assert state.to_move == 0 and state.winners() == (1,) and state.ranking() == (1, 2)
    assert code_of(state, "o6,o8") == "GAME_ALREADY_OVER"


def test_a_seat_already_blocked_has_lost_before_its_turn() -> None:
    state = arrange(EMPTY_SUPPLY_NEXT, to_move=2)
    assert state.is_over and state.winners() == (1,) and state.legal_moves() == []


BOARD_BLOCKED = """
c  .
i  .    .    .    .    .    .    .    .
m  .    .    .    .    .    .    .    .
o  #1   #1   #1   #1   #1   #1   #1   #1
"""


@pytest.mark.parametrize("variant", [DEFAULT, PASS_VARIANT])
def test_a_seat_blocked_by_the_board_loses_under_both_supply_options(
    variant: ArondaVariant,
) -> None:
    state = arrange(BOARD_BLOCKED, to_move=1, variant=variant)
    state.play(parse_move("m2,m4"))
    assert state.is_over and state.ending == "blocked" and state.winners() == (1,)


def test_supply_pass_seat_with_only_an_empty_supply_must_pass() -> None:
    state = arrange(EMPTY_SUPPLY_NEXT, to_move=1, variant=PASS_VARIANT)
    events = state.play(parse_move("o5,o7"))
    assert not state.is_over and state.to_move == 2 and state.must_pass
    assert GameEvent("end", 1) not in events
    assert state.legal_moves() == [PASS]
    assert state.check(PASS) is None
    assert code_of(state, "o6,o8") == "NO_PIECES_LEFT"
    assert state.play(PASS) == (GameEvent("pass", 2),)
    assert state.to_move == 1 and code_of(state, "pass") == "PASS_NOT_ALLOWED"


BOTH_EMPTY = """
c  0/3
i  2/0  .    1/0  .    0/2  .    0/1  .
m  3/0  0/2  3/0  .    3/0  0/2  3/0  0/2
o  #1   .    1/0  0/2  .    0/2  .    .
"""


def test_supply_pass_two_passes_in_a_row_end_the_game_more_fields_wins() -> None:
    state = arrange(BOTH_EMPTY, to_move=1, variant=PASS_VARIANT)
    assert state.must_pass and state.supply(1) == 0 and state.supply(2) == 0
    state.play(PASS)
    assert not state.is_over and state.must_pass
    events = state.play(PASS)
    assert events == (GameEvent("pass", 2), GameEvent("end", 1))
    assert state.ending == "passes" and state.winners() == (1,) and state.ranking() == (1, 2)


def test_supply_pass_two_passes_with_equal_fields_are_a_draw() -> None:
    state = arrange(BOTH_EMPTY.replace("o  #1 ", "o  . "), to_move=1, variant=PASS_VARIANT)
    assert state.supply(1) == 0
    state.play(PASS)
    assert state.play(PASS)[-1] == GameEvent("end", 0)
    assert state.winners() == (1, 2) and state.ranking() == (1, 1)


def test_a_placement_between_passes_resets_the_count() -> None:
    state = arrange(EMPTY_SUPPLY_NEXT, to_move=1, variant=PASS_VARIANT)
    state.play(parse_move("o5,o7"))
    state.play(PASS)
    state.play(parse_move("o6,o8"))
    assert state.must_pass and not state.is_over
    state.play(PASS)
    assert not state.is_over


def test_pass_is_illegal_in_every_other_situation() -> None:
    assert code_of(ENGINE.new_game(DEFAULT), "pass") == "PASS_NOT_ALLOWED"
    assert code_of(ENGINE.new_game(PASS_VARIANT), "pass") == "PASS_NOT_ALLOWED"
    assert code_of(played("o1", PASS_VARIANT), "pass") == "PASS_NOT_ALLOWED"


def test_second_piece_end_cuts_the_turn_to_one_piece() -> None:
    state = arrange(NEARLY_EMPTY_SUPPLY, to_move=1)
    events = state.play(parse_move("o2"))
    assert events == (GameEvent("turn-ended", 1, ("o2",)),)
    assert state.to_move == 2 and not state.is_over


def test_second_piece_lose_ends_the_game_and_the_mover_loses() -> None:
    state = arrange(NEARLY_EMPTY_SUPPLY, to_move=1, variant=LOSE_VARIANT)
    events = state.play(parse_move("o2"))
    assert events == (GameEvent("end", 2),)
    assert state.ending == "second-piece" and state.winners() == (2,)


def test_a_seat_may_never_stop_after_one_piece_when_a_second_is_legal() -> None:
    state = played("1. o1 2. o4,o6")
    illegal = state.check(parse_move("o2"))
    assert illegal is not None and illegal.code == "WRONG_PLACEMENT_COUNT"
    assert "after placement o2" in illegal.message


def test_a_last_piece_that_brings_pieces_back_allows_a_second_piece() -> None:
    # Seat 1's last piece completes m1 (cap 4): its four pieces come back to its supply.
    state = arrange(
        """
        c  3/0
        i  .    .    .    .    .    .    .    .
        m  3/0  .    3/0  .    3/0  .    2/0  .
        o  1/0  .    .    .    .    .    .    .
        """
    )
    assert state.supply(1) == 1
    assert code_of(state, "m1") == "WRONG_PLACEMENT_COUNT"
    state.play(parse_move("m1,o2"))
    assert state.supply(1) == 3


# -- §5 effects of one piece --------------------------------------------------------------------


def test_possession_from_inside_returns_all_pieces_of_both_seats() -> None:
    state = arrange(
        """
        c  .
        i  .    .    .    .    .    .    .    .
        m  3/2  .    .    .    .    .    .    .
        o  1/0  .    .    .    .    .    .    .
        """
    )
    events = state.play(parse_move("m1,o2"))
    assert events[0] == GameEvent("possession-inside", 1, ("m1",), 6)
    assert state.owned(1) == 1 << FIELD_CODES["m1"]
    assert state.position().supplies == (16 - 2, 16)


CASCADE = """
c  .
i  #1   .    .    .    .    .    .    .
m  .    #1   0/3  .    .    .    .    .
o  .    #1   0/1  2/0  .    .    .    .
"""


def test_possession_from_outside_cascades_to_the_full_closure() -> None:
    state = arrange(CASCADE, to_move=1)
    events = state.play(parse_move("o4,o5"))
    assert events[0] == GameEvent("possession-inside", 1, ("o4",), 3)
    assert events[1] == GameEvent("possession-outside", 1, ("i2", "m3", "o3"), 4)
    assert draw(state) == canonical(
        """
        c  .
        i  #1   #1   .    .    .    .    .    .
        m  .    #1   #1   .    .    .    .    .
        o  .    #1   #1   #1   1/0  .    .    .
        """
    )
    assert state.position().supplies == (15, 16)


def test_placement_pieces_never_protect_a_field() -> None:
    state = arrange(CASCADE, to_move=1)
    state.play(parse_move("o4,o5"))  # seat 2 had cap - 1 = 3 pieces on m3
    assert state.owned(1) >> FIELD_CODES["m3"] & 1


CENTRE = """
c  0/3
i  #1   .    #1   .    #1   .    2/0  .
m  .    .    .    .    .    .    1/0  .
o  #1   .    #1   .    #1   .    #1   .
"""


def test_the_centre_falls_to_four_inner_fields_and_the_ring_follows() -> None:
    state = arrange(CENTRE.replace("o  #1   .    #1", "o  .    .    #1"), to_move=1)
    events = state.play(parse_move("i7,o2"))
    assert events[0] == GameEvent("possession-inside", 1, ("i7",), 3)
    assert events[1].kind == "possession-outside"
    assert set(events[1].where) == fields("c i2 i4 i6 i8")
    assert state.supply(2) == 16
    assert not state.is_over and state.scores() == (12, 0)


def test_edge_fields_can_be_taken_from_outside() -> None:
    state = played("1. o4 2. o5,o6 3. o4,o4 4. o8,o8 5. o6,o6 6. o8,o1 7. o6,m5")
    assert state.owned(1) >> FIELD_CODES["o5"] & 1


def test_only_the_seat_that_placed_gains_fields() -> None:
    state = arrange(CASCADE, to_move=1)
    state.play(parse_move("o4,o5"))
    assert state.owned(2) == 0


# -- §6 end of game -----------------------------------------------------------------------------


def test_thirteen_fields_end_the_game_at_once() -> None:
    state = arrange(CENTRE, to_move=1)
    events = state.play(parse_move("i7"))
    assert events[-1] == GameEvent("end", 1)
    assert state.ending == "thirteen-fields" and state.scores() == (13, 0)
    assert state.winners() == (1,) and state.to_move == 0


def test_the_rest_of_a_winning_turn_is_not_played() -> None:
    state = arrange(CENTRE, to_move=1)
    illegal = state.check(parse_move("i7,o2"))
    assert illegal is not None and illegal.code == "WRONG_PLACEMENT_COUNT"
    assert "13 fields after first placement i7" in illegal.message


def test_the_score_is_the_number_of_fields_owned() -> None:
    state = played("1. o4 2. o5,o6 3. o4,o4 4. o8,o8 5. o6,o6 6. o8,o1 7. o6,m5")
    assert state.scores() == (3, 1)
    assert state.ranking() == (1, 2) and state.winners() == ()


# -- §7 resignation -----------------------------------------------------------------------------


def test_resign_is_the_turn_of_the_seat_to_move_and_it_loses() -> None:
    state = played("1. o4 2. o5,o6")
    assert code_of(state, "resign", seat=2) == "NOT_YOUR_TURN"
    events = state.play(RESIGN)
    assert events == (GameEvent("resign", 1), GameEvent("end", 2))
    assert state.ending == "resignation" and state.winners() == (2,)
    assert state.position().resigned == (1,) and state.ranking() == (2, 1)


def test_endings_name_every_way_a_game_ends() -> None:
    assert set(ENDINGS) == {"thirteen-fields", "blocked", "second-piece", "passes", "resignation"}


# -- every reason code, by check and by replay ---------------------------------------------------

REASON_SCENARIOS = {
    "NOT_YOUR_TURN": ("o1", "o4,o6", 1),
    "GAME_ALREADY_OVER": ("o1 resign", "o4,o6", None),
    "NO_SUCH_FIELD": ("o1", "o9,o4", None),
    "FIELD_OWNED": ("o1 o4,o6 o1,m1", "o2,o1", None),
    "NOT_CONNECTED": ("o8", "m7,o8", None),
    "WRONG_PLACEMENT_COUNT": ("", "o1,o2", None),
    "PASS_NOT_ALLOWED": ("o1", "pass", None),
}


@pytest.mark.parametrize("code", sorted(REASON_SCENARIOS))
def test_every_reachable_reason_code_by_check_and_by_replay(code: str) -> None:
    before, token, seat = REASON_SCENARIOS[code]
    state = played(before)
    illegal = state.check(parse_move(token), seat)
    assert illegal is not None and illegal.code == code
    assert "docs/rules/aronda.md §" in illegal.message
    if seat is None:
        with pytest.raises(IllegalMoveError) as raised:
            state.play(parse_move(token))
        assert raised.value.illegal == illegal
    moves = [parse_move(t) for t in before.split()] + [parse_move(token)]
    claims = [0] * (len(moves) - 1) + [seat or 0]
    outcome = ENGINE.replay(DEFAULT, moves, claims)
    assert outcome.plies == len(moves) - 1 and outcome.illegal == illegal


def test_no_pieces_left_by_check() -> None:
    state = arrange(NEARLY_EMPTY_SUPPLY, to_move=1)
    illegal = state.check(parse_move("o2,o3"))
    assert illegal is not None and illegal.code == "NO_PIECES_LEFT"


def test_the_scenarios_cover_every_reason_code() -> None:
    assert set(REASON_SCENARIOS) | {"NO_PIECES_LEFT"} == set(REASON_CODES)


def test_an_illegal_play_leaves_the_state_unchanged() -> None:
    state = played("1. o1 2. o4,o6")
    digest = state.digest()
    with pytest.raises(IllegalMoveError):
        state.play(parse_move("o1,o1"))  # the first piece takes o1, the second is illegal
    assert state.digest() == digest and state.ply == 2


# -- position and digest ------------------------------------------------------------------------


def test_transposed_turns_reach_the_same_digest() -> None:
    one = played("1. o1 2. o4,o6 3. o2,o3 4. o5,o7")
    other = played("1. o1 2. o6,o4 3. o3,o2 4. o7,o5")
    assert one.digest() == other.digest()
    assert one.digest() != played("1. o1 2. o4,o6 3. o2,o3 4. o5,o8").digest()


def test_the_digest_tells_the_seat_to_move_and_the_variant_apart() -> None:
    state = arrange(CASCADE, to_move=1)
    assert state.digest() != arrange(CASCADE, to_move=2).digest()
    assert state.digest() != arrange(CASCADE, to_move=1, variant=PASS_VARIANT).digest()


def test_the_digest_counts_a_pass_just_played() -> None:
    after_a_pass = arrange(BOTH_EMPTY, to_move=1, variant=PASS_VARIANT)
    after_a_pass.play(PASS)
    fresh = arrange(BOTH_EMPTY, to_move=2, variant=PASS_VARIANT)
    assert after_a_pass.position() == fresh.position()
    assert after_a_pass.digest() != fresh.digest()  # one more pass ends only the first game


def test_a_copy_is_independent() -> None:
    state = played("o1")
    twin = state.copy()
    twin.play(parse_move("o4,o4"))
    assert state.ply == 1 and state.pieces(2, FIELD_CODES["o4"]) == 0
    assert twin.pieces(2, FIELD_CODES["o4"]) == 2


def test_arranged_rejects_positions_the_rules_cannot_hold() -> None:
    with pytest.raises(ValueError, match="cannot have 2 pieces on o1"):
        arrange("o  2/0  .  .  .  .  .  .  .")
    with pytest.raises(ValueError, match="from outside"):
        arrange("o  .  #1  .  #1  .  .  .  .")
