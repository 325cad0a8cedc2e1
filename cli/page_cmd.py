"""`diamonds replay FILE --html PAGE`: every game of the file as one interactive, self-contained page.

Each game is replayed as far as it is valid; its problems are reported as the
replay reports them (on standard error, `file:line:col`, the line, a caret,
the ruling) and shown on the page too, so nothing is silently left out. The
page's jumps and go-to positions are worked out here with the terminal
replay's own `Navigator` and `find_position`, so both replays agree.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from diamonds.core import family_of, rules_for
from diamonds.io.write import write_text
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.records import Call, Comment
from diamonds.notation.words import Shape, vocabulary
from diamonds.replay import ReplayedGame, replay_record
from diamonds.replay.steps import Step, find_position, steps_of
from diamonds.svg import step_svg
from diamonds.svg.page import Page, PageGame, PageMark, PagePlayer, PageScore, PageStop, loss_chart, render_page
from diamonds.views import View, view_for

from .errors import CommandError
from .inputs import display_path, games_in
from .navigator import Navigator

__all__ = ["run_page", "build_page", "analysis_of"]

def run_page(args: argparse.Namespace) -> int:
    page, valid = build_page(args.file, args.encoding, as_name=args.as_player, start_game=1 if args.game is None else args.game)
    text = render_page(page)
    write_text(args.html, text, newline="\n", force_option=False)
    return 0 if valid else 1


def run_archive(args: argparse.Namespace, files: Sequence[str]) -> int:
    """`replay FILES… --html DIR/`: a page per file (as `--html FILE` writes it, with a link back) and
    `index.html`, a row per game, filterable by player and date. Status 1 if any game is invalid."""
    import dataclasses
    import re

    from diamonds.svg.archive import ArchiveRow, render_index

    folder = args.html
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise CommandError(f"{folder}: not a folder (an archive of several files is a folder: --html DIR/)")
    for path in files:
        if path == "-":
            raise CommandError("an archive is written from files, not from standard input")
        if not os.path.isfile(path):
            raise CommandError(f"{path}: no such file")
    os.makedirs(folder, exist_ok=True)
    rows: list[ArchiveRow] = []
    used: set[str] = {"index.html"}
    all_valid = True
    for path in files:
        page, valid = build_page(path, args.encoding, as_name=args.as_player)
        all_valid = all_valid and valid
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", os.path.splitext(os.path.basename(path))[0]).strip("-.") or "games"
        name, n = f"{stem}.html", 1
        while name in used:
            n += 1
            name = f"{stem}-{n}.html"
        used.add(name)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
            out.write(render_page(dataclasses.replace(page, index="index.html")))
        for number, game in enumerate(page.games, 1):
            if game.scores:
                result = ", ".join(f"{s.side} {s.score}" + (" (wins)" if s.winner else "") for s in game.scores)
            else:
                result = "not finished" if not game.notes else "stops at a problem"
            where = "end" if game.stops else "start"  # the index leads to the game's end: its result, its marks
            rows.append(ArchiveRow(f"{name}#g{number}/{where}", display_path(path), number, game.date, game.title,
                                   game.players, result, not any(": note:" not in n for n in game.notes), game.rules))
    rows.sort(key=lambda row: (row.date or "~", row.file, row.game))
    with open(os.path.join(folder, "index.html"), "w", encoding="utf-8") as out:
        out.write(render_index(f"Diamonds games: {len(rows)} in {len(files)} file{'s' if len(files) != 1 else ''}",
                               rows))
    return 0 if all_valid else 1


def build_page(path: str, encoding: str, *, as_name: str | None = None,
               start_game: int = 1) -> tuple[Page, bool]:
    """The page of every game in `path`, and whether every game is valid; problems go to standard
    error, as the replay reports them, and onto the page."""
    shown = display_path(path)
    if start_game < 1:
        raise CommandError("--game counts from 1")
    replayed_games = [replay_record(record) for record in games_in(path, encoding)]
    if not replayed_games:
        raise CommandError(f"{shown} holds no game")
    if start_game > len(replayed_games):
        raise CommandError(f"{shown} has fewer than {start_game} game{'s' if start_game > 1 else ''}")
    configs = [replayed.config for replayed in replayed_games if replayed.config is not None]
    if as_name is not None and all(config.seat_of(as_name) is None for config in configs):
        everyone = dict.fromkeys(player for config in configs for player in config.players)
        raise CommandError(f"--as {as_name}: not a player of any game of {shown} ({' '.join(everyone)})")
    games = []
    for number, replayed in enumerate(replayed_games, 1):
        notes = [format_problem(shown, replayed.record, problem) for problem in replayed.problems]
        notes += [f"{shown}: note: {note}" for note in replayed.notes]
        seat = None
        if as_name is not None and replayed.config is not None:
            seat = replayed.config.seat_of(as_name)
            if seat is None:
                notes.append(f"{shown}: note: {as_name} does not play in game {replayed.record.index}: "
                             "from their perspective it shows nothing")
        for note in notes:
            print(note, file=sys.stderr)
        games.append(_page_game(replayed, notes, as_name, seat, number))
    valid = all(replayed.valid for replayed in replayed_games)
    title = f"Diamonds replay: {os.path.basename(shown)}"
    return Page(title, tuple(games), start_game - 1), valid


def _title(replayed: ReplayedGame) -> str:
    """`Thursday Club Night · round 1 · table 2 · 2026.11.20`, from the tags the record has."""
    def known(name: str) -> str | None:
        value = replayed.record.tag_value(name)
        return value if value and value != "?" else None

    event, round_, table, date = known("Event"), known("Round"), known("Table"), known("Date")
    words = [event, round_ and f"round {round_}", table and f"table {table}", date]
    return " · ".join(word for word in words if word) or f"game {replayed.record.index}"


def _about(replayed: ReplayedGame) -> str:
    """`Stronghold 1st edition, Rules 1e, Variant partnership · Ann+Cat vs Bob+Dan`."""
    config = replayed.config
    if config is None:
        return "not replayed: see the problems below"
    variant = replayed.record.tag_value("Variant")
    rules = f"{rules_for(config.rules).title}, Rules {config.rules}" + (f", Variant {variant}" if variant else "")
    return f"{rules} · " + " vs ".join(config.side_name(side) for side in range(config.side_count))


def _page_game(replayed: ReplayedGame, notes: list[str], as_name: str | None, seat: int | None,
               number: int = 1) -> PageGame:
    config = replayed.config
    players = tuple(config.players) if config is not None else ()
    fixed = as_name is not None
    hidden_from_us = fixed and seat is None  # --as someone who does not sit at this table
    if replayed.game is None or config is None or hidden_from_us:
        return PageGame(_title(replayed), _about(replayed), players, (), (), (), tuple(notes), seat, "",
                        replayed.record.tag_value("Date") or "")
    steps = steps_of(replayed)
    view = view_for(config.rules)
    moves = _moves(replayed, steps)
    stops = tuple(_stop(steps, i, view, seat, fixed, len(players), moves[i]) for i in range(len(steps)))
    scores: tuple[PageScore, ...] = ()
    if replayed.complete:
        scores = tuple(PageScore(config.side_name(s.side), s.score, s.winner) for s in replayed.game.standings())
    marks, summary = analysis_of(replayed, steps)
    chart = loss_chart(players, marks, [step.label for step in steps], number, summary)
    return PageGame(_title(replayed), _about(replayed), players, stops, positions(steps), scores, tuple(notes),
                    seat if fixed else None, _chart(replayed, steps), replayed.record.tag_value("Date") or "",
                    marks, summary, chart, _rules(replayed))


def _rules(replayed: ReplayedGame) -> str:
    """`1e, partnership`: the rule set and the variant, as the record's tags say them."""
    config = replayed.config
    if config is None:
        return ""
    variant = replayed.record.tag_value("Variant")
    return config.rules + (f", {variant}" if variant else "")


