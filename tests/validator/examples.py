"""Worked examples of the rules documents as records, shared by the validator's tests."""

from __future__ import annotations

from gamerec.recorder.codecs import Encoding, decode_record
from gamerec.v1 import record_pb2 as pb

# ONE E3 (docs/rules/one.md §9): 3 seats on board 6,6; ends at ply 12 with 4-2-4, seats 1
# and 3 first.
E3_MOVES = "1. a1 2. a2 3. b1 4. a1xa3 5. b3 6. b2 7. a4 8. a2 9. a6 10. b5 11. b4 12. b6"
# Oh-Wah-Ree E1 (docs/rules/ohwahree.md §9): unfinished after 6 plies, 20-28.
E1_OWR = "1. 1 2. 7 3. 2 4. 9 5. 3 6. 8"


def grn(text: str) -> pb.GameRecord:
    return decode_record(text.encode(), Encoding.GRN)


def one_e3(tags: str = "", moves: str = E3_MOVES) -> pb.GameRecord:
    return grn(f'[Game "ONE"]\n[Players "3"]\n[Board "6,6"]\n{tags}\n{moves}\n')


def owr_e1(tags: str = "", moves: str = E1_OWR) -> pb.GameRecord:
    return grn(f'[Game "Oh-Wah-Ree"]\n[Players "2"]\n{tags}\n{moves}\n')
