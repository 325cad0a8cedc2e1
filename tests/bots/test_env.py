"""The PettingZoo environment passes PettingZoo's own API and seed tests, for every family."""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("pettingzoo")
import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import diamonds  # noqa: E402
from diamonds.bots.env import DiamondsEnv  # noqa: E402

SETUPS = [("kirk", 4, {"Hands": "1"}), ("2e", 4, None), ("1e", 3, None), ("2e", 2, None), ("bidding", 3, None)]


@pytest.mark.parametrize("rules,players,options", SETUPS, ids=[s[0] + str(s[1]) for s in SETUPS])
def test_api(rules, players, options) -> None:
    api_test(DiamondsEnv(rules, players, options=options), num_cycles=300)


@pytest.mark.parametrize("rules,players,options", SETUPS, ids=[s[0] + str(s[1]) for s in SETUPS])
def test_seed(rules, players, options) -> None:
    seed_test(functools.partial(DiamondsEnv, rules, players, options=options), num_cycles=100)


@pytest.mark.parametrize("reward", ["score", "win"])
@pytest.mark.parametrize("rules,players,options", SETUPS, ids=[s[0] + str(s[1]) for s in SETUPS])
def test_a_whole_game_with_masked_random_actions(rules, players, options, reward) -> None:
    env = diamonds.env(rules, players, options=options, reward=reward)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward_now, termination, truncation, _ = env.last()
        totals[agent] += reward_now
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) and env.observation_space(agent).contains(observation)
        env.step(int(rng.choice(legal)))
    assert env.position.is_over
    if reward == "score":
        assert abs(sum(totals.values())) < 1e-6  # every side plays alone here: the differences sum to 0
    else:
        assert set(totals.values()) <= {0.0, 1.0} and max(totals.values()) == 1.0
