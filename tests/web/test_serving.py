"""The web door shares the server's life: its log, metrics, processes, TLS and shutdown."""

from __future__ import annotations

import http.client
import shutil
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

import orjson
import pytest
import requests

from gamerec.validator.web.frames import envelope
from tests.network.certificates import Authority
from tests.network.conftest import ADMIN, token_file
from tests.service.conftest import GAMEREC
from tests.web.conftest import TIMEOUT, WebServer, call


def test_the_web_doors_calls_are_logged_and_counted_as_grpc_calls(tmp_path: Path) -> None:
    server = WebServer(tmp_path, "--metrics-port", "0")
    try:
        status, refused = call(server.web, "MatchService/GetMatch", {"matchId": "nope"})
        assert (status, refused["code"]) == (404, "not_found")
        line = _line(server, "GetMatch")
        assert line["status"] == "NOT_FOUND" and line["role"] == "spectator"
        assert str(line["peer"]).startswith("ipv4:127.0.0.1:")
        metrics = requests.get(str(server.process.lines[0]["metrics"]), timeout=TIMEOUT).text
        assert 'gamerec_calls_total{method="GetMatch",status="NOT_FOUND"} 1.0' in metrics
    finally:
        server.stop()


def test_server_processes_share_the_web_port(tmp_path: Path) -> None:
    server = WebServer(tmp_path, processes=2)
    try:
        assert server.process.lines[0]["processes"] == 2
        for _ in range(12):  # a new connection each: the kernel spreads them
            status, listed = call(server.web, "MatchService/ListMatches", {})
            assert status == 200, listed
        assert len([line for line in server.process.lines if line.get("method")]) == 12
    finally:
        server.stop()


def test_sigterm_ends_an_open_watch_and_the_server_exits_cleanly(tmp_path: Path) -> None:
    server = WebServer(tmp_path, "--grace", "1")
    status, created = call(
        server.web,
        "MatchService/CreateMatch",
        {"rules": {"game": "GAME_ARONDA"}, "seats": [{"name": "a"}, {"name": "b"}]},
    )
    assert status == 200, created
    host, port = server.web.removeprefix("http://").split(":")
    watching = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
    watching.request(
        "POST",
        "/gamerec.v1.MatchService/Watch",
        body=envelope(orjson.dumps({"matchId": created["matchId"]})),
        headers={"content-type": "application/connect+json"},
    )
    answer = watching.getresponse()
    assert answer.status == 200
    assert answer.read(5)  # the first event's frame has begun
    assert server.process.terminate(timeout=TIMEOUT) == 0
    answer.read()  # the stream ends (the connection closes) instead of hanging
    assert any(line.get("event") == "stopped" for line in server.process.lines)


def test_the_web_port_serves_tls_and_asks_for_client_certificates(tmp_path: Path) -> None:
    ca = Authority(tmp_path, "club-ca")
    issued, alice = ca.server(), ca.client("alice", "Club")
    admins = token_file(tmp_path / "admins", f"ops {ADMIN}")
    server = WebServer(
        tmp_path,
        *("--tls-cert", str(issued.cert), "--tls-key", str(issued.key)),
        *("--client-ca", str(ca.cert), "--admin-tokens", str(admins)),
    )
    try:
        web = server.web
        assert web.startswith("https://127.0.0.1:")
        with pytest.raises(requests.exceptions.ConnectionError):
            requests.post(f"{web.replace('https', 'http')}/x", timeout=TIMEOUT)
        with pytest.raises((requests.exceptions.SSLError, requests.exceptions.ConnectionError)):
            call(web, "MatchService/ListMatches", {}, token=ADMIN)  # no client certificate
        answer = requests.post(
            f"{web}/gamerec.v1.MatchService/ListMatches",
            data=b"{}",
            headers={"content-type": "application/json", "authorization": f"Bearer {ADMIN}"},
            verify=str(ca.cert),
            cert=(str(alice.cert), str(alice.key)),
            timeout=TIMEOUT,
        )
        assert answer.status_code == 200, answer.text
        context = ssl.create_default_context(cafile=str(ca.cert))
        context.load_cert_chain(str(alice.cert), str(alice.key))
        context.set_alpn_protocols(["h2", "http/1.1"])
        host, port = web.removeprefix("https://").split(":")
        with (
            socket.create_connection((host, int(port)), timeout=TIMEOUT) as raw,
            context.wrap_socket(raw, server_hostname="localhost") as wrapped,
        ):
            assert wrapped.selected_alpn_protocol() == "h2"
    finally:
        server.stop()


def _line(server: WebServer, method: str) -> dict[str, object]:
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        for line in server.process.lines:
            if line.get("method") == method:
                return line
        time.sleep(0.05)
    raise AssertionError(f"no call line of {method}")


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--web-allow-origin", "https://a.example"], "--web-allow-origin goes with --web PORT"),
        (["--web", "0", "--web-allow-origin", "a.example/x"], "an origin is scheme://host[:port]"),
    ],
)
def test_web_options_out_of_place_are_refused(arguments: list[str], said: str) -> None:
    ran = subprocess.run(
        [GAMEREC, "serve", "--port", "0", *arguments],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert ran.returncode == 2
    assert said in ran.stderr


@pytest.mark.parametrize("processes", [1, 2])
def test_a_taken_web_port_is_said_plainly(tmp_path: Path, processes: int) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ran = subprocess.run(
            [GAMEREC, "serve", "--port", "0", "--web", str(port), "--processes", str(processes)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT * 2,
            check=False,
        )
    assert ran.returncode == 2, ran.stderr
    assert f"the web door cannot listen on 127.0.0.1:{port}: Address already in use" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_sighup_makes_new_web_connections_use_the_new_certificate(tmp_path: Path) -> None:
    first, renewing = Authority(tmp_path, "first-ca"), Authority(tmp_path, "renewing-ca")
    (tmp_path / "served").mkdir()
    cert, key = tmp_path / "served" / "server.pem", tmp_path / "served" / "server.key"
    issued, renewed = first.server(), renewing.server("renewed")
    shutil.copy(issued.cert, cert)
    shutil.copy(issued.key, key)
    server = WebServer(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert _lists(server.web, first.cert)
        shutil.copy(renewed.cert, cert)
        shutil.copy(renewed.key, key)
        server.process.process.send_signal(signal.SIGHUP)
        end = time.monotonic() + TIMEOUT
        while not any(line.get("event") == "reloaded" for line in server.process.lines):
            assert time.monotonic() < end, "the server did not reload"
            time.sleep(0.02)
        assert _lists(server.web, renewing.cert)
        with pytest.raises(requests.exceptions.SSLError):
            _lists(server.web, first.cert)
    finally:
        server.stop()


def _lists(web: str, ca: Path) -> bool:
    answer = requests.post(
        f"{web}/gamerec.v1.MatchService/ListMatches",
        data=b"{}",
        headers={"content-type": "application/json", "connection": "close"},
        verify=str(ca),
        timeout=TIMEOUT,
    )
    return answer.status_code == 200
