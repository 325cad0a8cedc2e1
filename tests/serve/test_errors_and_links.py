"""Issue 31, items 4 to 6 and 9, against a real `diamonds serve` process: every answer that is not 2xx has
the one error shape; the links never follow a request's Host header (the server's own address, or
--public-url); the organiser's link is printed with its QR code; tags and names with control or bidi
characters are refused, naming the tag, by the API, `diamonds record` and `diamonds simulate`; a full disk
(a real small tmpfs of the server's own) is 507 with nothing half-made; remembered refusals are bounded per
table."""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from servehelp import Scorer, Server

pytest.importorskip("fastapi")

from diamonds.serve.links import lan_address, public_url  # noqa: E402
from diamonds.serve.store import REMEMBERED_REFUSALS  # noqa: E402

pytestmark = pytest.mark.process  # real `diamonds serve` processes


def _is_error(answer: httpx.Response, status: int, code: str | None = None) -> dict:
    """The one error shape: JSON `{"error": {"message", "code", …}}` with the security headers."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    assert answer.headers["content-type"].startswith("application/json"), answer.headers["content-type"]
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    error = answer.json()["error"]
    assert isinstance(error["message"], str) and error["message"] and isinstance(error["code"], str)
    assert "detail" not in answer.json()
    if code is not None:
        assert error["code"] == code, error
    return dict(error)


def test_every_error_has_the_one_shape(server: Server) -> None:
    table = server.create("2e")
    base, url = server.base, f"{server.base}/api/tables/{table['id']}/items"
    scorer = {"Authorization": f"Bearer {table['scorer_token']}", "If-Match": '"0"'}
    organiser = {"Authorization": f"Bearer {server.organiser}"}
    _is_error(httpx.get(f"{base}/no/such/page"), 404, "not-found")
    _is_error(httpx.get(f"{base}/api/tables/0000000z"), 404, "not-found")
    not_allowed = httpx.delete(f"{base}/api/standings")
    _is_error(not_allowed, 405, "method-not-allowed")
    assert {"GET", "HEAD"} <= {method.strip() for method in not_allowed.headers["allow"].split(",")}
    _is_error(httpx.post(url, content=b'{"text": ', headers={**scorer, "Content-Type": "application/json"}),
              400, "bad-json")
    _is_error(httpx.post(url, content=b"\xff\xfe", headers={**scorer, "Content-Type": "application/json"}), 400)
    _is_error(httpx.post(url, json=["9H"], headers=scorer), 400, "bad-request")
    _is_error(httpx.post(url, content=b"text=9H", headers={**scorer, "Content-Type": "text/plain"}), 400)
    _is_error(httpx.post(f"{base}/api/tables", json={"rules": "2e"}, headers=organiser), 400, "bad-request")
    _is_error(httpx.post(url, json={"text": "9H"}, headers={"If-Match": '"0"'}), 401, "unauthorized")
    _is_error(httpx.get(f"{base}/api/night.dgn", headers={"Authorization": f"Bearer {table['scorer_token']}"}),
              403, "forbidden")
    _is_error(httpx.post(url, content=b'{"text": "' + b"9" * 20_000 + b'"}', headers=scorer), 413, "too-large")
    _is_error(httpx.post(url, json={"text": "pass 3"}, headers={"Authorization": scorer["Authorization"]}),
              428, "stale")
    _is_error(httpx.post(url, json={"text": "pass 3"}, headers={**scorer, "If-Match": '"7"'}), 412, "stale")
    superscript = {**scorer, "If-Match": b'"\xb2"'}  # a superscript 2 in Latin-1: isdigit, but no int
    _is_error(httpx.post(url, json={"text": "pass 3"}, headers=superscript), 412, "stale")
    _is_error(httpx.post(url, json={"text": "15S"}, headers=scorer), 422)  # no pass count yet (R6)


def test_head_is_answered_wherever_get_is_with_the_get_s_headers_and_no_body(server: Server) -> None:
    """RFC 9110: HEAD is GET's answer without its body (`curl -I`), on the API and the pages alike."""
    table = server.create("kirk", ("Ann", "Bob", "Cat", "Dan"))
    for path in ("/api/standings", f"/api/tables/{table['id']}", "/", f"/watch/{table['id']}",
                 "/static/app.css"):
        got, head = httpx.get(server.base + path), httpx.head(server.base + path)
        assert got.status_code == 200 and head.status_code == 200, (path, head.status_code)
        assert head.content == b"" and got.content, path
        for name in ("content-type", "content-security-policy", "etag", "cache-control"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)
    missing = httpx.head(f"{server.base}/api/tables/0000000z")  # the GET's error, without its body
    assert missing.status_code == 404 and missing.content == b""
    assert missing.headers["content-type"].startswith("application/json")


