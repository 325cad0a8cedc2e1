"""Replay steps (`cli.steps`) and the navigator that walks them (`cli.replay_cmd`).

The game is a fixed simulated one (4 players, 2e, seed 11): 4 rounds of 10
tricks of 4 cards. A step is a round's deal and passes (R1.0), one card with
the Suit Actions it caused (R1.3.2), or a round's awards (R1.end); the first
step, "start", is the table before round 1.
"""

from __future__ import annotations

import re

import pytest

from diamonds.cli.replay_cmd import FOOTER, HELP, Navigator, run_session
from diamonds.core import simulate
from diamonds.families.fitzgerald.render import Position
from diamonds.families.fitzgerald.rules import CardPlayed, GameEnded, RoundEnded, RoundStarted, SuitAction, TrickWon
from diamonds.families.fitzgerald.steps import build_steps
from diamonds.families.fitzgerald.view import VIEW
from diamonds.replay import ReplayedGame, record_from_game, replay_record
from diamonds.replay.steps import PositionError, Step, find_position

ROUNDS, TRICKS, PLAYS = 4, 10, 4


@pytest.fixture(scope="module")
def replayed() -> ReplayedGame:
    result = replay_record(record_from_game(simulate(4, seed=11)))
    assert result.valid and result.complete
    assert (result.config.rounds, result.config.tricks_per_round, result.config.plays_per_trick) == (
        ROUNDS, TRICKS, PLAYS)
    return result


@pytest.fixture(scope="module")
def steps(replayed: ReplayedGame) -> list[Step]:
    return build_steps(replayed)


def at(steps: list[Step], label: str) -> int:
    """The index of the step with this label (not through find_position, which is under test)."""
    found = [i for i, step in enumerate(steps) if step.label == label]
    assert len(found) == 1, label
    return found[0]


# --------------------------------------------------------------------------- build_steps


def expected_labels() -> list[str]:
    labels = ["start"]
    for r in range(1, ROUNDS + 1):
        labels.append(f"R{r}.0")
        labels += [f"R{r}.{t}.{c}" for t in range(1, TRICKS + 1) for c in range(1, PLAYS + 1)]
        labels.append(f"R{r}.end")
    return labels


def test_steps_are_start_then_deal_cards_and_end_of_every_round(steps: list[Step]) -> None:
    assert [s.label for s in steps] == expected_labels()
    kinds = {"start": 0, "deal": 0, "card": 0, "end": 0}
    for step in steps:
        kinds[step.kind] += 1
    assert kinds == {"start": 1, "deal": ROUNDS, "card": ROUNDS * TRICKS * PLAYS, "end": ROUNDS}
    for step in steps:
        match = re.fullmatch(r"R(\d+)\.(\d+)\.(\d+)", step.label)
        if match:
            assert step.kind == "card"
            assert (step.round_no, step.trick_no, step.card_no) == tuple(int(g) for g in match.groups())
            assert step.trick_complete == (step.card_no == PLAYS)


def test_every_event_belongs_to_exactly_one_step_in_order(replayed: ReplayedGame, steps: list[Step]) -> None:
    assert replayed.game is not None
    assert steps[0].events == ()
    flat = [event for events in replayed.game.events for event in events]
    assert [event for step in steps for event in step.events] == flat


def test_a_card_step_holds_its_card_and_the_actions_it_caused(steps: list[Step]) -> None:
    for step in steps:
        if step.kind == "card":
            assert isinstance(step.events[0], CardPlayed)
            assert step.actor == step.events[0].seat
            assert step.table.trick[-1] == (step.events[0].seat, step.events[0].card)
            assert all(isinstance(e, (SuitAction, TrickWon)) for e in step.events[1:])
            assert any(isinstance(e, TrickWon) for e in step.events) == step.trick_complete
        elif step.kind == "deal":
            assert isinstance(step.events[0], RoundStarted)
            assert step.actor is None
        elif step.kind == "end":
            assert isinstance(step.events[0], RoundEnded)
    assert isinstance(steps[-1].events[-1], GameEnded)
    assert steps[-1].table.results and not steps[-2].table.results


