"""The interactive replay page: page data in, one self-contained HTML file out.

Pure: no files, no rules, no terminal. Everything the page needs is inside it
(CSS, the script, every stop's picture and narration, the score charts), so it
works from a USB stick with no network and in a phone's browser; a strict
Content-Security-Policy says so to the browser. The command
(`diamonds.cli.page_cmd`) replays the games and fills in the data; the script
(`page.js`) only looks things up in it. Where a key goes (next trick, previous
round, `g R2.7`) is the terminal replay's own navigator's rule: the script
works it out from the stops' labels (`jumps_of`, `positions_of` say the same in
Python, and the tests hold both to `Navigator` and `find_position`).

Size: the stops and their pictures, the style and the main script travel in one packed part per page
(`pack`: JSON, gzip, Z85). A picture is cut into pieces (`_chunks`), each
distinct piece is kept once for every game of the page, and each stop is the
stop before with a few edits (`pack_pictures`): the browser puts every picture
together again character for character (`DecompressionStream`, no library).
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from dataclasses import dataclass
from importlib import resources

__all__ = ["Page", "PageGame", "PageStop", "PageScore", "PageMark", "PagePlayer", "loss_chart",
           "render_page", "page_json", "pack_pictures", "unpack_pictures",
           "pack", "unpack", "unpack_page", "score_chart", "CSP", "z85_encode", "z85_decode",
           "positions_of", "jumps_of", "stops_of", "page_head"]


@dataclass(frozen=True, slots=True)
class PageStop:
    """One stop of the replay: its picture, what happened in words, and where each jump key lands."""

    label: str  # R2.7.3, R2.0, R2.end, start
    kind: str  # "start", "deal", "card", "end"
    svg: str
    narration: tuple[str, ...]
    # Per seat, the narration as that player hears it, or None where it is the same as `narration`
    # (empty on a page written from one perspective: there, `narration` already is that player's).
    narration_as: tuple[tuple[str, ...] | None, ...]
    next_trick: int
    previous_trick: int
    next_round: int
    previous_round: int
    move: str = ""  # the move list's short text: the card as written (with its annotation), "deal", "end"
    note: str = ""  # the record's comments on the move, for the move list's tooltip
    seat: int | None = None  # who played the card (the move list's column)


@dataclass(frozen=True, slots=True)
class PageScore:
    side: str  # "Ann", or "Ann+Cat" for a team
    score: int
    winner: bool


@dataclass(frozen=True, slots=True)
class PageMark:
    """A decision the analysis marked, as the annotated record's comment tells it (`diamonds analyse`)."""

    stop: int  # the stop that shows the position after the decision (a card's own; R2.0 for passes and bids)
    seat: int
    glyph: str  # "?!", "?" or "??"
    played: str
    best: str
    loss: float  # in the family's points, with its 95% interval
    low: float
    high: float
    method: str  # "est", "exact", "double dummy"


@dataclass(frozen=True, slots=True)
class PagePlayer:
    """A player's line of the analysis's summary, as the annotated record's game comment gives it."""

    player: str
    judged: int
    inaccuracies: int
    mistakes: int
    blunders: int
    mean_loss: float
    accuracy: float  # percent


@dataclass(frozen=True, slots=True)
class PageGame:
    """One game of the file, replayed as far as it is valid."""

    title: str
    about: str  # the rules and the players, in a line
    players: tuple[str, ...]
    stops: tuple[PageStop, ...]  # empty when not even the start could be set up
    positions: tuple[tuple[str, int], ...]  # every name the go-to key accepts (lower case) and its stop
    scores: tuple[PageScore, ...]  # the final standings; empty for a game that does not reach its end
    notes: tuple[str, ...]  # problems (file:line:col, the line, a caret) and notes, shown on the page
    as_player: int | None = None  # written from this seat only: the hidden things are not in the file
    chart: str = ""  # the score-over-time chart (SVG, `score_chart`); its marker follows the position
    date: str = ""  # the Date tag, as written (for the archive's index)
    marks: tuple[PageMark, ...] = ()  # empty for a game that was not analysed
    summary: tuple[PagePlayer, ...] = ()
    loss_chart: str = ""  # the marks' losses per player (SVG, `loss_chart`)
    rules: str = ""  # the rule set and variant in short, `1e, partnership` (for the archive's index)


