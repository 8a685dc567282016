// How the example clients reach a gamerec server: the options they share, with the names
// gamerec's own clients use (gamerec match --tls --ca --client-cert --client-key
// --server-name --token-file; docs/operating.md).
//
//   --address HOST:PORT   the server (default 127.0.0.1:50051)
//   --tls                 TLS, trusting the system's CAs (implied by --ca and --client-cert)
//   --ca PEM              TLS, trusting the CA in this file (the server's own CA)
//   --client-cert PEM     this client's certificate, for a server that asks for one (mTLS)
//   --client-key PEM      the client certificate's private key
//   --server-name NAME    the name the server's certificate must carry, when not the host's
//   --token-file PATH     a token on the file's first line, sent as 'authorization: Bearer'

import { readFileSync } from "node:fs";

import grpc from "@grpc/grpc-js";

/** The options of node:util parseArgs for the connection. */
export const CONNECTION_OPTIONS = {
  address: { type: "string", default: "127.0.0.1:50051" },
  tls: { type: "boolean", default: false },
  ca: { type: "string" },
  "client-cert": { type: "string" },
  "client-key": { type: "string" },
  "server-name": { type: "string" },
  "token-file": { type: "string" },
};

function readOrThrow(path, what) {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`${path}: cannot read the ${what}: ${error.message}`);
  }
}

/**
 * The channel's credentials, its options and the metadata of every call, from parsed
 * options. Throws an Error whose message says which file or option is wrong.
 */
export function connection(values) {
  const cert = values["client-cert"];
  const key = values["client-key"];
  if (Boolean(cert) !== Boolean(key)) {
    throw new Error("--client-cert and --client-key go together");
  }
  const tls = values.tls || Boolean(values.ca) || Boolean(cert);
  const channelOptions = {};
  let credentials = grpc.credentials.createInsecure();
  if (tls) {
    credentials = grpc.credentials.createSsl(
      values.ca ? readOrThrow(values.ca, "CA") : null,
      key ? readOrThrow(key, "client key") : null,
      cert ? readOrThrow(cert, "client certificate") : null,
    );
    if (values["server-name"]) {
      channelOptions["grpc.ssl_target_name_override"] = values["server-name"];
      channelOptions["grpc.default_authority"] = values["server-name"];
    }
  } else if (values["server-name"]) {
    throw new Error("--server-name is for TLS: give --tls or --ca too");
  }
  const metadata = new grpc.Metadata();
  if (values["token-file"]) {
    const token = readOrThrow(values["token-file"], "token").toString("utf8").split("\n")[0].trim();
    if (!token) throw new Error(`${values["token-file"]}: expected a token on the first line`);
    metadata.set("authorization", `Bearer ${token}`);
  }
  return { credentials, channelOptions, metadata };
}
