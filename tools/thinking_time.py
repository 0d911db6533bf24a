"""Mean thinking time per decision of agents, on one thread, on the same positions (docs/strength.md).

    python tools/thinking_time.py --game birmingham --players 2 greedy mcts:1000 netmcts:64:birmingham-2p

The positions are those of `--games` all-Greedy games (seed `--seed`), every `--every`-th decision with a
choice; each agent decides each position once. Needs a release build for figures worth quoting.
"""

from __future__ import annotations

import argparse
import time

import brass
from brass import agents


def positions(game: brass.Game, games: int, seed: int, every: int) -> list[brass.State]:
    """Every `every`-th decision with more than one legal action of all-Greedy games."""
    found = []
    for played in agents.play_games(game, [agents.Greedy()] * game.players, games=games, seed=seed):
        state = game.new_state(seed=played.seed)
        for i, action in enumerate(played.actions):
            if i % every == 0 and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(action)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="birmingham")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("agents", nargs="+")
    args = parser.parse_args()
    game = brass.Game(args.game, players=args.players)
    found = positions(game, args.games, args.seed, args.every)
    print(f"{len(found)} positions of {args.games} Greedy games of {args.game} {args.players}p, one thread")
    for spec in args.agents:
        agent = agents.parse_agent(spec, game=game)
        start = time.perf_counter()
        for i, state in enumerate(found):
            agent.choose(state, seed=i)
        per = (time.perf_counter() - start) / len(found)
        print(f"{spec:32} {per * 1000:9.3f} ms per decision")


if __name__ == "__main__":
    main()