@dataclass(frozen=True, slots=True)
class Page:
    title: str
    games: tuple[PageGame, ...]
    start_game: int = 0  # the game shown first (0-based)
    index: str = ""  # the archive's index page, relative to this one ("" outside an archive)


_COMMENT = re.compile(r"^\s*/\*.*?\*/\s*$", re.S | re.M)


def asset(name: str) -> str:
    """A packaged file, its comment-only lines and indentation left out (the page stays small)."""
    text = resources.files("diamonds.svg").joinpath(name).read_text(encoding="utf-8")
    text = _COMMENT.sub("", text)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def _perspective_css(seats: int) -> str:
    """Show each seat's private things and the others' concealed versions, per chosen perspective.

    The pictures carry both versions of every private element (`step_svg(for_page=True)`), so
    changing the perspective is a matter of CSS, not of drawing again. `data-seat` lists the seats
    that may see a thing (a team's seats separated by spaces), hence `~=`."""
    rules = [".concealed { display: none; }"]
    for seat in range(seats):
        rules.append(f'#stage[data-view="{seat}"] .private:not([data-seat~="{seat}"]) {{ display: none; }}')
        rules.append(f'#stage[data-view="{seat}"] .concealed:not([data-seat~="{seat}"]) {{ display: inline; }}')
    return "\n".join(rules)


#: A picture's text split at its tags: text, tag, text, tag … text (a tag: `<g …>`, `</g>`, `<rect … />`).
_PARTS = re.compile(r"(</?[a-zA-Z][^>]*>)")
#: Pictures are cut into chunks at elements down to this depth (deeper elements stay inside their chunk).
CHUNK_DEPTH = 6
_OPEN, _CLOSE, _EMPTY, _CHAIN = range(4)  # the kinds of tag; _CHAIN opens a `g.next`
_KINDS: dict[str, int] = {}  # each tag's kind, once: a page's pictures repeat the same tags thousands of times


def _tag_kind(tag: str) -> int:
    kind = _KINDS.get(tag)
    if kind is None:
        if len(_KINDS) > 50_000:
            _KINDS.clear()
        if tag[1] == "/":
            kind = _CLOSE
        elif tag[-2] == "/":
            kind = _EMPTY
        else:
            kind = _CHAIN if tag.startswith('<g class="next"') else _OPEN
        _KINDS[tag] = kind
    return kind


def _chunks(svg: str, depth: int = CHUNK_DEPTH) -> list[str]:
    """`svg` cut into consecutive pieces at the elements of the first `depth` levels: joined, they are
    `svg` again, character for character. A `g.next` (a card of a row inside the card before it,
    `draw.card_row`) is cut at but counts no level: a row of any length is cut card by card."""
    parts = _PARTS.split(svg)
    out: list[str] = []
    pending = parts[0]  # the text since the last cut
    level = 0
    chained: list[bool] = []  # per open element: whether it is a `g.next`
    kinds = _KINDS
    for i in range(1, len(parts), 2):
        tag = parts[i]
        kind = kinds.get(tag)
        if kind is None:
            kind = _tag_kind(tag)
        if kind == _CLOSE:
            if not chained.pop():
                level -= 1
            pending += tag
            if level <= depth:
                out.append(pending)
                pending = ""
        elif level <= depth:  # cut before the element, and after it unless it opens a level of its own
            if pending:
                out.append(pending)
            pending = ""
            if kind == _OPEN:
                level += 1
                chained.append(False)
                pending = tag
            else:
                if kind == _CHAIN:
                    chained.append(True)
                out.append(tag)
        else:
            pending += tag
            if kind != _EMPTY:
                chained.append(kind == _CHAIN)
                level += kind == _OPEN
        text = parts[i + 1]
        if text:
            pending += text
    if pending:
        out.append(pending)
    return out


