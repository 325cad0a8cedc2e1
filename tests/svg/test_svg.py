"""The picture of the table (`diamonds.svg`): what each family's SVG shows, and what perspective hides.

Pictures are parsed with xml.etree and checked against the replay's table
at that stop: names, the dealer and Thief marks, every card of the trick with
its player, crystals as 5s and 1s (R3), Kirk's piles and tie reveals (K5, K6),
the bidding game's bids and point cards (B3-B5). Golden files hold a
picture's structure (its texts and the kinds of things drawn, never
coordinates); `DIAMONDS_UPDATE_GOLDEN=1` rewrites them.
"""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from diamonds.cli.inputs import games_in
from diamonds.cli.main import main
from diamonds.core import FAMILIES, Engine, play_random_game, rules_for
from diamonds.replay import ReplayedGame, record_from_game, replay_record
from diamonds.replay.steps import Step, find_position, steps_of
from diamonds.svg import step_svg

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "svg"
NS = "{http://www.w3.org/2000/svg}"


def sample_steps(name: str) -> list[Step]:
    replayed = replay_record(next(iter(games_in(str(SAMPLES / name)))))
    assert replayed.valid, replayed.problems
    return steps_of(replayed)


def at(steps: list[Step], position: str) -> Step:
    return steps[find_position(steps, position)]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def find_all(root: ET.Element, tag: str, cls: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls is None or cls in classes(e)]


def seat_plate(root: ET.Element, seat: int) -> ET.Element:
    (plate,) = [g for g in find_all(root, "g", "seat") if g.get("data-seat") == str(seat)]
    return plate


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(NS + "text")]


def data_cards(element: ET.Element) -> list[str]:
    return [g.get("data-card", "") for g in find_all(element, "g", "card") if "back" not in classes(g)]


def crystal_points(element: ET.Element) -> int:
    """R3: a big crystal is 5 points, a small one 1."""
    return 5 * len(find_all(element, "polygon", "five")) + len(find_all(element, "polygon", "one"))


def trick_cards(root: ET.Element) -> list[tuple[int, str]]:
    (trick,) = find_all(root, "g", "trick")
    return [(int(g.get("data-seat", "-1")), g.get("data-card", "")) for g in find_all(trick, "g", "card")]


def visible(root: ET.Element, seat: int | None) -> ET.Element:
    """A page picture as `seat` sees it once the page's CSS has picked (None: everything shown)."""
    copy = ET.fromstring(ET.tostring(root))

    def prune(parent: ET.Element) -> None:
        for child in list(parent):
            seats = child.get("data-seat", "").split()
            kind = classes(child)
            hidden = ("private" in kind and seat is not None and str(seat) not in seats) or (
                "concealed" in kind and (seat is None or str(seat) in seats))
            if hidden:
                parent.remove(child)
            else:
                prune(child)

    prune(copy)
    return copy


def structure(svg: str) -> str:
    """What a golden file compares: every text and every card, crystal and mark, in order, no coordinates."""
    lines = []
    for element in parse(svg).iter():
        tag = element.tag.removeprefix(NS)
        kind = element.get("class", "")
        if tag in ("title", "desc", "text"):
            lines.append(f"{tag}: {element.text}")
        elif tag == "g" and kind:
            extra = " ".join(f"{k}={v}" for k, v in sorted(element.attrib.items()) if k.startswith("data-"))
            lines.append(f"g.{kind} {extra}".rstrip())
        elif tag == "polygon" and "crystal" in kind:
            lines.append(kind)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- every picture


def test_svg_has_title_viewbox_and_no_external_resources() -> None:
    svg = step_svg(at(sample_steps("1e-3p-league.dgn"), "R2.4"), size=900)
    root = parse(svg)
    assert root.tag == NS + "svg"
    assert root.get("viewBox") == "0 0 600 640"
    assert root.get("width") == "900"
    assert root.find(NS + "title") is not None and "R2.4" in (root.find(NS + "title").text or "")
    for tag in ("image", "script", "style", "foreignObject", "use", "a"):
        assert not find_all(root, tag), tag
    assert "href" not in svg and "url(" not in svg and "@import" not in svg


