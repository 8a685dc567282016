"""An engine on its own, without records: python examples/library/engine_alone.py."""

import gamerec

oust = gamerec.engine("oust")  # any spelling: "Oust", "OUST"
variant = oust.variant_from_values({"Board": 3})
state = oust.new_game(variant)
print("first moves:", [oust.format_move(variant, move) for move in state.legal_moves()][:6])
for token in ["c1", "e2"]:
    move = oust.parse_move(variant, token)
    assert state.check(move) is None  # the reason it is illegal, or None
    state.play(move)
print("to move: seat", state.to_move, "| scores:", state.scores(), "| over:", state.is_over)
print(oust.perft(variant, 2), "games two plies deep")