def _edits(before: list[int], after: list[int]) -> list[object]:
    """`after` as edits of `before`: n keeps n chunks, -n drops n, a list inserts those chunks.

    Consecutive stops share most of their start and end, so only the middle between the longest common
    prefix and suffix is given to difflib, whose matching is quadratic in what it is given."""
    import difflib

    limit = min(len(before), len(after))
    head = 0
    while head < limit and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < limit - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    ops: list[object] = []

    def keep(count: int) -> None:
        if count and ops and isinstance(ops[-1], int) and ops[-1] > 0:
            ops[-1] += count  # type: ignore[operator]
        elif count:
            ops.append(count)

    keep(head)
    middle_before, middle_after = before[head:len(before) - tail], after[head:len(after) - tail]
    matcher = difflib.SequenceMatcher(None, middle_before, middle_after)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            keep(i2 - i1)
            continue
        if i2 > i1:
            ops.append(-(i2 - i1))
        if j2 > j1:
            ops.append(middle_after[j1:j2])
    keep(tail)
    return ops


def pack_pictures(svgs: list[str]) -> dict[str, object]:
    """A game's pictures as distinct chunks and per stop the edits from the stop before.

    Consecutive stops differ by a card or a few crystals: each distinct piece
    of SVG (`_chunks`) is kept once, and a stop is the previous stop's list
    of pieces with a few edits (`_edits`; in an inserted list, -1 stands for
    the next piece not seen before). `unpack_pictures` and the page's script
    rebuild every picture exactly."""
    table: dict[str, int] = {}
    before: list[int] = []
    edits: list[object] = []
    for svg in svgs:
        fresh = len(table)
        after = [table.setdefault(chunk, len(table)) for chunk in _chunks(svg)]
        ops = _edits(before, after)
        for op in ops:
            if isinstance(op, list):
                for i, value in enumerate(op):
                    if value == fresh:
                        op[i], fresh = -1, fresh + 1
        edits.append(ops)
        before = after
    return {"chunks": list(table), "edits": edits}


def unpack_pictures(packed: dict[str, object]) -> list[str]:
    """What the page's script does to `pack_pictures` (for tests and tools)."""
    chunks: list[str] = packed["chunks"]  # type: ignore[assignment]
    svgs: list[str] = []
    before: list[int] = []
    fresh = 0
    for ops in packed["edits"]:  # type: ignore[attr-defined]
        after: list[int] = []
        at = 0
        for op in ops:
            if isinstance(op, list):
                for value in op:
                    if value == -1:
                        value, fresh = fresh, fresh + 1
                    after.append(value)
            elif op > 0:
                after.extend(before[at:at + op])
                at += op
            else:
                at -= op
        svgs.append("".join(chunks[i] for i in after))
        before = after
    return svgs


#: Z85 (ZeroMQ's base 85): 5 characters for 4 bytes, where base64 takes 5.33; none of them is `"` or `\`.
Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
_Z85_VALUE = {char: value for value, char in enumerate(Z85)}


def z85_encode(data: bytes) -> str:
    """`data` in Z85, padded with zero bytes to a multiple of 4 (the reader is told the length).

    Z85 is base 85 in 4-byte big-endian groups, as `base64.b85encode` writes them (in C-speed tables) but with
    another alphabet: its digits are translated, one for one."""
    return base64.b85encode(data, pad=True).translate(_B85_TO_Z85).decode("ascii")


_B85 = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"  # base64's base 85
_B85_TO_Z85 = bytes.maketrans(_B85, Z85.encode("ascii"))


def z85_decode(text: str, length: int) -> bytes:
    out = bytearray()
    for i in range(0, len(text), 5):
        value = 0
        for char in text[i:i + 5]:
            value = value * 85 + _Z85_VALUE[char]
        out += value.to_bytes(4, "big")
    return bytes(out[:length])


