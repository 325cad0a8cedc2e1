"""The compact JSON form (issue 12): what it leaves out, that it holds the full form's facts, that
both forms match the one schema and read back to the same DGN, and the encoder with and without orjson.

The expected compact document is derived here from the full one by the rules docs/json.md states
(leave out null, [] and {}; a card with nothing left is its text; leave out the facts its trick
implies), so a family that writes a fact the compact form drops, or drops one it keeps, fails here.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from schemacheck import schema_errors

from diamonds.cli import jsonfast
from diamonds.cli.main import main
from diamonds.core import FAMILIES, ConfigError, simulate
from diamonds.notation import game_texts, parse_game
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.export import export_of, game_to_dict, record_from_dict
from diamonds.replay.validate import ReplayedGame

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SAMPLE_FILES = sorted(SAMPLES.glob("*.dgn")) + sorted((SAMPLES / "invalid").glob("*.dgn"))

# --------------------------------------------------------------------------- the rules of docs/json.md

_RECORD_LISTS = {"plays", "cards", "choices"}  # the record's own lists: written even when empty
_GAME_OPTIONAL = {"rules", "family", "comments", "players", "config", "problems", "notes"}


def _empty(value: Any) -> bool:
    return value is None or value == [] or value == {}


def _pruned(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _pruned(v) for k, v in value.items() if k in _RECORD_LISTS or not _empty(v)}
    if isinstance(value, list):
        return [_pruned(v) for v in value]
    return value


def _card(play: dict[str, Any], implied: set[str]) -> Any:
    kept = {k: _pruned(v) for k, v in play.items() if k not in implied and not _empty(v)}
    return kept["card"] if set(kept) == {"card"} else kept


def _place(area: dict[str, Any], side: str) -> str:
    if area["side"] is None:
        return "supply" if area["area"] == "supply" else "nobody"
    return area["area"] if area["side"] == side else f"{area['area']}:{area['side']}"


def compact_action(action: dict[str, Any], teams: list[str] | None, implied: dict[str, Any]) -> Any:
    """A full Suit Action in the compact form, by docs/json.md: `implied` holds what its place implies
    (actor, suit, reason); the actor implies the side, a Clubs `from` the victim; one point is the rule."""
    head: dict[str, Any] = {}
    for key in ("actor", "suit", "reason"):
        if action[key] != implied.get(key):
            head[key] = action[key]
    actor = action["actor"]
    actor_side = None if actor is None else next((t for t in teams if actor in t.split("+")), None) if teams \
        else actor
    if action["side"] != actor_side:
        head["side"] = action["side"]
    head = {key: head[key] for key in ("actor", "side", "suit", "reason") if key in head}
    tail: dict[str, Any] = {}
    if action["points"] != 1:
        tail["points"] = action["points"]
    if action["victim"] != (action["from"]["side"] if action["suit"] == "C" else None):
        tail["victim"] = action["victim"]
    if action["thief_before"] is not None or action["thief_after"] is not None:
        tail["thief"] = f"{action['thief_before'] or ''}>{action['thief_after'] or ''}"
    move = f"{_place(action['from'], action['side'])}>{_place(action['to'], action['side'])}"
    return {**head, "move": move, **tail} if head or tail else move


def _compact_fitzgerald_actions(full: dict[str, Any]) -> dict[str, Any]:
    """The full document with its Suit Actions (R9, R10, R16, R17) written as the compact form writes them."""
    doc = copy.deepcopy(full)
    teams = doc["config"]["teams"]
    for rnd in doc["rounds"]:
        for trick in rnd["tricks"]:
            for play in trick["plays"]:
                if "actions" not in play:
                    continue  # not reached by the replay (an invalid game)
                play["actions"] = [compact_action(a, teams, {"actor": play["player"], "suit": play["card"][-1],
                                                             "reason": "off-suit"}) for a in play["actions"]]
            if trick.get("actions"):
                trick["actions"] = [compact_action(a, teams, {"actor": trick["winner"], "suit": trick["led_suit"],
                                                              "reason": "trick won"}) for a in trick["actions"]]
        rnd["awards"] = [compact_action(a, teams, {}) for a in rnd.get("awards", [])]
    return doc


def _deals_as_written(rnd: dict[str, Any]) -> dict[str, list[str]] | None:
    hands = {line["player"]: [card["card"] for card in line["cards"]] for line in rnd["lines"]
             if line["kind"] == "deal"}
    return hands or None


def expected_compact(full: dict[str, Any]) -> dict[str, Any]:
    """The compact form of a full document, by the documented rules."""
    export = export_of(full["rules"]) if full.get("rules") else None
    implied = {"player"} | (set(export.implied_play_facts) if export else set())
    implied_trick = set(export.implied_trick_facts) if export else set()
    if full.get("family") == "fitzgerald":
        full = _compact_fitzgerald_actions(full)
    out: dict[str, Any] = {}
    for key, value in full.items():
        if key == "rounds":
            out[key] = []
            for rnd in value:
                compact_round: dict[str, Any] = {}
                for rkey, rvalue in rnd.items():
                    if rkey in ("tricks", "lines", "calls"):
                        items = []
                        for item in rvalue:
                            compact_item: dict[str, Any] = {}
                            for ikey, ivalue in item.items():
                                if ikey in ("plays", "cards"):
                                    compact_item[ikey] = [_card(play, implied) for play in ivalue]
                                elif ikey in ("card", "point"):  # a take's cards
                                    compact_item[ikey] = _card(ivalue, implied)
                                elif not _empty(ivalue) and not (rkey == "tricks" and ikey in implied_trick):
                                    compact_item[ikey] = _pruned(ivalue)
                            items.append(compact_item)
                        if items:
                            compact_round[rkey] = items
                    elif rkey == "deals" and rvalue == _deals_as_written(rnd):
                        continue  # the deal lines write the same hands
                    elif not _empty(rvalue):
                        compact_round[rkey] = _pruned(rvalue)
                out[key].append(compact_round)
        elif not (key in _GAME_OPTIONAL and _empty(value)):
            out[key] = value  # config, result and states as in the full form
    return out


# --------------------------------------------------------------------------- games of every family


@functools.cache
def simulated(family_name: str) -> ReplayedGame:
    family = next(f for f in FAMILIES if f.name == family_name)
    rules = family.rule_sets[0]
    game = simulate(rules.default_players, rules=rules.id, seed=12)
    replayed = replay_record(record_from_game(game, tags=[("Event", "Compact test")]), history=False)
    assert replayed.valid and replayed.complete, replayed.problems
    return replayed


def sample_games() -> list[tuple[str, ReplayedGame]]:
    games = []
    for path in SAMPLE_FILES:
        with open(path, encoding="utf-8") as stream:
            for index, first_line, text in game_texts(stream):
                record = parse_game(text, first_line=first_line, index=index)
                if not record.problems:
                    games.append((f"{path.name}#{index}", replay_record(record, history=False)))
    return games


SAMPLE_GAMES = sample_games()
FAMILY_NAMES = [f.name for f in FAMILIES]


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_compact_holds_the_full_forms_facts_for_every_family(family: str) -> None:
    replayed = simulated(family)
    full, compact = game_to_dict(replayed), game_to_dict(replayed, compact=True)
    assert compact == expected_compact(full)
    assert schema_errors(full, compact) == []


@pytest.mark.parametrize("name, replayed", SAMPLE_GAMES, ids=[name for name, _ in SAMPLE_GAMES])
def test_compact_matches_the_rules_on_samples_valid_or_not(name: str, replayed: ReplayedGame) -> None:
    """The invalid samples too: a replay that stops at a refused card leaves facts on some cards only."""
    full, compact = game_to_dict(replayed), game_to_dict(replayed, compact=True)
    assert compact == expected_compact(full)
    assert schema_errors(full, compact) == []
    # Both forms read back to the record itself: nothing the DGN says is lost in either.
    written = write_game(replayed.record)
    assert write_game(record_from_dict(compact)) == written
    assert write_game(record_from_dict(full)) == written


def test_a_card_is_its_text_unless_something_is_attached() -> None:
    replayed = simulated("fitzgerald")
    compact = game_to_dict(replayed, compact=True)
    plays = [play for rnd in compact["rounds"] for trick in rnd["tricks"] for play in trick["plays"]]
    objects = [play for play in plays if isinstance(play, dict)]
    assert any(isinstance(play, str) for play in plays)
    # R9: an off-suit card earns a Suit Action, attached to it; R14: a Clubs card may name its victim.
    # A simulated game writes nothing else on a card.
    assert any("actions" in play for play in objects)
    assert all(set(play) - {"card"} and set(play) <= {"card", "actions", "choice"} for play in objects)
    for play in objects:
        for action in play.get("actions", ()):
            # R9: the card implies the actor (its player), the suit (its own) and the reason (off-suit).
            assert isinstance(action, str) or not {"actor", "side", "suit", "reason"} & set(action)
    # The facts the trick implies are not written, the trick's own are.
    trick = compact["rounds"][0]["tricks"][0]
    assert {"leader", "winner", "winning_card"} <= set(trick)
    assert "comments" not in trick and "player" not in trick
    assert "led_suit" not in trick  # R8: the suit of its first card


def test_suit_actions_say_only_what_their_place_does_not_imply() -> None:
    """Trick 2 of the club-night sample (docs/json.md): jpk plays 6C off-suit (R9) and robs the Thief's
    holder mvdberg (R13), the Thief moves on to Anneke; Anneke wins with 6S and moves a point from her
    Showroom to her Vault (R10, R12). Round 1's awards: majorities (R16), then no tricks (R17)."""
    text = (SAMPLES / "club-night-2026-11-20.dgn").read_text(encoding="utf-8")
    record = next(parse_game(t, first_line=f, index=i) for i, f, t in game_texts(iter(text.splitlines(True))))
    replayed = replay_record(record, history=False)
    full, compact = game_to_dict(replayed), game_to_dict(replayed, compact=True)
    trick = compact["rounds"][0]["tricks"][1]
    assert trick["plays"] == ["6S", {"card": "6C", "actions": [{"move": "showroom:mvdberg>showroom",
                                                                  "thief": "mvdberg>Anneke"}]}, "3S"]
    assert trick["actions"] == ["showroom>vault"]
    assert "led_suit" not in trick and full["rounds"][0]["tricks"][1]["led_suit"] == "S"
    awards = compact["rounds"][0]["awards"]
    assert awards[0] == {"actor": "Anneke", "suit": "D", "reason": "suit majority", "move": "supply>vault"}
    assert {"actor": "jpk", "suit": "D", "reason": "no tricks", "move": "supply>vault"} in awards