# --------------------------------------------------------------------------- Fitzgerald


@pytest.fixture(scope="module")
def league() -> list[Step]:
    return sample_steps("1e-3p-league.dgn")


@pytest.mark.parametrize("position", ["start", "R1.0", "R2.4.2", "R2.4", "R2.end", "end"])
def test_fitzgerald_names_marks_trick_and_crystals(league: list[Step], position: str) -> None:
    step = at(league, position)
    table = step.table
    root = parse(step_svg(step))
    config = table.config
    for seat, name in enumerate(config.players):
        plate = seat_plate(root, seat)
        assert texts(plate)[0] == name
        marks = {g.get("data-marker") for g in find_all(plate, "g", "marker")}
        assert ("dealer" in marks) == (seat == table.dealer)
        assert ("Thief" in marks) == (seat == table.thief)
        assert data_cards(find_all(plate, "g", "hand")[0]) == [str(card) for card in table.hands[seat]]
    assert trick_cards(root) == [(seat, str(card)) for seat, card in table.trick]
    winners = [int(g.get("data-seat", "-1")) for g in find_all(root, "g", "winner")]
    assert winners == ([table.trick_winner] if table.trick_winner is not None else [])
    for side in range(config.side_count):
        (group,) = [g for g in find_all(root, "g", "side") if g.get("data-side") == str(side)]
        (showroom,) = find_all(group, "g", "showroom-crystals")
        (vault,) = find_all(group, "g", "vault-crystals")
        assert crystal_points(showroom) == table.showroom[side]  # R3: 5s and 1s
        assert crystal_points(vault) == table.vault[side]
        assert len(find_all(showroom, "polygon", "five")) == table.showroom[side] // 5
        assert f"Score {table.score(side)}" in " ".join(texts(group))
    (header,) = find_all(root, "g", "header")
    assert crystal_points(header) == table.supply
    assert f"Supply {table.supply}" in texts(header)
    assert crystal_points(root) == 235  # R3: every crystal is somewhere


def test_fitzgerald_thief_is_marked() -> None:
    steps = sample_steps("bga-5p-online.dgn")
    for step in (at(steps, "R1.0"), at(steps, "R2.3"), at(steps, "R3.end")):
        thief = step.table.thief
        assert thief is not None
        root = parse(step_svg(step))
        marked = [seat for seat in range(step.table.config.player_count)
                  if "Thief" in {g.get("data-marker") for g in find_all(seat_plate(root, seat), "g", "marker")}]
        assert marked == [thief]  # R13/R15


def test_fitzgerald_perspective_hides_hands_vaults_and_scores(league: list[Step]) -> None:
    step = at(league, "R2.4.2")
    table = step.table
    me = 1
    svg = step_svg(step, as_player=me)
    root = parse(svg)
    shown = set(data_cards(root))
    assert shown == {str(card) for card in table.hands[me]} | {str(card) for _, card in table.trick}
    for seat in range(table.config.player_count):
        hand = find_all(seat_plate(root, seat), "g", "hand")[0]
        backs = find_all(hand, "g", "back")
        assert len(backs) == (0 if seat == me else len(table.hands[seat]))
        side_texts = " ".join(texts(seat_plate(root, seat)))
        if seat == me:
            assert f"Vault {table.vault[seat]}" in side_texts and f"Score {table.score(seat)}" in side_texts
        else:
            assert "Vault ?" in side_texts and "Score ?" in side_texts
            assert not find_all(seat_plate(root, seat), "g", "vault-crystals")
            assert f"Showroom {table.showroom[seat]}" in side_texts  # Showrooms are open
    # the viewer sits at the bottom
    assert "as Ines_B sees it" in (root.find(NS + "title").text or "")