def pack(value: object) -> str:
    """JSON, gzipped, in Z85 after its byte count (`1234:…`): the page unpacks it with the browser's
    own `DecompressionStream` (no network, no library)."""
    packed = gzip.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
                           compresslevel=9, mtime=0)
    return f"{len(packed)}:{z85_encode(packed)}"


def unpack(text: str) -> object:
    length, _, body = text.partition(":")
    return json.loads(gzip.decompress(z85_decode(body, int(length))).decode("utf-8"))


def positions_of(stops: list[dict[str, object]]) -> dict[str, int]:
    """Every name the page's go-to box accepts and its stop, from the stops' labels and kinds, as the
    script works them out (`positionsOf` in page.js) and as `find_position` resolves them: each label;
    R2: the round's deal (else its first stop); R2.7: the last card of trick 7; start; end."""
    if not stops:
        return {}
    found = {"start": 0, "end": len(stops) - 1}
    deals: set[str] = set()
    for index, stop in enumerate(stops):
        if stop["kind"] == "start":
            continue
        label = str(stop["label"]).lower()
        parts = label.split(".")
        found[label] = index
        if stop["kind"] == "deal" and parts[0] not in deals:
            deals.add(parts[0])
            found[parts[0]] = index
        elif parts[0] not in found:
            found[parts[0]] = index
        if stop["kind"] == "card":
            found[f"{parts[0]}.{parts[1]}"] = index
    return found


def jumps_of(stops: list[dict[str, object]]) -> list[list[int]]:
    """Where each jump key (next trick, previous trick, next round, previous round) lands from each
    stop, from the labels and kinds alone, as the terminal replay's `Navigator` moves and as the
    script works it out (`jumpsOf` in page.js): the page does not carry them."""
    keys = []
    for stop in stops:
        parts = str(stop["label"]).split(".")
        round_no = 1 if stop["kind"] == "start" else int(parts[0][1:])
        trick = int(parts[1]) if stop["kind"] == "card" else 0
        keys.append((round_no, trick, stop["kind"]))
    last = len(stops) - 1
    deals = [i for i, key in enumerate(keys) if key[2] == "deal"]
    found = []
    for index, here in enumerate(keys):
        i = index
        while i + 1 <= last and keys[i + 1] == here:
            i += 1
        if i > index and here[2] == "card":  # first to the end of the trick under way
            pass
        elif i + 1 <= last:
            i += 1
            target = keys[i]
            while i + 1 <= last and keys[i + 1] == target and keys[i][2] == "card":
                i += 1
        next_trick, i = i, index
        while i > 0 and keys[i] == here:
            i -= 1
        previous_trick = i
        later = [d for d in deals if d > index and (keys[d][0] > here[0] or here[2] == "start")]
        before = [d for d in deals if d < index]
        previous_round = 0
        if before and keys[before[-1]][0] == here[0] and len(before) > 1:
            previous_round = before[-2]
        elif before and keys[before[-1]][0] < here[0]:
            previous_round = before[-1]
        found.append([next_trick, previous_trick, later[0] if later else last, previous_round])
    return found


def unpack_page(data: dict[str, object]) -> dict[str, object]:
    """The page's data with its packed part opened: each game with its `stops` (each with its `svg`) and
    `positions`, as the script sees them once unpacked (for tests and tools)."""
    found = dict(data)
    inner = unpack(str(data["packed"]))
    assert isinstance(inner, dict)
    svgs = iter(unpack_pictures(inner["pictures"]))
    games = []
    for game, more in zip(data["games"], inner["games"], strict=True):  # type: ignore[call-overload]
        game = dict(game)
        game["stops"] = stops_of(more["stops"])
        for stop in game["stops"]:
            stop["svg"] = next(svgs)
        game["positions"] = positions_of(game["stops"])
        for stop, jumps in zip(game["stops"], jumps_of(game["stops"])):
            stop["jumps"] = jumps
        game["chart"] = more["chart"]
        game["loss_chart"] = more.get("loss", "")
        game["marks"] = [dict(zip(_MARK_FIELDS, mark)) for mark in more.get("marks", [])]
        game["summary"] = [dict(zip(_PLAYER_FIELDS, row)) for row in more.get("summary", [])]
        games.append(game)
    found["games"] = games
    found["style"], found["script"] = inner["style"], inner["script"]
    return found