def test_a_card_off_suit_carries_its_own_suit_action(steps: list[Step]) -> None:
    off = [s for s in steps if s.kind == "card" and not s.events[0].followed]
    assert off, "the fixed game has cards played off suit"
    for step in off:
        action = step.events[1]
        assert isinstance(action, SuitAction) and action.suit is step.events[0].card.suit


def test_each_table_agrees_with_the_engine_where_a_move_ends(replayed: ReplayedGame, steps: list[Step]) -> None:
    """The table is folded from the events; where a step ends a move, the engine's state says the same."""
    game = replayed.game
    assert game is not None
    flat = [(ply, event) for ply, events in enumerate(game.events) for event in events]
    done = checked = 0
    for step in steps[1:]:
        done += len(step.events)
        ply = flat[done - 1][0]
        if done < len(flat) and flat[done][0] == ply:
            continue  # the move goes on in the next step (the last card of a round runs the awards)
        state, table = game.state_at(ply + 1), step.table
        fields = ["showroom", "vault", "supply", "thief"]
        if step.kind != "end":  # the engine is already set for the next round there
            fields += ["round_no", "dealer", "tricks_won", "taken"]
        for name in fields:
            assert getattr(table, name) == getattr(state, name), (step.label, name)
        assert tuple(frozenset(hand) for hand in table.hands) == state.hands, step.label
        checked += 1
    assert checked > ROUNDS * TRICKS


def test_points_are_conserved_at_every_step(steps: list[Step]) -> None:
    for step in steps:
        table = step.table
        assert sum(table.showroom) + sum(table.vault) + table.supply == 235, step.label


# --------------------------------------------------------------------------- find_position


def test_R2_7_is_the_last_card_of_trick_7_of_round_2(steps: list[Step]) -> None:
    step = steps[find_position(steps, "R2.7")]
    assert step.label == "R2.7.4"
    assert (step.kind, step.round_no, step.trick_no, step.card_no) == ("card", 2, 7, 4)
    assert step.trick_complete and step.table.trick_winner is not None
    assert len(step.table.trick) == PLAYS


@pytest.mark.parametrize("text, label", [
    ("R2.7.3", "R2.7.3"), ("R2.7.1", "R2.7.1"), ("R2.0", "R2.0"), ("R2", "R2.0"), ("R2.end", "R2.end"),
    ("R1.10", "R1.10.4"), ("R4.end", "R4.end"), ("start", "start"), ("end", "R4.end"),
    ("r2.7", "R2.7.4"), ("R2.END", "R2.end"), ("  R3.1.2 ", "R3.1.2"), ("START", "start"),
])
def test_positions(steps: list[Step], text: str, label: str) -> None:
    assert steps[find_position(steps, text)].label == label


def test_every_label_finds_its_own_step(steps: list[Step]) -> None:
    for index, step in enumerate(steps):
        assert find_position(steps, step.label) == index


@pytest.mark.parametrize("text, words", [
    ("R9.1", "round 9"), ("R5", "round 5"), ("R2.11", "trick 11 of round 2"), ("R2.7.5", "has 4 cards"),
    ("R2.7.0", "has 4 cards"), ("X", "is not a position"), ("R2.7.3.1", "is not a position"), ("", "is not a position"),
    ("2.7", "is not a position"), ("R-1", "is not a position"), ("R2.7.5", "R2.7.1 to R2.7.4: there is no card 5"),
    ("R2.end.1", "a card is counted within a trick"), ("R2.0.2", "a card is counted within a trick"),
])
def test_bad_positions_say_why(steps: list[Step], text: str, words: str) -> None:
    with pytest.raises(PositionError, match=re.escape(words)):
        find_position(steps, text)


# --------------------------------------------------------------------------- the navigator


class Recorder:
    """A draw callback that keeps every screen drawn."""

    def __init__(self) -> None:
        self.screens: list[Position] = []

    def __call__(self, screen: Position) -> None:
        self.screens.append(screen)

    @property
    def labels(self) -> list[str]:
        return [screen.step.label for screen in self.screens]

    @property
    def last(self) -> Position:
        return self.screens[-1]


def drive(steps: list[Step], keys: list[str], **options: object) -> tuple[Navigator, Recorder]:
    recorder = Recorder()
    nav = run_session(VIEW, steps, keys, recorder, **options)  # type: ignore[arg-type]
    return nav, recorder


