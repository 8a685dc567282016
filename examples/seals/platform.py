"""A tournament platform records a game, sealed and signed as it is played (docs/seals.md).

The platform holds its own key (the host) and Ana's (she plays on the platform's own client);
Ben plays from his own device, which signs the head after each of his plies and sends the
signature back. Ben's device stops signing after ply 40 (he plays on from a browser that
cannot sign); his clock runs out after ply 45, and the platform writes the record. Run from
the folder holding the key files (``ana``, ``ben.pem``, ``platform``; see docs/signing.md,
"From keys to a ruling")::

    python examples/seals/platform.py dispute.grn
"""

from __future__ import annotations

import sys

import gamerec
from gamerec.recorder.notation import format_action
from gamerec.recorder.seal import ply_message

ana = gamerec.load_private_key("ana")
ben = gamerec.load_private_key("ben.pem")  # on Ben's device: the platform never sees it
platform = gamerec.load_private_key("platform")
ben_public = gamerec.load_public_key("ben.pub.pem")

(played,) = gamerec.generate("ONE", {"Players": "2"}, count=1, seed=7)
game = gamerec.RecordBuilder(
    "ONE",
    {"Players": 2},
    seats=["Ana", "Ben"],
    signing_keys={1: ana, 0: platform},
    public_keys={2: ben_public},
    event="Club night",
    round="3",
)
for ply, move in enumerate(played.moves[:45], start=1):
    mover = game.to_move
    game.play(format_action(move, played.rules.game))
    if mover == 2 and ply <= 40:  # Ben's device signs the head after his ply
        head = game.record.seal.plies[ply - 1].head
        game.add_signature(ply, 2, ben.sign(ply_message(ply, head)))
game.stop("timeout", winners=[1])  # Ben, to move after ply 45, ran out of time
gamerec.write_records([game.record], sys.argv[1] if len(sys.argv) > 1 else "dispute.grn")