def test_bytes_that_are_not_http_get_the_one_shape_too(server: Server) -> None:
    """uvicorn's own answer (before the app): a 400 in the one error shape, with the security headers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("ascii").split("\r\n")
    assert lines[0].startswith("HTTP/1.1 400")
    headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in lines[1:]}
    assert headers["content-type"] == "application/json" and "default-src 'none'" in headers["content-security-policy"]
    error = json.loads(body)["error"]
    assert error["code"] == "bad-http" and error["message"]


def test_the_token_is_checked_at_once(server: Server) -> None:
    """GET /api/token: what the organiser's page asks at load, so a wrong link is said before any Create."""
    table = server.create("2e")
    assert httpx.get(f"{server.base}/api/token",
                     headers={"Authorization": f"Bearer {server.organiser}"}).json() == {"role": "organiser"}
    assert httpx.get(f"{server.base}/api/token", headers={"Authorization": f"Bearer {table['scorer_token']}"}
                     ).json() == {"role": "scorer", "table": table["id"]}
    _is_error(httpx.get(f"{server.base}/api/token", headers={"Authorization": "Bearer " + "x" * 32}),
              401, "unauthorized")
    _is_error(httpx.get(f"{server.base}/api/token"), 401, "unauthorized")


def test_links_never_follow_the_host_header(server: Server) -> None:
    """The server listens on 127.0.0.1 (the fixture's default): its links say so, whatever Host says."""
    answer = httpx.post(f"{server.base}/api/tables", json={"rules": "2e", "players": ["Ann", "Bob", "Cat"]},
                        headers={"Authorization": f"Bearer {server.organiser}", "Host": "evil.example"})
    assert answer.status_code == 201, answer.text
    links = answer.json()
    own = f"http://127.0.0.1:{server.port}"
    assert links["scorer_url"].startswith(f"{own}/score/{links['id']}#token=")
    assert links["watch_url"] == f"{own}/watch/{links['id']}"
    assert "evil" not in answer.text
    renewed = httpx.post(f"{server.base}/api/tables/{links['id']}/scorer-token",
                         headers={"Authorization": f"Bearer {server.organiser}", "Host": "evil.example:80"})
    assert renewed.json()["scorer_url"].startswith(f"{own}/score/")


def test_public_url_sets_the_links_and_the_organiser_link_is_printed_with_its_qr(tmp_path) -> None:
    server = Server(tmp_path, options=("--public-url", "https://club.example:8443/")).start()
    try:
        links = server.create("2e")
    finally:
        server.stop()
    assert links["scorer_url"].startswith(f"https://club.example:8443/score/{links['id']}#token=")
    assert links["watch_url"] == f"https://club.example:8443/watch/{links['id']}"
    printed = server.output()
    assert f"organiser: https://club.example:8443/organiser#token={server.organiser}" in printed
    qr = [line for line in printed.splitlines() if line and set(line) <= set("█▀▄ ")]
    assert len(qr) >= 10 and len({len(line) for line in qr}) == 1  # a square of half blocks, no escapes
    assert "\x1b" not in printed


@pytest.mark.parametrize("url", ["ftp://club.example", "http://club.example/night", "http://club.example:99999",
                                 "http://club.example/?a=1", "http://", "http://club\x1b.example"])
