// A second verifier of gamerec seals, written from docs/seals.md alone, with nothing but
// Node's built-in crypto (SHA-256, Ed25519). It reads one record's ProtoJSON (a .json file or
// standard input; a .jsonl file: one record a line) and prints what it found, one JSON object
// a record:
//   {"status": "HOLDS" | "BROKEN" | "NONE", "findings": [{"code", "ply", "seat"}],
//    "signers": [{"signer", "through", "result"}]}
// Sections of docs/seals.md are cited as §N.
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

const GAMES = { GAME_ONE: "ONE", GAME_ARONDA: "Aronda", GAME_OUST: "Oust", GAME_OH_WAH_REE: "Oh-Wah-Ree" };
const RINGS = { ARONDA_RING_CENTRE: "c", ARONDA_RING_INNER: "i", ARONDA_RING_MIDDLE: "m", ARONDA_RING_OUTER: "o" };
const SOWING = { SOW_DIRECTION_CCW: "ccw", SOW_DIRECTION_CW: "cw" };
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

// §1: item(b) and step(b1..bk); strings are UTF-8, numbers decimal.
const bytes = (value) => (Buffer.isBuffer(value) ? value : Buffer.from(String(value), "utf8"));
function step(...items) {
  const parts = [u32(items.length)];
  for (const item of items) {
    const b = bytes(item);
    parts.push(u32(b.length), b);
  }
  return Buffer.concat(parts);
}
function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
const sha256 = (...parts) => createHash("sha256").update(Buffer.concat(parts)).digest();
const b64 = (text) => Buffer.from(text ?? "", "base64");
const snake = (name) => name.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
const zeroEnum = (v) => v === undefined || v === 0 || (typeof v === "string" && v.endsWith("_UNSPECIFIED"));

// §2.4: times and durations as ProtoJSON writes them (Z, 0/3/6/9 fraction digits).
function fraction(nanos) {
  if (nanos === 0) return "";
  let digits = String(nanos).padStart(9, "0");
  while (digits.length > 3 && digits.endsWith("000")) digits = digits.slice(0, -3);
  return "." + digits;
}
function timeText(value) {
  if (value === undefined) return "";
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i.exec(value);
  if (!m) throw new Error(`not an RFC 3339 time: ${value}`);
  const nanos = Number((m[2] ?? "").padEnd(9, "0"));
  const ms = Date.parse(m[1] + (m[3].toUpperCase() === "Z" ? "Z" : m[3]));
  const utc = new Date(ms).toISOString().slice(0, 19);
  return utc + fraction(nanos) + "Z";
}
function durationText(value) {
  if (value === undefined) return "";
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(value);
  if (!m) throw new Error(`not a duration: ${value}`);
  const nanos = Number((m[3] ?? "").padEnd(9, "0"));
  const negative = m[1] && (m[2] !== "0" || nanos !== 0);
  return (negative ? "-" : "") + String(BigInt(m[2])) + fraction(nanos) + "s";
}

// §2.1: the identity step.
function variantItems(rules) {
  const chosen = ["one", "aronda", "oust", "ohWahRee"].find((name) => rules[name] !== undefined);
  if (!chosen) return [];
  const items = [];
  for (const [key, value] of Object.entries(rules[chosen])) {
    // A number present in the JSON is set, even 0; an enum only when not its zero value.
    const values = Array.isArray(value) ? value : typeof value === "number" || !zeroEnum(value) ? [value] : [];
    if (values.length) items.push([snake(key), `${snake(key)}=${values.join(",")}`]);
  }
  items.sort((a, b) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0])));
  return items.map((item) => item[1]);
}
function identityStep(record) {
  const game = GAMES[record.rules?.game];
  if (!game) throw new Error("a game that cannot be sealed");
  const m = record.metadata ?? {};
  const seats = record.seats ?? [];
  const keys = record.seal.seatKeys ?? [];
  const variant = variantItems(record.rules);
  const items = ["gamerec-seal-1", "identity", game, record.rules.rulesVersion ?? "", variant.length, ...variant];
  items.push(m.event ?? "", m.site ?? "", m.round ?? "", m.date ?? "", timeText(m.startTime), m.timeControl ?? "");
  items.push(seats.length);
  seats.forEach((seat, i) => items.push(seat.name ?? "", seat.playerId ?? "", b64(keys[i])));
  items.push(b64(record.seal.hostKey));
  return step(...items);
}

