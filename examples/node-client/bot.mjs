#!/usr/bin/env node
// Play one seat of a live match on a gamerec server (`gamerec serve --matches`) over gRPC.
//
//   node bot.mjs --address HOST:PORT --match ID --token TOKEN --seat N [--key SEAT.pem]
//                [--seed S] [--trace] [--tls] [--ca PEM] [--client-cert PEM --client-key PEM]
//                [--server-name NAME] [--token-file PATH]
//
// It follows docs/live.md step by step: Watch the match from event 1; at each event that
// leaves its seat to move, ask GetMatch for the legal decisions (with `decided` while a turn
// chains several, as Oust's captures do), choose at random, Play the ply (its decisions
// joined with ","), and, with a key, Sign the chain head the acceptance gives (docs/seals.md
// section 4: step("gamerec-seal-1", "ply", N, head)); at the end, Sign the final head
// (step("gamerec-seal-1", "final", head)) and print the result. A lost connection is watched
// again from the last event seen plus one. --trace prints every call (->), answer (<-) and
// event (<=) as a line of JSON (ProtoJSON's form; records shortened to plies and result).
//
// --key is the seat's Ed25519 private key as PKCS#8 PEM (openssl genpkey -algorithm ed25519);
// the match must have been created with its public half for the seat. The connection options
// (--tls, --ca, --client-cert, ...) are gamerec's own (connection.mjs).
//
// Exit codes: 0 the match ended (the result is printed), 2 the bot could not play (bad
// arguments, no server, a call refused for another reason than the match moving on).

import { createPrivateKey, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

import { CONNECTION_OPTIONS, connection } from "./connection.mjs";

const PROTOS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "protos");
const EXIT_FAILED = 2;
const DOMAIN = "gamerec-seal-1";

function fail(message) {
  console.error(`bot.mjs: error: ${message}`);
  process.exit(EXIT_FAILED);
}

function options() {
  try {
    const { values } = parseArgs({
      options: {
        ...CONNECTION_OPTIONS,
        match: { type: "string" },
        token: { type: "string" },
        seat: { type: "string" },
        key: { type: "string" },
        seed: { type: "string", default: "1" },
        trace: { type: "boolean", default: false },
      },
    });
    for (const name of ["match", "token", "seat"]) {
      if (!values[name]) fail(`--${name} is needed`);
    }
    return {
      ...values,
      seat: Number(values.seat),
      seed: Number(values.seed),
      connection: connection(values),
    };
  } catch (error) {
    fail(error.message);
  }
}

function matchService() {
  const definition = protoLoader.loadSync("gamerec/v1/match.proto", {
    includeDirs: [PROTOS],
    keepCase: false,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).gamerec.v1.MatchService;
}

// A small seeded generator (mulberry32), so that a seed plays the same moves.
function randomOf(seed) {
  let state = seed >>> 0;
  return (count) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * count);
  };
}