def analysis_of(replayed: ReplayedGame, steps: Sequence[Step]) -> tuple[tuple[PageMark, ...], tuple[PagePlayer, ...]]:
    """The marks and the per-player summary an annotated record carries in its comments (`diamonds analyse`
    wrote them: `bots.notes`), each mark at the stop where its decision was made: a card's own stop; a Clubs
    victim's (R14), the stop where the victim was due, which the game's moves say (`_victims_by_item`): the
    card's own for a Club played off-suit (named at once, R9), the trick's last card for a won Clubs lead
    (named once the trick is complete, R10), the round's end for the Clubs majority's (R16); the round's R2.0
    for a pass, bid, take or final bid. Nothing is judged here: an unannotated record has none."""
    from diamonds.bots.analyse import END_LINE
    from diamonds.bots.notes import read_mark, read_summary

    config = replayed.config
    if config is None:
        return (), ()
    stop_of: dict[tuple[int, int, int], int] = {}
    for index, step in enumerate(steps):
        if step.kind != "start":
            stop_of.setdefault((step.round_no, step.trick_no if step.kind == "card" else -1 if step.kind == "end" else 0,
                                step.card_no), index)
    at_stop = {step.label: index for index, step in reversed(list(enumerate(steps))) if step.kind != "start"}
    marks: list[PageMark] = []
    victims: dict[tuple[int, int, str], list[_Due]] | None = None  # made at the first mark on a card or an end line

    def victim(round_no: int, item: int, played: str) -> _Due | None:
        """The victim decision whose mark, on this item, is on `played` (the first not yet shown)."""
        nonlocal victims
        if victims is None:
            victims = _victims_by_item(replayed)
        waiting = victims.get((round_no, item, played))
        return waiting.pop(0) if waiting else None

    def add(comments: Sequence[Comment], where: tuple[int, int, int], player: str, item: int | None = None) -> None:
        for comment in comments:
            mark = read_mark(comment.text)
            stop = stop_of.get(where)
            if mark is None or stop is None:
                continue
            chooser = None
            due = victim(where[0], item, mark.played) if item is not None else None
            if due is not None:
                stop, chooser = at_stop.get(due.at, stop), due.seat
            seat = config.seat_of(mark.player) if mark.player else chooser if chooser is not None else config.seat_of(player)
            if seat is not None:
                marks.append(PageMark(stop, seat, mark.glyph, mark.played, mark.best, mark.loss, mark.low, mark.high,
                                      mark.method))

    for round_ in replayed.record.rounds:
        r = round_.header.number
        add(round_.header.comments, (r, 0, 0), round_.header.dealer)
        for line in round_.hand_lines:
            add(line.comments, (r, 0, 0), line.player)
        for call in round_.calls:
            add(call.comments, (r, 0, 0), call.player)
        item = 0
        for trick in round_.tricks:
            for number, play in enumerate(trick.plays, 1):
                stop = stop_of.get((r, trick.number, number))
                actor = steps[stop].actor if stop is not None else None
                add(play.comments, (r, trick.number, number), config.players[actor] if actor is not None else "", item)
                item += 1
        if round_.end is not None:
            add(round_.end.comments, (r, -1, 0), "", END_LINE)
    summary: tuple[PagePlayer, ...] = ()
    for comment in replayed.record.comments:
        rows = read_summary(comment.text)
        if rows is not None:
            summary = tuple(PagePlayer(row.player, row.judged, row.inaccuracies, row.mistakes, row.blunders,
                                       row.mean_loss, row.accuracy) for row in rows)
    return tuple(sorted(marks, key=lambda mark: mark.stop)), summary