def _games_of_every_setup() -> list[ReplayedGame]:
    """One random game per Fitzgerald rule set, player count and variants: Thief (R13) and chosen victims
    (R14; with seed 8, the 3-player 1e game names no victim when no Showroom holds a point), partnerships
    (one side, two actors), empty Showrooms and Supplies (0 points)."""
    games = []
    for rules in ("1e", "2e", "bga"):
        for players in (2, 3, 4, 6):
            for variants in ((), ("partnership",)):
                try:
                    game = simulate(players, rules=rules, variants=variants, seed=8)
                except ConfigError:
                    continue  # a partnership needs an even number of players
                games.append(replay_record(record_from_game(game, deals=players % 4 == 0), history=False))
    return games


def test_every_fitzgerald_setup_compacts_by_the_documented_rules() -> None:
    seen: set[str] = set()
    for replayed in _games_of_every_setup():
        full, compact = game_to_dict(replayed), game_to_dict(replayed, compact=True)
        assert compact == expected_compact(full), replayed.config.rules
        assert schema_errors(compact) == []  # the full form: in the tests above
        actions = [a for rnd in compact["rounds"] for trick in rnd["tricks"]
                   for item in [*trick["plays"], trick] if isinstance(item, dict) for a in item.get("actions", ())]
        actions += [a for rnd in compact["rounds"] for a in rnd.get("awards", ())]
        for action in actions:
            fields = {"move": action} if isinstance(action, str) else action
            seen.update(key for key in fields if key != "move")
            seen.update(place.split(":")[0] + (":side" if ":" in place else "") for place in
                        fields["move"].split(">"))
        seen.update("deals kept" if "deals" in rnd else "deals left out" for rnd in compact["rounds"])
    # The games reach every case the rules distinguish, so each rule above was exercised.
    assert {"actor", "side", "suit", "reason", "points", "thief", "supply", "showroom", "vault", "showroom:side",
            "nobody", "deals kept", "deals left out"} <= seen, seen


