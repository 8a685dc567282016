"""The built-in policies as engines, driven line by line in this process (no pipes)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamerec.validator.builder import RecordBuilder
from gamerec.validator.games import engine, game_names
from gamerec.validator.judge import validate
from gamerec.validator.players.lines import NewGame
from gamerec.validator.players.policy_engine import PolicyEngine, serve


def _started(policy: str, seed: int, game: str, variant: dict[str, str], seat: int) -> PolicyEngine:
    player = PolicyEngine(policy, seed)
    assert player.answer("gep 1")[-1] == "gepok 1"
    assert player.answer(NewGame.of(game, variant, seat).line()) == ["ready"]
    return player


def _move(player: PolicyEngine, moves: list[str]) -> list[str]:
    assert player.answer(" ".join(["position", *moves])) == []
    return player.answer("go movetime 1000")


def test_the_handshake_names_the_policy_and_every_game() -> None:
    answers = PolicyEngine("greedy", 7).answer("gep 1")
    assert answers[:2] == ["id name gamerec greedy (seed 7)", "id author the gamerec authors"]
    assert answers[2].startswith("id version ")
    assert answers[3:] == [*(f"game {name}" for name in game_names()), "gepok 1"]


@pytest.mark.parametrize(
    ("game", "variant"),
    [
        ("ONE", {"Players": "3", "Board": "6,6"}),
        ("Aronda", {"Players": "2"}),
        ("Oust", {"Players": "2", "Board": "4"}),
        ("Oh-Wah-Ree", {"Players": "4", "Direction": "free"}),
    ],
)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_every_answer_is_legal_and_a_whole_game_validates(
    game: str, variant: dict[str, str], policy: str
) -> None:
    seats = int(variant["Players"])
    players = [_started(policy, seat, game, variant, seat) for seat in range(1, seats + 1)]
    builder = RecordBuilder(game, variant)
    moves: list[str] = []
    while not builder.is_over and builder.plies < 2_000:
        answers = _move(players[builder.to_move - 1], moves)
        token = answers[-1].removeprefix("move ")
        builder.play(token)  # raises if the policy chose an illegal move
        moves.append(token)
        if policy == "greedy":
            assert answers[0].startswith("info depth 1 score ")
            assert answers[0].endswith(f" pv {token}")
    assert builder.is_over
    assert validate(builder.record).valid


def test_the_same_seed_and_position_give_the_same_move_in_a_fresh_engine() -> None:
    variant = {"Players": "2", "Board": "5"}
    rules = engine("Oust")
    rng = random.Random(3)
    state = rules.new_game(rules.variant_from_tags(variant))
    moves: list[str] = []
    first = _started("greedy", 11, "Oust", variant, 1)
    second = _started("greedy", 11, "Oust", variant, 2)
    for _ in range(8):
        seat = state.to_move
        player = first if seat == 1 else second
        answer = _move(player, moves)
        fresh = _move(_started("greedy", 11, "Oust", variant, seat), moves)
        assert answer == fresh
        move = rules.play_chosen(state, lambda _, options: rng.choice(options))
        moves.append(rules.format_move(rules.variant_from_tags(variant), move))
        if state.is_over:
            break


def test_seeds_make_different_players() -> None:
    variant = {"Players": "2"}
    answers = {
        _move(_started("random", seed, "Oh-Wah-Ree", variant, 1), [])[-1] for seed in range(12)
    }
    assert len(answers) > 1


def test_a_position_that_does_not_extend_the_last_one_is_read_from_the_start() -> None:
    variant = {"Players": "2", "Board": "6,6"}
    player = _started("greedy", 1, "ONE", variant, 1)
    _move(player, ["a1", "a2"])
    rewound = _move(player, ["a4", "a5"])
    assert rewound == _move(_started("greedy", 1, "ONE", variant, 1), ["a4", "a5"])


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        (["go"], "error go before newgame"),
        (["position a1"], "error position before newgame"),
        (["newgame Game=Chess Players=2 Seat=1"], "error newgame: unknown game 'Chess'"),
        (
            ["newgame Game=ONE Players=2 Bord=6,6 Seat=1"],
            "error newgame: ONE has no variant option 'Bord'; its options: Players, Board, Mirror, "
            "Tiebreak",
        ),
        (
            ["newgame Game=ONE Players=2 Board=6,6 Seat=1", "position a1 a1"],
            "error position: ply 2 'a1': OCCUPIED",
        ),
        (
            ["newgame Game=ONE Players=2 Board=6,6 Seat=1", "position a1 zz", "go"],
            "error go without a valid position (position: ply 2 'zz'",
        ),
        (
            ["newgame Game=ONE Players=2 Board=6,6 Seat=2", "position", "go"],
            "error go, but seat 1 is to move, not seat 2",
        ),
        (["hello"], "error unknown command 'hello'"),
    ],
)
def test_what_the_engine_cannot_do_is_answered_with_error(lines: list[str], error: str) -> None:
    player = PolicyEngine("random")
    answers: list[str] = []
    for line in ["gep 1", *lines]:
        answers = player.answer(line)
    assert answers[-1].startswith(error), answers


def test_serve_answers_until_quit_and_ignores_the_rest() -> None:
    written: list[str] = []
    lines = ["gep 1\n", "ping a\r\n", "\n", "quit\n", "ping b\n"]
    serve("random", 1, lines, written.append)
    assert written[0].startswith("id name gamerec random (seed 1)\n")
    assert written[0].endswith("\ngepok 1\n")
    assert written[1:] == ["pong a\n"]


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy 'best'"):
        PolicyEngine("best")


def test_play_chosen_plays_one_whole_ply_of_every_game() -> None:
    cases: list[tuple[str, dict[str, Any]]] = [
        ("ONE", {"Players": "2", "Board": "6,6"}),
        ("Aronda", {}),
        ("Oust", {"Board": "4"}),
        ("Oh-Wah-Ree", {"Players": "3"}),
    ]
    for game, tags in cases:
        rules = engine(game)
        variant = rules.variant_from_tags(tags)
        chooser = _random_chooser(random.Random(5))
        chosen = rules.new_game(variant)
        replayed = rules.new_game(variant)
        while not chosen.is_over:
            ply = chosen.ply
            move = rules.play_chosen(chosen, chooser)
            assert chosen.ply == ply + 1
            replayed.play(move)  # the same ply, whole, from the same position
            assert replayed.digest() == chosen.digest()


def _random_chooser(rng: random.Random) -> Any:
    def choose(state: Any, options: list[Any]) -> Any:
        return rng.choice(options)

    return choose
