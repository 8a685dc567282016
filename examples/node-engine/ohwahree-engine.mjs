#!/usr/bin/env node
// A minimal engine for Oh-Wah-Ree that speaks gamerec's engine protocol (docs/engine-protocol.md)
// on standard input and output. Plain Node.js, no packages: `node ohwahree-engine.mjs`.
//
// It keeps the position by replaying the moves of each `position` line with the rules of
// docs/rules/ohwahree.md (sowing that skips the origin, captures of 2 or 3 backwards through
// other seats' pits, seats with empty pits skipped when 3 or 4 play), and plays the sowing that
// captures the most stones now (the lowest pit on a tie). 2, 3 or 4 seats, any StonesPerPit,
// Direction free or ccw.

import readline from "node:readline";

const PITS = 12;
let game = null; // { players, stones, free, seat }
let moves = [];

function say(line) {
  process.stdout.write(line + "\n");
}

function step(pit, direction) {
  return ((pit - 1 + direction + PITS) % PITS) + 1; // direction +1: ccw, -1: cw
}

function owners(players) {
  const owner = new Array(PITS + 1).fill(0);
  const share = PITS / players;
  for (let seat = 1; seat <= players; seat++) {
    for (let j = 0; j < share; j++) {
      owner[((((-(seat - 1) * share + j) % PITS) + PITS) % PITS) + 1] = seat;
    }
  }
  return owner;
}

function start() {
  return {
    pits: [0, ...new Array(PITS).fill(game.stones)],
    resigned: new Set(),
    toMove: 1,
  };
}

// Sow from `origin` for `mover`; return the stones captured.
function sow(board, origin, direction, mover, owner) {
  let stones = board.pits[origin];
  board.pits[origin] = 0;
  let pit = origin;
  while (stones > 0) {
    pit = step(pit, direction);
    if (pit !== origin) {
      board.pits[pit]++;
      stones--;
    }
  }
  let captured = 0;
  while (owner[pit] !== mover && (board.pits[pit] === 2 || board.pits[pit] === 3)) {
    captured += board.pits[pit];
    board.pits[pit] = 0;
    pit = step(pit, -direction);
  }
  return captured;
}

function hasStones(board, seat, owner) {
  return board.pits.some((stones, pit) => pit > 0 && owner[pit] === seat && stones > 0);
}

function nextSeat(board, seat, owner) {
  for (let tries = 0; tries < game.players; tries++) {
    seat = (seat % game.players) + 1;
    if (board.resigned.has(seat)) continue;
    if (game.players >= 3 && !hasStones(board, seat, owner)) continue;
    return seat;
  }
  return seat;
}

function replay(owner) {
  const board = start();
  for (const token of moves) {
    if (token === "resign") {
      board.resigned.add(board.toMove);
    } else {
      const [, pit, way] = /^(\d+)(ccw|cw)?$/.exec(token);
      sow(board, Number(pit), way === "cw" ? -1 : 1, board.toMove, owner);
    }
    board.toMove = nextSeat(board, board.toMove, owner);
  }
  return board;
}

function choose() {
  const owner = owners(game.players);
  const board = replay(owner);
  const ways = game.free ? [["ccw", 1], ["cw", -1]] : [["", 1]];
  let best = null;
  let tried = 0;
  for (let pit = 1; pit <= PITS; pit++) {
    if (owner[pit] !== game.seat || board.pits[pit] === 0) continue;
    for (const [suffix, direction] of ways) {
      tried++;
      const copy = { pits: [...board.pits], resigned: board.resigned, toMove: game.seat };
      const captured = sow(copy, pit, direction, game.seat, owner);
      if (best === null || captured > best.captured) best = { token: `${pit}${suffix}`, captured };
    }
  }
  if (best === null) return { token: "resign", captured: 0, tried };
  return { ...best, tried };
}

function newGame(words) {
  const tags = Object.fromEntries(words.map((word) => word.split("=")));
  const name = (tags.Game || "").toLowerCase().replace(/[-_ ]/g, "");
  const players = Number(tags.Players);
  if (name !== "ohwahree") return `error this engine plays Oh-Wah-Ree only, not ${tags.Game}`;
  if (![2, 3, 4].includes(players)) return `error Oh-Wah-Ree has 2, 3 or 4 seats, not ${tags.Players}`;
  const direction = tags.Direction || (players === 2 ? "ccw" : "free");
  game = {
    players,
    stones: Number(tags.StonesPerPit || (players === 4 ? 6 : 4)),
    free: players >= 3 && direction === "free",
    seat: Number(tags.Seat),
  };
  moves = [];
  return "ready";
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (raw) => {
  const [keyword, ...words] = raw.trim().split(/[ \t]+/);
  switch (keyword) {
    case "":
      break;
    case "gep":
      say("id name node-ohwahree");
      say("id author the gamerec authors");
      say("game Oh-Wah-Ree 2 3 4");
      say("gepok 1");
      break;
    case "newgame":
      say(newGame(words));
      break;
    case "position":
      moves = words;
      break;
    case "go": {
      if (game === null) {
        say("error go before newgame");
        break;
      }
      const { token, captured, tried } = choose();
      say(`info depth 1 score ${100 * captured} nodes ${tried} pv ${token}`);
      say(`move ${token}`);
      break;
    }
    case "ping":
      say(`pong ${words[0]}`);
      break;
    case "gameover":
    case "error":
      break;
    case "quit":
      process.exit(0);
      break;
    default:
      say(`error unknown command ${keyword}`);
  }
});
input.on("close", () => process.exit(0));
