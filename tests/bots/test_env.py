"""The PettingZoo environment passes PettingZoo's own API, seed and render tests, for every family; its
observation holds the round's public facts (R16, R17, K5, who played each card, the round) and nothing hidden;
`decode` and `action_ids` name the moves its ids stand for."""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("pettingzoo")
import random  # noqa: E402

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from tables import new_position, play  # noqa: E402
from test_no_peeking import twin  # noqa: E402

import diamonds  # noqa: E402
from diamonds.bots import make_bot  # noqa: E402
from diamonds.bots.env import DiamondsEnv  # noqa: E402
from diamonds.bots.observe import Layout, codec, observation_vector, record_of  # noqa: E402

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


@pytest.mark.parametrize("rules,players,options", SETUPS[:3], ids=[s[0] + str(s[1]) for s in SETUPS[:3]])
def test_render(rules, players, options) -> None:
    render_test(functools.partial(DiamondsEnv, rules, players, options=options))


def _random_steps(env, rng, steps):
    """Step `env` with random legal ids, `steps` times or to the end; yields before each step."""
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent]:
            return
        yield agent
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


@pytest.mark.parametrize("rules,players,options", SETUPS, ids=[s[0] + str(s[1]) for s in SETUPS])
def test_the_kept_observation_is_the_observation_made_afresh(rules, players, options) -> None:
    """What the environment keeps from move to move (the round's public record, the standings) gives the same
    observation as one built from the position alone, at every step of a game."""
    env = DiamondsEnv(rules, players, options=options)
    env.reset(seed=11)
    for agent in _random_steps(env, np.random.default_rng(11), 400):
        seat = env.seats[agent]
        fresh = observation_vector(env.position.view(seat), record_of(env.position), env._prefix)
        assert np.array_equal(env.observe(agent)["observation"], fresh), env.position


def _facts(env, agent):
    """The observation's public-fact slices for `agent`, by the layout (docs/bots.md)."""
    layout, d, n, sides = env.layout, env.layout.d, env.layout.n, env.layout.sides
    vector = env.observe(agent)["observation"]
    cards = vector[layout.cards:layout.trick_of].reshape(n, 3, d)
    return {"played": cards[:, 0], "won": cards[:, 1], "top": cards[:, 2],
            "tricks_won": np.rint(vector[layout.tricks_won:layout.taken] * 20),
            "taken": np.rint(vector[layout.taken:layout.prefix].reshape(sides, 4) * 20),
            "round": vector[layout.round] * 10}


@pytest.mark.parametrize("rules,players", [("2e", 4), ("1e", 3), ("bga", 5)])
def test_fitzgerald_taken_per_suit_and_tricks_won_are_observed(rules, players) -> None:
    """R16 (the cards each side took, per suit, decide the end-of-round awards) and R17 (a player with no
    trick takes two Diamonds actions) need these counts; the agent sees them from its own seat and side round."""
    env = DiamondsEnv(rules, players)
    env.reset(seed=4)
    seen = 0
    for agent in _random_steps(env, np.random.default_rng(4), 300):
        state, seat = env.position.state, env.seats[agent]
        if state.phase.name != "PLAY":
            continue
        facts = _facts(env, agent)
        n, sides = len(state.tricks_won), len(state.taken)
        own = state.config.side_of[seat]
        assert facts["tricks_won"].tolist() == [state.tricks_won[(seat + r) % n] for r in range(n)]
        assert facts["taken"].tolist() == [list(state.taken[(own + r) % sides]) for r in range(sides)]
        assert facts["round"] == pytest.approx(state.round_no)
        seen += bool(sum(state.tricks_won))
    assert seen >= 10


