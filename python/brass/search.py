"""The search a policy-value network guides (AlphaZero-style PUCT for hidden information), and self-play with
it (docs/learning.md).

    >>> from brass import agents, search
    >>> net = agents.Net("birmingham-2p.safetensors")           # or any callable evaluator, below
    >>> for played in search.SearchGames(net.game, net, games=8, simulations=64, parallel=8):
    ...     played.samples["policy"]                            # the visit distribution of each decision

An evaluator is an `agents.Net` (evaluated natively, the GIL released) or any callable
`(observations float32[B, observation_size], masks bool[B, num_actions]) -> (logits [B, num_actions],
values [B, players])`, so any framework can evaluate the leaves; values are relative to each leaf's player to
move (index 0 is that player, then the next seats in turn), as `relative_returns` gives the targets.
"""

from __future__ import annotations

import numpy as np

from brass._brass import search as _native

SearchGames = _native.SearchGames
SearchGame = _native.SearchGame
analyse = _native.analyse


def relative_returns(returns: np.ndarray, players: np.ndarray) -> np.ndarray:
    """Value targets as the network gives its values: each row's returns (absolute seats, `rows × n`) turned
    to the view of the row's player (`players`): column k is seat `(player + k) mod n`."""
    returns = np.asarray(returns)
    n = returns.shape[1]
    columns = (np.asarray(players)[:, None] + np.arange(n)[None, :]) % n
    return np.take_along_axis(returns, columns, axis=1)


__all__ = ["SearchGame", "SearchGames", "analyse", "relative_returns"]