// §2.3: canonical tokens.
function letter(rank) {
  if (!(rank >= 1 && rank <= 26)) throw new Error("no letter");
  return LETTERS[rank - 1];
}
function token(move) {
  for (const special of ["resign", "pass", "swap"]) if (move[special] !== undefined) return special;
  if (move.one) {
    if (!move.one.path?.length) throw new Error("empty path");
    return move.one.path.map((p) => letter(p.ring ?? 0) + (p.index ?? 0)).join("x");
  }
  if (move.aronda) {
    if (!move.aronda.placements?.length) throw new Error("no placement");
    return move.aronda.placements
      .map((f) => {
        const ring = RINGS[f.ring];
        if (!ring) throw new Error("no ring");
        if (ring === "c" && (f.index ?? 0) !== 0) throw new Error("centre index");
        return ring === "c" ? "c" : ring + (f.index ?? 0);
      })
      .join(",");
  }
  if (move.oust) {
    if (!move.oust.placements?.length) throw new Error("no placement");
    return move.oust.placements.map((c) => letter(c.column ?? 0) + (c.row ?? 0)).join(",");
  }
  if (move.ohWahRee) {
    const d = move.ohWahRee.direction;
    const suffix = zeroEnum(d) ? "" : SOWING[d];
    if (suffix === undefined) throw new Error("direction");
    return String(move.ohWahRee.pit ?? 0) + suffix;
  }
  throw new Error("no action");
}
// §2.2 and §2.5.
const plyStep = (i, move) =>
  step("ply", i, move.seat ?? 0, token(move), durationText(move.clock), timeText(move.timestamp));
function resultStep(result) {
  result = result ?? {};
  let claim = "";
  if (result.unfinished !== undefined) claim = "*";
  else if (result.scores !== undefined) claim = "=" + (result.scores.values ?? []).join("-");
  const t = result.termination;
  return step("result", claim, (result.winners ?? []).join(","), zeroEnum(t) ? "" : String(t));
}

// §4: what is signed; Ed25519 public keys as SubjectPublicKeyInfo DER.
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const publicKey = (raw) => createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: "der", type: "spki" });
const signedBytes = (ply, head) => (ply === 0 ? step("gamerec-seal-1", "final", head) : step("gamerec-seal-1", "ply", ply, head));

// §8: verify.
// §7: weak keys and signatures. A key is refused when y is p or more, when x is 0 with its
// sign bit set, when no x exists, or when 8 times the point is the identity (small order).
const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const mod = (a) => ((a % P) + P) % P;
const power = (base, exp) => {
  let result = 1n;
  base = mod(base);
  for (; exp > 0n; exp >>= 1n, base = mod(base * base)) if (exp & 1n) result = mod(result * base);
  return result;
};
const D = mod(-121665n * power(121666n, P - 2n));
const SQRT_M1 = power(2n, (P - 1n) / 4n);
const little = (buffer) => buffer.reduceRight((n, byte) => (n << 8n) | BigInt(byte), 0n);

function xOf(y, sign) {
  const u = mod(y * y - 1n), v = mod(D * y * y + 1n);
  let x = mod(u * power(v, 3n) * power(u * power(v, 7n), (P - 5n) / 8n));
  if (mod(v * x * x - u) !== 0n) x = mod(x * SQRT_M1);
  if (mod(v * x * x - u) !== 0n) return null;
  if (x === 0n && sign) return null;
  return (x & 1n) !== sign ? P - x : x;
}

function weakKey(key) {
  const number = little(key);
  const y = number & ((1n << 255n) - 1n), sign = number >> 255n;
  if (y >= P) return true;
  const x = xOf(y, sign);
  if (x === null) return true;
  let [X, Y, Z] = [x, y, 1n];
  for (let i = 0; i < 3; i++) {
    // Doubling in projective coordinates of the twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2.
    const B = mod((X + Y) * (X + Y)), C = mod(X * X), Dd = mod(Y * Y), E = mod(-C), F = mod(E + Dd);
    const H = mod(Z * Z), J = mod(F - 2n * H);
    [X, Y, Z] = [mod((B - C - Dd) * J), mod(F * (E - Dd)), mod(F * J)];
  }
  return X === 0n;
}

const canonicalSignature = (signature) => little(signature.subarray(32)) < L;

