"""The engine protocol's line grammar, both ways: every message writes a line that reads back
as the same message, and every other line is refused with a sentence that names the problem."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder.errors import MAX_MESSAGE_CHARS
from gamerec.validator.players.clocks import ClockError, ClockState
from gamerec.validator.players.lines import (
    MAX_DIGITS,
    EngineError,
    GameOver,
    Go,
    Hello,
    HelloDone,
    HostError,
    Identity,
    Info,
    InfoError,
    MoveAnswer,
    NewGame,
    Ping,
    Plays,
    Pong,
    Position,
    ProtocolError,
    Quit,
    Ready,
    one_line,
    parse_engine_line,
    parse_host_line,
)
from gamerec.validator.players.search_info import Score, SearchInfo

EXAMPLES = settings(max_examples=200, deadline=None)

#: One word: printable text without spaces (moves, tokens, names, tag values).
words = st.text(
    st.characters(blacklist_categories=("Cc", "Zs", "Zl", "Zp", "Cs")), min_size=1, max_size=12
)
#: Free text on one line, no space at its ends.
free_texts = st.text(
    st.characters(blacklist_categories=("Cc", "Zl", "Zp", "Cs")), min_size=1, max_size=30
).filter(lambda text: text == text.strip(" \t") and text.strip(" \t"))
counts = st.integers(0, 10**MAX_DIGITS - 1)
tag_names = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,8}", fullmatch=True)
tag_values = words.filter(lambda word: "=" not in word)


@st.composite
def new_games(draw: st.DrawFn) -> NewGame:
    players = draw(st.integers(1, 64))
    variant = draw(st.dictionaries(tag_names, tag_values, max_size=4))
    for reserved in ("Game", "Seat", "TimeControl"):
        variant.pop(reserved, None)
    variant["Players"] = str(players)
    time_control = draw(st.one_of(st.just(""), tag_values))
    seat = draw(st.integers(1, players))
    return NewGame.of(draw(tag_values), variant, seat, time_control)


@st.composite
def clock_states(draw: st.DrawFn) -> ClockState:
    delay, bronstein = draw(st.sampled_from([(True, False), (False, True), (False, False)]))
    return ClockState(
        remaining_ms=tuple(draw(st.lists(counts, max_size=6))),
        increment_ms=draw(counts),
        delay_ms=draw(counts) if delay else 0,
        bronstein_ms=draw(counts) if bronstein else 0,
        move_limit_ms=draw(st.none() | counts),
    )


scores = st.one_of(
    st.builds(Score, st.just("value"), st.integers(-(10**MAX_DIGITS) + 1, 10**MAX_DIGITS - 1)),
    st.builds(Score, st.sampled_from(["win", "loss"]), st.integers(1, 10**MAX_DIGITS - 1)),
)
search_infos = st.builds(
    SearchInfo,
    score=st.none() | scores,
    depth=st.none() | counts,
    nodes=st.none() | counts,
    time_ms=st.none() | counts,
    pv=st.lists(words, max_size=5).map(tuple),
    text=st.just("") | free_texts,
).filter(lambda info: not info.empty and not (info.pv and info.text))

host_commands = st.one_of(
    st.builds(Hello, st.integers(1, 10**MAX_DIGITS - 1)),
    new_games(),
    st.builds(Position, st.lists(words, max_size=8).map(tuple)),
    st.builds(Go, clock_states()),
    st.builds(Ping, words),
    st.builds(HostError, free_texts),
    st.builds(
        GameOver.of,
        tag_values,
        st.lists(st.integers(1, 64), max_size=3),
        tag_values,
    ),
    st.just(Quit()),
)
engine_messages = st.one_of(
    st.builds(Identity, st.sampled_from(["name", "author", "version"]), free_texts),
    st.builds(Plays, words, st.lists(st.integers(1, 64), max_size=5).map(tuple)),
    st.builds(HelloDone, st.integers(1, 99)),
    st.just(Ready()),
    st.builds(Info, search_infos),
    st.builds(MoveAnswer, words),
    st.builds(Pong, words),
    st.builds(EngineError, free_texts),
)


@EXAMPLES
@given(host_commands)
def test_every_host_command_reads_back_as_itself(command: object) -> None:
    line = command.line()  # type: ignore[attr-defined]
    assert "\n" not in line and "\r" not in line
    assert parse_host_line(line) == command


@EXAMPLES
@given(engine_messages)
def test_every_engine_message_reads_back_as_itself(message: object) -> None:
    line = message.line()  # type: ignore[attr-defined]
    assert "\n" not in line and "\r" not in line
    assert parse_engine_line(line) == message


@EXAMPLES
@given(engine_messages, st.sampled_from([" ", "\t", "  \t "]))
def test_runs_of_spaces_and_tabs_separate_words_like_one_space(message: object, gap: str) -> None:
    line: str = message.line()  # type: ignore[attr-defined]
    if isinstance(message, Identity | EngineError) or (
        isinstance(message, Info) and message.info.text
    ):
        return  # free text keeps its inner spacing
    assert parse_engine_line(gap + line.replace(" ", gap) + gap) == message


@EXAMPLES
@given(st.text(max_size=80))
def test_any_text_is_a_message_or_a_protocol_error_of_bounded_size(text: str) -> None:
    for parse in (parse_engine_line, parse_host_line):
        try:
            parse(text)
        except ProtocolError as error:
            assert 0 < len(str(error)) <= MAX_MESSAGE_CHARS


def test_a_typical_exchange_reads_as_the_document_writes_it() -> None:
    assert parse_host_line("gep 1") == Hello(1)
    command = parse_host_line(
        "newgame Game=ONE Players=3 Board=10,10,20,20 TimeControl=300+3 Seat=2"
    )
    assert isinstance(command, NewGame)
    assert (command.game, command.players, command.seat) == ("ONE", 3, 2)
    assert command.variant == {"Players": "3", "Board": "10,10,20,20"}
    assert command.time_control == "300+3"
    assert parse_host_line("position c7 c8 d14") == Position(("c7", "c8", "d14"))
    assert parse_host_line("go clock 295000,300000,288500 increment 3000 movetime 20000") == Go(
        ClockState((295000, 300000, 288500), increment_ms=3000, move_limit_ms=20000)
    )
    assert parse_engine_line("info depth 12 score -35 nodes 10234 time 250 pv c8 d14") == Info(
        SearchInfo(Score("value", -35), 12, 10234, 250, ("c8", "d14"))
    )
    assert parse_engine_line("info score win 5 string mate  in five") == Info(
        SearchInfo(Score("win", 5), text="mate  in five")
    )
    assert parse_engine_line("id name  Deep Thought 2 ") == Identity("name", "Deep Thought 2")
    assert parse_engine_line("game Oh-Wah-Ree 2 3") == Plays("Oh-Wah-Ree", (2, 3))
    assert parse_engine_line("move c7xc9") == MoveAnswer("c7xc9")


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("", "an empty line is no message"),
        ("bestmove e2e4", "unknown message 'bestmove'"),
        ("MOVE c7", "unknown message 'MOVE'"),
        ("move", "write move MOVE (one GRN move token), not 'move'"),
        ("move c7 c8", "write move MOVE (one GRN move token), not 'move c7 c8'"),
        ("gepok one", "the protocol version must be a whole number of at least 1, not 'one'"),
        ("gepok 0", "the protocol version must be a whole number of at least 1, not '0'"),
        ("id nickname Bob", "id gives name, author, version, not 'nickname'"),
        ("id name", "write id name|author|version TEXT, not 'id name'"),
        ("game ONE 0", "a seat count must be a whole number of at least 1, not '0'"),
        ("ready now", "write ready, not 'ready now'"),
        ("error", "write error TEXT, not 'error'"),
        ("move\x07c7", "a line holds the control character U+0007 at column 5"),
        ("pong 1\x00", "a line holds the control character U+0000 at column 7"),
    ],
)
def test_an_engine_line_that_is_no_message_says_what_is_wrong(line: str, problem: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_engine_line(line)
    assert str(caught.value).startswith(problem)
    assert not isinstance(caught.value, InfoError)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("info", "an info line gives at least one field"),
        ("info depth", "info: depth needs a value"),
        ("info depth -3", "info depth must be a whole number, not '-3'"),
        ("info depth 1 depth 2", "info: depth is given twice"),
        ("info currmove e2e4", "info gives depth, score, nodes, time, pv, string, not 'currmove'"),
        ("info score cp 35", "info score must be a whole number, win N or loss N, not 'cp'"),
        ("info score win", "info: score win needs a number of plies"),
        ("info score loss 0", "info score loss must be a whole number of at least 1, not '0'"),
        ("info nodes 1234567890123456789", "info nodes must be a whole number, not"),
    ],
)
def test_a_malformed_info_line_is_an_info_error(line: str, problem: str) -> None:
    with pytest.raises(InfoError) as caught:
        parse_engine_line(line)
    assert str(caught.value).startswith(problem)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("uci", "unknown command 'uci'"),
        ("gep", "write gep VERSION, not 'gep'"),
        ("newgame Game=ONE Players=2", "newgame needs the tag(s) Seat"),
        ("newgame Game=ONE Players=2 Seat=3", "newgame: Seat=3 is not a seat of a game of 2"),
        ("newgame Game=ONE Game=Oust Players=2 Seat=1", "newgame: the tag Game is given twice"),
        ("newgame Game ONE", "newgame: write Tag=Value, not 'Game'"),
        ("newgame 1x=2 Game=ONE Players=2 Seat=1", "newgame: '1x' is not a tag name"),
        ("go wtime 1000", "go takes clock, increment, delay, bronstein, movetime, not 'wtime'"),
        ("go movetime", "go: movetime needs a value"),
        ("go movetime 1 movetime 2", "go: movetime is given twice"),
        ("go clock 1000,,2000", "a time of go clock must be a whole number, not ''"),
        ("go delay 5 bronstein 5", "go: a clock has either a simple delay or a Bronstein delay"),
        ("ping", "write ping WORD, not 'ping'"),
        ("gameover Result=1-0", "gameover needs the tag(s) Termination"),
        ("quit now", "write quit, not 'quit now'"),
    ],
)
def test_a_host_line_that_is_no_command_says_what_is_wrong(line: str, problem: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_host_line(line)
    assert str(caught.value).startswith(problem)


def test_a_huge_line_is_quoted_short_in_the_error() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_engine_line("move " + "x" * 100_000 + " y")
    assert len(str(caught.value)) < 200
    assert "(100,007 characters)" in str(caught.value)


def test_messages_refuse_what_no_line_can_hold() -> None:
    with pytest.raises(ProtocolError, match="the move must be one word"):
        MoveAnswer("c7 c8")
    with pytest.raises(ProtocolError, match="must be non-empty text on one line"):
        EngineError("two\nlines")
    with pytest.raises(InfoError, match="at least one field"):
        Info(SearchInfo())
    with pytest.raises(InfoError, match="pv or string, not both"):
        Info(SearchInfo(pv=("c7",), text="hello"))
    assert HostError(one_line("bad\nmove\t ")).line() == "error bad move"


def test_newgame_is_written_game_players_variant_time_control_seat() -> None:
    command = NewGame.of("Oust", {"Board": "7", "Players": "2", "Pie": "on"}, 2, "300+3")
    assert command.line() == "newgame Game=Oust Players=2 Board=7 Pie=on TimeControl=300+3 Seat=2"


def test_the_clock_budget_adds_a_simple_delay_and_obeys_the_move_limit() -> None:
    assert ClockState().budget_ms(1) is None
    assert ClockState((60_000, 5_000)).budget_ms(2) == 5_000
    assert ClockState((60_000, 5_000), delay_ms=2_000).budget_ms(2) == 7_000
    assert ClockState((60_000, 5_000), bronstein_ms=2_000).budget_ms(2) == 5_000
    assert ClockState((60_000, 5_000), increment_ms=2_000).budget_ms(2) == 5_000
    assert ClockState((60_000, 5_000), move_limit_ms=3_000).budget_ms(1) == 3_000
    assert ClockState(move_limit_ms=3_000).budget_ms(4) == 3_000
    with pytest.raises(ClockError, match="2 seats' times, not seat 3's"):
        ClockState((1, 2)).budget_ms(3)
    with pytest.raises(ClockError, match="negative"):
        ClockState((-1, 2))
