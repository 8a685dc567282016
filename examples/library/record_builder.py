"""Write a record while the game is played: python examples/library/record_builder.py.

Every ply is checked at once; a refused ply raises IllegalPlyError with the finding validate
would give, and leaves the record as it was. Once the game is over by its rules, the record
claims the rules' result.
"""

import gamerec

game = gamerec.RecordBuilder("ONE", {"Players": 3, "Board": "6,6"}, seats=["Ana", "Ben", "Chi"])
for ply in ["a1", "a2", "b1", "a1xa3", "b3", "b2", "a4", "a2", "a6", "b5"]:
    game.play(ply)
try:
    game.play("a4")
except gamerec.IllegalPlyError as error:
    print(error)
game.play("b4")
game.play("b6", comment="the round is complete")
print(game.is_over, list(game.record.result.scores.values), gamerec.validate(game.record).valid)
