// One match's page: watched (anyone) or played (a seat, with its token). The board is the
// SVG picture the server's renderer draws (AssistService.Click: the same drawing as
// `gamerec render` and the viewer); the move list and clocks come from Watch, which the page
// reopens from its last event number after a dropped connection, applying each event once.
import { create, toBinary } from "@bufbuild/protobuf";
import { GameRecordSchema } from "../gen/gamerec/v1/record_pb.js";
import { MatchStatus } from "../gen/gamerec/v1/match_pb.js";
import { clients, problem } from "./api.js";
import { element, sleep } from "./dom.js";
import { finalMessage, plyMessage, seatKey, signMessage } from "./keys.js";

const RECONNECT_MS = [250, 500, 1000, 2000, 4000];


/** @param {{seconds: bigint, nanos: number} | undefined} value */
function millis(value) {
  return value ? Number(value.seconds) * 1000 + value.nanos / 1e6 : 0;
}

/** @param {number} ms */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return minutes + ":" + String(seconds).padStart(2, "0");
}


export class MatchPage {
  /**
   * @param {HTMLElement} root
   * @param {string} matchId
   * @param {{token: string, seat: number}} [me] the seat this page plays (none: a watcher)
   */
  constructor(root, matchId, me = { token: "", seat: 0 }) {
    this.root = root;
    this.matchId = matchId;
    this.token = me.token;
    this.seat = me.token ? me.seat : 0;
    this.api = clients(this.token);
    this.last = 0; // the number of the last event applied
    this.record = create(GameRecordSchema);
    this.plies = 0;
    this.toMove = 0;
    this.over = false;
    /** @type {number[]} */
    this.clocks = [];
    this.clockAt = 0;
    this.drawBy = 0;
    /** @type {string[]} */
    this.clicks = [];
    /** @type {string[]} */
    this.nextSites = [];
    this.drawn = 0; // refreshes asked for; only the newest answer is drawn
    this.endingSeat = 0;
    /** @type {CryptoKey | null} the seat's private key, when this browser made one (keys.js) */
    this.key = null;
    /** the signatures sent so far, one after another */
    this.signing = Promise.resolve();
    this.controller = new AbortController();
    this.build();
  }

  build() {
    const play = this.seat > 0;
    this.board = element("div", { class: "board" + (play ? " mine" : ""), id: "board" });
    this.status = element("p", { class: "status", id: "status", "aria-live": "polite" });
    this.message = element("p", { class: "problem", id: "message", "aria-live": "assertive" });
    this.ending = element("p", { class: "ending", id: "ending", hidden: "" });
    this.clockList = element("ul", { class: "clocks", id: "clocks" });
    this.moveList = element("ol", { class: "moves", id: "moves" });
    this.connection = element("p", { class: "connection", id: "connection" });
    this.extra = element("div", { id: "extra" });
    const side = element("div", { class: "side" }, this.status, this.ending, this.message,
      this.clockList);
    if (play) {
      side.append(this.controls());
    }
    side.append(element("h2", {}, "Moves"), this.moveList, this.connection, this.extra);
    this.root.replaceChildren(element("section", { class: "match" }, this.board, side));
    this.board.addEventListener("click", (event) => this.clicked(event));
    this.timer = setInterval(() => this.showClocks(), 200);
  }

  controls() {
    const button = (/** @type {string} */ id, /** @type {string} */ text, /** @type {() => void} */ act) => {
      const made = element("button", { type: "button", id }, text);
      made.addEventListener("click", act);
      return made;
    };
    this.completions = element("div", { class: "completions", id: "completions" });
    this.typed = element("input", { id: "typed", "aria-label": "Move in notation", placeholder: "c7xc9, o1,o3, 4cw, pass" });
    const form = element("form", { id: "type-move" }, this.typed, element("button", { type: "submit" }, "Play"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = /** @type {HTMLInputElement} */ (this.typed).value.trim();
      if (text) {
        this.send(text);
      }
    });
    this.drawAnswer = element("div", { id: "draw-answer", hidden: "" },
      button("accept-draw", "Accept draw", () => this.command("answerDraw", { accept: true })),
      button("decline-draw", "Decline draw", () => this.command("answerDraw", { accept: false })));
    this.actions = element("div", { class: "actions", id: "actions" },
      button("clear", "Clear clicks", () => { this.clicks = []; this.refresh(); }),
      button("offer-draw", "Offer draw", () => this.command("offerDraw", {})),
      button("resign", "Resign", () => this.command("resign", {})),
      button("abort", "Abort", () => this.command("abort", {})));
    this.playPanel = element("div", { class: "play", id: "play" }, this.completions, form, this.drawAnswer, this.actions);
    return this.playPanel;
  }

