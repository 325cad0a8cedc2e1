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
`decode(action)` is the move text an id stands for now, `action_ids(text)`
the ids of a move's text.

The observation (bots/observe.py) holds every public fact a memoryless agent
needs: who played each card this round and who won its trick, the tricks
each seat has won (R17), the cards each side has taken per suit (R16), the
top of each seat's pile (K5), the round number. The round's public record is
updated once a move from the move's events, and each observation is built
from it once a step (and kept until the next).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import diamonds
from diamonds.core import rules_for
from diamonds.core.family import CardPlayedEvent
from diamonds.core.simulate import default_names

from .observe import Choices, Layout, PublicRecord, choices, codec, describe, observation_vector

__all__ = ["DiamondsEnv", "env", "observation_vector"]


def env(rules: str = "kirk", players: int | None = None, **kwargs: Any) -> DiamondsEnv:
    """A new environment (PettingZoo's `env()` convention)."""
    return DiamondsEnv(rules, players, **kwargs)


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
        self.family = codec(rules)
        self.actions = self.family.action_count(config)
        self.layout = Layout(config, self.family)
        size = self.layout.size
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self._prefix: list[int] = []
        self._cache: tuple[int, Any] | None = None  # (ply, _choices())
        self._record = PublicRecord(config)
        self._seen: tuple[Any, dict[str, np.ndarray]] | None = None  # the last observation and what it was of
        self._standings: Any = None  # the rule set's standings now, None when a move may have changed them

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
        self._seen = None
        self._standings = None
        self._record = PublicRecord(self.position.config)
        self._deal()
        self.agent_selection = self.position.to_move

    def _push(self, move: Any) -> None:
        events = self.position.push(move)
        self._record.update(events)
        if self._standings is not None and not all(isinstance(event, CardPlayedEvent) for event in events):
            self._standings = None  # a card alone scores nothing: its action, trick or round is its own event

    def _deal(self) -> None:
        while self.position.is_chance:
            self._push(self.position.chance_move(self._rng))

    def _choices(self) -> Choices:
        """The legal moves by their ids and the ids that may follow each prefix: once per position (a pass
        lists up to 120 moves)."""
        ply = len(self.position)
        if self._cache is None or self._cache[0] != ply:
            self._cache = (ply, choices(self.position, self.family))
        return self._cache[1]

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.actions, dtype=np.int8)
        if agent != self.agent_selection or self.terminations[agent]:  # the agent to move is the position's
            return mask
        following = self._choices()[1].get(tuple(self._prefix))
        if following:
            mask[following] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        prefix = tuple(self._prefix) if agent == self.agent_selection else ()
        key = (len(self.position), agent, prefix, self.agent_selection)
        if self._seen is not None and self._seen[0] == key:
            return self._seen[1]
        if self._standings is None:
            self._standings = self.position.rule_set.standings(self.position.state)
        vector = observation_vector(self.position.view(self.seats[agent]), self._record, prefix, fam=self.family,
                                    layout=self.layout, standings=self._standings)
        observation = {"observation": vector, "action_mask": self._mask(agent)}
        self._seen = (key, observation)
        return observation

    # ---------------------------------------------------------------- actions and their text
    def decode(self, action: int) -> str:
        """The move text `action` stands for now, for the agent to move: the move's DGN words (`9H`, `>Cat`,
        `bid 4`, `take 9H point 7S`) when it completes one, else the words it begins (`pass 4C ...`)."""
        return describe(self.position, self._prefix, action, self.family, self._choices())

    def action_ids(self, text: str) -> tuple[int, ...]:
        """The ids of the move `text` names (read as `Position.parse` reads it): the inverse of `decode`."""
        return tuple(self.family.encode(self.position.config, self.position.parse(text)))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:  # an integer id (a numpy integer too), as the action mask numbers them: not "3", not 2.5
            chosen = operator.index(action)
        except TypeError:
            raise TypeError(f"an action is an integer id (see the action mask), not {action!r}") from None
        self._cumulative_rewards[agent] = 0.0
        ids = (*self._prefix, chosen)
        complete, following = self._choices()
        move = complete.get(ids)
        if move is not None:
            self._push(move)
            self._prefix = []
            self._deal()
            seat = self.position.to_move_seat  # None only once the game is over: every deal is made at once
            if seat is None:
                self._finish()
            else:
                self.agent_selection = self.possible_agents[seat]
        elif ids in following:
            self._prefix = list(ids)  # the same agent goes on choosing its move
        else:
            raise ValueError(f"action {action} is not legal for {agent} here (see the action mask)")
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
