"""The games in OpenSpiel (diamonds.spiel): OpenSpiel's own random simulation test passes for every rule set,
OpenSpiel's ISMCTS bot plays a whole game through the resampler, and a player's tensors and strings never
change with cards hidden from them."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
import numpy as np  # noqa: E402

import diamonds  # noqa: E402
from diamonds.bots import family_bot, make_bot, table_of  # noqa: E402
from diamonds.spiel import GAMES, DiamondsState  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bots"))
from tables import new_position, play  # noqa: E402
from test_no_peeking import twin  # noqa: E402

#: (OpenSpiel game string, random_sim_test's number of games); the longer games are in the slow tier.
SIMS = [
    pytest.param("diamonds_kirk(hands=1)", 2, id="diamonds_kirk(hands=1)"),
    pytest.param("diamonds_2e(players=2)", 1, id="diamonds_2e(players=2)"),
    pytest.param("diamonds_1e(players=3)", 1, id="diamonds_1e(players=3)", marks=pytest.mark.slow),
    pytest.param("diamonds_bga(players=4,variants=partnership)", 1, id="diamonds_bga(players=4,variants=partnership)",
                 marks=pytest.mark.slow),
    pytest.param("diamonds_bidding", 1, id="diamonds_bidding", marks=pytest.mark.slow),
]


def test_every_rule_set_is_registered() -> None:
    names = set(pyspiel.registered_names())
    expected = {"diamonds_" + rules for ids in diamonds.rule_sets().values() for rules in ids}
    assert expected <= names and set(GAMES) == expected
    assert {"diamonds_1e", "diamonds_2e", "diamonds_bga", "diamonds_kirk", "diamonds_bidding"} <= expected


@pytest.mark.parametrize("name,sims", SIMS)
def test_random_sim_test(name, sims) -> None:
    """OpenSpiel's own check of a game: legal actions, chance outcomes summing to 1, tensors and strings for
    every player at every state, returns at the end, serialize and deserialize at every state."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=True, verbose=False)


def test_parameters_reach_the_position() -> None:
    game = pyspiel.load_game("diamonds_2e(players=4,variants=partnership,dealer=2)")
    position = game.new_initial_state().position
    assert position.players == ("Ann", "Bob", "Cat", "Dan")
    assert position.config.first_dealer == 2 and len(position.config.sides[0]) == 2
    assert pyspiel.load_game("diamonds_kirk(hands=2)").new_initial_state().position.config.hands == 2
    assert game.num_players() == 4 and game.num_distinct_actions() > len(position.config.deck)
    public_only = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="own observation"):
        game.make_py_observer(public_only)  # an observer of the public facts alone is not offered


def test_the_deal_is_one_chance_node_per_card() -> None:
    game = pyspiel.load_game("diamonds_bidding")
    state = game.new_initial_state()
    deck = state.position.config.deck
    nodes = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == len(deck) - nodes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(outcomes[0][0])  # always the first card left: the deck in its own order
        nodes += 1
    assert nodes == 33  # B2: ten cards to each of three seats, three to the kitty
    hands = [list(map(str, state.position.hand(seat))) for seat in range(3)]
    assert hands[0] == [str(card) for card in sorted(deck[:10], key=deck.index)]
    assert not state.is_chance_node() and state.current_player() == state.position.to_move_seat


@pytest.mark.parametrize("name", ["diamonds_kirk(hands=1)", "diamonds_2e", "diamonds_bidding"])
def test_a_chance_action_that_is_no_card_left_is_refused_at_once(name: str) -> None:
    """A card already drawn, or a number of no card, was taken silently, and the deal failed cards later with
    an IndexError or CardTwice from inside: refused at once, as a decision that is not legal is."""
    state = pyspiel.load_game(name).new_initial_state()
    state.apply_action(0)
    before = state.serialize()
    for bad in (0, len(state.position.config.deck)):
        with pytest.raises(pyspiel.SpielError, match="not a card left to deal"):
            state.apply_action(bad)
        assert state.serialize() == before and len(state.chance_outcomes()) == len(state.position.config.deck) - 1


def test_actions_name_their_moves() -> None:
    game = pyspiel.load_game("diamonds_2e(players=3)")
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    position = state.position
    # R6: the dealer chooses how many cards everyone passes; each count is its own action.
    texts = sorted(state.action_to_string(state.current_player(), a) for a in state.legal_actions())
    assert texts == sorted(position.text(move) for move in position.legal_moves)
    state.apply_action(state.legal_actions()[-1])
    # A pass is chosen one card at a time: the first id names the card, the move is complete after k ids.
    first = state.legal_actions()[0]
    assert state.action_to_string(state.current_player(), first).startswith("pass ")
    moves_before = len(state.position.moves)
    count = state.position.state.pass_count
    for _ in range(count):
        state.apply_action(state.legal_actions()[0])
    assert len(state.position.moves) == moves_before + 1


