"""The benchmark and load-test helpers: ratios, targets, percentiles, the table, the load plan."""

from __future__ import annotations

import statistics
import sys

import pytest

from bench import __main__ as bench_main
from bench import bench_encodings
from bench.bench_judge import JudgeRun
from bench.bench_judge import figures as judge_figures
from bench.bench_live import LiveFigures, figures
from bench.bench_live_postgres import PostgresFigures, StoreRun
from bench.bench_live_postgres import figures as postgres_figures
from bench.bench_service import BENCH_ACCESS, LIMITS_NOTE
from bench.bench_startup import THROUGH_TYPER
from bench.figures import Figure, Paired, engine_sources, paired, percentile, table
from bench.load import Tally, plan, report
from gamerec.cli.entry import plain_validate
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.v1.verification_pb2 import Verification
from gamerec.validator.games import engine
from gamerec.validator.generation import generate


def test_a_ratio_meets_a_least_target_or_a_most_target() -> None:
    fast = Figure("replay", 300.0, "plies/s", "peer", 100.0, target=2.0)
    slow = Figure("replay", 150.0, "plies/s", "peer", 100.0, target=2.0)
    lean = Figure("memory", 110.0, "MiB", "small", 100.0, target=1.2, at_most=True)
    fat = Figure("memory", 130.0, "MiB", "small", 100.0, target=1.2, at_most=True)
    assert (fast.ratio, fast.met, slow.met) == (3.0, True, False)
    assert (lean.met, fat.met) == (True, False)
    assert Figure("alone", 5.0, "ms").met is None
    assert Figure("unmeasured peer", 5.0, "ms", "peer", None, target=1.0).met is None


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.99), percentile([], 0.5)) == (
        50.0,
        99.0,
        0.0,
    )


def test_the_table_shows_value_reference_ratio_target_and_whether_it_was_met() -> None:
    text = table([Figure("ONE replay", 2_500_000.0, "plies/s", "Go", 1_000_000.0, target=2.0)])
    header, rule, row = text.splitlines()
    assert header.split() == [
        "figure", "value", "unit", "reference", "ref.", "value", "ratio", "target", "met?"
    ]  # fmt: skip
    assert set(rule) == {"-"}
    assert row.split() == [
        "ONE", "replay", "2,500,000", "plies/s", "Go", "1,000,000", "2.50x", ">=", "2.00x", "yes"
    ]  # fmt: skip


def test_the_load_plan_calls_every_method_and_expects_the_library_answers() -> None:
    calls = plan()
    service = spb.DESCRIPTOR.services_by_name["RecordService"]
    assert {call.method for call in calls} == {method.name for method in service.methods}
    assert len(service.methods) == 8
    checks = [
        Verification.FromString(call.expected[0]) for call in calls if call.method == "Verify"
    ]
    assert any(check.verified for check in checks)  # the complete games, signed by all
    assert any(not check.verified for check in checks)  # the invalid records
    verdicts = [
        vpb.Verdict.FromString(call.expected[0]) for call in calls if call.method == "Validate"
    ]
    assert any(verdict.valid for verdict in verdicts)
    assert any(not verdict.valid for verdict in verdicts)
    replays = [call for call in calls if call.method == "Replay"]
    games = {spb.ReplayRequest.FromString(call.request).record.rules.game for call in replays}
    assert len(games) == 4
    assert all(
        len(call.expected) == len(spb.ReplayRequest.FromString(call.request).record.moves)
        for call in replays
    )


def test_the_load_report_counts_calls_errors_and_memory_growth() -> None:
    tally = Tally()
    tally.latencies["Validate"] += [0.001, 0.002, 0.003]
    tally.errors.append("Score: a wrong answer")
    text = report(tally, 2.0, 1000 * 1024, 1050 * 1024)
    assert text.splitlines()[0] == "calls 3 in 2 s (2/s), errors 1"
    assert "+5.0%" in text and "error: Score: a wrong answer" in text


def test_the_live_section_compares_moves_with_the_echo_beside_them_and_memory_per_match() -> None:
    measured = LiveFigures(
        matches=1000,
        alone_move_ms=[2.0, 3.0],
        alone_echo_ms=[1.0, 1.5],
        moves=25_000,
        seconds=50.0,
        move_ms=[float(n) for n in range(1, 101)],
        echo_ms=[float(n) / 2 for n in range(1, 101)],
        memory_mib={0: 300.0, 250: 302.5, 1000: 310.0},
        flag_late_ms=[5.0] * 20,
    )
    rows = {figure.name: figure for figure in figures(measured)}
    assert rows["live: moves accepted, 1,000 matches at once"].value == 500.0
    trip = rows["live: move round trip p99, 1,000 matches at once"]
    assert (trip.value, trip.reference_value, trip.met) == (99.0, 49.5, True)
    memory = rows["live: memory per open match at 1,000"]
    assert memory.value == 10 * 1024 / 1000 and memory.reference_value == 2.5 * 1024 / 250
    assert memory.met is True
    assert rows["live: flag to watcher, p99 of 20"].met is True


