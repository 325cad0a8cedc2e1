"""Every item a tap (issue 31, item 1): headless Chromium at 360 x 740, on the scorer's page of a real
`diamonds serve` process, records one game of each family without deal lines by clicking only what the
page shows (the count buttons, the pass and take groups' cards, the call buttons, the card grid, the
question's answers, an ace's sign button): nothing is typed. The DGN downloaded then validates and has the
source game's Result.

The driver reads the page, never the API: a tap is done when the page has drawn the server's answer (the
grid redrawn, no tap waiting). Where the source names an optional victim that the page does not ask for
(R14: one candidate, or nothing to take), the victim is skipped, as tests/serve/test_taps.py does.

Short games keep it quick (`GAMES`): 2e with two players (four rounds), 1e with four (four rounds, the
fewest with Clubs victims asked in play), bga with four (180 items, where five players make 280), Kirk's
game of one hand (`Hands`, K8), and a whole bidding game (eight hands to 100 points, B10: 320 items). The taps per round and per
trick are printed (`pytest -s`) for the issue's note."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

import pytest
from chromium import chromium, require, wait_until
from servehelp import HANG, Scorer, game_items

from diamonds.notation import parse_game
from diamonds.replay import validate_record

pytest.importorskip("fastapi")
pytestmark = [pytest.mark.browser, pytest.mark.process, pytest.mark.slow]

HEADER = re.compile(r"^R(\d+) dealer \S+(?: (\S+) (\d+))?$")
CARD = re.compile(r"^(Jo|\d+[DHSC]|[2-9TJQKA][DHSC]|10[DHSC])")  # a card word without its marks
VICTIM = re.compile(r"(?:\nend )?(>\S+)")  # a card's `>Ann`, or a round's `end >Ann` line

#: (rules, players, seed, option tags). The seeds give the fewest taps of their first 40 (the fewest cards passed,
#: R6; the bidding game's, the fewest hands of its first 12); 1e with four players, whose Clubs victims are asked
#: in play (R14: two sides or more), 2e with two, whose victims are not (one candidate).
GAMES = [("1e", 4, 4, {}), ("2e", 2, 18, {}), ("bga", 4, 18, {}), ("kirk", 4, 4, {"Hands": "1"}), ("bidding", 3, 6, {})]

#: What the page shows after an answer, read in one go (the page redraws after every answer).
_READ = """
const $ = (id) => document.getElementById(id);
const texts = (css, root) => [...(root || document).querySelectorAll(css)].map((b) => b.dataset.text);
return {renders: window.tappedRenders, waiting: !$("queue").hidden, refusal: $("refusal").textContent,
        question: !$("question").hidden, asked: $("question-text").textContent, choices: texts("#choices button"),
        trick: $("trick").textContent, where: $("where").textContent,
        groups: [...document.querySelectorAll("#calls .group, #signs .group")].map((g) => ({
          kind: g.className.replace("group ", ""), title: g.querySelector("p").textContent,
          texts: texts("button", g)}))};