// docs/seals.md section 1: item(b) is b's length (4 bytes big-endian) then b; step(b1..bk) is
// k (4 bytes big-endian) then each item.
function step(...items) {
  const parts = [u32(items.length)];
  for (const item of items) {
    const bytes = typeof item === "string" ? Buffer.from(item, "utf8") : Buffer.from(item);
    parts.push(u32(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

function u32(value) {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

// What --trace prints of a message, as ProtoJSON writes one: fields at their default value
// left out, bytes in base64, times and durations as text; a record shortened to its plies
// and result (the oneof names proto-loader adds, "kind" and "action", are left out too).
const TIMES = new Set(["time", "timestamp", "downSince", "upAt", "created", "startTime"]);
const DURATIONS = new Set(["clock", "clocks", "timeUsed", "charged"]);

function shown(value) {
  return JSON.stringify(compact(value, ""));
}

function compact(value, key) {
  if (value === null || value === undefined || value === "" || value === false || value === 0) {
    return undefined;
  }
  if (Buffer.isBuffer(value)) return value.length ? value.toString("base64") : undefined;
  if (Array.isArray(value)) {
    const items = value.map((item) => compact(item, key)).filter((item) => item !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof value === "string" && value.endsWith("_UNSPECIFIED")) return undefined;
  if (typeof value !== "object") return value;
  if ("seconds" in value && "nanos" in value && (TIMES.has(key) || DURATIONS.has(key))) {
    const seconds = Number(value.seconds) + value.nanos / 1e9;
    return TIMES.has(key) ? new Date(seconds * 1000).toISOString() : `${seconds.toFixed(3)}s`;
  }
  if (key === "record" && value.moves) {
    const result = compact(value.result, "result");
    return { plies: value.moves.length, ...(result ? { result } : {}), sealed: Boolean(value.seal) };
  }
  const fields = {};
  for (const [name, field] of Object.entries(value)) {
    if (name === "kind" || name === "action") continue;
    const kept = compact(field, name);
    if (kept !== undefined) fields[name] = kept;
  }
  return Object.keys(fields).length ? fields : undefined;
}

class Bot {
  constructor(settings) {
    this.settings = settings;
    this.random = randomOf(settings.seed);
    this.key = settings.key ? createPrivateKey(readFileSync(settings.key)) : null;
    const MatchService = matchService();
    const { credentials, channelOptions, metadata } = settings.connection;
    this.client = new MatchService(settings.address, credentials, channelOptions);
    this.metadata = metadata;
    this.last = 0;
  }

  trace(direction, what, message) {
    if (this.settings.trace) console.log(`${direction} ${what} ${shown(message) ?? "{}"}`);
  }

  call(method, request) {
    this.trace("->", method, request);
    return new Promise((resolve, reject) => {
      const deadline = Date.now() + 30_000;
      this.client[method](request, this.metadata, { deadline }, (error, answer) => {
        if (error) {
          this.trace("<-", `${method} error`, { code: grpc.status[error.code] ?? error.code, details: error.details });
          reject(error);
        } else {
          this.trace("<-", method, answer);
          resolve(answer);
        }
      });
    });
  }

  // Watch from the next event; resolves with the end, or null when the stream broke.
  watch() {
    const request = { matchId: this.settings.match, fromEvent: this.last + 1 };
    this.trace("->", "Watch", request);
    const stream = this.client.Watch(request, this.metadata);
    return new Promise((resolve, reject) => {
      let work = Promise.resolve();
      stream.on("data", (event) => {
        work = work.then(() => this.take(event)).then((ended) => {
          if (ended) {
            stream.cancel();
            resolve(ended);
          }
        }, reject);
      });
      stream.on("error", (error) => {
        if (error.code === grpc.status.CANCELLED) return;
        if (error.code === grpc.status.UNAVAILABLE) resolve(null);
        else reject(error);
      });
      stream.on("end", () => work.then(() => resolve(null)));
    });
  }

  async take(event) {
    this.trace("<=", "event", event);
    this.last = event.number;
    if (event.ended) {
      await this.signFinal(event.ended.record.seal?.finalHead);
      return event.ended;
    }
    const toMove = event.created ? 1 : event.move ? event.move.toMove : 0;
    if (toMove === this.settings.seat) await this.move();
    return null;
  }

  async move() {
    const decided = [];
    let state = await this.call("GetMatch", { matchId: this.settings.match, decided });
    if (state.toMove !== this.settings.seat) return;
    const ply = state.plies + 1;
    while (!state.turnComplete) {
      decided.push(state.legalMoves[this.random(state.legalMoves.length)]);
      state = await this.call("GetMatch", { matchId: this.settings.match, decided });
    }
    const request = { matchId: this.settings.match, token: this.settings.token, ply, text: decided.join(",") };
    let answer;
    try {
      answer = await this.call("Play", request);
    } catch (error) {
      if (error.code === grpc.status.FAILED_PRECONDITION) return; // the match moved on
      throw error;
    }
    if (answer.illegal) throw new Error(`the referee refused ${request.text}: ${answer.illegal.message}`);
    const accepted = answer.events[0]?.move;
    if (this.key && accepted) {
      await this.sign(accepted.ply, step(DOMAIN, "ply", String(accepted.ply), accepted.head));
    }
  }

  async signFinal(head) {
    if (this.key && head && head.length) await this.sign(0, step(DOMAIN, "final", head));
  }

  async sign(ply, message) {
    const signature = sign(null, message, this.key);
    const request = { matchId: this.settings.match, token: this.settings.token, ply, signature };
    const answer = await this.call("Sign", request);
    if (answer.rejected) throw new Error(`the signature was rejected: ${answer.rejected.message}`);
  }

  async run() {
    for (let tries = 0; ; tries += 1) {
      const ended = await this.watch();
      if (ended) return ended;
      if (tries > 100) throw new Error("the server stayed away");
      await new Promise((wake) => setTimeout(wake, Math.min(1000, 50 * 2 ** Math.min(tries, 5))));
    }
  }
}

async function main() {
  const settings = options();
  const bot = new Bot(settings);
  try {
    const ended = await bot.run();
    const result = ended.result;
    const scores = (result.scores ?? []).join("-") || "-";
    const winners = (result.winners ?? []).join(",") || "none";
    console.log(
      `match ${settings.match}: ${ended.reason} (scores ${scores}, winners ${winners}, ` +
        `${result.termination})`,
    );
  } catch (error) {
    fail(error.details ? `${grpc.status[error.code] ?? error.code}: ${error.details}` : error.message);
  } finally {
    bot.client.close();
  }
}

await main();
