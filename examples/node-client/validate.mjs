#!/usr/bin/env node
// Validate a .grn game record against a running gamerec server (`gamerec serve`) over gRPC.
//
//   node validate.mjs [--address HOST:PORT] [--timeout SECONDS] [--tls] [--ca PEM]
//                     [--client-cert PEM --client-key PEM] [--server-name NAME]
//                     [--token-file PATH] RECORD.grn
//
// The record goes as raw bytes (`data`) with `encoding` RECORD_ENCODING_GRN; the server
// answers with a gamerec.v1.Verdict, printed one line for the record and one per finding.
// The service definition is loaded from the repository's protos/ at run time, so this client
// always speaks the server's current schema. The connection options are gamerec's own
// (connection.mjs).
//
// Exit codes, as gamerec's: 0 valid, 1 invalid, 2 the record could not be validated (bad
// arguments, an unreadable file, no server, or a request the server refused).

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

import { CONNECTION_OPTIONS, connection } from "./connection.mjs";

const PROTOS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "protos");
const EXIT_VALID = 0;
const EXIT_INVALID = 1;
const EXIT_FAILED = 2;

function fail(message) {
  console.error(`validate.mjs: error: ${message}`);
  process.exit(EXIT_FAILED);
}

function options() {
  try {
    const { values, positionals } = parseArgs({
      options: {
        ...CONNECTION_OPTIONS,
        timeout: { type: "string", default: "30" },
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1) {
      fail("give exactly one record file: node validate.mjs [--address HOST:PORT] RECORD.grn");
    }
    return { ...values, file: positionals[0], connection: connection(values) };
  } catch (error) {
    fail(error.message);
  }
}

function recordService() {
  const definition = protoLoader.loadSync("gamerec/v1/service.proto", {
    includeDirs: [PROTOS],
    keepCase: false,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).gamerec.v1.RecordService;
}

function validate(client, data, timeoutSeconds, metadata) {
  const request = { data, encoding: "RECORD_ENCODING_GRN" };
  const deadline = new Date(Date.now() + timeoutSeconds * 1000);
  return new Promise((resolve, reject) => {
    client.Validate(request, metadata, { deadline }, (error, verdict) =>
      error ? reject(error) : resolve(verdict),
    );
  });
}

// What a refused request says: the status and its message (for INVALID_ARGUMENT the message
// names the field and the problem, as the google.rpc.BadRequest detail does).
function refusal(error) {
  const code = Object.keys(grpc.status).find((name) => grpc.status[name] === error.code);
  return `${code ?? error.code}: ${error.details}`;
}

function gameName(game) {
  const names = {
    GAME_ONE: "ONE",
    GAME_ARONDA: "Aronda",
    GAME_OUST: "Oust",
    GAME_OH_WAH_REE: "Oh-Wah-Ree",
  };
  return names[game] ?? game;
}

function summary(file, verdict) {
  const result = verdict.result ?? { scores: [], winners: [] };
  const status = verdict.status === "GAME_STATUS_FINISHED" ? "finished" : "unfinished";
  const parts = [
    `${file}: ${verdict.valid ? "valid" : "INVALID"}`,
    gameName(verdict.game),
    `${verdict.pliesReplayed} plies`,
    status,
    `scores ${result.scores.join("-") || "-"}`,
  ];
  if (result.winners.length) {
    parts.push(`winners ${result.winners.join(",")}`);
  }
  return parts.join("  ");
}

function findingLine(finding) {
  const where = finding.ply ? `ply ${finding.ply}, seat ${finding.seat}, ${finding.move}: ` : "";
  return `  ${where}${finding.code}: ${finding.message}`;
}

async function main() {
  const { address, timeout, file, connection: reached } = options();
  let data;
  try {
    data = readFileSync(file);
  } catch (error) {
    fail(`${file}: ${error.message}`);
  }
  const RecordService = recordService();
  const client = new RecordService(address, reached.credentials, reached.channelOptions);
  try {
    const verdict = await validate(client, data, Number(timeout), reached.metadata);
    console.log(summary(file, verdict));
    for (const finding of verdict.errors) {
      console.log(findingLine(finding));
    }
    process.exitCode = verdict.valid ? EXIT_VALID : EXIT_INVALID;
  } catch (error) {
    fail(`${file}: ${refusal(error)}`);
  } finally {
    client.close();
  }
}

await main();