def test_fitzgerald_partnership_vault_is_the_team_s(league: list[Step]) -> None:
    step = at(sample_steps("2e-6p-partnership.dgn"), "R3.4.3")
    config, table = step.table.config, step.table
    me = 0
    partner = next(seat for seat in config.sides[config.side_of[me]] if seat != me)
    root = parse(step_svg(step, as_player=me))
    all_texts = " ".join(texts(root))
    assert all_texts.count("Vault ?") == config.side_count - 1
    assert f"Vault {table.vault[config.side_of[me]]}" in " ".join(texts(seat_plate(root, min(me, partner))))
    page = parse(step_svg(step, for_page=True))
    seats_of_vaults = {g.get("data-seat") for g in find_all(page, "g", "private") if find_all(g, "g", "vault-crystals")}
    assert seats_of_vaults == {" ".join(map(str, side)) for side in config.sides}


def test_game_end_shows_everything(league: list[Step]) -> None:
    last = league[-1]
    assert last.table.results
    root = parse(step_svg(last, as_player=0))
    assert "?" not in " ".join(texts(root))
    assert not find_all(root, "g", "back")
    page = step_svg(last, for_page=True)
    assert 'class="private"' not in page and 'class="concealed"' not in page
    best = max(result.score for result in last.table.results)
    assert any(line.startswith("Game over") and line.endswith(f"with {best}") for line in texts(root))


# --------------------------------------------------------------------------- the page's two versions


@pytest.mark.parametrize("name, position", [
    ("1e-3p-league.dgn", "R2.4.2"), ("2e-6p-partnership.dgn", "R3.4.3"), ("kirk-4p-hands.dgn", "R3.9"),
    ("bidding-3p-club.dgn", "R1.0"), ("bidding-3p-club.dgn", "R1.3.2"),
])
def test_page_version_shows_each_seat_what_as_player_shows(name: str, position: str) -> None:
    step = at(sample_steps(name), position)
    page = parse(step_svg(step, for_page=True))
    privates = find_all(page, "g", "private")
    concealed = find_all(page, "g", "concealed")
    assert privates and len(privates) == len(concealed)
    assert [g.get("data-seat") for g in privates] == [g.get("data-seat") for g in concealed]
    # The page's picture does not name its position (the page does, beside it): no label in its header
    label = f" · {step.label}"
    assert not [text for text in texts(page) if text.endswith(label)]
    assert step.label not in (page.findtext(NS + "title") or "")
    for seat in range(step.table.config.player_count):
        alone = parse(step_svg(step, as_player=seat))
        assert sorted(data_cards(visible(page, seat))) == sorted(data_cards(alone))
        said = sorted(text.removesuffix(label) for text in texts(alone))
        assert sorted(texts(visible(page, seat))) == said
    assert sorted(data_cards(visible(page, None))) == sorted(data_cards(parse(step_svg(step))))


# --------------------------------------------------------------------------- Kirk


@pytest.fixture(scope="module")
def kirk() -> list[Step]:
    return sample_steps("kirk-4p-hands.dgn")


@pytest.mark.parametrize("position", ["R3.9", "R2.4", "R1.1", "R2.end", "end"])
def test_kirk_piles_and_tie_reveals(kirk: list[Step], position: str) -> None:
    step = at(kirk, position)
    table = step.table
    root = parse(step_svg(step))
    assert trick_cards(root) == [(seat, str(card)) for seat, card in table.trick]
    revealed: dict[int, list[str]] = {}
    if table.tie is not None:
        for tie_step in table.tie.steps:
            for seat, card in tie_step.revealed:
                revealed.setdefault(seat, []).append(str(card))
    for seat in range(4):
        plate = seat_plate(root, seat)
        (pile,) = find_all(plate, "g", "pile")
        assert pile.get("data-cards") == str(len(table.piles[seat]))  # K6
        words = " ".join(texts(plate))
        assert f"{table.tricks_won[seat]} trick" in words and f"{table.hand_points[seat]} pts" in words  # K7
        assert f"Total {table.totals[seat]}" in words
        reveals = find_all(plate, "g", "reveals")
        assert [data_cards(g) for g in reveals] == ([revealed[seat]] if seat in revealed else [])  # K5


