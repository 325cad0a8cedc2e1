"""The phone's picture (issue 31: text of at least 12 px at 360 px), in-process.

A game of every family is recorded without deal lines, item by item, and at every item where the table is
live the scorer's and the watchers' phone pictures are checked against the same game played with its real
deal: 344 units for 344 px, no text under 12 px; the trick's cards in the order played, each under its
player's name; each side's score as that viewer may see it; who is due; and one height for the whole game,
so that the card grid below the picture stays where it is from tap to tap."""

from __future__ import annotations

import re

import pytest
from servehelp import game_items
from servehelp import state_of as state

import diamonds
from diamonds.replay.recorder import Recorder
from diamonds.replay.validate import replay_record
from diamonds.svg.phone import PHONE_WIDTH, SMALLEST

#: (rules, players, seed, option tags, items recorded: None for the whole game)
GAMES = [("1e", 3, 2, {}, 40), ("2e", 4, 3, {}, 40), ("bga", 5, 11, {}, 40), ("kirk", 4, 4, {"Hands": "1"}, None),
         ("bidding", 3, 6, {}, 45)]


def texts(svg: str, class_: str) -> list[str]:
    return re.findall(rf'<text [^>]*class="{class_}"[^>]*>([^<]*)</text>', svg)


@pytest.mark.parametrize("rules,count,seed,options,length", GAMES, ids=[g[0] for g in GAMES])
def test_the_phone_picture_shows_the_trick_and_the_sides_in_type_a_phone_reads(rules, count, seed, options,
                                                                                length) -> None:
    _, expected, items = game_items(rules, count, seed, deals=False, options=options)
    _, with_deals, _ = game_items(rules, count, seed, deals=True, options=options)
    positions = diamonds.Game.from_text(with_deals).positions()
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', expected, re.M))
    recorder = Recorder.new(rules, tags["Players"].split(), dealer=tags["Dealer"], options=options)
    names = tags["Players"].split()
    heights, checked, named = set(), 0, 0
    for version, item in enumerate(items if length is None else items[:length], 1):
        outcome = recorder.enter(item)
        if outcome.question is not None and outcome.question.code != "missing-choice":
            outcome = recorder.enter(">" + outcome.question.choices[0]) if outcome.question.choices else outcome
        assert outcome.refusal is None, (item, outcome)
        drawn = replay_record(recorder.record, stand_in=True)
        if drawn.drawn_round is None and not recorder.finished:
            continue  # before the round's lines are all in: no table yet
        position = positions[len(drawn.game.moves)]  # the same moves but the deal: the same place
        trick = [(getattr(p, "seat", None), getattr(p, "card", None)) if not isinstance(p, tuple) else p
                 for p in getattr(position.state, "trick", ())]
        for seen in (state(recorder, True, version), state(recorder, False, version)):
            svg = seen["phone_svg"]
            box = re.search(r'viewBox="0 0 (\d+) ([\d.]+)" width="(\d+)"', svg)
            assert box and int(box[1]) == int(box[3]) == PHONE_WIDTH, svg[:200]
            heights.add(box[2])
            sizes = [float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)]
            assert sizes and min(sizes) >= SMALLEST, sorted(set(sizes))
            cards = re.findall(r'class="card"[^>]*data-card="([^"]+)"', svg)
            if recorder.finished:
                assert texts(svg, "caption")[0].startswith("Game over")
                continue
            assert cards == seen["trick"] == [str(card) for _, card in trick], (item, cards)
            players = texts(svg, "player")
            if players:  # where the recorder can tell (seat order and the cards), every card is named
                assert players == [names[seat] for seat, _ in trick], (item, players)
                named += 1
            elif not trick:
                assert texts(svg, "caption") == ["No cards on the table"]
            scores = [score.split()[0] for score in texts(svg, "score")]
            assert scores == ["hidden" if s["score"] is None else str(s["score"]) for s in seen["standings"]]
            due = re.findall(r'<g class="side due">.*?class="name"[^>]*>([^<]*)<', svg)
            assert len(due) == (seen["to_move"] is not None) and all(seen["to_move"] in line for line in due), due
        checked += 1
    assert checked >= 10 and named >= 5
    assert len(heights) == 1, heights  # one height for the whole game: the grid below it stays put
    if length is None:
        assert recorder.finished
        final = state(recorder, False, len(items) + 1)["phone_svg"]
        assert texts(final, "caption")[0].startswith("Game over: ") and "\u2605 winner" in final


def test_long_names_are_cut_to_their_room_and_six_cards_keep_their_size() -> None:
    """Six cards (bga with six players) and names of 40 letters: each name under a card, and each side's names
    beside its score, end in an ellipsis within the room the layout gives them; no text is under 12 px."""
    from diamonds.core import Card
    from diamonds.svg.draw import text_width
    from diamonds.svg.phone import PhoneSide, PhoneTable, phone_svg

    long = "Bartholomew-Maximilian Featherstonehaugh"
    names = [f"{long} {n}" for n in range(6)]
    cards = tuple((name, Card.parse(f"{rank}D")) for rank, name in zip(range(10, 16), names))
    svg = phone_svg(PhoneTable(trick=cards, per_trick=6, sides=tuple(PhoneSide((name,), 100 + n) for n, name in
                                                                     enumerate(names)), to_move=names[0],
                               caption="", title="t"))
    assert min(float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)) >= SMALLEST
    under = texts(svg, "player")
    assert len(under) == 6 and all(name.endswith("\u2026") and name[:-1] in long for name in under), under
    assert all(text_width(name, 12) <= 52 + 6 for name in under)  # a card's width and the gap beside it
    rows = texts(svg, "name")
    assert len(rows) == 6 and all(row.endswith("\u2026") for row in rows), rows
    assert all(text_width(row, 14, "bold") + text_width("105", 14, "bold") <= PHONE_WIDTH - 16 for row in rows)
    assert len(re.findall(r'class="card"', svg)) == 6 and 'width="49.7"' in svg  # six abreast, 40 units or more