@dataclass(frozen=True, slots=True)
class _Due:
    """A player's decision in a replayed game: its ply, its round's number, where it was due (the position's
    label, as `Position.label` and `Judgement.at` give it: R2.7.3, R2.end), its text, the seat that made it and
    its kind (`bots.analyse.decision_kind`: "card", "victim", ...)."""

    ply: int
    round_no: int
    at: str
    text: str
    seat: int
    kind: str


def _decisions(replayed: ReplayedGame) -> list[_Due]:
    """Every decision of the game's moves (chance moves, the deals, are none), each where it was due: the
    replay's one walk of positions (`next_mark`, as `Position.label`) over the game's own events."""
    from diamonds.bots.analyse import decision_kind
    from diamonds.replay.steps import START, next_mark

    engine, config = replayed.game, replayed.config
    if engine is None or config is None:
        return []
    rules, step_marks = engine.rules, family_of(config.rules).part("marks")
    found, mark = [], START
    for ply, (move, events) in enumerate(zip(engine.moves, engine.events)):
        state = engine.state_at(ply)
        seat = None if rules.is_chance(state) else rules.to_move(state)
        if seat is not None:
            found.append(_Due(ply, mark.round_no, mark.label, rules.move_text(state, move), seat, decision_kind(move)))
        for event in events:
            mark = next_mark(mark, event, step_marks) or mark
    return found


def _victims_by_item(replayed: ReplayedGame) -> dict[tuple[int, int, str], list[_Due]]:
    """The game's Clubs victim decisions (R14) by the item `annotate` writes each one's mark on (the card that
    carries its `>Name`, or the end line: `bots.analyse.victim_items`, the writer's own mapping), keyed by the
    round's number, that item and the victim's text, in the order they were made."""
    from diamonds.bots.analyse import victim_items

    by_round: dict[int, list[_Due]] = {}
    for due in _decisions(replayed):
        if due.kind == "victim":
            by_round.setdefault(due.round_no, []).append(due)
    found: dict[tuple[int, int, str], list[_Due]] = {}
    for round_ in replayed.record.rounds:
        dues = {due.ply: due for due in by_round.get(round_.header.number, [])}
        items = victim_items(round_, [(due.ply, due.at, due.text) for due in dues.values()])
        for ply in sorted(items):
            due = dues[ply]
            found.setdefault((round_.header.number, items[ply], due.text), []).append(due)
    return found


