"""The export of every family: record → document → record, the JSON Schema, CSV, and JSON input refused with care.

Games come from the random player of each registered rule set (`simulate`),
written down by the family's bridge and replayed, so every family in the
registry is covered without naming one: a family added later is tested here
as soon as it is registered. The notation-only items (kitty lines, bids,
takes, signs, a Joker's suit) are checked on a record that is not replayed.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from schemacheck import schema_errors

from diamonds.cli.main import main
from diamonds.core import FAMILIES, ConfigError, SideResult, default_names, family_of, registry, simulate
from diamonds.core.registry import register
from diamonds.notation import parse_game
from diamonds.notation.records import GameRecord
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.export import (
    CSV_COLUMNS,
    DocumentError,
    csv_rows,
    export_of,
    game_schema,
    game_to_dict,
    record_from_dict,
)
from diamonds.replay.validate import ReplayedGame

SEEDS = (1, 2)


def _setups() -> Iterator[Any]:
    """Every registered rule set at its usual player count, at its smallest and largest, and with each variant."""
    for family in FAMILIES:
        for rules in family.rule_sets:
            counts = sorted({rules.default_players, min(rules.player_counts), max(rules.player_counts)})
            for count in counts:
                yield pytest.param(rules.id, count, (), id=f"{rules.id}-{count}p")
            for variant in rules.variants:
                for count in rules.player_counts:
                    try:
                        rules.configure(default_names(count), variants=[variant])
                    except ConfigError:
                        continue
                    yield pytest.param(rules.id, count, (variant,), id=f"{rules.id}-{count}p-{variant}")
                    break


SETUPS = list(_setups())


@functools.cache
def _replayed(rules: str, players: int, variants: tuple[str, ...], seed: int) -> tuple[ReplayedGame, GameRecord]:
    family = family_of(rules)
    try:
        family.part("bridge")
    except (ImportError, AttributeError) as error:
        pytest.skip(f"the {family.name} family has no bridge yet ({error}), so its records cannot be written or "
                    "replayed")
    game = simulate(players, rules=rules, variants=variants, seed=seed)
    record = record_from_game(game, tags=[("Event", "Export test"), ("Site", "Here \"and\" there\\")])
    replayed = replay_record(record)
    assert replayed.valid, replayed.problems
    assert replayed.complete
    return replayed, record


def replayed_game(rules: str, players: int, variants: tuple[str, ...], seed: int = 1) -> tuple[ReplayedGame,
                                                                                                GameRecord]:
    return _replayed(rules, players, tuple(variants), seed)


# --------------------------------------------------------------------------- every family


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules, players, variants", SETUPS)
def test_record_to_dict_to_record_writes_the_same_dgn(rules: str, players: int, variants: tuple[str, ...],
                                                     seed: int) -> None:
    replayed, record = replayed_game(rules, players, variants, seed)
    doc = game_to_dict(replayed)
    back = record_from_dict(doc)
    assert write_game(back) == write_game(record)
    assert back == record
    through_json = record_from_dict(json.loads(json.dumps(doc, ensure_ascii=False)))
    assert write_game(through_json) == write_game(record)


@pytest.mark.parametrize("states", [False, True])
@pytest.mark.parametrize("rules, players, variants", SETUPS)
def test_every_document_is_valid_against_the_schema(rules: str, players: int, variants: tuple[str, ...],
                                                    states: bool) -> None:
    replayed, _ = replayed_game(rules, players, variants)
    doc = game_to_dict(replayed, states=states)
    assert schema_errors(doc) == []
    assert ("states" in doc) == states
    if states:
        assert replayed.game is not None and len(doc["states"]) == len(replayed.game)


@pytest.mark.parametrize("rules, players, variants", SETUPS)
def test_the_document_says_its_rules_and_family(rules: str, players: int, variants: tuple[str, ...]) -> None:
    replayed, _ = replayed_game(rules, players, variants)
    doc = game_to_dict(replayed)
    assert doc["rules"] == rules and doc["config"]["rules"] == rules
    assert doc["family"] == family_of(rules).name
    assert doc["players"] == list(replayed.config.players)


@pytest.mark.parametrize("rules, players, variants", SETUPS)
def test_the_replay_facts_every_family_gives(rules: str, players: int, variants: tuple[str, ...]) -> None:
    """Who played each card, and who led and won each trick with which card."""
    replayed, _ = replayed_game(rules, players, variants)
    doc = game_to_dict(replayed)
    names = set(doc["players"])
    for rnd in doc["rounds"]:
        assert set(rnd["deals"]) == names
        for trick in rnd["tricks"]:
            assert trick["leader"] == trick["plays"][0]["player"]
            assert all(play["player"] in names for play in trick["plays"])
            winners = [play for play in trick["plays"] if play["card"] == trick["winning_card"]]
            assert len(winners) == 1 and winners[0]["player"] == trick["winner"]


@pytest.mark.parametrize("rules, players, variants", SETUPS)
def test_a_replay_without_history_exports_the_same_document(rules: str, players: int,
                                                            variants: tuple[str, ...]) -> None:
    """As `convert --to json` replays (no snapshot per move): the same facts."""
    replayed, record = replayed_game(rules, players, variants)
    assert game_to_dict(replay_record(record, history=False)) == game_to_dict(replayed)


@pytest.mark.parametrize("rules, players, variants", SETUPS)
@pytest.mark.parametrize("compact", [False, True], ids=["full", "compact"])
def test_a_document_with_fewer_rounds_than_its_replay_gets_the_facts_of_those_it_has(
        rules: str, players: int, variants: tuple[str, ...], compact: bool) -> None:
    """The event walk (`DocumentWalk`) hangs each event on the document's round of its number: a round
    the document does not have is passed over, and the rounds it has get what the whole document gets."""
    replayed, _ = replayed_game(rules, players, variants)
    whole = game_to_dict(replayed, compact=compact)["rounds"]
    assert len(whole) >= 2
    # The first of the record's rounds as the document writes it before the replay's facts are added.
    bare = game_to_dict(dataclasses.replace(replayed, game=None), compact=compact)["rounds"][:1]
    assert not any("winner" in trick for trick in bare[0]["tricks"] if isinstance(trick, dict))
    export_of(replayed.config.rules).add_replay(bare, replayed, compact=compact)
    assert len(bare) == 1
    assert [trick.get("winner") for trick in bare[0]["tricks"]] == [trick.get("winner") for trick in whole[0]["tricks"]]
    assert all(trick.get("winner") for trick in bare[0]["tricks"])


def _standing_fields(rules: str) -> tuple[str, ...]:
    replayed, _ = replayed_game(rules, family_of(rules).rule_sets[0].default_players, ())
    assert replayed.game is not None
    kind = type(replayed.game.standings()[0])
    assert issubclass(kind, SideResult)
    return tuple(f.name for f in fields(kind))


@pytest.mark.parametrize("rules, players, variants", SETUPS)
def test_standings_have_one_shape_in_every_family(rules: str, players: int, variants: tuple[str, ...]) -> None:
    replayed, _ = replayed_game(rules, players, variants)
    doc = game_to_dict(replayed)
    config = replayed.config
    standings = doc["result"]["standings"]
    assert doc["result"]["complete"] is True
    assert [s["side"] for s in standings] == [config.side_name(side) for side in range(config.side_count)]
    # side, score, winner first, then the family's own fields: those its SideResult subclass adds
    base = [f.name for f in fields(SideResult)]
    assert base == ["side", "score", "winner"]
    assert all(list(s) == base + list(_standing_fields(rules)[len(base):]) for s in standings)
    assert all(isinstance(s["side"], str) and type(s["score"]) is int and type(s["winner"]) is bool for s in standings)
    best = max(s["score"] for s in standings)
    assert any(s["winner"] for s in standings) and all(s["score"] == best for s in standings if s["winner"])
    if config.teams:
        assert all("+" in s["side"] for s in standings)


def test_the_standings_shape_is_the_same_across_families() -> None:
    shapes = set()
    for family in FAMILIES:
        rules = family.rule_sets[0]
        replayed, _ = replayed_game(rules.id, rules.default_players, ())
        standing = game_to_dict(replayed)["result"]["standings"][0]
        shapes.add(tuple((key, type(standing[key]).__name__) for key in ("side", "score", "winner")))
        assert list(standing)[:3] == ["side", "score", "winner"]
    assert shapes == {(("side", "str"), ("score", "int"), ("winner", "bool"))}


@pytest.mark.parametrize("rules, players, variants", SETUPS)
def test_csv_has_one_row_per_card_played(rules: str, players: int, variants: tuple[str, ...]) -> None:
    replayed, record = replayed_game(rules, players, variants)
    doc = game_to_dict(replayed)
    rows = list(csv_rows("games.dgn", doc))
    assert len(rows) == sum(len(trick.plays) for rnd in record.rounds for trick in rnd.tricks)
    assert all(len(row) == len(CSV_COLUMNS) for row in rows)
    column = {name: i for i, name in enumerate(CSV_COLUMNS)}
    played = [(play["player"], play["card"]) for rnd in doc["rounds"] for t in rnd["tricks"] for play in t["plays"]]
    assert [(row[column["player"]], row[column["card"]]) for row in rows] == played
    assert {row[column["rules"]] for row in rows} == {rules}
    seats = {name: i + 1 for i, name in enumerate(doc["players"])}
    assert all(row[column["seat"]] == seats[row[column["player"]]] for row in rows)
    tricks = {(row[column["round"]], row[column["trick"]]) for row in rows}
    assert sum(row[column["won_trick"]] for row in rows) == len(tricks)  # one winning card per trick


# --------------------------------------------------------------------------- the record layer alone


BIDDING_HAND = """\
[Rules "bidding"]
[Players "Ann Bob Cat"]
[Dealer "Ann"]
[Result "*"]

