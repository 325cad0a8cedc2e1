"""Every item a tap (issue 31): a whole game recorded without deal lines from nothing but what the scorer's
state offers (the card grid's legal cards, the buttons, the answers to a question), in-process.

The driver never types: each item of the source game must be among the offered taps when it is due, and
the recorded game must be the source game, item for item."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from servehelp import game_items

from diamonds.core import rules_for
from diamonds.notation import parse_game
from diamonds.replay import validate_record
from diamonds.replay.recorder import Recorder
from diamonds.serve.state import answers, buttons

HEADER = re.compile(r"^R\d+ dealer \S+(?: (\S+) (\d+))?$")
CARD = re.compile(r"^(Jo|\d+[DHSC]|[2-9TJQKA][DHSC]|10[DHSC])")  # a card word without its marks


def tap(recorder: Recorder, item: str) -> str:
    """The offered tap that records `item` (or its first part: a card before its victim's question); fails
    if none is offered."""
    groups = buttons(recorder)
    header = HEADER.match(item)
    if header:
        if header.group(1) is None:
            return ""  # a round without a count opens with its first item
        wanted = f"{header.group(1)} {header.group(2)}"
        offered = [c["text"] for g in groups if g["kind"] == "count" for c in g["choices"]]
        assert wanted in offered, (item, groups)
        return wanted
    words = item.split()
    for group in groups:
        if "{}" in group.get("join", ""):
            template = group["join"].split()
            fixed = [w for w in template if w != "{}"]
            if group["kind"] == "exchange" and words[:len(fixed)] == fixed:  # `take Bob {}`: its first card
                assert words[len(fixed)] in [c["text"] for c in group["choices"]], (item, group)
                return " ".join(words[:len(template)])  # ... and a question for the rest (`point 10H`)
            if words[:len(fixed)] == fixed and len(words) == len(template):
                cards = words[len(fixed):]
                order = [c["text"] for c in group["choices"]]
                assert set(cards) <= set(order), (item, group)
                return " ".join(fixed + sorted(cards, key=order.index))
        for choice in group["choices"]:
            if choice["text"] == item:
                return item
    card = CARD.match(item.split(">")[0]).group(1)  # `JoC+`, `AH-`: the card, then its suit and sign
    if " " not in item:
        assert card in recorder.legal(), (item, recorder.where(), recorder.legal())
        return card
    raise AssertionError(f"{item!r} is not offered: {groups}")


def record_by_taps(rules: str, count: int, seed: int, *, typed_victims: bool) -> tuple[Recorder, str, list[str], int]:
    """The game of `game_items(rules, count, seed)` recorded from the offered taps; `typed_victims`: a card
    with its victim (`15C>Ann`) is typed whole, as the scorer must while victims are asked late."""
    game, expected, items = game_items(rules, count, seed, deals=False)
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', expected, re.M))
    recorder = Recorder.new(rules, tags["Players"].split(), dealer=tags["Dealer"],
                            variants=tags.get("Variant", "").split() or ())
    taps = 0
    owed: list[tuple[str, str]] = []  # victims written on a card whose trick is not yet complete
    asked_in_play = 0  # victims asked when their trick was complete, before the round's end
    skipped: list[str] = []  # optional victims (`>Ann`), named where nothing hangs on them: nothing to tap
    for item in items:
        if item.startswith("end "):
            question = recorder.question
            if question is not None and question.end:  # the award asked for at the round's last card
                assert item.split()[-1] in (answers(recorder) or []), (item, question)
                outcome = recorder.enter(item.split()[-1])
                taps += 1
            elif typed_victims:  # an award named though nobody had a point to take (it may still be named, R14)
                outcome = recorder.enter(item)
            else:  # ... which no tap offers, as nothing hangs on it: the round is scored alike without it
                skipped.append(item.split()[-1])
                continue
            assert outcome.refusal is None, (item, outcome.refusal)
            continue
        if typed_victims and ">" in item:
            outcome = recorder.enter(item)
            assert outcome.refusal is None, (item, outcome)
            continue
        first = tap(recorder, item)
        if not first:
            continue
        outcome = recorder.enter(first)
        taps += 1
        assert outcome.refusal is None, (item, first, outcome.refusal)
        whole = item.split(">")[0]
        rest = whole[len(first):].strip() if whole.startswith(first) else ""  # what the tap left out
        if rest and outcome.question is not None and outcome.question.code in ("missing-second", "missing-choice"):
            answer = rest.split()[-1]  # `point 10H` answered `10H`; a Joker's `C+`
            if outcome.question.code != "missing-second":  # the family's question, with the family's words
                assert outcome.question.choices == rules_for(rules).question_words(recorder.config,
                                                                                   outcome.question.code)
            assert answer in (answers(recorder) or []), (item, outcome.question)
            outcome = recorder.enter(answer)
            taps += 1
            assert outcome.refusal is None and outcome.accepted, (item, outcome)
        elif rest:  # an ace played low (`AH-`): the sign's button after the card (B7)
            signs = [c["text"] for g in buttons(recorder) if g["kind"] == "sign" for c in g["choices"]]
            assert any(text.endswith(" " + item.split(">")[0]) for text in signs), (item, signs)
            outcome = recorder.enter(next(text for text in signs if text.endswith(" " + item.split(">")[0])))
            taps += 1
            assert outcome.refusal is None, (item, outcome)
        if item[len(first):].startswith(">"):
            owed.append((item, item[len(first):]))  # asked once its trick is complete (R14), maybe at a later card
        if owed and recorder.question is None and not recorder.where().endswith(")"):  # its trick is over:
            skipped.append(owed.pop(0)[1])  # the victim was optional (R14: one candidate, or nothing to take)
        if owed and recorder.question is not None:
            wanted, answer = owed.pop(0)
            assert answer in (answers(recorder) or []), (wanted, recorder.question)
            asked_in_play += 1
            outcome = recorder.enter(answer)
            taps += 1
            assert outcome.refusal is None, (wanted, outcome.refusal)
        question = recorder.question  # nothing asked that the game does not name (but the end's award, asked
        assert question is None or question.end, (item, question)  # at the round's last card: the next item)
    assert not owed, owed  # every victim was asked for
    assert taps > 0
    return recorder, expected, skipped, asked_in_play


PASSING = [("1e", 2, 1), ("1e", 3, 2), ("2e", 4, 3), ("bga", 5, 4), ("1e", 4, 5)]  # Fitzgerald's games (R6)
GAMES = [*PASSING, ("kirk", 4, 6), ("bidding", 3, 7)]


@pytest.mark.parametrize("rules,count,seed", PASSING[1:2])  # the taps-alone test below plays every PASSING game
def test_pass_lines_counts_cards_and_the_end_award_are_taps(rules, count, seed) -> None:
    """R6's pass lines are offered as soon as the count is in (choose that many of the cards not yet
    named in the round, joined into `pass Ann 9D 12H`), before any card, and the count and the cards
    are offered too; the recorded game is the source game."""
    recorder, expected, _, _ = record_by_taps(rules, count, seed, typed_victims=True)
    assert recorder.finished
    assert recorder.text.split("\n\n", 1)[1] == expected.split("\n\n", 1)[1]
    assert "pass " in expected


@pytest.mark.parametrize("rules,count,seed", GAMES)
def test_a_game_without_deal_lines_is_recorded_by_taps_alone(rules, count, seed) -> None:
    """Clubs victims too are taps: the round is played on a stand-in deal (its hands unknown), so the victim
    (R13, R14) is asked as soon as its trick is complete, and the answer is one of the question's choices."""
    recorder, expected, skipped, asked_in_play = record_by_taps(rules, count, seed, typed_victims=False)
    assert asked_in_play > 0 or rules != "1e" or count < 3  # R14 names a victim among two sides or more
    assert recorder.finished
    result = re.search(r'^\[Result "(.*)"\]$', expected, re.M).group(1)
    assert f'[Result "{result}"]' in recorder.text and not validate_record(parse_game(recorder.text)).problems
    victim = re.compile(r"(?:\nend )?(>\S+)")  # a card's `>Ann`, or a round's `end >Ann` line
    recorded, source = recorder.text.split("\n\n", 1)[1], expected.split("\n\n", 1)[1]
    assert victim.sub("", recorded) == victim.sub("", source)  # every count, pass line and card, in order
    left_out = Counter(victim.findall(source)) - Counter(victim.findall(recorded))
    assert left_out == Counter(skipped) and not Counter(victim.findall(recorded)) - Counter(victim.findall(source))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kirk_every_card_is_legal_in_the_grid_when_the_hands_are_known(seed) -> None:
    """The grid marks the engine's legal cards where the hands are known (deal lines): every card the game
    played is among them when it is due, the last card of each hand included (issue 31, item 3)."""
    game, expected, items = game_items("kirk", 4, seed, deals=True)
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', expected, re.M))
    recorder = Recorder.new("kirk", tags["Players"].split(), dealer=tags["Dealer"])
    checked = last_cards = 0
    for item in items:
        if " " not in item and not HEADER.match(item):
            assert recorder.hands_known(), (item, recorder.where())
            assert item in recorder.legal(), (item, recorder.where(), recorder.legal())
            checked += 1
            last_cards += len(recorder.legal()) == 1
        assert recorder.enter(item).refusal is None, item
    assert recorder.finished and checked == 52 * len(recorder.rounds) and last_cards >= len(recorder.rounds)