"""

#: Resolves with `_READ` once the page has drawn an answer after render number `arguments[0]`, no tap waiting.
_SETTLED = """
const done = arguments[arguments.length - 1], before = arguments[0];
const read = () => (function () {""" + _READ + """})();
const ready = () => window.tappedRenders > before && document.getElementById("queue").hidden;
if (ready()) { done(read()); } else {
  const watch = new MutationObserver(() => { if (ready()) { watch.disconnect(); done(read()); } });
  watch.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""

#: Counts the page's redraws of the card grid (each answer drawn redraws it).
_COUNT_RENDERS = """
window.tappedRenders = 0;
new MutationObserver(() => { window.tappedRenders += 1; })
  .observe(document.getElementById("grid"), {childList: true});
"""


#: The centre of the element `FIND` returns, brought into view, and whether a tap there reaches it (nothing over it).
_AIM = """
const target = (function () { FIND }).apply(null, arguments);
if (!target) return null;
target.scrollIntoView({block: "center", inline: "center"});
const box = target.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
const top = document.elementFromPoint(x, y);
return {x, y, hit: !!top && (top === target || target.contains(top)), renders: window.tappedRenders};
"""


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    require()
    with chromium(360, 740) as browser:
        browser.set_script_timeout(HANG)
        yield browser


@dataclass
class Taps:
    """The taps made, by round (everything) and by trick (a card's taps: the card, its Joker's suit and sign
    or its ace's sign, the victim asked when its trick is complete)."""

    rounds: Counter[int] = field(default_factory=Counter)
    tricks: Counter[tuple[int, int]] = field(default_factory=Counter)
    victims: int = 0  # Clubs victims asked in play, when their trick was complete (R14)
    awards: int = 0  # end-of-round awards asked at a round's last card

    def summary(self) -> str:
        per_round, per_trick = list(self.rounds.values()), list(self.tricks.values())
        lines = [taps - sum(n for (at, _), n in self.tricks.items() if at == number) for number, taps in self.rounds.items()]
        return (f"{sum(per_round)} taps; per round {per_round} (mean {mean(per_round):.1f}), of which its lines "
                f"(count, pass lines, bids, takes, awards) {lines}; "
                f"per trick min {min(per_trick)} mean {mean(per_trick):.2f} max {max(per_trick)}; "
                f"victims asked in play {self.victims}, end awards {self.awards}")


class Page:
    """The scorer's page on `browser`: taps what it shows, and reads it once it has drawn the answer."""

    def __init__(self, browser: Any, url: str) -> None:
        from selenium.webdriver.common.by import By

        self.browser = browser
        browser.get(url)
        assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, "#grid button"))  # the first drawing
        browser.get_log("browser")  # what earlier pages logged is theirs
        browser.execute_script(_COUNT_RENDERS)
        self.state: dict[str, Any] = browser.execute_script(_READ)

    def tap(self, find: str, *args: Any, settle: bool = True) -> dict[str, Any]:
        """Tap the element the script `find` returns (one the page shows): scrolled into view, then a mouse press
        and release at its centre, as the browser's own input (DevTools' `Input.dispatchMouseEvent`, which
        chromedriver's click also ends in), so whatever is drawn on top there is what gets the tap. With
        `settle`, wait until the page has drawn the answer."""
        where = self.browser.execute_script(_AIM.replace("FIND", find), *args)
        assert where is not None, ("not on the page", find, args, self.state)
        assert where["hit"], ("covered where it is drawn", find, args, where, self.state)
        for kind in ("mousePressed", "mouseReleased"):
            self.browser.execute_cdp_cmd("Input.dispatchMouseEvent", {
                "type": kind, "x": where["x"], "y": where["y"], "button": "left", "clickCount": 1})
        if settle:
            self.state = self.browser.execute_async_script(_SETTLED, where["renders"])
            assert not self.state["waiting"] and not self.state["refusal"], (args, self.state)
        return self.state

    def button(self, css: str, text: str, **how: Any) -> dict[str, Any]:
        return self.tap("return [...document.querySelectorAll(arguments[0])].find((b) => b.dataset.text === arguments[1])"
                        " || null", css, text, **how)

    def card(self, card: str, **how: Any) -> dict[str, Any]:
        return self.tap('return document.querySelector(`#grid button[data-card="${arguments[0]}"]`)', card, **how)

    def in_group(self, title: str, text: str, **how: Any) -> dict[str, Any]:
        return self.tap("const g = [...document.querySelectorAll('#calls .group')].find((g) => g.querySelector('p')"
                        ".textContent === arguments[0]); return g ? [...g.querySelectorAll('button')]"
                        ".find((b) => b.dataset.text === arguments[1]) || null : null", title, text, **how)

    def answer(self, choice: str) -> dict[str, Any]:
        assert self.state["question"] and choice in self.state["choices"], (choice, self.state)
        return self.button("#choices button", choice)


