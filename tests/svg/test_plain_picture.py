"""The house's picture and view of a plain trick game (diamonds.svg.plain, diamonds.views.plain), on the test
family that names them (tests/toyfamily, rulings T1-T7): the replay's table at a stop, as everyone and as one
player sees it, checked against the engine's game."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from diamonds.core import registry, simulate
from diamonds.core.registry import register
from diamonds.core.trick import CardPlayed, CardsDealt
from diamonds.notation import parse_game
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.steps import find_position, steps_of
from diamonds.svg import step_svg
from diamonds.views.plain import VIEW

NS = {"s": "http://www.w3.org/2000/svg"}


@pytest.fixture()
def steps(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The stops of a simulated toy game, replayed from its DGN text."""
    import toyfamily

    monkeypatch.setattr(registry, "_REGISTRY", registry._Registry())
    register(toyfamily.FAMILY)
    replayed = replay_record(parse_game(write_game(record_from_game(simulate(rules="toy", seed=3)))))
    assert replayed.valid
    return steps_of(replayed)


def cards_of(group: ET.Element) -> list[str]:
    return [str(card.get("data-card")) for card in group.iterfind(".//s:g[@data-card]", NS)]


def test_a_stop_shows_the_trick_and_what_the_viewer_may_see(steps: list[Any]) -> None:
    step = steps[find_position(steps, "R2.3.2")]
    table = step.table
    events = [event for stop in steps[:steps.index(step) + 1] for event in stop.events]
    dealt = [e for e in events if isinstance(e, CardsDealt)][-1]
    played = [e for e in events if isinstance(e, CardPlayed) and e.trick_no <= 3][-6:]  # round 2's, T3
    root = ET.fromstring(step_svg(step, 0))
    assert root.findtext("s:title", namespaces=NS) == "Diamonds toy: R2.3.2 (round 2 of 2), as Ann sees it"
    assert cards_of(root.find(".//s:g[@class='trick']", NS)) == [str(e.card) for e in played[-2:]]
    ann, bob = (root.find(f".//s:g[@class='seat'][@data-seat='{seat}']", NS) for seat in (0, 1))
    assert ann is not None and bob is not None
    left = [str(c) for c in dealt.hands[0] if c not in {e.card for e in played}]
    assert cards_of(ann) == [str(c) for c in table.hands[0]] and sorted(cards_of(ann)) == sorted(left)
    assert cards_of(bob) == [] and len(bob.findall(".//s:g[@class='card back']", NS)) == len(table.hands[1]) == 3
    everyone = ET.fromstring(step_svg(step))
    assert cards_of(everyone.find(".//s:g[@class='seat'][@data-seat='1']", NS)) == [str(c) for c in table.hands[1]]


def test_the_last_stop_names_the_winners_and_hides_nothing(steps: list[Any]) -> None:
    table = steps[-1].table
    root = ET.fromstring(step_svg(steps[-1], 1))
    texts = [element.text for element in root.iter(f"{{{NS['s']}}}text")]
    best = max(s.score for s in table.standings)
    winners = " and ".join(table.config.players[s.side] for s in table.standings if s.winner)
    assert any(text and text.startswith(f"Game over · {winners} win") and text.endswith(f"with {best}")
               for text in texts), texts
    assert sum(table.totals) == 12 and not root.findall(".//s:g[@class='card back']", NS)  # T6, T7


def test_the_view_tells_each_stop_and_keeps_the_deal_from_a_player(steps: list[Any]) -> None:
    deal = steps[find_position(steps, "R1.0")]
    told = VIEW.step_lines(deal, None)
    assert told[0] == "Round 1: Ann deals" and told[1].startswith("Ann holds ")
    assert VIEW.step_lines(deal, 0) == ["Round 1: Ann deals"]  # the hands are not the log's to show a player
    won = steps[find_position(steps, "R1.1.2")]
    assert any(line.endswith("(T5)") and " wins trick 1 with " in line for line in VIEW.step_lines(won, None))
    screen = VIEW.screen(won, 2, len(steps), 0, "").plain
    assert screen.startswith("R1.1.2 (3/") and "Bob: " in screen and "(hidden)" in screen