def _samples(state: DiamondsState) -> bool:
    """Whether the family's determinise samples here (Fitzgerald's, on this branch, from the first card on)."""
    position = state.position
    if state.is_chance_node() or state.is_terminal():
        return False
    table = table_of(position.view(position.to_move_seat))
    return family_bot(position.rules).determinise(table, random.Random(0)) is not None


def _played_to(name: str, seed: int, stop: int) -> DiamondsState:
    """A random game played to at least `stop` moves, then on to a decision where the family samples."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while not state.is_terminal() and (len(state.position.moves) < stop or not _samples(state)):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", ["diamonds_kirk", "diamonds_2e(players=4)", "diamonds_1e(players=3)", "diamonds_bidding"])
def test_resample_keeps_the_information_state_and_redraws_hidden_cards(name) -> None:
    changed = 0
    for seed in range(4):
        state = _played_to(name, seed, 20 + 7 * seed)
        if state.is_chance_node() or state.is_terminal():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        tensor = state.information_state_tensor(player)
        for draw in range(3):
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(draw, 0.0, 1.0))
            assert world.information_state_string(player) == key
            assert world.information_state_tensor(player) == tensor
            assert world.legal_actions() == state.legal_actions()
            assert world.position.hand(player) == state.position.hand(player)
            others = [seat for seat in range(len(state.position.players)) if seat != player]
            if any(world.position.hand(s) != state.position.hand(s) for s in others):
                changed += 1
    assert changed >= 3  # the hidden cards really are redrawn


@pytest.mark.slow
def test_ismcts_plays_a_whole_game() -> None:
    """OpenSpiel's ISMCTS bot (open_spiel.python.algorithms.ismcts) for every seat, through the resampler."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("diamonds_kirk(hands=1)")
    rng = np.random.RandomState(7)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat)), uct_c=2.0,
                             max_simulations=6, random_state=np.random.RandomState(seat)) for seat in range(4)]
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        searched += len(state.legal_actions()) > 1
        state.apply_action(action)
    assert state.position.is_over and searched >= 40  # 52 cards, the last of each hand forced
    assert abs(sum(state.returns())) < 1e-9 and len(state.position.moves) == 53


@pytest.mark.parametrize("rules,players", [("kirk", 4), ("2e", 4), ("1e", 3), ("bidding", 3)])
def test_twins_differing_only_in_hidden_cards_look_the_same(rules, players) -> None:
    """No leak: a position and its twin (the others' unseen cards dealt differently) give the player to move
    identical tensors and strings; the check has teeth, as some other player's tensor does change."""
    game = pyspiel.load_game(f"diamonds_{rules}(players={players})")
    checked = teeth = 0
    for seed in range(10):
        rng = random.Random(seed)
        position = new_position(rules, players)
        play(position, [make_bot("greedy", seed=s) for s in range(players)], rng, stop_after=rng.randrange(2, 60))
        if position.is_over or position.is_chance:
            continue
        viewer = position.to_move_seat
        other = twin(position, viewer, random.Random(seed))
        if other is None:
            continue
        a, b = DiamondsState(game, position), DiamondsState(game, other)
        assert a.information_state_tensor(viewer) == b.information_state_tensor(viewer)
        assert a.observation_tensor(viewer) == b.observation_tensor(viewer)
        assert a.information_state_string(viewer) == b.information_state_string(viewer)
        assert a.observation_string(viewer) == b.observation_string(viewer)
        teeth += any(a.observation_tensor(s) != b.observation_tensor(s) for s in range(players) if s != viewer)
        checked += 1
    assert checked >= 3 and teeth >= 1


@pytest.mark.parametrize("name", ["diamonds_kirk(hands=1)", "diamonds_2e(players=3)", "diamonds_bidding"])
def test_what_a_state_keeps_move_by_move_is_what_it_would_read_afresh(name) -> None:
    """A state notes each move in each player's sight of the moves and in the round's public record as it is
    made; a state made afresh from the same position reads both from the position (`View.public_moves`,
    the events): the strings and tensors agree, for every player, all through a game."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    state.information_state_string(0)  # from here on the state keeps the moves seen, move by move
    rng = np.random.RandomState(3)
    compared = 0
    while not state.is_terminal() and compared < 40:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if not state.table.prefix and rng.rand() < 0.3:
            fresh = DiamondsState(game, state.position.copy())
            for player in range(game.num_players()):
                assert fresh.information_state_string(player) == state.information_state_string(player)
                assert fresh.information_state_tensor(player) == state.information_state_tensor(player)
            compared += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert compared >= 10
