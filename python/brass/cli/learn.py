"""`brass learn`: train a policy-value network by self-play (docs/learning.md). The trainer is `brass.learn`
(the `learn` extra: JAX is imported only when a run starts); a `LearnError` is reported as one line like every
other mistake."""

from __future__ import annotations

import argparse
import os
from typing import Any

from brass.cli._common import UserError, add_configuration_arguments, options


def add_parser(sub: Any) -> None:
    """Add `brass learn` to the command line's subcommands (its defaults are `LearnConfig`'s, so the package is
    imported here; JAX only when a run starts)."""
    from brass.learn import LearnConfig

    p = sub.add_parser("learn", help="train a policy-value network by self-play (needs '.[learn]'; docs/learning.md)")
    add_configuration_arguments(p, players=2)
    p.add_argument("--out", required=True, metavar="DIR", help="the run's folder (config, log, networks)")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out, with its configuration (a --game, --players or --option that differs from "
        "it is refused); --minutes and --iterations may be raised: they count the run in all, not this session",
    )
    # No defaults here: a resumed run keeps its own configuration, and a new one gets lancashire at 2 players.
    p.set_defaults(game=None, players=None)
    defaults = LearnConfig()
    p.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="stop once the run has taken this many minutes of wall time in all: with --resume, the run's total "
        "budget counted across resumes, not minutes more (default: no limit)",
    )
    p.add_argument(
        "--iterations",
        type=int,
        default=None,
        help=f"stop after the run's iteration ITERATIONS (with --resume too: a total) (default {defaults.iterations})",
    )
    for name, kind in (
        ("games_per_iteration", int),
        ("simulations", int),
        ("parallel", int),
        ("steps_per_iteration", int),
        ("batch_size", int),
        ("learning_rate", float),
        ("decay_iterations", int),
        ("final_learning_rate", float),
        ("buffer", int),
        ("warm_start_games", int),
        ("warm_start_steps", int),
        ("eval_every", int),
        ("eval_deals", int),
        ("eval_simulations", int),
        ("seed", int),
        ("considered", int),
        ("c_visit", float),
        ("c_scale", float),
        ("full_search_fraction", float),
        ("fast_simulations", int),
        ("value_weight", float),
        ("aux_weight", float),
        ("warm_start_sample_rate", float),
        ("value_margin", float),
        ("value_sample_rate", float),
        ("policy_surprise", float),
    ):
        flag = "--" + name.replace("_", "-")
        p.add_argument(flag, type=kind, default=None, help=f"(default {getattr(defaults, name)})")
    p.add_argument("--widths", type=int, nargs="+", default=None, help=f"hidden layers (default {defaults.widths})")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="self-play on a Ray cluster at ADDRESS (the ray extra); alone: one started on this machine",
    )
    p.add_argument(
        "--search", choices=("gumbel", "puct"), default=None, help=f"the self-play search (default {defaults.search})"
    )
    p.add_argument(
        "--no-rescale",
        dest="rescale",
        action="store_false",
        default=None,
        help="Gumbel: keep completed Q-values on their own scale (default: rescaled per node)",
    )
    p.add_argument(
        "--eval-anchors",
        nargs="+",
        default=None,
        metavar="AGENT",
        help=f"the arena's fixed anchors, greedy always among them (default {' '.join(defaults.eval_anchors)})",
    )
    p.add_argument(
        "--policy-target",
        choices=("visits", "completed_q"),
        default=None,
        help=f"the policy target (default {defaults.policy_target})",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """`brass learn`: a new run in `--out`, or the run there resumed; the exit code."""
    from brass.learn import LearnConfig, Trainer, stored_config

    chosen = {k: v for k, v in vars(args).items() if k in LearnConfig.__dataclass_fields__ and v is not None}
    if args.resume:
        check_same_configuration(stored_config(args.out), args)
        trainer = Trainer(args.out, resume=True)
    else:
        args.game, args.players = args.game or "lancashire", args.players or 2
        settings = {k: v for k, v in chosen.items() if k not in ("game", "players", "options")}
        config = LearnConfig(game=args.game, players=args.players, options=options(args), **settings)
        config.check()  # a bad configuration is reported before the folder is made
        trainer = Trainer(args.out, config)
    if args.resume:  # a resumed run may be given a new budget
        trainer.change_budget(args.minutes, args.iterations, args.ray)
    trainer.run()
    print(f"network: {trainer.net_path} (brass.agents.Net / NetMCTS); log: {os.path.join(args.out, 'log.csv')}")
    return 0


def check_same_configuration(stored: Any, args: argparse.Namespace) -> None:
    """Refuse to resume a run with another game, player count or options than its own (the run would go on
    with its own, silently); what is not given is the run's."""
    game = args.game or stored.game
    chosen = options(argparse.Namespace(game=game, option=args.option)) if args.option else stored.options
    asked = {"game": game, "players": args.players or stored.players, "options": chosen}
    have = {"game": stored.game, "players": stored.players, "options": stored.options}
    if asked != have:
        raise UserError(
            f"{args.out} holds a run of {_configuration(have)}; this command asks for {_configuration(asked)}: "
            "leave out --game, --players and --option to resume the run, or give another --out for a new one"
        )


def _configuration(c: dict[str, Any]) -> str:
    """`birmingham, 2 players, options intro` (or `no options`)."""
    on = ", ".join(f"{k}={v}" if v is not True else k for k, v in sorted(c["options"].items()))
    return f"{c['game']}, {c['players']} players, " + (f"options {on}" if on else "no options")
