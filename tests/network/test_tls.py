"""TLS and mTLS on ``gamerec serve``, with certificates made in the test."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.service.transport import (
    ClientTransport,
    ServerTransport,
    TransportError,
    is_loopback,
)
from tests.live.conftest import LiveServer
from tests.live.matches import request
from tests.network.certificates import Authority
from tests.network.conftest import refusal, token_file
from tests.service.conftest import GAMEREC, ROOT, ServeProcess

GRN = b'[Game "Aronda"]\n\n1. o1 *\n'


class Pki:
    """Two CAs: the club's (the server's, alice's and bob's certificates) and another's
    (mallory's). Only alice's subject is in the mTLS server's admin file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ca = Authority(folder, "club-ca")
        self.server = self.ca.server()
        self.alice = self.ca.client("alice", "Club")
        self.bob = self.ca.client("bob", "Club")
        self.other = Authority(folder, "other-ca")
        self.mallory = self.other.client("mallory", "Club")


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


class TlsServer:
    """``gamerec serve`` with TLS (two server processes), its files in a folder of its own."""

    def __init__(self, pki: Pki, folder: Path) -> None:
        self.cert, self.key = folder / "server.pem", folder / "server.key"
        shutil.copy(pki.server.cert, self.cert)
        shutil.copy(pki.server.key, self.key)
        self.process = ServeProcess(
            *("--processes", "2", "--workers", "1"),
            *("--tls-cert", str(self.cert), "--tls-key", str(self.key)),
        )
        self.address = self.process.address


@pytest.fixture(scope="module")
def tls_server(pki: Pki, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TlsServer]:
    server = TlsServer(pki, tmp_path_factory.mktemp("tls"))
    yield server
    server.process.kill()


def validate(channel: grpc.Channel) -> vpb.Verdict:
    return sgrpc.RecordServiceStub(channel).Validate(spb.ValidateRequest(data=GRN), timeout=10)


def unreachable(channel: grpc.Channel) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as error, channel:
        validate(channel)
    assert isinstance(error.value, grpc.Call)
    return error.value.code()


def test_a_tls_call_succeeds_and_a_plain_text_one_fails_cleanly(
    pki: Pki, tls_server: TlsServer
) -> None:
    with ClientTransport(ca=str(pki.ca.cert)).channel(tls_server.address) as channel:
        assert validate(channel).valid
    assert tls_server.process.lines[0]["tls"] is True
    plain = grpc.insecure_channel(tls_server.address)
    assert unreachable(plain) == grpc.StatusCode.UNAVAILABLE
    # A server whose certificate no trusted CA signed is refused by the client.
    wrong = ClientTransport(ca=str(pki.other.cert)).channel(tls_server.address)
    assert unreachable(wrong) == grpc.StatusCode.UNAVAILABLE
    assert tls_server.process.process.poll() is None


@pytest.fixture(scope="module")
def mtls_server(pki: Pki, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("mtls")
    admins = token_file(folder / "admins", "alice subject:O=Club,CN=alice")
    server = LiveServer(
        folder,
        *("--tls-cert", str(pki.server.cert), "--tls-key", str(pki.server.key)),
        *("--client-ca", str(pki.ca.cert), "--admin-tokens", str(admins)),
        clock=False,
    )
    yield server
    server.stop()


def alice(pki: Pki) -> ClientTransport:
    return ClientTransport(
        ca=str(pki.ca.cert), client_cert=str(pki.alice.cert), client_key=str(pki.alice.key)
    )


def test_mtls_refuses_clients_without_a_certificate_of_its_ca(
    pki: Pki, mtls_server: LiveServer
) -> None:
    address = mtls_server.address
    no_certificate = ClientTransport(ca=str(pki.ca.cert)).channel(address)
    assert unreachable(no_certificate) == grpc.StatusCode.UNAVAILABLE
    mallory = ClientTransport(
        ca=str(pki.ca.cert), client_cert=str(pki.mallory.cert), client_key=str(pki.mallory.key)
    )
    assert unreachable(mallory.channel(address)) == grpc.StatusCode.UNAVAILABLE
    with alice(pki).channel(address) as channel:
        assert validate(channel).valid


def test_the_certificate_subject_stands_for_a_token(pki: Pki, mtls_server: LiveServer) -> None:
    with alice(pki).channel(mtls_server.address) as channel:
        matches = mgrpc.MatchServiceStub(channel)
        created = matches.CreateMatch(request("ONE", 2, keyed=False), timeout=30)
        matches.Abort(mpb.AbortRequest(match_id=created.match_id), timeout=30)
    end = time.monotonic() + 30
    while not (
        creates := [line for line in mtls_server.process.lines if line.get("method") == "Abort"]
    ):
        assert time.monotonic() < end, "the server logged no Abort"
        time.sleep(0.02)
    assert (creates[-1]["role"], creates[-1]["who"]) == ("admin", "alice")


def test_a_certificate_of_the_ca_whose_subject_is_no_admin_is_refused_an_admin_call(
    pki: Pki, mtls_server: LiveServer
) -> None:
    bob = ClientTransport(
        ca=str(pki.ca.cert), client_cert=str(pki.bob.cert), client_key=str(pki.bob.key)
    )
    with bob.channel(mtls_server.address) as channel:
        assert validate(channel).valid  # connected: RecordService is open to anyone
        with pytest.raises(grpc.RpcError) as refused:
            mgrpc.MatchServiceStub(channel).CreateMatch(request("ONE", 2, keyed=False), timeout=30)
    code, message, field = refusal(refused.value)
    assert (code, field) == ("UNAUTHENTICATED", "authorization")
    assert "CreateMatch needs a token: an admin's token" in message


def test_gamerec_match_takes_the_tls_options(pki: Pki, mtls_server: LiveServer) -> None:
    options = [
        *("--server", mtls_server.address, "--ca", str(pki.ca.cert)),
        *("--client-cert", str(pki.alice.cert), "--client-key", str(pki.alice.key)),
    ]
    made = run("match", "new", "--game", "oust", "--seat", "ann", "--seat", "bo", *options)
    assert made.returncode == 0, made.stderr
    match_id = made.stdout.split()[1]
    listed = run("match", "list", "--status", "open", *options)
    assert match_id in listed.stdout
    refused = run("match", "list", "--server", mtls_server.address, "--ca", str(pki.ca.cert))
    assert refused.returncode == 2 and "UNAVAILABLE" in refused.stderr
    missing = run("match", "list", *options[:2], "--ca", str(pki.folder / "nothing.pem"))
    assert missing.returncode == 2
    assert "nothing.pem: cannot read the CA" in missing.stderr and "Traceback" not in missing.stderr
    assert run("match", "abort", match_id, *options).returncode == 0


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [GAMEREC, *arguments], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )


def test_plain_text_is_for_loopback_unless_insecure_is_said() -> None:
    assert all(map(is_loopback, ("127.0.0.1", "127.3.2.1", "::1", "[::1]", "localhost")))
    assert not any(map(is_loopback, ("0.0.0.0", "::", "192.0.2.7", "example.org")))
    assert ServerTransport().check("127.0.0.1") is None
    with pytest.raises(TransportError, match="not a loopback address"):
        ServerTransport().check("0.0.0.0")
    warning = ServerTransport(insecure=True).check("0.0.0.0")
    assert warning is not None and "unencrypted" in warning
    with pytest.raises(TransportError, match="go together"):
        ServerTransport(cert="server.pem").check("127.0.0.1")
    with pytest.raises(TransportError, match="needs --tls-cert"):
        ServerTransport(client_ca="ca.pem").check("127.0.0.1")
    refused = run("serve", "--host", "0.0.0.0", "--port", "0", "--processes", "1")
    assert refused.returncode == 2
    assert "0.0.0.0 is not a loopback address" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_sighup_makes_new_connections_use_the_new_certificate(
    tmp_path: Path, pki: Pki, tls_server: TlsServer
) -> None:
    renewed = Authority(tmp_path, "renewing-ca").server("renewed")
    shutil.copy(renewed.cert, tls_server.cert)
    shutil.copy(renewed.key, tls_server.key)
    tls_server.process.process.send_signal(signal.SIGHUP)
    end = time.monotonic() + 30
    while sum(line.get("event") == "reloaded" for line in tls_server.process.lines) < 2:
        assert time.monotonic() < end, "the server processes did not reload"
        time.sleep(0.02)
    for _ in range(4):  # new connections, to either server process
        trusting = ClientTransport(ca=str(tmp_path / "renewing-ca.pem"))
        with trusting.channel(tls_server.address, [("grpc.use_local_subchannel_pool", 1)]) as ch:
            assert validate(ch).valid
        old = ClientTransport(ca=str(pki.ca.cert)).channel(
            tls_server.address, [("grpc.use_local_subchannel_pool", 1)]
        )
        assert unreachable(old) == grpc.StatusCode.UNAVAILABLE


NODE_CLIENT = ROOT / "examples" / "node-client"


def node_client(script: str, *arguments: str) -> subprocess.Popen[str]:
    """An example Node client (``make node-client`` installs its packages) as a process."""
    node = shutil.which("node")
    assert node, "node is needed for the example clients"
    if not (NODE_CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail("the Node client's packages are missing: run `make node-client`")
    return subprocess.Popen(
        [node, script, *arguments],
        cwd=NODE_CLIENT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=180)
    return process.returncode, out, err


def test_the_node_clients_take_the_same_tls_options(pki: Pki, mtls_server: LiveServer) -> None:
    record = str(ROOT / "fixtures" / "valid" / "oust-e1-pie.grn")
    reach = ["--address", mtls_server.address, "--ca", str(pki.ca.cert)]
    mutual = [*reach, "--client-cert", str(pki.alice.cert), "--client-key", str(pki.alice.key)]
    code, out, err = finished(node_client("validate.mjs", *mutual, record))
    assert code == 0 and out.startswith(f"{record}: valid"), err
    code, out, err = finished(node_client("validate.mjs", *reach, record))
    assert code == 2 and "UNAVAILABLE" in err, err  # no client certificate: no handshake
    code, out, err = finished(node_client("validate.mjs", *mutual[:-2], record))
    assert code == 2 and "--client-cert and --client-key go together" in err, err

    with alice(pki).channel(mtls_server.address) as channel:
        made = request("Oust", 2, keyed=False, clock="600+5", Board="5")
        created = mgrpc.MatchServiceStub(channel).CreateMatch(made, timeout=30)
    bots = [
        node_client(
            "bot.mjs",
            *(*mutual, "--match", created.match_id, "--token", token),
            *("--seat", str(seat), "--seed", str(seat)),
        )
        for seat, token in enumerate(created.seat_tokens, start=1)
    ]
    ends = [finished(bot) for bot in bots]
    assert [code for code, _, _ in ends] == [0, 0], [err for _, _, err in ends]
    assert ends[0][1] == ends[1][1] and ends[0][1].startswith(f"match {created.match_id}: ")