def test_kirk_tie_sample_positions_have_reveals(kirk: list[Step]) -> None:
    """R3.9 of the sample: Ewan and Fiona_K tie on 13; depth 1 shows Ewan KS, Fiona_K 8C (K5)."""
    root = parse(step_svg(at(kirk, "R3.9")))
    shown = {int(g.get("data-seat", "-1")): data_cards(g) for g in find_all(root, "g", "reveals")}
    names = at(kirk, "R3.9").table.config.players
    assert {names[seat]: cards for seat, cards in shown.items()} == {"Ewan": ["KS"], "Fiona_K": ["8C"]}
    assert any("piles, step 1 (K5)" in line for line in texts(root))


def test_kirk_perspective_hides_other_hands(kirk: list[Step]) -> None:
    step = at(kirk, "R2.4.2")
    root = parse(step_svg(step, as_player=2))
    table = step.table
    assert set(data_cards(root)) == {str(c) for c in table.hands[2]} | {str(c) for _, c in table.trick}


# --------------------------------------------------------------------------- the bidding game


@pytest.fixture(scope="module")
def bidding() -> list[Step]:
    return sample_steps("bidding-3p-club.dgn")


@pytest.mark.parametrize("position", ["R1.0", "R1.3.2", "R1.3", "R1.end", "end"])
def test_bidding_bids_point_cards_and_trick(bidding: list[Step], position: str) -> None:
    step = at(bidding, position)
    table = step.table
    root = parse(step_svg(step))
    assert trick_cards(root) == [(play.seat, str(play.card)) for play in table.trick]
    for seat in range(3):
        plate = seat_plate(root, seat)
        words = texts(plate)
        bid, final = table.bids[seat], table.final_bids[seat]
        assert any(line.startswith(f"Bid {bid if bid is not None else '–'}") for line in words)  # B3
        if final is not None:
            assert any(line.endswith(f"final {final}") for line in words)  # B5
        points = find_all(plate, "g", "point-card")
        if table.point_cards[seat] is not None:
            assert data_cards(points[0]) == [str(table.point_cards[seat])]  # B4
        assert f"Tricks {table.tricks_won[seat]}" in words


def test_bidding_perspective_hides_point_cards_until_scored(bidding: list[Step]) -> None:
    deal = at(bidding, "R1.0")
    table = deal.table
    root = parse(step_svg(deal, as_player=0))
    for seat in (1, 2):
        points = find_all(seat_plate(root, seat), "g", "point-card")[0]
        assert not data_cards(points) and find_all(points, "g", "back")
    mine = {str(c) for c in table.hands[0]} | {str(table.point_cards[0])} | {str(table.taken[0])}
    assert set(data_cards(root)) == mine  # no other hand, point card or kitty card leaks
    scored = at(bidding, "R1.end")
    root = parse(step_svg(scored, as_player=0))
    for seat in range(3):
        assert data_cards(find_all(seat_plate(root, seat), "g", "point-card")[0]) == [
            str(scored.table.point_cards[seat])]  # B9: scoring shows them


def test_bidding_trick_notes_aces_and_jokers() -> None:
    """B7: an ace played high or low, a Joker's choice and suit, are written under the card."""
    game = Engine(rules_for("bidding").configure(["Ann", "Bob", "Cat"], dealer=0))
    rng = random.Random(5)
    noted = 0
    for step in steps_of(_replayed(play_random_game(game.config, rng))):
        for play in step.table.trick:
            if play.high is None:
                continue
            root = parse(step_svg(step))
            (card,) = [g for g in find_all(root, "g", "card") if g.get("data-card") == str(play.card)
                       and g.get("data-seat") == str(play.seat)]
            note = texts(card)[-1]
            assert ("high" if play.high else "low") in note
            if str(play.card) == "Jo":
                assert play.suit.symbol in note
            noted += 1
        if noted > 6:
            break
    assert noted