def test_the_first_screen_is_the_start_and_every_key_redraws(steps: list[Step]) -> None:
    nav, rec = drive(steps, ["right", "right", "right"])
    assert rec.labels == ["start", "R1.0", "R1.1.1", "R1.1.2"]
    assert [s.index for s in rec.screens] == [0, 1, 2, 3]
    assert all(s.total == len(steps) for s in rec.screens)
    assert not nav.done and nav.index == 3


@pytest.mark.parametrize("key", ["right", "n", "space", "l"])
def test_next_step_keys(steps: list[Step], key: str) -> None:
    _, rec = drive(steps, [key, key])
    assert rec.labels == ["start", "R1.0", "R1.1.1"]


@pytest.mark.parametrize("key", ["left", "p", "h"])
def test_previous_step_keys(steps: list[Step], key: str) -> None:
    _, rec = drive(steps, ["right", "right", key, key, key])
    assert rec.labels == ["start", "R1.0", "R1.1.1", "R1.0", "start", "start"]


def test_going_back_after_going_forward_returns_the_same_step_objects(steps: list[Step]) -> None:
    n = 60
    _, rec = drive(steps, ["right"] * n + ["left"] * n)
    assert len(rec.screens) == 2 * n + 1
    for k in range(n + 1):
        assert rec.screens[k].step is rec.screens[2 * n - k].step
        assert rec.screens[k].step is steps[k]


def test_stepping_stops_at_both_ends(steps: list[Step]) -> None:
    nav, rec = drive(steps, ["left", "end", "right", "right"])
    assert rec.labels == ["start", "start", "R4.end", "R4.end", "R4.end"]
    assert nav.index == len(steps) - 1


@pytest.mark.parametrize("down, up", [("down", "up"), ("]", "["), ("j", "k")])
def test_next_and_previous_trick(steps: list[Step], down: str, up: str) -> None:
    _, rec = drive(steps, [down, down, down, up, up, up, up])
    assert rec.labels == ["start", "R1.0", "R1.1.4", "R1.2.4", "R1.1.4", "R1.0", "start", "start"]


def test_next_trick_from_the_middle_of_a_trick_and_over_a_round_end(steps: list[Step]) -> None:
    # From the middle of a trick, ↓ first goes to that trick's end (how it ends is not skipped), then on.
    _, rec = drive(steps, ["g", *"R1.2.2", "enter", "down", "down", "up"])
    assert rec.labels[-4:] == ["R1.2.2", "R1.2.4", "R1.3.4", "R1.2.4"]
    _, rec = drive(steps, ["g", *"R1.10.2", "enter", "down", "up", "down", "down", "down", "down"])
    assert rec.labels[-7:] == ["R1.10.2", "R1.10.4", "R1.9.4", "R1.10.4", "R1.end", "R2.0", "R2.1.4"]


@pytest.mark.parametrize("forward, back", [("pgdn", "pgup"), ("r", "R")])
def test_next_and_previous_round(steps: list[Step], forward: str, back: str) -> None:
    _, rec = drive(steps, [forward] * 5 + [back] * 5)
    # past the last round: the end; back from inside round 4 (its end): round 3's deal
    assert rec.labels == ["start", "R1.0", "R2.0", "R3.0", "R4.0", "R4.end",
                          "R3.0", "R2.0", "R1.0", "start", "start"]


def test_previous_round_from_inside_a_round_goes_to_the_round_before(steps: list[Step]) -> None:
    _, rec = drive(steps, ["g", *"R3.4.2", "enter", "pgup", "pgdn", "pgdn"])
    assert rec.labels[-4:] == ["R3.4.2", "R2.0", "R3.0", "R4.0"]


@pytest.mark.parametrize("home, end", [("home", "end"), ("0", "$"), ("home", "G")])
def test_start_and_end(steps: list[Step], home: str, end: str) -> None:
    _, rec = drive(steps, ["right", "right", end, home])
    assert rec.labels == ["start", "R1.0", "R1.1.1", "R4.end", "start"]