def test_kirk_trick_winners_and_pile_tops_are_observed() -> None:
    """K5 breaks a tie from the scoring piles, top card first: the agent sees each pile's top, and who won the
    trick every card fell in (the piles themselves, K6)."""
    env = DiamondsEnv("kirk", 4, options={"Hands": "2"})
    env.reset(seed=8)
    deck = list(env.position.config.deck)
    seen = 0
    for agent in _random_steps(env, np.random.default_rng(8), 104):
        state, seat = env.position.state, env.seats[agent]
        facts = _facts(env, agent)
        for r in range(4):
            pile = state.piles[(seat + r) % 4]
            assert sorted(np.flatnonzero(facts["won"][r])) == sorted(deck.index(card) for card in pile)
            assert np.flatnonzero(facts["top"][r]).tolist() == ([deck.index(pile[-1])] if pile else [])
        assert facts["round"] == pytest.approx(state.hand_no)
        seen += sum(1 for pile in state.piles if pile)
    assert seen >= 50


@pytest.mark.parametrize("rules,players,options", SETUPS, ids=[s[0] + str(s[1]) for s in SETUPS])
def test_who_played_each_card_is_observed(rules, players, options) -> None:
    env = DiamondsEnv(rules, players, options=options)
    env.reset(seed=2)
    deck = list(env.position.config.deck)
    for agent in _random_steps(env, np.random.default_rng(2), 120):
        seat = env.seats[agent]
        position = env.position
        start = max(i for i, move in enumerate(position.moves) if type(move).__name__ == "Deal")
        played = {}
        for events in position.events[start:]:
            for event in events:
                if type(event).__name__ == "CardPlayed":
                    played[deck.index(event.card)] = event.seat
        facts = _facts(env, agent)
        observed = {int(card): (seat + r) % players for r in range(players) for card in np.flatnonzero(facts["played"][r])}
        assert observed == played


@pytest.mark.parametrize("rules,players", [("kirk", 4), ("2e", 4), ("1e", 3), ("bidding", 3), ("bga", 2)])
def test_twins_differing_only_in_hidden_cards_give_the_same_observation(rules, players) -> None:
    """No leak: a position and its twin (the others' cards the viewer cannot place dealt differently) give the
    player to move the same observation; some other player's observation does change (the check has teeth)."""
    fam = codec(rules)
    checked = teeth = 0
    for seed in range(14):
        rng = random.Random(seed)
        position = new_position(rules, players, dealer=seed % players)
        play(position, [make_bot("greedy", seed=s) for s in range(players)], rng, stop_after=rng.randrange(2, 70))
        if position.is_over or position.is_chance:
            continue
        viewer = position.to_move_seat
        other = twin(position, viewer, random.Random(seed))
        if other is None:
            continue
        layout = Layout(position.config, fam)

        def seen(pos, seat, layout=layout):
            return observation_vector(pos.view(seat), record_of(pos), fam=fam, layout=layout)

        assert np.array_equal(seen(position, viewer), seen(other, viewer))
        teeth += any(not np.array_equal(seen(position, s), seen(other, s)) for s in range(players) if s != viewer)
        checked += 1
    assert checked >= 4 and teeth >= 1


@pytest.mark.parametrize("rules,players,options", SETUPS, ids=[s[0] + str(s[1]) for s in SETUPS])
def test_decode_names_the_move_and_action_ids_inverts_it(rules, players, options) -> None:
    env = DiamondsEnv(rules, players, options=options)
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    multi = 0
    for agent in _random_steps(env, rng, 150):
        position = env.position
        if env._prefix:
            continue
        for move in position.legal_moves:
            text = position.text(move)
            ids = env.action_ids(text)
            assert ids == tuple(env.family.encode(position.config, move))
            if len(ids) == 1:
                assert env.decode(ids[0]) == text
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        words = [env.decode(int(action)) for action in legal]
        assert sorted(words) == sorted(set(words))  # each legal id stands for something of its own
        multi += any(word.endswith("...") for word in words)
    assert rules == "kirk" or multi >= 1  # a pass (R6) or a take (B4) begins with a partial id