def _stop_rows(stops: tuple[PageStop, ...]) -> list[list[object]]:
    """The stops as the packed data holds them: `[label, narration, seat + 1, move, note, narration_as]`,
    the empty tail left out. A card's move is left out ("") where the narration's first line ends with it
    (`Ann plays 7H`). A card's label is 0 when it is the next card of the same trick, 1 when it
    is the first card of the next trick (of the round just dealt): the script works them out again
    (`stops_of` here, `expand` in page.js), and the kind from the label."""
    rows: list[list[object]] = []
    before: PageStop | None = None
    for stop in stops:
        label: object = stop.label
        if before is not None and stop.kind == "card":
            r, t, c = stop.label.split(".")
            b = before.label.split(".")
            if before.kind == "card" and b[:2] == [r, t] and int(c) == int(b[2]) + 1:
                label = 0
            elif c == "1" and b[0] == r and ((before.kind == "card" and int(t) == int(b[1]) + 1)
                                             or (before.kind == "deal" and t == "1")):
                label = 1
        heard: object = 0
        if any(lines is not None for lines in stop.narration_as):
            heard = [list(lines) if lines is not None else None for lines in stop.narration_as]
        move = "" if stop.kind == "card" and stop.move == _said_card(stop.narration) else stop.move
        row: list[object] = [label, list(stop.narration), 0 if stop.seat is None else stop.seat + 1, move, stop.note,
                             heard]
        while len(row) > 2 and row[-1] in ("", 0):
            row.pop()
        rows.append(row)
        before = stop
    return rows


def _said_card(narration: tuple[str, ...] | list[str]) -> str:
    """The last word of a card stop's first line of narration (`Ann leads 7H`): its move, as a rule."""
    return narration[0].rsplit(" ", 1)[-1] if narration else ""


def _kind(label: str) -> str:
    if label == "start":
        return "start"
    part = label.split(".")[1]
    return "deal" if part == "0" else "end" if part == "end" else "card"


def stops_of(rows: list[list[object]]) -> list[dict[str, object]]:
    """`_stop_rows` opened again: each stop as a dict (label, kind, narration, move, note and, where
    a player hears it otherwise, narration_as)."""
    stops: list[dict[str, object]] = []
    for row in rows:
        label = row[0]
        if isinstance(label, int):
            r, t, c = (str(stops[-1]["label"]).split(".") + ["0"])[:3]
            label = f"{r}.{t}.{int(c) + 1}" if label == 0 else f"{r}.{int(t) + 1}.1"
        kind = _kind(str(label))
        move = row[3] if len(row) > 3 else ""
        if kind == "card" and not move:
            move = _said_card(row[1])  # type: ignore[arg-type]
        stop: dict[str, object] = {"label": label, "kind": kind, "narration": row[1],
                                   "move": move, "note": row[4] if len(row) > 4 else ""}
        if len(row) > 5 and row[5]:
            stop["narration_as"] = row[5]
        if len(row) > 2 and row[2]:
            stop["seat"] = int(row[2]) - 1  # type: ignore[call-overload]
        stops.append(stop)
    return stops


_MARK_FIELDS = ("stop", "seat", "glyph", "played", "best", "loss", "low", "high", "method")
_PLAYER_FIELDS = ("player", "judged", "inaccuracies", "mistakes", "blunders", "mean_loss", "accuracy")