def test_go_to_a_position_typed_after_g(steps: list[Step]) -> None:
    nav, rec = drive(steps, ["g", "R", "2", ".", "7", "enter"])
    assert rec.labels == ["start"] * 6 + ["R2.7.4"]
    assert rec.last.step is steps[at(steps, "R2.7.4")]
    # while typing, the status line shows what was typed so far
    assert [s.footer for s in rec.screens[1:6]] == [
        f"go to (R2.7, R2.7.3, R2.end, start, end): {typed}▏" for typed in ("", "R", "R2", "R2.", "R2.7")]
    assert rec.last.footer == FOOTER and nav.typing is None


def test_go_to_takes_backspace_and_ignores_other_keys_while_typing(steps: list[Step]) -> None:
    _, rec = drive(steps, ["g", "R", "1", ".", "9", "backspace", "right", "3", "enter"])
    assert rec.labels[-1] == "R1.3.4"
    assert set(rec.labels[:-1]) == {"start"}  # "right" was swallowed by the prompt


def test_go_to_keys_that_are_commands_elsewhere_are_typed(steps: list[Step]) -> None:
    _, rec = drive(steps, ["g", "R", "2", ".", "e", "n", "d", "enter", "q"])
    assert rec.labels[-1] == "R2.end"  # "n" (next step elsewhere) was text in the prompt; q then quits


def test_escape_cancels_go_to(steps: list[Step]) -> None:
    nav, rec = drive(steps, ["right", "g", "R", "3", "escape", "right"])
    assert rec.labels == ["start", "R1.0", "R1.0", "R1.0", "R1.0", "R1.0", "R1.1.1"]
    assert rec.last.footer == FOOTER and not nav.done


def test_go_to_a_bad_position_stays_and_says_why(steps: list[Step]) -> None:
    nav, rec = drive(steps, ["right", "g", "R", "9", "enter"])
    assert rec.last.step.label == "R1.0"
    assert "round 9" in rec.last.footer
    nav, rec = drive(steps, ["g", "x", "enter", "right"])
    assert "is not a position" in rec.screens[-2].footer
    assert rec.last.footer == FOOTER  # the next key clears the message


def test_an_unknown_key_is_named_and_moves_nothing(steps: list[Step]) -> None:
    nav, rec = drive(steps, ["right", "z", "right"])
    assert rec.labels == ["start", "R1.0", "R1.0", "R1.1.1"]
    assert rec.screens[2].footer == "unknown key 'z': ? for help"
    assert rec.screens[3].footer == FOOTER
    _, rec = drive(steps, ["\x1b[Z"])  # a sequence the replay does not use
    assert rec.last.footer.startswith("unknown key") and rec.last.step.label == "start"


def test_question_mark_toggles_help(steps: list[Step]) -> None:
    _, rec = drive(steps, ["?", "right", "?"])
    assert [s.footer for s in rec.screens] == [FOOTER, HELP, HELP, FOOTER]
    assert rec.labels == ["start", "start", "R1.0", "R1.0"]
    for words in ("next step", "back", "trick", "round", "Home/End", "go to", "help", "quit"):
        assert words in HELP


@pytest.mark.parametrize("quit_key", ["q", "escape"])
def test_q_stops_the_session_and_leaves_the_other_keys_unread(steps: list[Step], quit_key: str) -> None:
    keys = iter(["right", "right", quit_key, "right", "right"])
    nav, rec = drive(steps, keys)  # type: ignore[arg-type]
    assert nav.done
    assert rec.labels == ["start", "R1.0", "R1.1.1"]  # no redraw after q
    assert list(keys) == ["right", "right"]


def test_the_session_ends_when_the_keys_do(steps: list[Step]) -> None:
    nav, rec = drive(steps, [])
    assert not nav.done and rec.labels == ["start"]


def test_start_and_as_player_reach_the_screens(steps: list[Step]) -> None:
    start = at(steps, "R2.7.4")
    _, rec = drive(steps, ["right"], as_player=1, start=start)
    assert rec.labels == ["R2.7.4", "R2.8.1"]
    assert all(s.as_player == 1 for s in rec.screens)


def test_walking_every_step_forward_and_back(steps: list[Step]) -> None:
    n = len(steps)
    _, rec = drive(steps, ["right"] * (n - 1) + ["left"] * (n - 1))
    assert [s.index for s in rec.screens] == list(range(n)) + list(range(n - 2, -1, -1))