{before the first hand}
R1 dealer Ann ; the first hand
kitty 9H KD 7C {face down}
bid Bob 3
bid Cat 4
bid Ann 2
take Bob 9H point QS ; Bob takes 9H and lays QS from his hand
take Cat 7C point 7C
take Ann KD point 8S
final Bob 3
final Cat 3 {unchanged}
final Ann 2
1. 10S 9S AS-!
2. {a Joker} JoH+ 7H? AH
3. JoD- 8D
"""


def test_kitty_bids_takes_signs_and_a_jokers_suit_survive_the_round_trip() -> None:
    record = parse_game(BIDDING_HAND)
    assert record.readable, record.problems
    doc = game_to_dict(ReplayedGame(record))  # the record layer alone: whatever the bidding game's replay says
    assert schema_errors(doc) == []
    assert write_game(record_from_dict(doc)) == write_game(record)
    assert record_from_dict(json.loads(json.dumps(doc))) == record
    rnd = doc["rounds"][0]
    assert rnd["pass_count"] is None
    assert rnd["lines"][0] == {"kind": "kitty", "player": "", "cards": [
        {"card": c, "suit": None, "sign": None, "choice": None, "annotation": None, "comments": []}
        for c in ("9H", "KD", "7C")], "comments": [{"text": "face down", "braced": True}]}
    assert [(c["kind"], c["player"], c.get("amount")) for c in rnd["calls"]][:3] == [
        ("bid", "Bob", 3), ("bid", "Cat", 4), ("bid", "Ann", 2)]
    take = rnd["calls"][3]
    assert (take["kind"], take["card"]["card"], take["point"]["card"]) == ("take", "9H", "QS")
    assert take["comments"] == [{"text": " Bob takes 9H and lays QS from his hand", "braced": False}]
    first, second, third = rnd["tricks"]
    assert (first["plays"][2]["card"], first["plays"][2]["sign"], first["plays"][2]["annotation"]) == ("AS", "-", "!")
    joker = second["plays"][0]
    assert (joker["card"], joker["suit"], joker["sign"]) == ("Jo", "H", "+")
    assert second["comments"] == [{"text": "a Joker", "braced": True}]
    assert (third["plays"][0]["suit"], third["plays"][0]["sign"]) == ("D", "-")
    assert doc["comments"] == [{"text": "before the first hand", "braced": True}]


def test_comments_annotations_and_choices_survive_the_round_trip() -> None:
    replayed, record = replayed_game("1e", 4, ("partnership",))
    lines = write_game(record).split("\n")
    marked = []
    for line in lines:
        if line.startswith("R"):
            line += " ; a round {with braces}"
        elif line.startswith("1. "):
            words = line.split()
            words.insert(1, "{the lead}")
            words[2] += "!?"
            line = " ".join(words) + " {after}"
        elif line.startswith("pass "):
            line += " ;passing"
        marked.append(line)
    text = "\n".join(marked).replace("\n\nR1 ", "\n\n{a note} ;and a line\nR1 ", 1)
    assert ">" in text  # the partnership game names Clubs victims (R14)
    parsed = parse_game(text)
    assert parsed.readable, parsed.problems
    doc = game_to_dict(replay_record(parsed))
    assert doc["valid"] and schema_errors(doc) == []
    assert write_game(record_from_dict(doc)) == write_game(parsed)
    assert record_from_dict(doc) == parsed


def test_a_game_whose_rules_are_unknown_still_exports_what_it_says() -> None:
    record = parse_game('[Rules "nope"]\n[Players "Ann Bob Cat"]\n\nR1 dealer Ann pass 1\n1. 5H 9H 2S\n')
    doc = game_to_dict(replay_record(record))
    assert (doc["rules"], doc["family"], doc["config"], doc["valid"]) == (None, None, None, False)
    assert doc["result"] == {"complete": False, "standings": []}
    assert schema_errors(doc) == []
    assert record_from_dict(doc) == record
    assert list(csv_rows("x.dgn", doc)) == []  # nothing was played


# --------------------------------------------------------------------------- the schema


def test_the_schema_merges_every_family() -> None:
    schema = game_schema()
    defs = schema["$defs"]
    for family in FAMILIES:
        assert f"{family.name}.config" in defs
    rule_ids = [rules.id for family in FAMILIES for rules in family.rule_sets]
    assert defs["config"]["properties"]["rules"]["enum"] == rule_ids
    assert defs["family"]["enum"] == [family.name for family in FAMILIES] + [None]
    assert game_schema() == schema and game_schema() is not schema  # a copy each time


def test_a_family_registered_in_process_is_in_the_next_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schema is kept per registry (`registry_version()`): a family registered after it was built is in
    the next `game_schema()`, and its games are valid against it, with no cache cleared by hand; with the
    registry put back, the family is gone from it again."""
    import toyfamily

    monkeypatch.setattr(registry, "_REGISTRY", registry._Registry())
    before = game_schema()
    assert "toy" not in before["$defs"]["family"]["enum"] and "toy.config" not in before["$defs"]
    register(toyfamily.FAMILY)
    after = game_schema()
    assert after["$defs"]["family"]["enum"][-2:] == ["toy", None]
    assert after["$defs"]["config"]["properties"]["rules"]["enum"][-1] == "toy"
    assert "toy.config" in after["$defs"] and "toy.state" in after["$defs"]
    replayed = replay_record(record_from_game(simulate(("Ann", "Bob"), rules="toy", seed=5)))
    assert replayed.valid and replayed.complete
    doc = game_to_dict(replayed, states=True)
    assert doc["family"] == "toy" and schema_errors(doc) == []
    monkeypatch.setattr(registry, "_REGISTRY", registry._Registry())  # the toy family gone again
    assert game_schema() == before
    assert schema_errors(doc) != []