def _analysis_data(game: PageGame) -> dict[str, object]:
    """A game's analysis as the packed data holds it (nothing for a game that was not analysed): each mark
    and summary row as a list of its fields' values, in `_MARK_FIELDS` and `_PLAYER_FIELDS` order."""
    found: dict[str, object] = {}
    if game.marks:
        found["marks"] = [[getattr(mark, name) for name in _MARK_FIELDS] for mark in game.marks]
    if game.summary:
        found["summary"] = [[getattr(row, name) for name in _PLAYER_FIELDS] for row in game.summary]
    if game.loss_chart:
        found["loss"] = game.loss_chart
    return found


def _game_data(game: PageGame) -> dict[str, object]:
    return {
        "title": game.title, "about": game.about, "players": list(game.players),
        "count": len(game.stops),
        "scores": [{"side": s.side, "score": s.score, "winner": s.winner} for s in game.scores],
        "notes": list(game.notes), "as_player": game.as_player,
    }


_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def score_chart(sides: list[str], points: list[tuple[int, list[int]]], stops: int) -> str:
    """Each side's score over the game as a step line: `points` are (stop index, every side's score
    there), from the start to each round's end; `stops` the game's stop count (the x axis). A
    vertical line, `.marker`, is moved by the page's script to the position shown."""
    if not sides or not points or stops < 2:
        return ""
    width, height, left, right, top, bottom = 600, 170, 44, 10, 10, 22
    legend = 16 * ((len(sides) + 2) // 3)
    low = min(min(scores) for _, scores in points)
    high = max(max(scores) for _, scores in points)
    if high == low:
        high = low + 1

    def x(index: int) -> float:
        return round(left + (width - left - right) * index / (stops - 1), 1)

    def y(score: int) -> float:
        return round(top + (height - top - bottom) * (high - score) / (high - low), 1)

    e = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + legend}" class="chart" '
             f'data-x0="{left}" data-x1="{width - right}" role="img" aria-label="Scores after each round">',
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" class="axis"/>',
             f'<text x="{left - 4}" y="{y(high) + 4}" text-anchor="end" class="tick">{high}</text>',
             f'<text x="{left - 4}" y="{y(low) + 4}" text-anchor="end" class="tick">{low}</text>']
    if low < 0 < high:
        parts.append(f'<line x1="{left}" y1="{y(0)}" x2="{width - right}" y2="{y(0)}" class="zero"/>')
    for side, name in enumerate(sides):
        colour = _COLOURS[side % len(_COLOURS)]
        line: list[str] = []
        for i, (index, scores) in enumerate(points):
            if i:
                line.append(f"{x(index)},{y(points[i - 1][1][side])}")
            line.append(f"{x(index)},{y(scores[side])}")
        parts.append(f'<polyline points="{" ".join(line)}" fill="none" stroke="{colour}" stroke-width="2">'
                     f'<title>{e(name)}</title></polyline>')
        lx, ly = left + 190 * (side % 3), height + 12 + 16 * (side // 3)
        parts.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{lx + 14}" y="{ly}" class="name">{e(name)} {points[-1][1][side]}</text>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" class="marker"/>')
    parts.append(f'<text x="{left}" y="{height - 6}" class="tick">start</text>'
                 f'<text x="{width - right}" y="{height - 6}" text-anchor="end" class="tick">end</text></svg>')
    return "".join(parts)


GLYPH_COLOURS = {"?!": "#c99700", "?": "#e06d00", "??": "#c0262d"}  # lichess's inaccuracy, mistake, blunder hues


def loss_chart(players: tuple[str, ...], marks: tuple[PageMark, ...], labels: list[str], game: int,
               summary: tuple[PagePlayer, ...] = ()) -> str:
    """The points each player's marked decisions lost, a lane per player along the game (the score chart's
    x axis, so the two markers line up): a bar per mark, as tall as its loss, its 95% interval as a
    whisker, in the mark's colour, each a link to the mark's position (`#g2/R3.5.1`). Only marked
    decisions are drawn (the record carries no others); the lane's title gives the player's accuracy."""
    if not players or not marks or len(labels) < 2:
        return ""
    width, left, right, lane = 600, 44, 10, 52
    height = lane * len(players) + 18
    top_loss = max(max(mark.high, mark.loss) for mark in marks) or 1.0
    by_player = {row.player: row for row in summary}

    def x(index: int) -> float:
        return round(left + (width - left - right) * index / (len(labels) - 1), 1)

    e = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart losses" '
             f'data-x0="{left}" data-x1="{width - right}" role="img" '
             f'aria-label="Points lost at each marked decision, per player">']
    for seat, name in enumerate(players):
        top = lane * seat
        base = top + lane - 6
        row = by_player.get(name)
        said = f" · accuracy {row.accuracy:.1f}% · mean loss {row.mean_loss:.2f}" if row is not None else ""
        parts.append(f'<text x="{left + 2}" y="{top + 11}" class="name">{e(name)}{e(said)}</text>'
                     f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" class="axis"/>')
        scale = (lane - 24) / top_loss
        for mark in marks:
            if mark.seat != seat:
                continue
            at, bar = x(mark.stop), max(2.0, round(mark.loss * scale, 1))
            interval = f" [{mark.low:.1f}, {mark.high:.1f}]" if mark.method == "est" else f" ({mark.method})"
            tip = f"{labels[mark.stop]} {name} {mark.played}{mark.glyph}: loses {mark.loss:.1f}{interval}; best {mark.best}"
            whisker = ""
            if mark.high > mark.low:
                whisker = (f'<line x1="{at}" y1="{round(base - mark.low * scale, 1)}" x2="{at}" '
                           f'y2="{round(base - mark.high * scale, 1)}" class="whisker"/>')
            parts.append(f'<a href="#g{game}/{e(labels[mark.stop])}" class="mark"><title>{e(tip)}</title>'
                         f'<rect x="{round(at - 2.5, 1)}" y="{round(base - bar, 1)}" width="5" height="{bar}" '
                         f'fill="{GLYPH_COLOURS[mark.glyph]}"/>{whisker}</a>')
    parts.append(f'<text x="{left - 4}" y="{lane - 3}" text-anchor="end" class="tick">0</text>'
                 f'<text x="{left - 4}" y="22" text-anchor="end" class="tick">{top_loss:.1f}</text>'
                 f'<line x1="{left}" y1="0" x2="{left}" y2="{height - 18}" class="marker"/>'
                 f'<text x="{left}" y="{height - 4}" class="tick">start</text>'
                 f'<text x="{width - right}" y="{height - 4}" text-anchor="end" class="tick">end</text></svg>')
    return "".join(parts)


#: The page loads nothing: no network, no other file; inline style and script only.
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
       "base-uri 'none'; form-action 'none'")