def play_by_taps(page: Page, items: list[str], per_trick: int) -> tuple[Taps, list[str]]:
    """Record `items` (a game without deal lines, item by item) on the page by taps alone; the taps made and
    the optional victims skipped (the page asked for none: R14)."""
    taps, skipped, owed = Taps(), [], []
    number = cards = 0
    for item in items:
        words = item.split()
        header = HEADER.match(item)
        if header:
            number, cards = int(header.group(1)), 0
            if header.group(2) is not None:  # the dealer's count (R6): a button
                page.button("#calls .group.count button", f"{header.group(2)} {header.group(3)}")
                taps.rounds[number] += 1
            continue  # a round without a count opens with its first item
        if words[0] == "end":  # the round's award, asked at its last card where someone has a point to take
            if page.state["question"] and page.state["asked"].startswith("End of the round"):
                page.answer(words[-1])
                taps.rounds[number] += 1
                taps.awards += 1
            else:
                skipped.append(words[-1])
            continue
        if " " in item:  # a round's line: a call's button, or a group's cards (a pass line, a take's kitty card)
            calls = [text for group in page.state["groups"] for text in group["texts"]]
            if item in calls:
                page.button("#calls button", item)
                taps.rounds[number] += 1
            else:
                title = f"{words[1]}: {words[0]}"
                group = next((g for g in page.state["groups"] if g["title"].startswith(title)), None)
                assert group is not None, (item, page.state)
                chosen = [word for word in words[2:] if word in group["texts"]]
                chosen = chosen[:len(words) - 2 if group["kind"] != "exchange" else 1]
                assert chosen and words[2:2 + len(chosen)] == chosen, (item, group)
                for at, word in enumerate(chosen):  # the group's line is sent at its last card
                    page.in_group(group["title"], word, settle=at == len(chosen) - 1)
                taps.rounds[number] += len(chosen)
                if words[2 + len(chosen):]:  # `point 10H`: the take's question, answered by the point card (B4)
                    page.answer(words[-1])
                    taps.rounds[number] += 1
            assert not page.state["question"], (item, page.state)
            continue
        trick = (number, cards // per_trick + 1)
        cards += 1
        whole = item.split(">")[0]
        card = CARD.match(whole).group(1)  # type: ignore[union-attr]
        page.card(card)
        made = 1
        rest = whole[len(card):]
        if rest and page.state["question"] and not page.state["asked"].startswith("End of the round"):
            page.answer(rest)  # a Joker's suit and sign (B7)
            made += 1
        elif rest:  # an ace played low: the sign's button after the card (B7)
            sign = next((text for group in page.state["groups"] if group["kind"] == "sign" for text in group["texts"]
                         if text.endswith(" " + whole)), None)
            assert sign is not None, (item, page.state)
            page.button("#signs .group.sign button", sign)
            made += 1
        if ">" in item:
            owed.append(item[item.index(">"):])  # asked once its trick is complete (R14), maybe at a later card
        if owed and not page.state["question"] and not page.state["trick"]:  # its trick is over, nothing asked:
            skipped.append(owed.pop(0))  # the victim was optional (R14: one candidate, or nothing to take)
        if owed and page.state["question"] and not page.state["asked"].startswith("End of the round"):
            page.answer(owed.pop(0))
            made += 1
            taps.victims += 1
        taps.tricks[trick] += made
        taps.rounds[number] += made
        asked = page.state["question"] and not page.state["asked"].startswith("End of the round")
        assert not asked, (item, page.state)  # nothing asked that the game does not name (but the end's award)
    assert not owed, owed  # every victim the game names was asked for, or skipped as optional
    return taps, skipped


@pytest.mark.parametrize("rules,count,seed,options", GAMES, ids=[g[0] for g in GAMES])
def test_a_game_without_deal_lines_is_recorded_by_taps_alone_in_chromium(server, phone, rules, count, seed,
                                                                        options) -> None:
    game, expected, items = game_items(rules, count, seed, deals=False, options=options)
    table = server.create(game=game, tags=options)  # the organiser's set-up (the API: not what is tested)
    try:
        page = Page(phone, table["scorer_url"])
        taps, skipped = play_by_taps(page, items, game.config.plays_per_trick)
        recorded = Scorer(server.base, table).dgn()  # what the organiser or the scorer downloads
        severe = [e["message"] for e in phone.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    finally:
        phone.get("about:blank")  # the page's live stream ends here, not with the module's server
    print(f"\n{rules} with {count} players, {len(taps.rounds)} round(s): {taps.summary()}")
    assert not severe, severe  # no script error, no CSP violation, no refusal
    result = re.search(r'^\[Result "(.*)"\]$', expected, re.M).group(1)  # type: ignore[union-attr]
    assert result != "*" and f'[Result "{result}"]' in recorded, recorded
    assert not validate_record(parse_game(recorded)).problems
    source = expected.split("\n\n", 1)[1]
    movetext = recorded.split("\n\n", 1)[1]
    assert VICTIM.sub("", movetext).strip() == VICTIM.sub("", source).strip()  # every count, line and card, in order
    left_out = Counter(VICTIM.findall(source)) - Counter(VICTIM.findall(movetext))
    assert left_out == Counter(skipped) and not Counter(VICTIM.findall(movetext)) - Counter(VICTIM.findall(source))
    assert page.state["where"] == f"Game over: {result}"
    assert taps.victims > 0 or rules != "1e"  # R14: with two sides or more, a victim is asked in play