def test_a_bad_public_url_is_refused_in_one_line(tmp_path, url: str) -> None:
    done = subprocess.run([sys.executable, "-m", "diamonds.cli.main", "serve", str(tmp_path), "--public-url", url],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--public-url" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
    assert not (tmp_path / "club.sqlite").exists()  # refused before the night is opened


def test_a_wildcard_host_links_to_an_address_of_this_machine() -> None:
    """`--host 0.0.0.0`: the machine's own address on its network (found without sending anything), one
    that this machine holds (a socket binds to it), and never the wildcard itself."""
    address = lan_address("0.0.0.0")
    assert address not in ("0.0.0.0", "")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((address, 0))  # EADDRNOTAVAIL if no interface of this machine holds it
    assert public_url("0.0.0.0", 8123) == f"http://{address}:8123"
    assert public_url("127.0.0.1", 8123) == "http://127.0.0.1:8123"
    assert public_url("::1", 8123) == "http://[::1]:8123"
    assert public_url("0.0.0.0", 8123, "http://10.1.2.3:9000/") == "http://10.1.2.3:9000"
    assert public_url("192.0.2.7", 8123) == "http://192.0.2.7:8123"  # the address it was told to listen on


# ---------------------------------------------------------------- clean tags (item 6)

UNSAFE = {"ESC": "\x1b[2J", "NUL": "a\x00b", "RLO": "ab\u202ecd", "isolate": "\u2066x", "tab": "a\tb",
          "surrogate": "a\ud800b"}  # a lone surrogate: SQLite's UTF-8 cannot hold it (it was a 500)


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_the_api_refuses_unsafe_tags_naming_the_tag(server: Server, name: str) -> None:
    organiser = {"Authorization": f"Bearer {server.organiser}"}
    before = len(httpx.get(f"{server.base}/api/standings").json()["tables"])
    # The body as `json.dumps` writes it (ASCII, escapes): httpx's own encoder cannot write a lone surrogate.
    organiser["Content-Type"] = "application/json"
    answer = httpx.post(f"{server.base}/api/tables", headers=organiser, content=json.dumps(
        {"rules": "2e", "players": ["Ann", "Bob", "Cat"], "tags": {"Event": UNSAFE[name]}}))
    error = _is_error(answer, 400, "setup")
    assert error["tag"] == "Event" and "Event tag" in error["message"]
    assert f"U+{ord(next(c for c in UNSAFE[name] if not c.isalnum() and c != '[')):04X}" in error["message"]
    named = httpx.post(f"{server.base}/api/tables", headers=organiser,
                       content=json.dumps({"rules": "2e", "players": ["Ann", "Bob" + UNSAFE[name], "Cat"]}))
    assert _is_error(named, 400, "setup")["tag"] == "Players"
    assert len(httpx.get(f"{server.base}/api/standings").json()["tables"]) == before  # nothing made


@pytest.mark.parametrize(("tag", "says"), [("Rules", "the table's `rules` field"), ("Players", "`players` field"),
                                           ("Dealer", "`dealer` field"), ("Variant", "`variants` field"),
                                           ("Result", "the game writes its own Result tag")])
def test_a_set_up_tag_among_a_new_table_s_tags_points_to_its_field(server: Server, tag: str, says: str) -> None:
    """It said "the Rules tag has no meaning in a kirk game", as if the game had no Rules tag."""
    organiser = {"Authorization": f"Bearer {server.organiser}"}
    answer = httpx.post(f"{server.base}/api/tables", headers=organiser, json={
        "rules": "kirk", "players": ["Ann", "Bob", "Cat", "Dan"], "tags": {"Event": "Club", tag: "2e"}})
    error = _is_error(answer, 400, "setup")
    assert error["tag"] == tag and says in error["message"], error


def test_record_and_simulate_refuse_unsafe_tags_naming_the_option(tmp_path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "diamonds.cli.main", *args], capture_output=True, text=True,
                              timeout=60, input="", cwd=tmp_path)

    event = run("record", "game.dgn", "--rules", "2e", "--players", "Ann Bob Cat", "--event", "Club\x1b[2J night")
    assert event.returncode == 2 and "--event:" in event.stderr and "Event tag" in event.stderr
    assert "U+001B" in event.stderr and "\x1b" not in event.stderr and not (tmp_path / "game.dgn").exists()
    site = run("record", "game.dgn", "--rules", "2e", "--players", "Ann Bob Cat", "--site", "x\u202ey")
    assert site.returncode == 2 and "--site:" in site.stderr and "U+202E" in site.stderr
    hands = run("simulate", "--rules", "kirk", "--players", "4", "--hands", "2\u2067")
    assert hands.returncode == 2 and "--hands:" in hands.stderr and "U+2067" in hands.stderr
    assert hands.stdout == ""
    fine = run("record", "game.dgn", "--rules", "2e", "--players", "Ann Bob Cat", "--event", "Club night")
    assert fine.returncode == 0, fine.stderr


# ---------------------------------------------------------------- bounded refusals (item 9)

def test_remembered_refusals_are_bounded_per_table_and_a_flood_keeps_the_other_tables(server: Server) -> None:
    """A flood of keyed refusals at one table: its store keeps its last REMEMBERED_REFUSALS (older ones are
    deleted as new ones come), and another table's remembered answers, accepted or refused, stay."""
    flooded, quiet = Scorer(server.base, server.create("2e")), Scorer(server.base, server.create("2e"))
    quiet_keys = [f"quiet-{n}" for n in range(3)]
    assert quiet.post("15S", key=quiet_keys[0]).status_code == 422  # the round's pass count first (R6)
    assert quiet.post("pass 3", key=quiet_keys[1]).status_code == 200
    flood = [f"flood-{n}-{uuid.uuid4().hex[:6]}" for n in range(REMEMBERED_REFUSALS * 2 + 17)]
    for key in flood:
        assert flooded.post("15S", key=key).status_code == 422
    assert quiet.post("pass Bob 1H 15H 11C", key=quiet_keys[2]).status_code == 200
    db = sqlite3.connect(server.folder / "club.sqlite")
    rows = dict(db.execute("SELECT table_id, COUNT(*) FROM idempotency WHERE status = 422 GROUP BY table_id"))
    assert rows[flooded.id] == REMEMBERED_REFUSALS
    kept = {key for (key,) in db.execute("SELECT key FROM idempotency WHERE table_id = ?", (flooded.id,))}
    assert kept == set(flood[-REMEMBERED_REFUSALS:])  # the last ones, in the order they came
    assert {key for (key,) in db.execute("SELECT key FROM idempotency WHERE table_id = ?", (quiet.id,))} == \
        set(quiet_keys)
    db.close()
    # the newest refusal is still answered from the store; the first one was forgotten, so it is checked
    # again (nothing was recorded for it: the same refusal, and the table did not move)
    again = flooded.post("15S", key=flood[-1])
    assert again.status_code == 422 and again.json() == flooded.post("15S", key=flood[-1]).json()
    assert flooded.post("pass 3", key=flood[0]).status_code == 200  # a forgotten key is free again


