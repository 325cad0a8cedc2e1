"""Security probes against a real server: tokens (missing, wrong, another table's, the organiser's
refused where a scorer's is due... and accepted where it may act), oversized bodies, player text that
tries to be HTML, the Content-Security-Policy, nothing loaded from elsewhere, only hashes stored."""

from __future__ import annotations

import re

import httpx
import pytest
from servehelp import Scorer, Server

pytest.importorskip("fastapi")
pytestmark = pytest.mark.process  # a real `diamonds serve` process per module

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def test_the_openapi_document_says_how_to_authorise(server: Server) -> None:
    """A client generated from /openapi.json must send the bearer token and the write headers."""
    document = httpx.get(server.base + "/openapi.json").json()
    schemes = document["components"]["securitySchemes"]
    assert [scheme["scheme"].lower() for scheme in schemes.values()] == ["bearer"]
    (name,) = schemes
    for path in ("/api/tables", "/api/tables/{table_id}/items", "/api/tables/{table_id}/undo"):
        operation = document["paths"][path]["post"]
        assert {name: []} in operation["security"], path
    items = document["paths"]["/api/tables/{table_id}/items"]["post"]
    headers = {parameter["name"].lower() for parameter in items["parameters"] if parameter["in"] == "header"}
    assert {"if-match", "idempotency-key"} <= headers


def test_tokens(server: Server) -> None:
    one, two = server.create("2e"), server.create("2e")
    base = server.base
    for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Bearer " + "A" * 32},
                    {"Authorization": f"Basic {one['scorer_token']}"},
                    {"Authorization": f"Bearer {one['scorer_token']}x"}):
        answer = httpx.post(f"{base}/api/tables/{one['id']}/items", json={"text": "pass 3"},
                            headers={**headers, "If-Match": '"0"'})
        assert answer.status_code == 401, headers
        assert answer.json()["error"]["message"]
    wrong = httpx.post(f"{base}/api/tables/{one['id']}/undo", headers={"Authorization": f"Bearer {two['scorer_token']}",
                                                                       "If-Match": '"0"'})
    assert wrong.status_code == 403
    assert httpx.get(f"{base}/api/night.dgn", headers={"Authorization": f"Bearer {one['scorer_token']}"}).status_code == 403
    # the organiser may act at any table
    organiser = Scorer(base, {**one, "scorer_token": server.organiser})
    assert organiser.post("pass 3").status_code == 200
    assert len(one["scorer_token"]) >= 22 and one["scorer_token"] != two["scorer_token"]
    stored = (server.folder / "club.sqlite").read_bytes() + b"".join(
        p.read_bytes() for p in server.folder.glob("club.sqlite-wal"))
    assert one["scorer_token"].encode() not in stored and server.organiser.encode() not in stored
    assert httpx.get(f"{base}/api/tables/not-a-table").status_code == 404
    # the If-Match header is required
    missing = httpx.post(f"{base}/api/tables/{one['id']}/items", json={"text": "pass Bob 1H 2H 3H"},
                         headers={"Authorization": f"Bearer {one['scorer_token']}"})
    assert missing.status_code == 428


def test_a_new_scorer_link_retires_the_old_one(server: Server) -> None:
    table = server.create("2e")
    organiser = {"Authorization": f"Bearer {server.organiser}"}
    renewed = httpx.post(f"{server.base}/api/tables/{table['id']}/scorer-token", headers=organiser).json()
    old = Scorer(server.base, table)
    assert old.post("pass 3").status_code == 401
    assert Scorer(server.base, {**table, "scorer_token": renewed["scorer_token"]}).post("pass 3").status_code == 200


def test_oversized_and_malformed_bodies(server: Server) -> None:
    table = server.create("2e")
    headers = {"Authorization": f"Bearer {table['scorer_token']}", "If-Match": '"0"',
               "Content-Type": "application/json"}
    url = f"{server.base}/api/tables/{table['id']}/items"
    big = httpx.post(url, content=b'{"text": "' + b"9" * 100_000 + b'"}', headers=headers)
    assert big.status_code == 413

    def chunks():
        yield b'{"text": "'
        for _ in range(40):
            yield b"9" * 1000
        yield b'"}'

    streamed = httpx.post(url, content=chunks(), headers=headers)  # no Content-Length: counted as it comes
    assert streamed.status_code == 413
    assert httpx.post(url, content=b"not json", headers=headers).status_code == 400
    assert httpx.post(url, json={"text": "9H\n9D"}, headers=headers).status_code == 400
    assert httpx.post(url, json={"text": "\x1b[2J"}, headers=headers).status_code == 400
    assert httpx.post(url, json={"text": "9H", "extra": 1}, headers=headers).status_code == 400
    assert httpx.post(url, json={"text": "x" * 3000}, headers=headers).status_code == 400


def test_player_text_comes_back_escaped(server: Server) -> None:
    table = server.create("2e", tags={"Event": EVIL, "Site": EVIL})
    state = httpx.get(f"{server.base}/api/tables/{table['id']}")
    assert state.headers["content-type"].startswith("application/json")
    for svg in (state.json()["svg"], state.json()["phone_svg"]):
        assert "<script" not in svg and "<img" not in svg
    for path in (f"/watch/{table['id']}", f"/score/{table['id']}", "/organiser", "/"):
        page = httpx.get(server.base + path)
        assert page.status_code == 200 and "<script>" not in page.text and "onerror" not in page.text
    dgn = httpx.get(f"{server.base}/api/tables/{table['id']}/dgn",
                    headers={"Authorization": f"Bearer {table['scorer_token']}"})
    assert dgn.headers["content-type"].startswith("application/x-dgn")  # never rendered as HTML
    bad = httpx.post(f"{server.base}/api/tables", json={"rules": "2e", "players": ["<script>", "B", "C"]},
                     headers={"Authorization": f"Bearer {server.organiser}"})
    assert bad.status_code == 400 and bad.headers["content-type"].startswith("application/json")


def test_every_answer_sends_a_strict_policy_and_loads_nothing_from_elsewhere(server: Server) -> None:
    table = server.create("2e")
    for path in ("/", "/organiser", f"/score/{table['id']}", f"/watch/{table['id']}", "/static/app.js",
                 "/static/app.css", f"/api/tables/{table['id']}", "/api/standings", "/openapi.json", "/nope"):
        answer = httpx.get(server.base + path)
        policy = answer.headers.get("content-security-policy", "")
        assert "default-src 'none'" in policy and "script-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", answer.text.replace(server.base, "")), path
        assert "@font-face" not in answer.text


def test_the_command_warns_when_listening_beyond_this_machine(tmp_path) -> None:
    """The warning comes before the server binds. The address asked for is TEST-NET-1 (RFC 5737), which
    no interface of this machine holds: the bind then fails at once, so nothing ever listens beyond
    loopback, and the test reads the warning and the one-line refusal."""
    import subprocess
    import sys

    from servehelp import free_port

    process = subprocess.Popen([sys.executable, "-m", "diamonds.cli.main", "serve", str(tmp_path),
                                "--host", "192.0.2.1", "--port", str(free_port())],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "anyone on that network" in err and "tokens" in err
    assert process.returncode != 0 and "Traceback" not in err
