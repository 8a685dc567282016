"""How verdicts, results and rulings look on the terminal and as JSON.

The JSON forms are the ProtoJSON of the very messages the library and the service return,
with every field present. The render functions run in worker processes too, so they are
plain module-level functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamerec.recorder.notation import game_label
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb

if TYPE_CHECKING:
    from google.protobuf.message import Message

STATUS_WORDS = {
    vpb.GAME_STATUS_FINISHED: "finished",
    vpb.GAME_STATUS_UNFINISHED: "unfinished",
    vpb.GAME_STATUS_NOT_REPLAYED: "not replayed",
}
TERMINATIONS = {
    value: pb.Termination.Name(value).removeprefix("TERMINATION_").lower()
    for value in pb.Termination.values()
}
DECISIONS = {
    value: vpb.Decision.Name(value).removeprefix("DECISION_").lower()
    for value in vpb.Decision.values()
}


def message_json(message: Message) -> str:
    """One line of ProtoJSON with every field present (the service's exact message)."""
    import orjson  # loaded for --json only (start-up)
    from google.protobuf import json_format

    as_dict = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    return orjson.dumps(as_dict).decode()


def render_verdict_json(verdict: vpb.Verdict) -> str:
    """A verdict as one JSON line."""
    return message_json(verdict)


def render_verdict_text(verdict: vpb.Verdict) -> str:
    """A verdict as a headline and one indented line per finding.

    ``one.grn #1: valid  ONE  12 plies  finished  result 4-2-4  winners 1,3``
    """
    game = game_label(verdict.game)
    word = "valid" if verdict.valid else "INVALID"
    parts = [
        f"{verdict.source} #{verdict.record_number}: {word}",
        game,
        f"{verdict.plies_replayed} plies",
        STATUS_WORDS.get(verdict.status, "?"),
        result_text(verdict.result),
    ]
    lines = ["  ".join(part for part in parts if part)]
    lines += [f"  {finding_text(finding, verdict.source)}" for finding in verdict.errors]
    return "\n".join(lines)


def finding_text(finding: vpb.Finding, source: str = "") -> str:
    """``ply 7, seat 1, c7xa5: NOT_A_JUMP: <sentence>`` (record-level findings: no place).

    A finding placed in a text input starts with ``file:line:column:``, as compilers write
    it, so editors jump to the ply: ``game.grn:9:4: ply 7, seat 1, c7xa5: ...``.
    """
    place = []
    if finding.ply:
        place.append(f"ply {finding.ply}")
    if finding.seat:
        place.append(f"seat {finding.seat}")
    if finding.move:
        place.append(finding.move)
    prefix = ", ".join(place) + ": " if place else ""
    if finding.line and source:
        prefix = f"{source}:{finding.line}:{finding.column}: {prefix}"
    return f"{prefix}{finding.code}: {finding.message}"


def result_text(result: vpb.ComputedResult) -> str:
    """``result 4-2-4  winners 1,3`` or ``standing 5-1-1 (provisional)``."""
    scores = "-".join(str(score) for score in result.scores)
    if not scores:
        return ""
    text = f"standing {scores} (provisional)" if result.provisional else f"result {scores}"
    if result.winners:
        label = "winner" if len(result.winners) == 1 else "winners"
        text += f"  {label} " + ",".join(str(seat) for seat in result.winners)
    if result.termination:
        text += f"  {TERMINATIONS[result.termination]}"
    return text