def test_the_card_pattern_covers_every_familys_canonical_cards() -> None:
    card = Draft202012Validator(game_schema()["$defs"]["card"])
    for text in ("7D", "15C", "1H", "10H", "JD", "QS", "KH", "AC", "Jo"):
        assert card.is_valid(text), text
    for text in ("07D", "16D", "0S", "TH", "jd", "JO", "jo", "Jo+", "7", "10", "JoH", "7♦"):
        assert not card.is_valid(text), text


def test_the_schema_says_a_tag_value_cannot_hold_a_line_break() -> None:
    replayed, _ = replayed_game("2e", 4, ())
    doc = game_to_dict(replayed)
    value = game_schema()["$defs"]["tag"]["properties"]["value"]
    assert "line break" in value["description"]
    for text in ("one\ntwo", "one\rtwo", "end\n"):
        doc["tags"][0]["value"] = text
        assert [error.split(": ")[0] for error in schema_errors(doc)] == ["$.games[0].tags[0].value"]
        with pytest.raises(DocumentError) as error:
            record_from_dict(doc)
        assert error.value.path == ("tags", 0, "value")
        assert error.value.json_path("$.games[3]") == "$.games[3].tags[0].value"


def test_the_schema_tells_the_families_apart() -> None:
    documents = {}
    for family in FAMILIES:
        rules = family.rule_sets[0]
        replayed, _ = replayed_game(rules.id, rules.default_players, ())
        documents[family.name] = game_to_dict(replayed, states=True)
    if len(documents) < 2:
        pytest.skip("one family registered")
    first, second = list(documents.values())[:2]
    swapped = dict(first, config=second["config"])
    assert any(".config" in error for error in schema_errors(swapped))
    swapped = dict(first, states=second["states"])
    assert any(".states[0]" in error for error in schema_errors(swapped))


