"""The page's pictures are packed as chunks and edits (`pack_pictures`); unpacked, every picture comes back
character for character, whatever the pictures share."""

from __future__ import annotations

import difflib

from hypothesis import given
from hypothesis import strategies as st

from diamonds.svg.page import matching_blocks, pack_pictures, unpack_pictures, z85_decode, z85_encode

pieces = st.sampled_from(["<g><rect/></g>", "<rect x='1'/>", "<text>7D</text>", "<use href='#b'/>", "x",
                          '<g class="next"><text>9H</text></g>', "<g><g><g><rect/></g></g></g>"])  # well formed, as pictures are


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


@given(stops())
def test_kept_runs_are_whole(svgs) -> None:
    for ops in pack_pictures(svgs)["edits"]:
        keeps = [i for i, op in enumerate(ops) if isinstance(op, int) and op > 0]
        assert all(b - a > 1 for a, b in zip(keeps, keeps[1:]))  # two kept runs in a row would be one


def test_an_unchanged_picture_is_one_kept_run() -> None:
    svg = "<svg><g><rect/></g><text>a</text></svg>"
    first, second = pack_pictures([svg, svg])["edits"]
    assert first == [[-1] * len(first[0])] and second == [len(first[0])]


@st.composite
def neighbours(draw) -> tuple[list[int], list[int]]:
    """Two lists of chunk numbers, the second the first with a few edits (or anything at all), short or long
    enough (200 and more) for difflib to set aside the items that are too common."""
    items = st.integers(0, draw(st.sampled_from([1, 3, 8, 40, 400])))
    first = draw(st.lists(items, max_size=draw(st.sampled_from([12, 60, 320]))))
    second = list(first)
    for _ in range(draw(st.integers(0, 12))):
        at = draw(st.integers(0, len(second)))
        second[at:at + draw(st.integers(0, 3))] = draw(st.lists(items, max_size=3))
    if draw(st.booleans()) and draw(st.booleans()):
        second = draw(st.lists(items, max_size=320))
    return (second, first) if draw(st.booleans()) else (first, second)


@given(neighbours())
def test_the_matching_is_difflibs_block_for_block(pair) -> None:
    """The pages' bytes follow from the matching: it must stay difflib's (`SequenceMatcher(None, a, b)`)."""
    a, b = pair
    assert matching_blocks(a, b) == [tuple(block) for block in difflib.SequenceMatcher(None, a, b).get_matching_blocks()]


def test_the_matching_is_difflibs_where_its_ties_and_common_items_decide() -> None:
    # Two equal longest matches: the one ending first in a, then first in b (a lone cell against the end of a
    # longer run: [0, 0, 0]); items in more than 1% of a long b (here 3 of 200 is not more) are no anchors but
    # are grown over at a match's ends.
    cases = [([1, 2, 9, 1, 2], [1, 2, 8, 1, 2]), ([1, 2, 3], [3, 1, 2, 1, 2]), ([5, 1, 2], [1, 2, 5, 1, 2]),
             ([0, 0, 0], [0, 0, 1, 0, 0]), ([9, 1, 5], [9, *range(100, 296), 1, 1, 1]),
             ([0] * 250 + [1, 0, 0], [0, 0, 1] + [0] * 250), ([7] * 3 + list(range(300)), list(range(300)) + [7] * 3)]
    for a, b in cases:
        assert matching_blocks(a, b) == [tuple(m) for m in difflib.SequenceMatcher(None, a, b).get_matching_blocks()]


def test_z85_is_zeromqs() -> None:
    # The test vector of ZeroMQ's Z85 specification (rfc.zeromq.org/spec/32): these 8 bytes are "HelloWorld".
    assert z85_encode(bytes([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])) == "HelloWorld"
    assert z85_decode("HelloWorld", 8) == bytes([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])


@given(st.binary(max_size=64))
def test_z85_comes_back(data) -> None:
    assert z85_decode(z85_encode(data), len(data)) == data
