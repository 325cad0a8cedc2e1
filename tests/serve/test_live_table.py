"""The table is live at every item without deal lines (issue 31, item 2; issue 30, item 5), in-process.

A game is recorded item by item without deal lines, and at each item the scorer's and the watchers' states
are compared with the same game played with its real deal: who is due, the trick, the scores, and the
picture, whose hands are all backs (as many as the real hands hold), with no card face but the trick's."""

from __future__ import annotations

import re

import pytest
from servehelp import game_items
from servehelp import state_of as state

import diamonds
from diamonds.replay.recorder import Recorder
from diamonds.replay.validate import replay_record


@pytest.mark.parametrize("rules,count,seed", [("1e", 3, 2), ("2e", 4, 3)])
def test_the_table_is_live_at_every_item_without_deal_lines(rules, count, seed) -> None:
    source, expected, items = game_items(rules, count, seed, deals=False)
    real = diamonds.Game.from_text(write_with_deals(rules, count, seed))
    positions = real.positions()
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', expected, re.M))
    recorder = Recorder.new(rules, tags["Players"].split(), dealer=tags["Dealer"])
    checked = 0
    for version, item in enumerate(items[:40], 1):
        outcome = recorder.enter(item)
        assert outcome.refusal is None, (item, outcome)
        if outcome.question is not None:
            break  # the round's end award, asked at its last card: the round is played out
        drawn = replay_record(recorder.record, stand_in=True)
        if drawn.drawn_round is None:
            continue  # before the round's passes are all in: no stand-in yet
        position = positions[len(drawn.game.moves)]  # the same moves but the deal: the same place
        scorer, watcher = state(recorder, True, version), state(recorder, False, version)
        played = {word.split(">")[0] for word in recorder.current_round()[1].cards}
        for seen in (scorer, watcher):
            assert seen["to_move"] == position.to_move and seen["due"]["players"] == [position.to_move]
            assert not seen["due"]["known"]  # the hands are not known: any unseen card may come
            faces = re.findall(r'class="card"[^>]*data-card="(\w+)"|data-card="(\w+)"', seen["svg"])
            shown = {a or b for a, b in faces}
            assert set(seen["trick"]) <= shown <= played, (item, shown)  # no hand's card face: the trick's (or the
            # trick just completed, still on the table)
            held = sum(len(position.rule_set.hand(position.state, seat)) for seat in range(count))
            assert seen["svg"].count('class="card back"') == held
        trick = position.state.trick
        assert scorer["trick"] == [str(card) for _, card in trick]
        assert [s["score"] for s in scorer["standings"]] == [s.score for s in position.standings]
        checked += 1
    assert checked >= 20


def write_with_deals(rules: str, count: int, seed: int) -> str:
    _, text, _ = game_items(rules, count, seed, deals=True)
    return text


@pytest.mark.parametrize("rules,count,seed", [("bidding", 3, 1), ("1e", 3, 2)])
def test_where_names_the_line_due_before_the_cards(rules, count, seed) -> None:
    """Before a round's first card the recorder says whose line is due and its word (`round 1, Bob's `take`
    line`), from the kind of the stand-in's legal moves: the same player the table's state says is due."""
    _, expected, items = game_items(rules, count, seed, deals=False)
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', expected, re.M))
    recorder = Recorder.new(rules, tags["Players"].split(), dealer=tags["Dealer"])
    named = 0
    for version, item in enumerate(items, 1):
        words = item.split()
        if words[0][0].isdigit() or words[0][0] in "JQKA" or words[0][:2] == "Jo":
            break  # the first card
        if not item.startswith("R"):
            seen = state(recorder, False, version)
            player = words[1]
            if rules == "bidding":  # every call in turn (B3-B5): the next line's player and word
                assert recorder.where().endswith(f"{player}'s `{words[0]}` line"), (item, recorder.where())
            else:  # R6: the passes are made at once; the position takes them in seat order
                assert recorder.where().endswith(f"{seen['to_move']}'s `{words[0]}` line"), (item, recorder.where())
            named += 1
        assert recorder.enter(item).refusal is None
    assert named >= count
