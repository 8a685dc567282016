"""What the live-match tests share: requests, keys, and playing a match to its end in process."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gamerec.recorder.grn_tags import read_tag
from gamerec.recorder.seal import final_message, ply_message
from gamerec.recorder.signing import openssh_line, public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.clocks import NS_PER_SECOND, TEST_EPOCH, ManualClock
from gamerec.validator.live.match import Match, Outcome
from gamerec.validator.live.players import PolicyPlayer
from tests.sealing import key

#: Every game and every seat count it allows.
GAMES_AND_SEATS = (
    *(("ONE", seats) for seats in range(2, 7)),
    ("Aronda", 2),
    ("Oust", 2),
    *(("Oh-Wah-Ree", seats) for seats in (2, 3, 4)),
)
NAMES = ("Ana", "Ben", "Chi", "Dev", "Eli", "Fay")
HOST = key(0)


def rules(game: str, seats: int = 2, **options: str) -> pb.Rules:
    """The rules of ``game`` for ``seats`` players, with GRN variant tags."""
    record = pb.GameRecord()
    read_tag(record, "Game", game)
    if game in ("ONE", "Oh-Wah-Ree"):
        read_tag(record, "Players", str(seats))
    for tag, value in options.items():
        read_tag(record, tag, value)
    record.rules.SetInParent()
    return record.rules


def request(
    game: str,
    seats: int = 2,
    *,
    clock: str = "-",
    policy: mpb.IllegalMovePolicy.ValueType = mpb.ILLEGAL_MOVE_POLICY_REJECT,
    keyed: bool = True,
    start_at: float | None = None,
    **options: str,
) -> mpb.CreateMatchRequest:
    """A CreateMatch request; seat N's key is ``key(N)`` when ``keyed``.

    ``start_at``: the clocks' scheduled start, in seconds after the test clocks' epoch.
    """
    made = mpb.CreateMatchRequest(
        rules=rules(game, seats, **options),
        seats=[
            mpb.MatchSeat(name=NAMES[n], public_key=public_bytes(key(n + 1)) if keyed else b"")
            for n in range(seats)
        ],
        time_control=clock,
        illegal_move_policy=policy,
        event="Live test",
    )
    if start_at is not None:
        made.start_at.FromNanoseconds(round((TEST_EPOCH.timestamp() + start_at) * NS_PER_SECOND))
    return made


def new_match(
    game: str, seats: int = 2, *, clock: str = "-", **settings: object
) -> tuple[Match, ManualClock]:
    """A match in process on a manual clock, sealed by the host's key."""
    manual = ManualClock()
    made = request(game, seats, clock=clock, **settings)  # type: ignore[arg-type]
    return Match.create("m1", made, manual.now(), host_key=HOST, client="test"), manual


def moves_of(outcome: Outcome) -> list[mpb.MoveAccepted]:
    """The accepted plies among an outcome's events."""
    return [entry.event.move for entry in outcome.events if entry.event.HasField("move")]


def sign_ply(match: Match, accepted: mpb.MoveAccepted, clock: ManualClock) -> None:
    """The mover signs the head after its ply (as a seat's client does)."""
    signature = key(accepted.seat).sign(ply_message(accepted.ply, accepted.head))
    outcome = match.sign(accepted.seat, accepted.ply, signature, clock.now())
    assert outcome.finding is None, outcome.finding


def sign_result(match: Match, clock: ManualClock) -> None:
    """Every keyed seat signs the final head."""
    final = match.record.seal.final_head
    for seat in range(1, match.seats + 1):
        if match.seat_keys[seat - 1]:
            signature = key(seat).sign(final_message(final))
            assert match.sign(seat, 0, signature, clock.now()).finding is None


def play_out(
    match: Match,
    clock: ManualClock,
    *,
    policy: str = "random",
    seed: int = 0,
    think: float = 0.25,
    sign: bool = True,
) -> list[PolicyPlayer]:
    """Play the match to its end, each seat by ``policy``, ``think`` seconds a move."""
    players = [PolicyPlayer(match.record, policy, f"{seed}:{n}") for n in range(match.seats)]
    for token in _plies_so_far(match):
        for player in players:
            player.played(token)
    while match.is_open:
        seat = match.to_move
        clock.advance(think)
        outcome = match.play(seat, match.plies + 1, players[seat - 1].next_ply(), clock.now())
        assert outcome.finding is None and outcome.refusal is None, outcome
        for accepted in moves_of(outcome):
            for player in players:
                player.played(accepted.token)
            if sign and not accepted.by_referee and match.seat_keys[accepted.seat - 1]:
                sign_ply(match, accepted, clock)
    if sign:
        sign_result(match, clock)
    return players


def _plies_so_far(match: Match) -> list[str]:
    return [e.event.move.token for e in match.events if e.event.HasField("move")]


def trust_folder(folder: Path, seats: Sequence[int]) -> Path:
    """A folder of the trusted keys: the host's and the seats'."""
    folder.mkdir(parents=True, exist_ok=True)
    for seed in (0, *seats):
        (folder / f"key{seed}.pub").write_text(openssh_line(public_bytes(key(seed))) + "\n")
    return folder