def test_a_bad_move_in_the_compact_form_names_its_json_path(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    assert convert(capsys, SAMPLES / "club-night-2026-11-20.dgn", "--to", "json", "-o", path)[0] == 0
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["games"][0]["rounds"][0]["tricks"][1]["actions"] == ["showroom>vault"]
    doc["games"][0]["rounds"][0]["tricks"][1]["actions"] = ["showroom>attic"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")
    assert err.startswith(f"diamonds convert: {path}: $.games[0].rounds[0].tricks[1].actions[0]: 'showroom>attic' ")
    assert "Traceback" not in err


def test_notation_on_a_card_keeps_it_an_object() -> None:
    text = (SAMPLES / "club-night-2026-11-20.dgn").read_text(encoding="utf-8")
    record = next(parse_game(t, first_line=f, index=i) for i, f, t in game_texts(iter(text.splitlines(True))))
    compact = game_to_dict(replay_record(record, history=False), compact=True)
    annotated = [play for rnd in compact["rounds"] for trick in rnd["tricks"] for play in trick["plays"]
                 if isinstance(play, dict) and ("annotation" in play or "comments" in play or "choice" in play)]
    assert annotated, "the club-night sample annotates, comments on or names a victim with some cards"
    assert all("player" not in play and "followed" not in play for play in annotated)


def test_compact_is_smaller_than_full_by_more_than_half() -> None:
    for family in FAMILY_NAMES:
        replayed = simulated(family)
        full = jsonfast.dumps(game_to_dict(replayed))
        compact = jsonfast.dumps(game_to_dict(replayed, compact=True))
        assert len(compact) * 2 < len(full), family


# --------------------------------------------------------------------------- the command


def convert(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["convert", *(str(a) for a in args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("sample", ["club-night-2026-11-20.dgn", "kirk-4p-target.dgn", "bidding-3p-club.dgn"])
def test_every_form_converts_back_to_the_same_dgn(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  sample: str) -> None:
    source = SAMPLES / sample
    code, canonical, _ = convert(capsys, source, "--to", "dgn")
    assert code == 0
    for name, extra in (("compact.json", ()), ("full.json", ("--full",)), ("compact.jsonl", ()),
                        ("full.jsonl", ("--full",))):
        path = tmp_path / name
        code, _, err = convert(capsys, source, "--to", name.split(".")[1], *extra, "-o", path)
        assert (code, err) == (0, "")
        code, back, err = convert(capsys, path, "--to", "dgn")
        assert (code, err) == (0, ""), name
        assert back == canonical, name
    compact = json.loads((tmp_path / "compact.json").read_text(encoding="utf-8"))
    full = json.loads((tmp_path / "full.json").read_text(encoding="utf-8"))
    assert compact["games"] == [expected_compact(game) for game in full["games"]]
    lines = (tmp_path / "compact.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == compact["games"]


def test_a_document_of_the_earlier_full_form_still_converts(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """Written as the earlier version wrote it: every field, the standard library's separators."""
    source = SAMPLES / "1e-3p-league.dgn"
    code, canonical, _ = convert(capsys, source, "--to", "dgn")
    games = []
    with open(source, encoding="utf-8") as stream:
        for index, first_line, text in game_texts(stream):
            games.append(game_to_dict(replay_record(parse_game(text, first_line=first_line, index=index))))
    path = tmp_path / "earlier.json"
    path.write_text('{"games": [\n' + ",\n".join(json.dumps(g, ensure_ascii=False) for g in games) + "\n]}\n",
                    encoding="utf-8")
    assert convert(capsys, path, "--to", "dgn") == (0, canonical, "")


def test_a_bad_card_in_the_compact_form_names_its_json_path(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    assert convert(capsys, SAMPLES / "kirk-4p-hands.dgn", "--to", "json", "-o", path)[0] == 0
    doc = json.loads(path.read_text(encoding="utf-8"))
    plays = doc["games"][0]["rounds"][0]["tricks"][2]["plays"]
    assert isinstance(plays[1], str)
    plays[1] = "16Z"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")
    assert err.startswith(f"diamonds convert: {path}: $.games[0].rounds[0].tricks[2].plays[1]: '16Z' ")
    assert "Traceback" not in err


# --------------------------------------------------------------------------- the encoder


def test_the_encoder_writes_the_same_text_with_or_without_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    if not jsonfast.FAST:
        pytest.skip("orjson (the `fast` extra) is not installed: only the standard library path runs")
    docs = [game_to_dict(simulated(family), compact=compact) for family in FAMILY_NAMES for compact in (False, True)]
    docs.append({"text": "Köln ♦ \u2028 \"q\" \\ \x00", "big": 2**63 - 1, "nested": [[], {}, None, True]})
    fast = [jsonfast.dumps(doc) for doc in docs]
    monkeypatch.setattr(jsonfast, "orjson", None)
    assert [jsonfast.dumps(doc) for doc in docs] == fast
    assert [jsonfast.loads(text) for text in fast] == docs


def test_what_orjson_refuses_goes_through_the_standard_library() -> None:
    assert jsonfast.dumps({"n": 2**70}) == '{"n":1180591620717411303424}'
    assert jsonfast.loads('{"n": 1180591620717411303424}') == {"n": 2**70}
    assert jsonfast.loads(jsonfast.dumps({"t": "\ud800"})) == {"t": "\ud800"}
    assert jsonfast.loads('"\\ud800"') == "\ud800"
    with pytest.raises(json.JSONDecodeError) as caught:
        jsonfast.loads('{"games": [1,\n 2,, 3]}')
    assert (caught.value.lineno, caught.value.colno) == (2, 4)
    with pytest.raises(RecursionError):
        jsonfast.loads("[" * 100_000 + "]" * 100_000)