function check(record) {
  const seal = record.seal;
  if (!seal) return { status: "NONE", findings: [{ code: "NOT_SEALED", ply: 0, seat: 0 }], signers: [] };
  const findings = [];
  const malformed = () => ({ status: "BROKEN", findings: [{ code: "SEAL_MALFORMED", ply: 0, seat: 0 }], signers: [] });
  const seats = record.seats ?? [];
  const keys = new Map();
  (seal.seatKeys ?? []).forEach((k, i) => b64(k).length && keys.set(i + 1, b64(k)));
  if (b64(seal.hostKey).length) keys.set(0, b64(seal.hostKey));
  const plies = seal.plies ?? [];
  const places = [[0, seal.finalSignatures ?? []], ...plies.map((p, i) => [i + 1, p.signatures ?? []])];
  if ((seal.version ?? 0) !== 1 || (seal.seatKeys ?? []).length > seats.length) return malformed();
  if ([...keys.values()].some((k) => k.length !== 32 || weakKey(k))) return malformed();
  if ([seal.identityHead, seal.finalHead, ...plies.map((p) => p.head)].some((h) => b64(h).length !== 32)) return malformed();
  for (const [, signatures] of places) {
    const seen = new Set();
    for (const s of signatures) {
      const who = s.signer ?? 0;
      if (!keys.has(who) || seen.has(who) || b64(s.signature).length !== 64) return malformed();
      seen.add(who);
    }
  }
  // §3 and §8.2: the chain, to its first break.
  const heads = [];
  let final = null;
  const moves = record.moves ?? [];
  const broken = (ply) => findings.push({ code: "SEAL_BROKEN", ply, seat: 0 });
  let head;
  try {
    head = sha256(identityStep(record));
  } catch {
    head = null;
  }
  if (!head || !head.equals(b64(seal.identityHead))) broken(0);
  else {
    heads.push(head);
    let intact = true;
    for (let i = 1; i <= Math.max(plies.length, moves.length); i++) {
      if (i > moves.length || i > plies.length) { broken(i); intact = false; break; }
      try {
        head = sha256(head, plyStep(i, moves[i - 1]));
      } catch {
        broken(i); intact = false; break;
      }
      if (!head.equals(b64(plies[i - 1].head))) { broken(i); intact = false; break; }
      heads.push(head);
    }
    if (intact) {
      const f = sha256(head, resultStep(record.result));
      if (f.equals(b64(seal.finalHead))) final = f;
      else broken(0);
    }
  }
  // §8.3: signatures over intact heads.
  const cover = new Map([...keys.keys()].map((k) => [k, { through: 0, result: false, bad: -1 }]));
  const checkOne = (ply, head, s) => {
    const who = s.signer ?? 0;
    const c = cover.get(who);
    const signature = b64(s.signature);
    if (canonicalSignature(signature) && verify(null, signedBytes(ply, head), publicKey(keys.get(who)), signature)) {
      if (ply === 0) c.result = true;
      c.through = Math.max(c.through, ply);
    } else if (c.bad === -1) c.bad = ply;
  };
  for (let i = 1; i < heads.length; i++) for (const s of plies[i - 1].signatures ?? []) checkOne(i, heads[i], s);
  if (final) for (const s of seal.finalSignatures ?? []) checkOne(0, final, s);
  for (const [who, c] of cover) {
    if (c.result) c.through = heads.length - 1;
    if (c.bad !== -1) findings.push({ code: "SIGNATURE_INVALID", ply: c.bad, seat: who });
  }
  const status = findings.length ? "BROKEN" : "HOLDS";
  // §8.4: coverage, when the chain holds.
  const order = [...seats.keys()].map((i) => i + 1);
  if (keys.has(0)) order.push(0);
  const signers = order.map((who) => ({ signer: who, ...(cover.get(who) ?? { through: 0, result: false }) }));
  if (!findings.some((f) => f.code === "SEAL_BROKEN")) {
    for (const s of signers) {
      if (!keys.has(s.signer)) findings.push({ code: "NO_KEY", ply: 0, seat: s.signer });
      else if (s.through < moves.length) findings.push({ code: "UNSIGNED_PLIES", ply: s.through + 1, seat: s.signer });
      else if (!s.result) findings.push({ code: "UNSIGNED_RESULT", ply: 0, seat: s.signer });
    }
  }
  return { status, findings, signers: signers.map(({ signer, through, result }) => ({ signer, through, result })) };
}

// A .jsonl file (or "-" and --lines) holds one record a line: one answer a line.
const path = process.argv[2] ?? "-";
const text = readFileSync(path === "-" ? 0 : path, "utf8");
const records = path.endsWith(".jsonl") ? text.split("\n").filter((line) => line.trim()) : [text];
for (const record of records) process.stdout.write(JSON.stringify(check(JSON.parse(record))) + "\n");