@pytest.mark.parametrize("change, path", [
    (lambda d: d["rounds"][0]["comments"].append({"text": "a\nb", "braced": False}), ("rounds", 0, "comments", 0, "text")),
    (lambda d: d["rounds"][0]["comments"].append({"text": "a}b", "braced": True}), ("rounds", 0, "comments", 0, "text")),
    (lambda d: d["comments"].append({"text": "a\rb", "braced": True}), ("comments", 0, "text")),
    pytest.param(lambda d: d["tags"][1].update(value="\ud800"), ("tags", 1, "value"), id="surrogate"),
    (lambda d: d["tags"][1].update(name="1x"), ("tags", 1, "name")),
    (lambda d: d["rounds"][0]["tricks"][0]["plays"][0].update(suit="S"), ("rounds", 0, "tricks", 0, "plays", 0, "suit")),
    (lambda d: d["rounds"][0]["tricks"][1]["plays"][2].update(card="jd"), ("rounds", 0, "tricks", 1, "plays", 2, "card")),
    (lambda d: d["rounds"][0]["tricks"][1]["plays"][2].update(choice="no body"),
     ("rounds", 0, "tricks", 1, "plays", 2, "choice")),
    (lambda d: d["rounds"][0]["lines"][0].update(player=""), ("rounds", 0, "lines", 0, "player")),
    (lambda d: d["rounds"][1].update(number=-1), ("rounds", 1, "number")),
])
def test_what_dgn_cannot_write_is_refused_at_its_path(change: Any, path: tuple[Any, ...]) -> None:
    replayed, _ = replayed_game("2e", 4, ())
    doc = game_to_dict(replayed)
    change(doc)
    with pytest.raises(DocumentError) as error:
        record_from_dict(doc)
    assert error.value.path == path
    if "\ud800" not in doc["tags"][1]["value"]:  # JSON Schema has no word for a lone surrogate
        assert schema_errors(doc)  # the schema says so too


