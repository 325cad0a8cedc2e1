"""Speed of the bots and the environment: `python bench/bots.py [seconds] [rounds]` (a second or so per figure).

Prints, per family: random self-play games per second through `diamonds.Position` (a random legal move
from `legal_moves` at each decision, deals through `deal`) and its decisions per second, the same through
the PettingZoo environment (a random id of the action mask, the observation of the agent to move built at
every step) as steps per second and their ratio to `Position`'s decisions per second (issue 32 asks for at
least 0.5), and `mc` decisions per second (16 samples per decision, the other seats greedy).

Then the yardsticks, each run in the same loop as its pair, one after the other (the `bench` extra):
`Position` decisions per second beside OpenSpiel's C++ `hearts` and `oh_hell` driven through pyspiel
(`legal_actions`, a random one, `apply_action`; chance nodes sampled from `chance_outcomes` and not
counted), and `diamonds.env` steps per second beside PettingZoo's `texas_holdem_v4` (rlcard's engine).

Then the exact solver (`diamonds.bots.solver`) as
`diamonds analyse` meets it: random deals played at random to the first decision with four tricks left, then
`exact` at every decision until one is solved within the default budget: the seconds that cost (failed tries
included), the work searched (`Solver.nodes`: a decision counts 1 on a family's fast `Endgame`, 5 through
`apply`), and how many cards were held when it succeeded (a full four tricks is 4 x the plays per trick)."""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Any

import diamonds
from diamonds.bots import make_bot
from diamonds.bots.solver import MAX_TRICKS, Solver, exact, held, tricks_left
from diamonds.core.simulate import default_names

TABLES = [("2e", 4), ("1e", 3), ("bga", 2), ("kirk", 4), ("bidding", 3)]
SOLVER_TABLES = [*TABLES, ("2e", 5), ("2e", 6), ("bga", 5)]  # five and six players: the solver's biggest trees


def position_games(rules: str, players: int, seconds: float) -> tuple[float, float]:
    """Games and decisions (moves less deals) per second of random playouts through `Position`."""
    rng, games, decisions, spent = random.Random(1), 0, 0, 0.0
    for timed in (False, True):  # one game first, untimed: the family's modules are imported on first use
        start = time.perf_counter()
        while not timed or time.perf_counter() - start < seconds:
            pos = diamonds.Position(rules, default_names(players), dealer=0)
            while not pos.is_over:
                if pos.is_chance:
                    pos.deal(rng)
                else:
                    pos.push(rng.choice(pos.legal_moves))
                    decisions += timed
            games += timed
            if not timed:
                break
        spent = time.perf_counter() - start
    return games / spent, decisions / spent


def aec_games(env: Any, seconds: float) -> tuple[float, float]:
    """Games and steps per second of a PettingZoo AEC environment, a random legal id at every step (the
    observation of the agent to move, and its mask, made at every step)."""
    import numpy as np

    rng = random.Random(1)
    games, steps, spent = 0, 0, 0.0
    for timed in (False, True):  # one game first, untimed (imports, first-use caches)
        start = time.perf_counter()
        while not timed or time.perf_counter() - start < seconds:
            env.reset(seed=games)
            for _agent in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                else:
                    env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += timed
            games += timed
            if not timed:
                break
        spent = time.perf_counter() - start
    return games / spent, steps / spent


def env_games(rules: str, players: int, seconds: float) -> tuple[float, float]:
    return aec_games(diamonds.env(rules, players), seconds)


def spiel_decisions(name: str, seconds: float) -> float:
    """Decisions per second of an OpenSpiel game through pyspiel: a random legal action at each decision,
    chance outcomes sampled by their probabilities (not counted)."""
    import pyspiel

    game, rng = pyspiel.load_game(name), random.Random(1)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / (time.perf_counter() - start)