def _moves(replayed: ReplayedGame, steps: Sequence[Step]) -> list[tuple[str, str]]:
    """Per stop, the move list's text (a card as written, with its annotation: `1S!?`) and the record's
    comments on it."""
    rounds = {r.header.number: r for r in replayed.record.rounds}
    found = []
    for step in steps:
        text, note = {"start": "start", "deal": "deal", "end": "end"}.get(step.kind, step.label), ""
        round_ = rounds.get(step.round_no)
        if step.kind == "card" and round_ is not None:
            tricks = [t for t in round_.tricks if t.number == step.trick_no]
            if tricks and 0 < step.card_no <= len(tricks[0].plays):
                play = tricks[0].plays[step.card_no - 1]
                text = str(play.card) + (play.annotation or "")
                comments = (tricks[0].comments if step.card_no == 1 else ()) + tuple(play.comments)
                note = _said(comments)
        elif step.kind == "deal" and round_ is not None:
            note = _said(round_.header.comments)
            for kind in vocabulary().words(Shape.CALL):  # the calls of the round, by their words (bid, final)
                amounts = [str(call.amount) for call in round_.calls if isinstance(call, Call) and call.kind == kind]
                if amounts:
                    text += f" · {kind} {' '.join(amounts)}"
        found.append((text, note))
    return found


def _said(comments: Sequence[Comment]) -> str:
    """The comments' words for the move list's tooltip; the analysis's marks are shown as marks instead."""
    from diamonds.bots.notes import read_mark

    return " ".join(c.text.strip() for c in comments if read_mark(c.text) is None)


def _chart(replayed: ReplayedGame, steps: Sequence[Step]) -> str:
    """The score chart: each side's score at the start and after each round (the `rounds` table's)."""
    from diamonds.replay.tables import game_rows
    from diamonds.svg.page import score_chart

    rows = game_rows(replayed, "", 1)["rounds"]
    if not rows:
        return ""
    sides = list(dict.fromkeys(row["side"] for row in rows))
    by_round: dict[int, dict[str, dict[str, int]]] = {}
    for row in rows:
        by_round.setdefault(row["round"], {})[row["side"]] = row
    last_stop: dict[int, int] = {}
    for index, step in enumerate(steps):
        if step.kind != "start":
            last_stop[step.round_no] = index
    first = by_round[min(by_round)]
    points = [(0, [first[side]["score"] - first[side]["points"] for side in sides])]
    for round_no in sorted(by_round):
        if round_no in last_stop:
            points.append((last_stop[round_no], [by_round[round_no][side]["score"] for side in sides]))
    return score_chart(sides, points, len(steps))


def _stop(steps: Sequence[Step], index: int, view: View, seat: int | None, fixed: bool, seats: int,
          move: tuple[str, str] = ("", "")) -> PageStop:
    step = steps[index]
    if fixed:  # one perspective: what the others hide is not drawn or told at all
        svg = step_svg(step, as_player=seat, for_page=False)
        narration = tuple(view.step_lines(step, seat))
        narration_as: tuple[tuple[str, ...] | None, ...] = ()
    else:
        svg = step_svg(step, as_player=None, for_page=True)
        narration = tuple(view.step_lines(step, None))
        heard = [tuple(view.step_lines(step, s)) for s in range(seats)]
        narration_as = tuple(lines if lines != narration else None for lines in heard)
    return PageStop(step.label, step.kind, svg, narration, narration_as,
                    jump(steps, index, Navigator.next_trick), jump(steps, index, Navigator.previous_trick),
                    jump(steps, index, Navigator.next_round), jump(steps, index, Navigator.previous_round),
                    move[0], move[1], step.actor if step.kind == "card" else None)


def jump(steps: Sequence[Step], index: int, move: Callable[[Navigator], None]) -> int:
    """Where the terminal replay's key lands from `index`."""
    navigator = Navigator(steps, index)
    move(navigator)
    return navigator.index


def positions(steps: Sequence[Step]) -> tuple[tuple[str, int], ...]:
    """Every name `g` accepts, as the terminal replay resolves it: each stop's label, R2 and R2.7, start, end."""
    names = {"start", "end"}
    for step in steps:
        if step.kind != "start":
            names.add(step.label)
            names.add(f"R{step.round_no}")
            if step.kind == "card":
                names.add(f"R{step.round_no}.{step.trick_no}")
    return tuple(sorted((name.lower(), find_position(steps, name)) for name in names))