# ---------------------------------------------------------------- a full disk (item 5), for real

def _small_disk_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /tmp"],
                           capture_output=True, timeout=30)  # over /tmp in a mount namespace of its own
    return probe.returncode == 0


def _store_copy(folder: Path, copy: Path) -> sqlite3.Connection:
    """The server's store, copied out while it is idle (SQLite resolves /proc/PID/root to this namespace's
    "/", so it cannot open the file where it is)."""
    copy.mkdir()
    for name in ("club.sqlite", "club.sqlite-wal"):
        if (folder / name).exists():
            shutil.copyfile(folder / name, copy / name)
    return sqlite3.connect(copy / "club.sqlite")


@pytest.mark.skipif(not _small_disk_works(), reason="needs `unshare -rm` (a user and mount namespace) for a tmpfs")
def test_a_full_disk_is_507_and_leaves_nothing_half_made(tmp_path) -> None:
    """The server's folder is a 2 MiB tmpfs of its own (a mount namespace: nothing else sees it); a filler
    file takes every byte left. Creating a table is 507, whole JSON, with no row and no file; items are
    200 or 507, and what was answered 200 is all there; once room is made, the same requests go through."""
    folder = tmp_path / "club"
    folder.mkdir()
    mount = f"mount -t tmpfs -o size=2m tmpfs {folder} && exec \"$@\""
    server = Server(folder, wrap=("unshare", "-rm", "sh", "-c", mount, "sh"))
    server.start()
    assert server.process is not None
    inside = Path(f"/proc/{server.process.pid}/root") / str(folder).lstrip("/")  # the tmpfs, seen from here
    try:
        token = (inside / "organiser.token").read_text().strip()
        organiser = {"Authorization": f"Bearer {token}"}

        def create() -> httpx.Response:
            return httpx.post(f"{server.base}/api/tables", headers=organiser, timeout=30,
                              json={"rules": "2e", "players": ["Ann", "Bob", "Cat"]})

        first = create()
        assert first.status_code == 201, first.text
        scorer = Scorer(server.base, first.json())
        assert scorer.post("pass 3").status_code == 200
        filler = inside / "filler"
        with open(filler, "wb", buffering=0) as handle:  # every page left (a tmpfs gives room by the page)
            try:
                while True:
                    handle.write(b"\0" * 4096)
            except OSError as error:
                assert error.errno == 28  # ENOSPC
        full = create()
        error = _is_error(full, 507, "disk-full")
        assert "disk" in error["message"]
        items = ["pass Bob 1H 15H 11C", "pass Cat 8S 2C 14C", "pass Ann 3D 11H 15S", "15S"]
        answered = []  # the items answered 200 while the disk is full (the store may still have room in its WAL)
        for item in items[:-1]:
            answer = scorer.post(item)
            assert answer.status_code in (200, 507), answer.text
            if answer.status_code == 507:
                _is_error(answer, 507, "disk-full")
                break
            answered.append(item)
        files = sorted(p.name for p in (inside / "tables").iterdir())
        assert files == [f".table-001-{scorer.id}.dgn.lock", f"table-001-{scorer.id}.dgn"], files  # nothing else
        dgn = scorer.dgn()
        assert all(item in dgn for item in answered) and items[len(answered)] not in dgn
        filler.unlink()  # room again: the store is read, and the server carries on
        db = _store_copy(inside, tmp_path / "copy-1")
        assert [row[0] for row in db.execute("SELECT id FROM tables")] == [scorer.id]  # no half-made table
        db.close()
        again = create()
        assert again.status_code == 201, again.text
        assert scorer.post(items[len(answered)]).status_code == 200
        db = _store_copy(inside, tmp_path / "copy-2")
        assert {row[0] for row in db.execute("SELECT id FROM tables")} == {scorer.id, again.json()["id"]}
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
    finally:
        server.stop()