def test_the_postgres_section_sets_two_servers_on_one_store_beside_one_on_sqlite() -> None:
    measured = PostgresFigures(
        matches=1000,
        sqlite=StoreRun(moves=30_000, seconds=60.0, move_ms=[float(n) for n in range(1, 101)]),
        postgres=StoreRun(moves=30_000, seconds=100.0, move_ms=[2.0 * n for n in range(1, 101)]),
    )
    rows = {figure.name: figure for figure in postgres_figures(measured)}
    moves = rows["live, PostgreSQL: moves accepted, 2 servers, 1,000 matches"]
    assert (moves.value, moves.reference_value) == (300.0, 500.0)
    trip = rows["live, PostgreSQL: move round trip p99, 2 servers, 1,000 matches"]
    assert (trip.value, trip.reference_value, trip.ratio) == (198.0, 99.0, 2.0)


def test_a_ratio_measured_in_pairs_is_their_median_shown_with_its_spread() -> None:
    figure = Figure("validate", 60.0, "plies/s", "replay", 100.0, 0.6, pairs=(0.5, 0.7, 0.62))
    assert (figure.ratio, figure.spread, figure.met) == (0.62, (0.5, 0.7), True)
    row = table([figure]).splitlines()[2]
    assert "0.62x (0.50-0.70, 3 pairs)" in row


def test_paired_runs_take_turns_and_swap_the_order_every_other_pair() -> None:
    order: list[str] = []
    times = paired(lambda: order.append("A"), lambda: order.append("B"), 4)
    assert order == ["A", "B", "B", "A", "A", "B", "B", "A"]
    assert len(times.first) == len(times.second) == 4
    slow_then_fast = Paired((2.0, 4.0), (1.0, 1.0))
    assert slow_then_fast.rate_ratios(10, 5) == (1.0, 0.5)
    assert slow_then_fast.time_ratios() == (2.0, 4.0)


def test_a_section_that_fails_says_why_and_the_others_print_their_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken() -> list[Figure]:
        raise SystemExit("the server did not start: RESOURCE_EXHAUSTED")

    sections = {"engines": broken, "peers": lambda: [Figure("fine", 1.0, "ms")]}
    monkeypatch.setattr(bench_main, "_runs", lambda scale, known: sections)
    monkeypatch.setattr(sys, "argv", ["bench", "--sections", "engines", "peers"])
    with pytest.raises(SystemExit) as stopped:
        bench_main.main()
    out = capsys.readouterr().out
    assert stopped.value.code == 1
    assert "load average (1, 5, 15 min): before " in out and ", after " in out
    assert out.splitlines()[-1] == (
        "section engines failed: SystemExit: the server did not start: RESOURCE_EXHAUSTED"
    )
    assert any(line.startswith("fine ") for line in out.splitlines())


def test_the_bench_servers_let_the_bench_own_load_through() -> None:
    limits = BENCH_ACCESS.limits
    assert min(limits.peer_rate, limits.peer_burst, limits.admin_open_matches) >= 1_000_000
    assert "1,000,000" in LIMITS_NOTE


def test_the_judge_section_compares_validate_with_the_replay_of_the_same_games_pair_by_pair() -> (
    None
):
    # validate took 2 s, 3 s, 4 s; the replay of the same 600 plies 1 s each time; the replay
    # with its scoring and digest 1.5 s against 1 s, then 1.25 s against 0.5 s.
    ceiling = Paired((1.5, 1.25), (1.0, 0.5))
    read = Paired((1.6,), (1.0,))
    floor = Paired((1.8,), (1.0,))
    run = JudgeRun("Oust", 10, 600, Paired((2.0, 3.0, 4.0), (1.0, 1.0, 1.0)), ceiling, read, floor)
    figure, top, read_top, floor_row = judge_figures([run])
    assert (figure.value, figure.reference_value) == (200.0, 600.0)
    assert figure.pairs == (0.5, 1 / 3, 0.25)
    assert (figure.ratio, figure.target, figure.met) == (1 / 3, 0.6, False)
    assert "ceiling" in top.name and top.reference == figure.reference
    assert (top.pairs, top.target, top.met) == ((2 / 3, 0.4), None, None)
    assert "read" in read_top.name and (read_top.ratio, read_top.met) == (1 / 1.6, None)
    assert (
        "Verdict" in floor_row.name
        and floor_row.met is None
        and floor_row.ratio == pytest.approx(1 / 1.8)
    )


def test_cached_games_are_keyed_on_every_module_of_an_engine_package() -> None:
    # ONE is a package whose engine class is in one/engine.py; its rules are in the others.
    names = {path.name for path in engine_sources(engine("ONE"))}
    assert {"engine.py", "legality.py", "state.py", "replay.py", "board.py"} <= names
    assert {path.parent.name for path in engine_sources(engine("Oh-Wah-Ree"))} == {"ohwahree"}


