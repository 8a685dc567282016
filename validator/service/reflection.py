"""Server reflection in both versions of its protocol: ``grpc.reflection.v1`` and ``v1alpha``.

grpcio-reflection (1.85) implements only ``grpc.reflection.v1alpha.ServerReflection``
(grpc/grpc#38576 asks for v1), while newer clients (``buf curl``, grpcurl, Postman) ask for
``grpc.reflection.v1.ServerReflection`` first. The two protocols are the same messages with
the same field numbers under another package name (grpc-proto's ``reflection/v1`` is the
``v1alpha`` file made stable), so one servicer answers both: its v1alpha messages have the
bytes of the v1 ones. The v1 file itself is made from the v1alpha file's descriptor with the
package renamed and added to the descriptor pool, so a client can also ask reflection about
``grpc.reflection.v1.ServerReflection`` and get its schema.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

import grpc
import grpc.aio
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import FileDescriptor
from grpc_reflection.v1alpha import reflection, reflection_pb2

#: The full name of each version's reflection service, the stable one first.
V1_SERVICE_NAME: Final = "grpc.reflection.v1.ServerReflection"
V1ALPHA_SERVICE_NAME: Final[str] = reflection.SERVICE_NAME
#: The v1 file's name and package, as grpc-proto names them.
V1_FILE: Final = "grpc/reflection/v1/reflection.proto"
V1_PACKAGE: Final = "grpc.reflection.v1"


@lru_cache(maxsize=1)
def v1_file() -> FileDescriptor:
    """The ``grpc/reflection/v1/reflection.proto`` file in the default pool (added once)."""
    pool = descriptor_pool.Default()
    try:
        return pool.FindFileByName(V1_FILE)
    except KeyError:
        pass
    alpha = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(alpha)
    prefix = f".{alpha.package}."
    alpha.name, alpha.package = V1_FILE, V1_PACKAGE
    alpha.ClearField("options")  # v1alpha's Java/Go package names and its deprecation
    for message in alpha.message_type:
        for field in message.field:
            if field.HasField("type_name"):  # message fields: their type's full name
                field.type_name = field.type_name.replace(prefix, f".{V1_PACKAGE}.")
    for method in alpha.service[0].method:
        method.input_type = method.input_type.replace(prefix, f".{V1_PACKAGE}.")
        method.output_type = method.output_type.replace(prefix, f".{V1_PACKAGE}.")
    return pool.AddSerializedFile(alpha.SerializeToString())


def enable_reflection(service_names: Iterable[str], server: grpc.aio.Server) -> None:
    """Serve reflection on ``server`` through v1 and v1alpha, listing ``service_names``.

    Both reflection services are listed too, so a client sees which versions it may use.
    """
    v1_file()
    names = (*service_names, V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME)
    servicer = reflection.aio.ReflectionServicer(names)
    method = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        tuple(
            grpc.method_handlers_generic_handler(name, {"ServerReflectionInfo": method})
            for name in (V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME)
        )
    )
