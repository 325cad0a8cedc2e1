"""The page's pictures are packed as chunks and edits (`pack_pictures`); unpacked, every picture comes back
character for character, whatever the pictures share."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from diamonds.svg.page import _chunks, _edits, pack_pictures, unpack_pictures

pieces = st.sampled_from(["<g>", "</g>", "<rect x='1'/>", "<text>7D</text>", "<use href='#b'/>", "x"])


@st.composite
def stops(draw) -> list[str]:
    """Pictures where each is the one before with a few pieces changed, as a game's stops are."""
    first = draw(st.lists(pieces, max_size=30))
    out = ["<svg>" + "".join(first) + "</svg>"]
    current = first
    for _ in range(draw(st.integers(0, 6))):
        edit = draw(st.lists(pieces, max_size=5))
        at = draw(st.integers(0, len(current)))
        drop = draw(st.integers(0, 3))
        current = current[:at] + edit + current[at + drop:]
        out.append("<svg>" + "".join(current) + "</svg>")
    return out


@given(stops())
def test_packed_pictures_unpack_to_the_very_pictures(svgs) -> None:
    assert unpack_pictures(pack_pictures(svgs)) == svgs


@given(st.lists(st.integers(0, 5), max_size=40), st.lists(st.integers(0, 5), max_size=40))
def test_edits_rebuild_the_list_and_keep_runs_whole(before, after) -> None:
    ops = _edits(before, after)
    rebuilt, at = [], 0
    for op in ops:
        if isinstance(op, list):
            rebuilt += op
        elif op > 0:
            rebuilt += before[at:at + op]
            at += op
        else:
            at -= op
    assert rebuilt == after and at == len(before)
    keeps = [i for i, op in enumerate(ops) if isinstance(op, int) and op > 0]
    assert all(b - a > 1 for a, b in zip(keeps, keeps[1:]))  # two kept runs in a row would be one


def test_an_unchanged_picture_is_one_kept_run() -> None:
    chunks = list(range(len(_chunks("<svg><g><rect/></g><text>a</text></svg>"))))
    assert _edits(chunks, chunks) == [len(chunks)]
