"""Server reflection through both protocol versions, v1 and v1alpha, from real clients.

Python clients speak each version with that version's own messages (v1's built from the v1
file's descriptor, whose names the tests check); ``buf curl`` (the dev
install's ``.venv/bin/buf``) lists the services and makes a call with the schema it fetched
through each version alone. A server with grpcio-reflection's v1alpha service only is the
control: v1 clients fail there, so the tests above them could fail.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2, message_factory
from google.protobuf.message import Message
from grpc_reflection.v1alpha import reflection, reflection_pb2

from gamerec.validator.service.reflection import V1_SERVICE_NAME, v1_file
from tests.service.conftest import FIXTURES, InProcessServer

BUF = str(Path(sys.executable).with_name("buf"))
SERVICES = {
    "gamerec.v1.RecordService",
    "grpc.health.v1.Health",
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
}


def v1_messages() -> tuple[type[Message], type[Message]]:
    """The v1 request and response classes, from the v1 file's descriptor."""
    file = v1_file()
    assert (file.name, file.package) == (
        "grpc/reflection/v1/reflection.proto",
        "grpc.reflection.v1",
    )
    request = message_factory.GetMessageClass(file.message_types_by_name["ServerReflectionRequest"])
    response = message_factory.GetMessageClass(
        file.message_types_by_name["ServerReflectionResponse"]
    )
    return request, response


def ask(channel: grpc.Channel, version: str, **question: Any) -> Any:
    """One reflection question through ``version`` (``v1`` or ``v1alpha``), with its messages."""
    if version == "v1":
        request_type, response_type = v1_messages()
    else:
        request_type, response_type = (
            reflection_pb2.ServerReflectionRequest,
            reflection_pb2.ServerReflectionResponse,
        )
    call = channel.stream_stream(
        f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
        request_serializer=request_type.SerializeToString,
        response_deserializer=response_type.FromString,
    )
    (answer,) = call(iter([request_type(**question)]), timeout=30)
    assert type(answer) is response_type
    return answer


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_each_version_lists_the_services(channel: grpc.Channel, version: str) -> None:
    answer = ask(channel, version, list_services="")
    assert {service.name for service in answer.list_services_response.service} == SERVICES


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
@pytest.mark.parametrize(
    ("symbol", "file", "service"),
    [
        ("gamerec.v1.RecordService", "gamerec/v1/service.proto", "RecordService"),
        (V1_SERVICE_NAME, "grpc/reflection/v1/reflection.proto", "ServerReflection"),
    ],
)
def test_each_version_gives_the_file_of_a_symbol(
    channel: grpc.Channel, version: str, symbol: str, file: str, service: str
) -> None:
    answer = ask(channel, version, file_containing_symbol=symbol)
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(data)
        for data in answer.file_descriptor_response.file_descriptor_proto
    ]
    assert files[0].name == file
    assert service in [found.name for found in files[0].service]
    if symbol == V1_SERVICE_NAME:
        (method,) = files[0].service[0].method
        assert method.input_type == ".grpc.reflection.v1.ServerReflectionRequest"
        assert (method.client_streaming, method.server_streaming) == (True, True)
        assert {message.name for message in files[0].message_type} >= {
            "ServerReflectionRequest",
            "ServerReflectionResponse",
            "ErrorResponse",
        }


def test_an_unknown_symbol_is_an_error_answer_through_v1(channel: grpc.Channel) -> None:
    answer = ask(channel, "v1", file_containing_symbol="no.such.Service")
    assert answer.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
    assert answer.original_request.file_containing_symbol == "no.such.Service"


def buf_curl(address: str, protocol: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``buf curl`` against ``address`` over plain HTTP/2, schema by reflection ``protocol``."""
    return subprocess.run(
        [BUF, "curl", "--protocol", "grpc", "--http2-prior-knowledge",
         "--reflect-protocol", protocol, *arguments[:-1], f"http://{address}{arguments[-1]}"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip


@pytest.mark.parametrize("protocol", ["grpc-v1", "grpc-v1alpha"])
def test_buf_curl_lists_the_services_through_each_version(
    server: InProcessServer, protocol: str
) -> None:
    done = buf_curl(server.address, protocol, "--list-services", "")
    assert done.returncode == 0, done.stderr
    assert set(done.stdout.split()) == SERVICES


@pytest.mark.parametrize("protocol", ["grpc-v1", "grpc-v1alpha"])
def test_buf_curl_calls_the_service_with_the_schema_from_each_version(
    server: InProcessServer, protocol: str
) -> None:
    record = (FIXTURES / "invalid" / "one-landing-occupied.grn").read_text()
    request = json.dumps({"data": _base64(record), "encoding": "RECORD_ENCODING_GRN"})
    done = buf_curl(server.address, protocol, "-d", request, "/gamerec.v1.RecordService/Validate")
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    (error,) = verdict["errors"]
    assert (error["ply"], error["code"], verdict["game"]) == (23, "LANDING_OCCUPIED", "GAME_ONE")


def _base64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


@pytest.fixture(scope="module")
def alpha_only() -> Iterator[str]:
    """The control: a server with grpcio-reflection's own (v1alpha-only) reflection; its address."""
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    reflection.enable_server_reflection([reflection.SERVICE_NAME], server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield f"127.0.0.1:{port}"
    server.stop(None)


def test_v1_clients_fail_on_a_v1alpha_only_server(alpha_only: str) -> None:
    with grpc.insecure_channel(alpha_only) as channel:
        with pytest.raises(grpc.RpcError) as failure:
            ask(channel, "v1", list_services="")
        assert failure.value.code() == grpc.StatusCode.UNIMPLEMENTED
        assert ask(channel, "v1alpha", list_services="").list_services_response.service
    done = buf_curl(alpha_only, "grpc-v1", "--list-services", "")
    assert done.returncode != 0
    assert buf_curl(alpha_only, "grpc-v1alpha", "--list-services", "").returncode == 0