def test_the_web_figures_compare_each_connect_body_with_grpc_round_by_round() -> None:
    from bench.bench_web import Round, WebFigures  # noqa: PLC0415
    from bench.bench_web import figures as web_figures  # noqa: PLC0415

    def rounds(*p50s: float) -> list[Round]:
        return [Round(tuple([p50] * 100), 100 * p50 / 1000) for p50 in p50s]

    measured = WebFigures(
        {
            "gRPC": rounds(1.0, 2.0),
            "Connect JSON": rounds(3.0, 3.0),  # 3x then 1.5x gRPC: median 2.25x
            "Connect protobuf": rounds(1.5, 2.0),
        },
        {0: 100_000.0, 1_000: 150_000.0, 4_000: 300_000.0},
    )
    found = {figure.name: figure for figure in web_figures(measured)}
    json_p50 = found["web: Play round trip p50, Connect JSON"]
    assert (json_p50.ratio, json_p50.met) == (2.25, False)
    assert found["web: Play round trip p50, Connect protobuf"].met is True
    moves = found["web: moves/s, one client, Connect protobuf"]
    assert moves.value == pytest.approx(statistics.median([1000 / 1.5, 1000 / 2.0]))
    per_stream = found["web: memory per Watch stream at 4,000"]
    assert (per_stream.value, per_stream.reference_value) == (50.0, 50.0)
    assert per_stream.met is True


def test_the_lobby_figures_compare_each_call_round_by_round() -> None:
    from bench.bench_lobby import LobbyRound  # noqa: PLC0415
    from bench.bench_lobby import figures as lobby_figures  # noqa: PLC0415

    rounds = [
        LobbyRound({"gRPC": (4.0, 9.0), "Connect JSON": (6.0, 9.0), "CreateMatch": (3.0, 0.0)}),
        LobbyRound({"gRPC": (5.0, 12.0), "Connect JSON": (5.0, 18.0), "CreateMatch": (5.0, 0.0)}),
    ]
    found = {figure.name: figure for figure in lobby_figures(rounds)}
    opened = found["lobby: OpenChallenge p50, gRPC"]
    assert (opened.value, opened.reference_value) == (4.5, 4.0)
    assert opened.pairs == (4.0 / 3.0, 1.0)
    filled = found["lobby: TakeSeat filling the table p50, gRPC"]
    assert filled.pairs == (3.0, 12.0 / 5.0) and filled.ratio == (3.0 + 2.4) / 2
    json_fill = found["lobby: TakeSeat filling the table p50, Connect JSON"]
    assert json_fill.reference == "the same, gRPC" and json_fill.pairs == (1.0, 1.5)
    assert all(figure.target is None for figure in found.values())


def test_the_start_up_section_times_the_same_job_through_both_doors() -> None:
    """The plain command starts without Typer; the options of the other row send it to Typer."""
    assert plain_validate(["validate", "one.pb"]) is not None
    assert plain_validate(["validate", *THROUGH_TYPER, "one.pb"]) is None


def test_the_timed_archive_holds_the_same_games_with_times_on_every_move() -> None:
    games = list(generate("Aronda", {}, 3, seed=1))
    copies = [pb.GameRecord.FromString(game.SerializeToString()) for game in games]
    timed = list(bench_encodings.with_times(copies))
    again = list(
        bench_encodings.with_times(pb.GameRecord.FromString(g.SerializeToString()) for g in games)
    )
    assert timed == again  # seeded
    for game, with_times in zip(games, timed, strict=True):
        assert len(with_times.moves) == len(game.moves)
        stamps = [move.timestamp.seconds for move in with_times.moves]
        assert stamps == sorted(set(stamps))  # one move after another
        for plain, move in zip(game.moves, with_times.moves, strict=True):
            assert move.HasField("clock") and move.HasField("timestamp")
            move.ClearField("clock")
            move.ClearField("timestamp")
            assert move == plain


def test_the_annotated_archive_holds_the_same_main_lines_with_comments_glyphs_variations() -> None:
    games = list(generate("Oust", {}, 3, seed=1))
    copies = [pb.GameRecord.FromString(game.SerializeToString()) for game in games]
    annotated = list(bench_encodings.with_annotations(copies))
    for game, shaped in zip(games, annotated, strict=True):
        assert sum(bool(move.comment) for move in shaped.moves) == (len(game.moves) + 1) // 5
        assert sum(bool(move.glyph) for move in shaped.moves) == (len(game.moves) + 4) // 7
        assert sum(len(move.variations) for move in shaped.moves) == 2
        for plain, move in zip(game.moves, shaped.moves, strict=True):
            move.ClearField("comment")
            move.ClearField("glyph")
            move.ClearField("variations")
            assert move == plain


def test_the_sealed_archive_holds_the_same_games_sealed_with_fixed_keys() -> None:
    games = list(generate("ONE", {"Players": "3"}, 2, seed=1))
    sealed = list(
        bench_encodings.with_seals(pb.GameRecord.FromString(g.SerializeToString()) for g in games)
    )
    again = list(
        bench_encodings.with_seals(pb.GameRecord.FromString(g.SerializeToString()) for g in games)
    )
    assert sealed == again
    for game, record in zip(games, sealed, strict=True):
        assert record.HasField("seal") and len(record.seal.plies) == len(game.moves)
        assert len(record.seal.seat_keys) == 3 and record.seal.host_key
        record.ClearField("seal")
        assert record == game