def yardsticks(seconds: float) -> None:
    """Each figure beside its yardstick, measured one after the other in this process (module docstring)."""
    print(f"\n{'pair':<40} {'ours/s':>9} {'yardstick/s':>12} {'ratio':>6}")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("(no open-spiel: pip install '.[bench]')")
    else:
        for (rules, players), name in [(("kirk", 4), "hearts"), (("2e", 4), "hearts"), (("bidding", 3), "oh_hell"),
                                       (("kirk", 4), "oh_hell")]:
            _, ours = position_games(rules, players, seconds)
            theirs = spiel_decisions(name, seconds)
            print(f"{f'Position {rules} | pyspiel {name}':<40} {ours:9.0f} {theirs:12.0f} {ours / theirs:6.2f}")
    try:
        from pettingzoo.classic import texas_holdem_v4
    except ImportError as error:
        print(f"(no PettingZoo classic games: {error}; pip install 'pettingzoo[classic]')")
        return
    for rules, players in [("kirk", 4), ("2e", 4), ("bidding", 3)]:
        _, ours = env_games(rules, players, seconds)
        _, theirs = aec_games(texas_holdem_v4.env(), seconds)
        print(f"{f'diamonds.env {rules} | texas_holdem_v4':<40} {ours:9.0f} {theirs:12.0f} {ours / theirs:6.2f}")


def mc_decisions(rules: str, players: int, seconds: float) -> float:
    rng = random.Random(2)
    mc, greedy = make_bot("mc:16", seed=1), make_bot("greedy", seed=1)
    decisions, spent = 0, 0.0
    while spent < seconds:
        pos = diamonds.Position(rules, default_names(players), dealer=0)
        while not pos.is_over and spent < seconds:
            if pos.is_chance:
                pos.deal(rng)
                continue
            seat = pos.to_move_seat
            view = pos.view(seat)
            if seat == 0 and len(view.legal_moves) > 1:
                start = time.perf_counter()
                move = mc.choose(view)
                spent += time.perf_counter() - start
                decisions += 1
            else:
                move = greedy.choose(view)
            pos.push(move)
    return decisions / spent


def solver_round(rules: str, players: int, seed: int) -> tuple[float, int, int]:
    """Seconds, decisions searched and cards held at the first exact solution of one round (see the module)."""
    rng = random.Random(seed)
    pos = diamonds.Position(rules, default_names(players), dealer=0)
    pos.deal(rng)
    while tricks_left(pos.rule_set, pos.state) > MAX_TRICKS or len(pos.legal_moves) < 2:
        pos.push(rng.choice(pos.legal_moves))
    solver = Solver(pos.rule_set)
    start = time.perf_counter()
    while not pos.is_chance and not pos.is_over:
        if len(pos.legal_moves) > 1 and exact(pos, solver) is not None:
            return time.perf_counter() - start, solver.nodes, held(pos.rule_set, pos.state)
        pos.push(rng.choice(pos.legal_moves))
    return time.perf_counter() - start, solver.nodes, 0


def solver_figures(rounds: int) -> None:
    print(f"\n{'rules':<8} {'players':>7} {'solve s/round':>14} {'work':>10} {'work/s':>12} {'cards held':>11}")
    for rules, players in SOLVER_TABLES:
        runs = [solver_round(rules, players, seed) for seed in range(rounds)]
        seconds = sum(run[0] for run in runs) / rounds
        nodes = sum(run[1] for run in runs) / rounds
        cards = " ".join(str(run[2]) for run in runs)
        print(f"{rules:<8} {players:>7} {seconds:14.2f} {nodes:10.0f} {nodes / seconds:12.0f} {cards:>11}")


def load() -> str:
    """The machine's load, printed beside the figures (a loaded machine gives lower, noisier figures)."""
    return "load average (1, 5, 15 min): " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{load()} on {os.cpu_count()} cores")
    print(f"{'rules':<8} {'players':>7} {'Position games/s':>17} {'ms/game':>8} {'decisions/s':>12} "
          f"{'env games/s':>12} {'env steps/s':>12} {'steps/dec':>10} {'mc decisions/s':>15}")
    for rules, players in TABLES:
        games, decisions = position_games(rules, players, seconds)
        try:
            env_game_rate, steps = env_games(rules, players, seconds)
            env = f"{env_game_rate:12.1f} {steps:12.0f} {steps / decisions:10.2f}"
        except ImportError:
            env = f"{'(no rl extra)':>12} {'':>12} {'':>10}"
        mc = mc_decisions(rules, players, seconds)
        print(f"{rules:<8} {players:>7} {games:17.1f} {1000 / games:8.2f} {decisions:12.0f} {env} {mc:15.1f}")
    yardsticks(seconds)
    solver_figures(int(sys.argv[2]) if len(sys.argv) > 2 else 3)
    print(load())


if __name__ == "__main__":
    main()
