"""A PettingZoo AEC environment for every family: `diamonds.env(rules="kirk", players=4)`.

Needs the `rl` extra (pettingzoo, gymnasium, numpy). The agents are the
players' names; the deals are made inside the environment, from the seed
given to `reset`. Each agent observes a dict: `observation`, a float32
vector built from its `View` only, and `action_mask`, an int8 vector over
the action ids (docs/bots.md has both layouts). Rewards come at the end of
the game: `reward="score"` (default) gives each agent its side's final score
less the mean of all sides' scores; `reward="win"` gives 1 to the winners and
0 to the others.

A move that takes several ids (a Fitzgerald pass of k cards, a bidding
player's take: the kitty card, then the point card) is chosen one id at a
time by the same agent; the ids chosen so far are part of its observation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import diamonds
from diamonds.core import rules_for
from diamonds.core.simulate import default_names

from . import FamilyBot, table_of
from . import family_bot as _family_bot

__all__ = ["DiamondsEnv", "env", "observation_vector"]


class _Codec:
    """A family's bot part with the environment's four hooks checked present."""

    def __init__(self, part: FamilyBot, rules: str) -> None:
        if None in (part.action_count, part.encode, part.feature_count, part.features):
            raise TypeError(f"the {rules} family's bot part has no action ids or features for the environment")
        self.action_count = part.action_count
        self.encode = part.encode
        self.feature_count = part.feature_count
        self.features = part.features


def family_bot(rules: str) -> Any:
    return _Codec(_family_bot(rules), rules)


def env(rules: str = "kirk", players: int | None = None, **kwargs: Any) -> DiamondsEnv:
    """A new environment (PettingZoo's `env()` convention)."""
    return DiamondsEnv(rules, players, **kwargs)


def observation_vector(view: Any, prefix: Sequence[int] = ()) -> np.ndarray:
    """The observation of `view` (docs/bots.md): own hand, cards known in each other hand (seats from the
    viewer round), cards played this round, the ids chosen so far of a move in progress, each side's score
    where the viewer sees it (/ 100) with a flag, then the family's own features."""
    table = table_of(view)
    state, seat = table.state, table.seat
    config = state.config
    fam = family_bot(view.rules)
    deck = config.deck
    d, n = len(deck), config.player_count
    index = {card: i for i, card in enumerate(deck)}
    size = _observation_size(config, fam)
    out = np.zeros(size, dtype=np.float32)
    for card in view.hand(seat):
        out[index[card]] = 1.0
    at = d
    for step in range(1, n):
        for card in view.hand((seat + step) % n):
            out[at + index[card]] = 1.0
        at += d
    for move in table.moves:
        if type(move).__name__ == "PlayCard":
            out[at + index[move.card]] = 1.0
    at += d
    for action in prefix:
        out[at + action] = 1.0
    at += fam.action_count(config)
    sides = config.side_count
    own = config.side_of[seat]
    for standing in view.standings:
        r = (standing.side - own) % sides
        if standing.score is not None:
            out[at + 2 * r] = standing.score / 100.0
            out[at + 2 * r + 1] = 1.0
    at += 2 * sides
    out[at:] = fam.features(state, seat)
    return out


def _observation_size(config: Any, fam: Any) -> int:
    d, n = len(config.deck), config.player_count
    return (n + 1) * d + fam.action_count(config) + 2 * config.side_count + fam.feature_count(config)


class DiamondsEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "diamonds_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "kirk", players: int | None = None, *, variants: Sequence[str] = (),
                 options: dict[str, str] | None = None, reward: str = "score", render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in ("score", "win"):
            raise ValueError(f"reward is 'score' or 'win', not {reward!r}")
        rule_set = rules_for(rules)
        count = players or rule_set.default_players
        self.rules, self.variants, self.options, self.reward = rules, tuple(variants), options, reward
        self.render_mode = render_mode
        self.possible_agents = list(default_names(count))
        self.position = self._new_position(0)
        config = self.position.config
        self.family = family_bot(rules)
        self.actions = self.family.action_count(config)
        size = _observation_size(config, self.family)
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self._prefix: list[int] = []
        self._cache: tuple[int, list[tuple[tuple[int, ...], Any]]] | None = None

    def _new_position(self, dealer: int) -> Any:
        return diamonds.Position(self.rules, self.possible_agents, dealer=dealer, variants=self.variants,
                                 options=self.options)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- the game
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.position = self._new_position(self._rng.randrange(len(self.possible_agents)))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self._prefix = []
        self._cache = None
        self._deal()
        self.agent_selection = self.position.to_move

    def _deal(self) -> None:
        while self.position.is_chance:
            self.position.deal(self._rng)

    def _sequences(self) -> list[tuple[tuple[int, ...], Any]]:
        """The legal moves with their ids, worked out once per position (a pass lists up to 120 moves)."""
        ply = len(self.position)
        if self._cache is None or self._cache[0] != ply:
            config = self.position.config
            self._cache = (ply, [(self.family.encode(config, move), move) for move in self.position.legal_moves])
        return self._cache[1]

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.actions, dtype=np.int8)
        if self.position.is_over or agent != self.agent_selection or self.position.to_move != agent:
            return mask
        prefix = tuple(self._prefix)
        depth = len(prefix)
        for sequence, _ in self._sequences():
            if len(sequence) > depth and sequence[:depth] == prefix:
                mask[sequence[depth]] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        prefix = self._prefix if agent == self.agent_selection else ()
        return {"observation": observation_vector(self.position.view(agent), prefix), "action_mask": self._mask(agent)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        prefix = tuple(self._prefix) + (int(action),)
        matches = [(sequence, move) for sequence, move in self._sequences() if sequence[:len(prefix)] == prefix]
        if not matches:
            raise ValueError(f"action {action} is not legal for {agent} here (see the action mask)")
        complete = [move for sequence, move in matches if len(sequence) == len(prefix)]
        if complete:
            self.position.push(complete[0])
            self._prefix = []
            self._deal()
        else:
            self._prefix = list(prefix)
        if self.position.is_over:
            self._finish()
        else:
            self.agent_selection = self.position.to_move
        self._accumulate_rewards()

    def _finish(self) -> None:
        standings = self.position.standings
        mean = sum(s.score for s in standings) / len(standings)
        for standing in standings:
            for name in standing.players:
                self.rewards[name] = (float(standing.score - mean) if self.reward == "score"
                                      else float(bool(standing.winner)))
        for agent in self.agents:
            self.terminations[agent] = True

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return repr(self.position)
        return None

    def close(self) -> None:
        pass
