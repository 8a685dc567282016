"""Game-tree search over the engines' protocol: MCTS, alpha-beta, paranoid and max-n.

What it holds:

- :mod:`.core`: the limits of a search (time, nodes, playouts), its result, and the values of
  a finished or stopped position (each seat's reward and score lead) read off the rules;
- :mod:`.mcts`: Monte Carlo tree search (UCT) for every game and seat count, root parallel
  over processes when asked;
- :mod:`.alphabeta`: alpha-beta with a transposition table and iterative deepening, for two
  seats (minimax) and for 3-6 seats (paranoid: every other seat plays against the mover);
- :mod:`.maxn`: max-n for 3-6 seats (each seat maximises its own value; no pruning).

What it may import: the engines' protocol (``gamerec.validator.games.protocol``) and the
standard library, nothing else. It holds no rule of any game: moves, their effects, the end,
scores and winners all come from a :class:`~gamerec.validator.games.protocol.GameState`.
What a search values beyond the rules' end (a position's heuristic value, an exact endgame
answer) is a function its caller passes in (:data:`.core.Evaluate`, :data:`.core.Exact`):
each game's lives in its registry entry, never in a branch here.
"""