_SCRIPT_END = re.compile(r"<(?=[/!])")  # `</script>` or `<!--` inside the data would end or confuse the script


def page_json(page: Page) -> str:
    """The page's data as the script reads it, safe inside a `<script>` element."""
    # One packed part for every game: the games of an evening share most pieces of their pictures.
    # The go-to names are not sent: the script works them out from the labels (`positions_of`).
    # The style and the main script travel in the pack too (boot.js adds them): gzipped, a third of their size.
    seats = max((len(game.players) for game in page.games), default=0)
    packed = pack({"games": [{"stops": _stop_rows(g.stops), "chart": g.chart, **_analysis_data(g)}
                             for g in page.games],
                   "pictures": pack_pictures([stop.svg for g in page.games for stop in g.stops]),
                   "style": asset("page.css") + "\n" + _perspective_css(seats), "script": asset("page.js")})
    text = json.dumps({"start_game": page.start_game, "games": [_game_data(g) for g in page.games],
                       "packed": packed}, ensure_ascii=False, separators=(",", ":"))
    return _SCRIPT_END.sub(r"\\u003c", text)


def page_head(title: str, generator: str) -> str:
    """The start of a page's head, up to its title (`title` already escaped): what every page writes."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{generator}">
<title>{title}</title>
"""


#: What the page looks like for the moment before boot.js adds the packed style.
_FIRST_STYLE = ("body { margin: 0 auto; max-width: 860px; padding: 0.5rem 0.75rem; background: #f6f4ee; color: #1d2327; "
                "font: 16px/1.45 system-ui, sans-serif; } main, header .choices { visibility: hidden; }")