  /** Open the match: a finished one as the replay viewer, an open one live. */
  async start() {
    let state;
    try {
      state = await this.api.matches.getMatch({ matchId: this.matchId });
    } catch (error) {
      this.status.textContent = "Cannot open match " + this.matchId + ": " + problem(error);
      return;
    }
    if (state.status !== MatchStatus.OPEN) {
      await this.showViewer(state.record, state.ended?.reason ?? "");
      return;
    }
    this.key = this.token ? await seatKey(this.token) : null;
    await this.follow();
  }

  /** Follow Watch from the last event applied; reconnect when the stream drops. */
  async follow() {
    let attempt = 0;
    while (!this.over) {
      try {
        this.connection.textContent = attempt ? "reconnecting (event " + (this.last + 1) + ")" : "connected";
        const stream = this.api.matches.watch({ matchId: this.matchId, fromEvent: this.last + 1 },
          { signal: this.controller.signal });
        for await (const event of stream) {
          attempt = 0;
          this.connection.textContent = "connected";
          this.apply(event);
        }
      } catch (error) {
        if (this.controller.signal.aborted) {
          return;
        }
        this.connection.textContent = "connection lost: " + problem(error);
      }
      if (!this.over) {
        await sleep(RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]);
        attempt += 1;
      }
    }
    this.connection.textContent = "the match is over";
  }

  /**
   * Apply one event of the log, once: an event already applied (a repeat after a
   * reconnection, or one a call's answer carried) changes nothing.
   * @param {any} event
   */
  apply(event) {
    if (event.number <= this.last) {
      return;
    }
    if (event.number !== this.last + 1) {
      throw new Error("event " + event.number + " came after event " + this.last);
    }
    this.last = event.number;
    document.body.dataset.events = String(this.last);
    const { case: kind, value } = event.kind;
    const at = event.time ? Number(event.time.seconds) * 1000 + event.time.nanos / 1e6 : Date.now();
    if (kind === "created") {
      this.record = value.record;
      this.setClocks(value.clocks, at);
      this.toMove = this.record.seats.length ? 1 : 0;
    } else if (kind === "move") {
      this.record.moves.push(value.move);
      this.plies = value.ply;
      this.toMove = value.toMove;
      this.setClocks(value.clocks, at);
      this.clicks = [];
      this.moveList.append(element("li", { "data-ply": String(value.ply), "data-seat": String(value.seat) },
        "seat " + value.seat + ": " + value.token));
      this.moveList.scrollTop = this.moveList.scrollHeight;
      if (value.seat === this.seat && value.head?.length) {
        this.sign(value.ply, plyMessage(value.ply, value.head));
      }
    } else if (kind === "drawOffered") {
      this.drawBy = value.seat;
    } else if (kind === "drawAnswered" && !value.accept) {
      this.drawBy = 0;
    } else if (kind === "drawOfferLapsed") {
      this.drawBy = 0;
    } else if (kind === "ended") {
      this.over = true;
      this.toMove = 0;
      this.record = value.record;
      this.endingSeat = value.seat;
      this.endReason = value.reason;
      const finalHead = value.record?.seal?.finalHead;
      if (this.seat && finalHead?.length) {
        this.sign(0, finalMessage(finalHead));
      }
      this.signing.then(() => this.finished());
    }
    document.body.dataset.plies = String(this.plies);
    if (kind !== "signature") { // a seat's signature changes nothing the page shows
      this.refresh();
    }
  }

  /** @param {{seconds: bigint, nanos: number}[]} clocks @param {number} at */
  setClocks(clocks, at) {
    if (clocks.length) {
      this.clocks = clocks.map(millis);
      this.clockAt = at;
    }
  }

  showClocks() {
    const seats = this.record.seats.length;
    const rows = [];
    for (let seat = 1; seat <= seats; seat += 1) {
      const name = this.record.seats[seat - 1].name;
      let left = "";
      if (this.clocks.length) {
        const running = seat === this.toMove && !this.over;
        left = " " + clockText(this.clocks[seat - 1] - (running ? Math.max(0, Date.now() - this.clockAt) : 0));
      }
      const row = element("li", { "data-seat": String(seat) }, "seat " + seat + (name ? " (" + name + ")" : "") +
        (seat === this.seat ? " (you)" : "") + left);
      if (seat === this.toMove) {
        row.className = "moving";
      }
      rows.push(row);
    }
    this.clockList.replaceChildren(...rows);
  }

  myTurn() {
    return this.seat > 0 && !this.over && this.toMove === this.seat;
  }

  /** Draw the board and what the clicks allow (AssistService.Click); the newest answer wins. */
  async refresh() {
    const asked = ++this.drawn;
    const clicks = this.myTurn() ? [...this.clicks] : [];
    let answer;
    try {
      answer = await this.api.assist.click({ record: this.record, clicks, endingSeat: this.endingSeat });
    } catch (error) {
      if (asked === this.drawn) {
        this.message.textContent = problem(error);
      }
      return;
    }
    if (asked !== this.drawn) {
      return;
    }
    this.board.innerHTML = answer.boardSvg;
    this.nextSites = this.myTurn() ? answer.nextSites : [];
    for (const name of this.nextSites) {
      this.board.querySelector('[data-name="' + CSS.escape(name) + '"]')?.classList.add("legal");
    }
    for (const name of clicks) {
      this.board.querySelector('[data-name="' + CSS.escape(name) + '"]')?.classList.add("picked");
    }
    if (answer.ending) {
      this.ending.hidden = false;
      this.ending.textContent = answer.ending;
    }
    this.showStatus(answer, clicks);
    this.showClocks();
    // What the page shows now (the plies and the clicks): a test waits for it to change.
    document.body.dataset.shown = this.plies + ":" + clicks.join(",") + (this.over ? ":over" : "");
  }

  /** @param {any} answer @param {string[]} clicks */
  showStatus(answer, clicks) {
    const turn = this.myTurn();
    document.body.dataset.turn = turn ? "mine" : this.over ? "over" : "theirs";
    if (this.over) {
      this.status.textContent = "Game over.";
    } else if (turn) {
      this.status.textContent = clicks.length
        ? (answer.complete.length ? "Turn complete: " + answer.complete.join(" or ") : "Placed " + clicks.join(",") + ": click again (" + answer.nextSites.length + " legal)")
        : "Your move: " + answer.nextSites.length + " legal sites marked.";
    } else {
      this.status.textContent = this.toMove ? "Seat " + this.toMove + " to move." : "";
    }
    if (this.completions) {
      const buttons = turn ? answer.complete.map((/** @type {string} */ token) => {
        const made = element("button", { type: "button", "data-move": token }, "Play " + token);
        made.addEventListener("click", () => this.send(token));
        return made;
      }) : [];
      this.completions.replaceChildren(...buttons);
    }
    if (this.playPanel) {
      this.playPanel.hidden = this.over;
    }
    if (this.drawAnswer) {
      this.drawAnswer.hidden = !(this.drawBy && this.drawBy !== this.seat && !this.over);
    }
    document.body.dataset.draw = String(this.drawBy);
  }

  /** A click on the board: a site added to the turn, checked by the server. @param {MouseEvent} event */
  async clicked(event) {
    const site = /** @type {Element} */ (event.target).closest?.(".site");
    if (!site || this.seat === 0) {
      return;
    }
    if (!this.myTurn()) {
      this.message.textContent = this.over ? "The match is over." : "Not your turn: seat " + this.toMove + " is to move.";
      return;
    }
    const name = site.getAttribute("data-name") ?? "";
    const clicks = [...this.clicks, name];
    let answer;
    try {
      answer = await this.api.assist.click({ record: this.record, clicks });
    } catch (error) {
      this.message.textContent = problem(error);
      return;
    }
    if (answer.refused) {
      this.message.textContent = answer.refused.message;
      return;
    }
    this.message.textContent = "";
    this.clicks = clicks;
    if (answer.complete.length === 1 && answer.nextSites.length === 0) {
      await this.send(answer.complete[0]);
      return;
    }
    await this.refresh();
  }

  /** Play a move (a token, clicked or typed); the engine's reason when it is refused. @param {string} text */
  async send(text) {
    this.message.textContent = "";
    try {
      const answer = await this.api.matches.play({
        matchId: this.matchId, token: this.token, ply: this.plies + 1, action: { case: "text", value: text },
      });
      if (answer.illegal) {
        this.message.textContent = "Refused: " + answer.illegal.message;
        this.clicks = [];
      } else if (this.typed) {
        /** @type {HTMLInputElement} */ (this.typed).value = "";
      }
      for (const event of answer.events) {
        this.apply(event);
      }
    } catch (error) {
      this.message.textContent = problem(error);
      this.clicks = [];
    }
    await this.refresh();
  }

  /** A seat's command: resign, offer or answer a draw, abort. @param {"resign"|"offerDraw"|"answerDraw"|"abort"} name @param {object} fields */
  async command(name, fields) {
    this.message.textContent = "";
    try {
      const answer = await /** @type {any} */ (this.api.matches)[name]({ matchId: this.matchId, token: this.token, ...fields });
      for (const event of answer.events) {
        this.apply(event);
      }
    } catch (error) {
      this.message.textContent = problem(error);
    }
  }

  /**
   * Sign the head after one of this seat's plies (0: the final head) and send the signature,
   * after those sent before; nothing without a key. A signature sent again (the page reloaded
   * and sees its plies again) changes nothing on the server.
   * @param {number} ply @param {Uint8Array} message
   */
  sign(ply, message) {
    const key = this.key;
    if (!key) {
      return;
    }
    this.signing = this.signing.then(async () => {
      try {
        const signature = await signMessage(key, message);
        const answer = await this.api.matches.sign({ matchId: this.matchId, token: this.token, ply, signature });
        if (answer.rejected) {
          this.message.textContent = "Signature refused: " + answer.rejected.message;
        }
      } catch (error) {
        this.message.textContent = "Signature not sent: " + problem(error);
      }
    });
  }

  /** The match ended while the page followed it: the download, the replay. */
  async finished() {
    this.extra.replaceChildren();
    if (this.endReason) {
      this.extra.append(element("p", { id: "end-reason" }, this.endReason));
    }
    let record = this.record;
    try {
      record = (await this.api.matches.getMatch({ matchId: this.matchId })).record ?? record;
    } catch (error) {
      // the final record of the ended event is sealed too
    }
    this.extra.append(this.download(record));
    const replay = element("button", { type: "button", id: "replay" }, "Open the replay viewer");
    replay.addEventListener("click", () => this.showViewer(record, this.endReason ?? ""));
    this.extra.append(replay);
    document.body.dataset.finished = "yes";
  }

  /** A link that downloads the sealed record (.pb: `gamerec verify` and `gamerec view` read it). @param {any} record */
  download(record) {
    const bytes = toBinary(GameRecordSchema, record);
    const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
    return element("a", { href: url, download: "match-" + this.matchId + ".pb", id: "download" },
      "Download the sealed record");
  }

  /** The finished match as `gamerec view`'s page. @param {any} record @param {string} reason */
  async showViewer(record, reason) {
    clearInterval(this.timer);
    this.over = true;
    document.body.dataset.turn = "over";
    let html;
    try {
      html = (await this.api.assist.viewerPage({ record })).html;
    } catch (error) {
      this.root.replaceChildren(element("p", { class: "problem" }, problem(error)));
      return;
    }
    const frame = element("iframe", { class: "viewer", id: "viewer", title: "Replay" });
    /** @type {HTMLIFrameElement} */ (frame).srcdoc = html;
    this.root.replaceChildren(element("p", { id: "end-reason" }, reason), this.download(record), frame);
    document.body.dataset.finished = "yes";
  }

  stop() {
    this.controller.abort();
    clearInterval(this.timer);
  }
}