# --------------------------------------------------------------------------- golden structure


GOLDEN_CASES = [
    ("fitzgerald-1e-3p-R2.4", "1e-3p-league.dgn", "R2.4", None),
    ("fitzgerald-2e-6p-R3.4.3-as-0", "2e-6p-partnership.dgn", "R3.4.3", 0),
    ("kirk-R3.9", "kirk-4p-hands.dgn", "R3.9", None),
    ("bidding-R1.0-as-1", "bidding-3p-club.dgn", "R1.0", 1),
    ("bidding-end", "bidding-3p-club.dgn", "end", None),
]


@pytest.mark.parametrize("golden, name, position, seat", GOLDEN_CASES)
def test_golden_structure(golden: str, name: str, position: str, seat: int | None) -> None:
    got = structure(step_svg(at(sample_steps(name), position), as_player=seat))
    path = GOLDEN / f"{golden}.txt"
    if os.environ.get("DIAMONDS_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the command and the notebook


def test_replay_svg_writes_the_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "position.svg"
    assert main(["replay", str(SAMPLES / "1e-3p-league.dgn"), "--at", "R2.7", "--as", "Kofi", "--svg", str(out)]) == 0
    root = parse(out.read_text(encoding="utf-8"))
    steps = sample_steps("1e-3p-league.dgn")
    assert ET.tostring(root) == ET.tostring(parse(step_svg(at(steps, "R2.7"), as_player=2)))


def test_replay_svg_to_an_unwritable_place_is_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(SAMPLES / "1e-3p-league.dgn"), "--svg", str(tmp_path / "no" / "such" / "x.svg")])
    err = capsys.readouterr().err
    assert code != 0 and "cannot write" in err and "Traceback" not in err


def _replayed(game: Engine) -> ReplayedGame:
    return ReplayedGame(record_from_game(game), game.config, game)


def test_repr_svg_of_a_game_and_a_step() -> None:
    game = play_random_game(rules_for("kirk").configure(["Ann", "Bob", "Cat", "Dan"], dealer=0), random.Random(4))
    root = parse(game._repr_svg_())
    last = steps_of(_replayed(game))[-1]
    assert root.find(NS + "title") is not None
    assert ET.tostring(root) == ET.tostring(parse(step_svg(last)))
    assert texts(root)[-1] != "" and any(line.startswith("Game over") for line in texts(root))
    step = at(sample_steps("bidding-3p-club.dgn"), "R1.3")
    assert step._repr_svg_() == step_svg(step)


# --------------------------------------------------------------------------- random games


@pytest.mark.parametrize("rules, players, moves", [
    ("2e", 4, None), ("1e", 2, None), ("bga", 5, 120), ("kirk", 4, 160), ("bidding", 3, 160),
])
def test_random_games_render_at_every_stop(rules: str, players: int, moves: int | None) -> None:
    """Whole games, or their first `moves` moves (the samples' tests cover the ends of long games)."""
    rng = random.Random(f"{rules}{players}")
    rule_set = rules_for(rules)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][:players]
    game = play_random_game(rule_set.configure(names, dealer=rng.randrange(players)), rng, stop_after=moves)
    steps = steps_of(_replayed(game))
    assert len(steps) > 20
    for index, step in enumerate(steps):
        root = parse(step_svg(step, for_page=index % 2 == 0))
        assert len(find_all(root, "g", "seat")) == players
        if rules not in ("kirk", "bidding"):
            assert crystal_points(root) == 235  # R3: every crystal is somewhere (a closed Vault draws none)
        if index % 7 == 0:
            parse(step_svg(step, as_player=index % players))


def test_every_registered_family_has_a_picture() -> None:
    assert all(family.part("picture").svg for family in FAMILIES)