def render_page(page: Page) -> str:
    """One HTML file: inline CSS, inline script, the data; no reference to anything outside it."""
    title = html.escape(page.title)
    back = f'<p class="back"><a href="{html.escape(page.index)}">all games</a></p>' if page.index else ""
    return page_head(title, "diamonds replay --html") + f"""<style>{_FIRST_STYLE}</style>
</head>
<body>
<header>
  {back}<h1>{title}</h1>
  <div class="choices">
    <label id="game-choice">Game <select id="game"></select></label>
    <label id="view-choice">Perspective <select id="view"></select></label>
    <span id="view-fixed"></span>
  </div>
  <p id="about"></p>
</header>
<main>
<div id="board">
  <div id="stage" data-view="all">unpacking the game…</div>
  <nav id="controls" aria-label="replay controls">
    <button type="button" data-action="start" title="start (Home)" aria-label="start">|◀</button>
    <button type="button" data-action="previous_round" title="previous round (PgUp)" aria-label="previous round">«</button>
    <button type="button" data-action="previous_trick" title="previous trick (↑)" aria-label="previous trick">‹‹</button>
    <button type="button" data-action="previous_step" title="back a step (←)" aria-label="back a step">◀</button>
    <button type="button" data-action="next_step" title="next step (→)" aria-label="next step">▶</button>
    <button type="button" data-action="next_trick" title="next trick (↓)" aria-label="next trick">››</button>
    <button type="button" data-action="next_round" title="next round (PgDn)" aria-label="next round">»</button>
    <button type="button" data-action="end" title="end (End)" aria-label="end">▶|</button>
  </nav>
  <div id="where">
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
    <output id="label"></output>
  </div>
  <div id="play-bar">
    <button type="button" id="play" aria-pressed="false" title="play or pause (a)">Play</button>
    <label>Speed <select id="speed" aria-label="autoplay speed">
      <option value="2000">slow</option><option value="1000" selected>normal</option>
      <option value="400">fast</option></select></label>
    <form id="goto"><label>Go to <input id="goto-text" type="text" autocomplete="off"
      placeholder="R2.7, R2.7.3, R2.end" aria-describedby="message"></label>
      <button type="submit">Go</button></form>
  </div>
  <p id="message" role="alert"></p>
  <ol id="narration" aria-live="polite"></ol>
  <section id="loss-box" hidden><h2>Points lost at marked decisions</h2><div id="loss" class="plot"></div></section>
  <section id="chart-box" hidden><h2>Scores</h2><div id="chart" class="plot"></div></section>
  <section id="analysis" hidden>
    <h2>Analysis</h2>
    <table><thead><tr><th>player</th><th>judged</th><th class="m1">?!</th><th class="m2">?</th><th class="m3">??</th>
      <th>mean loss</th><th>accuracy</th></tr></thead><tbody></tbody></table>
    <div class="marks"></div>
  </section>
  <section id="scores" hidden>
    <h2>Final scores</h2>
    <table><thead><tr><th>side</th><th>score</th><th></th></tr></thead><tbody></tbody></table>
  </section>
  <p id="unfinished" hidden>The record stops here, before the end of the game: there are no final scores.</p>
  <section id="notes" hidden>
    <h2>Problems in this game</h2>
    <div class="list"></div>
  </section>
  <details id="help"><summary>Keys</summary><dl></dl></details>
</div>
<aside id="side"><section id="moves-box"><h2>Moves</h2><nav id="moves" aria-label="moves"></nav></section></aside>
</main>
<script type="application/json" id="diamonds-data">{page_json(page)}</script>
<script>
{asset("boot.js")}
</script>
</body>
</html>
"""