def test_a_line_break_after_a_player_id_is_refused() -> None:
    """Python's `$` matches before a final line break, so a schema validator in Python lets "Ann\\n" through
    a pattern; `record_from_dict` does not."""
    replayed, _ = replayed_game("2e", 4, ())
    doc = game_to_dict(replayed)
    doc["rounds"][0]["dealer"] += "\n"
    with pytest.raises(DocumentError) as error:
        record_from_dict(doc)
    assert error.value.path == ("rounds", 0, "dealer")


# --------------------------------------------------------------------------- the command


def convert(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["convert", *(str(a) for a in args)])
    out, err = capsys.readouterr()
    return code, out, err


def two_games() -> dict[str, Any]:
    """A JSON document of two games: a 2e game and one of the next family (or a 1e game)."""
    docs = [game_to_dict(replayed_game("2e", 4, ())[0])]
    for family in FAMILIES[1:2]:
        rules = family.rule_sets[0]
        docs.append(game_to_dict(replayed_game(rules.id, rules.default_players, ())[0]))
    if len(docs) == 1:
        docs.append(game_to_dict(replayed_game("1e", 3, ())[0]))
    for index, doc in enumerate(docs, 1):
        doc["index"] = index
    return {"games": docs}


def test_json_of_every_family_converts_back_to_its_dgn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    records = []
    for family in FAMILIES:
        rules = family.rule_sets[0]
        records.append(replayed_game(rules.id, rules.default_players, ())[1])
    source = tmp_path / "all.dgn"
    source.write_text("\n".join(write_game(r) for r in records), encoding="utf-8")
    json_file, jsonl_file = tmp_path / "all.json", tmp_path / "all.jsonl"
    assert convert(capsys, source, "--to", "json", "-o", json_file)[0] == 0
    assert convert(capsys, source, "--to", "jsonl", "-o", jsonl_file)[0] == 0
    doc = json.loads(json_file.read_text(encoding="utf-8"))
    assert [g["family"] for g in doc["games"]] == [f.name for f in FAMILIES]
    assert schema_errors(*doc["games"]) == []
    expected = source.read_text(encoding="utf-8")
    assert convert(capsys, json_file, "--to", "dgn") == (0, expected, "")
    assert convert(capsys, jsonl_file, "--to", "dgn") == (0, expected, "")


