"""The finding codes the referee writes beyond each engine's own reason codes.

Each engine declares the codes of the moves its rules refuse (``Engine.reason_codes``, with
the sections they cite in ``Engine.citations``); the codes here are about the record as a whole
or a ply no engine move can stand for (``judge``, ``identity``, ``moves``), and about seals and
signatures (``seal_check``, ``verification``). The docs' reference of finding codes is made
from these tables and the engines' (docs/reference/findings.md), and ``tests/test_finding_codes``
checks that every code the validator writes is in one of them and that each one here is written
somewhere.
"""

from __future__ import annotations

from typing import Final, NamedTuple


class FindingCode(NamedTuple):
    """What a finding code means and which part of a game's rules text its sentence cites.

    Attributes:
        meaning: when the referee writes it, in one line.
        cites: the ``GameEntry.citation`` section the sentence cites (``end``, ``score``,
            ``ranking``, ``terminations``; several joined by ``+``), or ``""`` for none.
    """

    meaning: str
    cites: str = ""


#: Findings about the record as a whole or about a ply that no engine move can stand for.
RECORD_CODES: Final[dict[str, FindingCode]] = {
    "UNKNOWN_GAME": FindingCode("the record names no game this version knows"),
    "IMPOSSIBLE_VARIANT": FindingCode(
        "a missing or impossible rule option (more seats than the game allows, a board too "
        "small, an option of another game); the sentence cites the game's rules"
    ),
    "SEAT_COUNT_MISMATCH": FindingCode(
        "the record lists another number of seats than its variant has players"
    ),
    "EMPTY_MOVE": FindingCode("a ply with no action: no move was recorded"),
    "MOVE_OF_OTHER_GAME": FindingCode("a ply holding a move of another game"),
    "MALFORMED_MOVE": FindingCode(
        "a ply the game does not have (a pass where the rules have none) or whose places have "
        "no name"
    ),
    "RECORD_ENDS_EARLY": FindingCode(
        "the record stops before the end, yet claims a normal end, a resignation, scores or "
        "a winner",
        "end+terminations",
    ),
    "RESULT_MISMATCH": FindingCode(
        "the claimed scores (or an unfinished claim) differ from the rules' result", "score"
    ),
    "WINNER_MISMATCH": FindingCode("the claimed winners differ from the rules'", "ranking"),
    "TERMINATION_MISMATCH": FindingCode(
        "the claimed termination differs from how the game ended by its rules", "terminations"
    ),
}

#: Findings of ``verify`` (and of ``validate``'s seal check) about a record's seal.
SEAL_CODES: Final[dict[str, FindingCode]] = {
    "NOT_SEALED": FindingCode("the record carries no seal (verify only)"),
    "SEAL_MALFORMED": FindingCode(
        "an unknown seal version, a head, key or signature of the wrong length, more keys than "
        "seats, a signature by a signer with no key or twice over one head"
    ),
    "SEAL_BROKEN": FindingCode(
        "the first place (the identity, a ply, the result) where the record no longer gives "
        "the sealed head"
    ),
    "SIGNATURE_INVALID": FindingCode(
        "a signature over an intact head that its signer's key did not make"
    ),
    "NO_KEY": FindingCode("a seat with no key in the seal: nothing proves it agreed"),
    "UNSIGNED_PLIES": FindingCode(
        "a signer whose signatures stop before the end (the ply is the first it did not sign)"
    ),
    "UNSIGNED_RESULT": FindingCode("a signer that signed every ply but not the final head"),
    "UNTRUSTED_KEY": FindingCode("a signer's key is not among the trusted keys"),
}