@pytest.mark.parametrize("break_", ["\n", "\r", "\r\n"])
def test_a_tag_value_with_a_line_break_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  break_: str) -> None:
    doc = two_games()
    doc["games"][0]["tags"][2]["value"] = f"two{break_}lines"
    path = tmp_path / "games.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert convert(capsys, path, "--to", "dgn") == (
        1, "", f"diamonds convert: {path}: $.games[0].tags[2].value: a tag value cannot hold a line break "
               "(DGN has no way to write one)\n")


def test_a_line_comment_with_a_line_break_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = two_games()
    doc["games"][1]["rounds"][0]["tricks"][3]["comments"].append({"text": " one\n[Event \"two\"]", "braced": False})
    path = tmp_path / "games.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")  # the first game is good, and still not written
    assert err == (f"diamonds convert: {path}: $.games[1].rounds[0].tricks[3].comments[0].text: a ; comment "
                   "cannot hold a line break (it ends at the end of its line)\n")


def test_a_brace_in_a_braced_comment_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = two_games()
    doc["games"][0]["comments"].append({"text": "a } b", "braced": True})
    path = tmp_path / "games.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")
    assert err.startswith(f"diamonds convert: {path}: $.games[0].comments[0].text: a {{...}} comment cannot hold")


def test_a_lone_surrogate_is_refused_not_a_crash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = two_games()
    path = tmp_path / "games.json"
    text = json.dumps(doc).replace('"Export test"', '"Export \\ud800 test"', 1)
    path.write_text(text, encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")
    assert err.startswith(f"diamonds convert: {path}: $.games[0].tags[0].value: a text cannot hold a lone surrogate")


def test_json_lines_name_the_line_and_write_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    first, second = two_games()["games"]
    second["tags"][0]["value"] = "a\nb"
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n", encoding="utf-8")
    assert convert(capsys, path, "--to", "dgn") == (
        1, "", f"diamonds convert: {path}:2: $.tags[0].value: a tag value cannot hold a line break "
               "(DGN has no way to write one)\n")


@pytest.mark.parametrize("existing", [True, False])
def test_nothing_is_written_to_the_output_file_when_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            existing: bool) -> None:
    doc = two_games()
    doc["games"][1]["tags"][0]["value"] = "a\nb"
    path = tmp_path / "games.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out_file = tmp_path / "out" / "games.dgn"
    out_file.parent.mkdir()
    if existing:
        out_file.write_text("kept\n", encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn", "-o", out_file)
    assert (code, out) == (1, "") and "$.games[1].tags[0].value" in err
    assert os.listdir(out_file.parent) == (["games.dgn"] if existing else [])  # no temporary file left either
    if existing:
        assert out_file.read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * 100_000),
    ("deep-games.json", '{"games": ' + "[" * 100_000),
    ("deep-closed.json", '{"games": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ("deep.jsonl", "{}\n" + '{"tags": ' + "{\"a\": " * 100_000 + "1" + "}" * 100_000 + "}\n"),
])
def test_deeply_nested_json_is_an_input_error(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str,
                                              text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")
    assert err.startswith(f"diamonds convert: {path}")
    assert "internal error" not in err and "RecursionError" not in err
    assert len(err.strip().split("\n")) == 1


def test_json_that_python_cannot_read_is_an_input_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"games": [{"index": ' + "7" * 5000 + "}]}", encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")
    assert err.startswith(f"diamonds convert: {path}: ") and "internal error" not in err


def test_schema_errors_still_name_their_json_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = two_games()
    doc["games"][1]["rounds"][0]["tricks"][2]["plays"][1]["card"] = "16Z"
    path = tmp_path / "games.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = convert(capsys, path, "--to", "dgn")
    assert (code, out) == (1, "")
    assert err.startswith(f"diamonds convert: {path}: $.games[1].rounds[0].tricks[2].plays[1].card: '16Z' ")


def test_a_document_exported_before_the_family_house_still_reads(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """JSON written by 0.1 (no rules or family, no calls, no sign or suit on a card) converts back as it was."""
    replayed, record = replayed_game("1e", 3, ())
    doc = game_to_dict(replayed)
    for key in ("rules", "family"):
        del doc[key]
    for rnd in doc["rounds"]:
        del rnd["calls"]
        for item in [*rnd["tricks"], *rnd["lines"]]:
            for play in item.get("plays", item.get("cards", [])):
                del play["sign"], play["suit"]
    assert schema_errors(doc) == []
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"games": [doc]}), encoding="utf-8")
    assert main(["convert", str(path), "--to", "dgn"]) == 0
    assert capsys.readouterr().out == write_game(record)


def _sample_documents() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The first game of the first sample file of each rule set, exported in the full and the compact form."""
    from diamonds.notation import game_texts

    seen: set[str] = set()
    for path in sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.dgn")):
        with open(path, encoding="utf-8") as stream:
            index, first_line, text = next(game_texts(stream))
        record = parse_game(text, first_line=first_line, index=index)
        replayed = replay_record(record, history=False)
        if replayed.config.rules in seen:
            continue
        seen.add(replayed.config.rules)
        yield replayed.config.rules, f"{path.name} full", game_to_dict(replayed)
        yield replayed.config.rules, f"{path.name} compact", game_to_dict(replayed, compact=True)


def _broken(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Documents the schema must refuse: a required field gone, a field of the wrong type, one too many."""
    for key in ("index", "tags", "rounds", "valid", "result"):  # the schema's required fields of a game
        yield {k: v for k, v in doc.items() if k != key}
    yield {**doc, "valid": "yes"}
    yield {**doc, "rounds": {}}
    yield {**doc, "no_such_field": 1}


@pytest.mark.slow
def test_both_validators_agree_on_every_sample() -> None:
    """The schema checker (`diamonds.replay.schemacheck`) takes jsonschema-rs's verdict and python's
    jsonschema's reasons: here both give the same verdict on a sample game of every rule set in both forms
    (accepted), and on broken copies of them (refused). The conformance suite checks every family's export
    with python's jsonschema alone."""
    from schemacheck import checker

    validator, fast = checker().validator, checker().fast
    checked, rule_sets = 0, set()
    for rules, name, doc in _sample_documents():
        rule_sets.add(rules)
        assert validator.is_valid({"games": [doc]}) and fast.is_valid({"games": [doc]}), name
        for broken in _broken(doc):
            assert not validator.is_valid({"games": [broken]}), name
            assert not fast.is_valid({"games": [broken]}), name
            checked += 1
    assert checked == 8 * 2 * len(rule_sets) and rule_sets >= {"1e", "2e", "bga", "kirk", "bidding"}


def test_convert_takes_jsonschemas_verdict_with_or_without_jsonschema_rs() -> None:
    """`convert` from JSON: jsonschema-rs (the `fast` extra) only hastens the check. A valid document passes
    both ways, a refused one gets jsonschema's words both ways, and where jsonschema-rs is the stricter (a tag
    name ending in a line break: `$` matches before it in Python, not in jsonschema-rs) jsonschema decides."""
    from diamonds.cli.convert_cmd import check_document
    from diamonds.cli.errors import CommandError
    from diamonds.replay.schemacheck import SchemaChecker

    schema = game_schema()
    doc = game_to_dict(replayed_game("kirk", 4, ())[0])
    checkers = [SchemaChecker.of(schema, fast=False), SchemaChecker.of(schema)]
    assert checkers[0].fast is None and checkers[1].fast is not None  # the test extra installs it
    broken = {**doc, "rounds": {}}
    stricter = {**doc, "tags": [{**doc["tags"][0], "name": doc["tags"][0]["name"] + "\n"}, *doc["tags"][1:]]}
    assert checkers[1].fast.is_valid({"games": [doc]}) and not checkers[1].fast.is_valid({"games": [stricter]})
    messages = []
    for checker in checkers:
        check_document(checker, {"games": [doc]}, "x.json")
        check_document(checker, {"games": [stricter]}, "x.json")  # jsonschema's verdict: accepted
        with pytest.raises(CommandError) as refused:
            check_document(checker, {"games": [broken]}, "x.json")
        messages.append(str(refused.value))
    assert messages[0] == messages[1] and messages[0].startswith("x.json: $.games[0].rounds: ")
