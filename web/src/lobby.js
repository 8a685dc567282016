// The lobby (LobbyService): open a challenge, take a free seat, watch the live matches. When
// the table of a challenge this tab holds a seat of is full, the page opens on the match as
// that seat (its token, which the lobby gave, is the match's seat token).
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { LobbyService, ChallengeStatus } from "../gen/gamerec/v1/lobby_pb.js";
import { Game } from "../gen/gamerec/v1/record_pb.js";
import { problem } from "./api.js";
import { element, sleep } from "./dom.js";
import { keepSeatKey, newSeatKey } from "./keys.js";
import { link } from "./links.js";
import { clockText } from "./match.js";

const KEPT = "gamerec-challenges";
/** The games a challenge may offer: the enum value, the seat counts, the variant's field. */
const GAMES = [
  { name: "ONE", game: Game.ONE, seats: [2, 3, 4, 5, 6], variant: "one" },
  { name: "Aronda", game: Game.ARONDA, seats: [2], variant: "" },
  { name: "Oust", game: Game.OUST, seats: [2], variant: "" },
  { name: "Oh-Wah-Ree", game: Game.OH_WAH_REE, seats: [2, 3, 4], variant: "ohWahRee" },
];

/** @returns {Record<string, {token: string, seat: number}>} the seats this tab holds */
function kept() {
  return JSON.parse(sessionStorage.getItem(KEPT) ?? "{}");
}

/** @param {string} challengeId @param {string} token @param {number} seat */
function keep(challengeId, token, seat) {
  const seats = kept();
  seats[challengeId] = { token, seat };
  sessionStorage.setItem(KEPT, JSON.stringify(seats));
}


/** @param {number} game */
function gameName(game) {
  return GAMES.find((entry) => entry.game === game)?.name ?? "?";
}

export class LobbyPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.lobby = createClient(LobbyService, createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true }));
    this.controller = new AbortController();
    this.last = 0;
    this.build();
  }

  build() {
    const games = element("select", { id: "game", "aria-label": "Game" },
      ...GAMES.map((entry) => element("option", { value: entry.name }, entry.name)));
    const seats = element("select", { id: "seats", "aria-label": "Seats" });
    const fillSeats = () => {
      const entry = GAMES.find((each) => each.name === /** @type {HTMLSelectElement} */ (games).value) ?? GAMES[0];
      seats.replaceChildren(...entry.seats.map((count) => element("option", { value: String(count) }, count + " seats")));
    };
    games.addEventListener("change", fillSeats);
    fillSeats();
    this.name = /** @type {HTMLInputElement} */ (element("input", { id: "name", "aria-label": "Your name", placeholder: "your name", required: "" }));
    this.name.value = sessionStorage.getItem("gamerec-name") ?? "";
    const clock = element("input", { id: "clock", "aria-label": "Clock", value: "600+5", size: "8" });
    const rated = element("input", { id: "rated", type: "checkbox" });
    const form = element("form", { id: "challenge-form" }, this.name, " ", games, " ", seats, " clock ", clock, " ",
      element("label", {}, rated, " rated"), " ", element("button", { type: "submit" }, "Open a challenge"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.open(/** @type {HTMLSelectElement} */ (games).value, Number(/** @type {HTMLSelectElement} */ (seats).value),
        /** @type {HTMLInputElement} */ (clock).value, /** @type {HTMLInputElement} */ (rated).checked);
    });
    this.message = element("p", { class: "problem", id: "lobby-message", "aria-live": "assertive" });
    this.challenges = element("tbody", { id: "challenges" });
    this.live = element("tbody", { id: "live" });
    this.root.replaceChildren(element("h1", {}, "Lobby"), form, this.message,
      element("h2", {}, "Open challenges"),
      element("table", { class: "list" }, element("thead", {}, element("tr", {},
        ...["Game", "Seats", "Clock", "Rated", ""].map((text) => element("th", {}, text)))), this.challenges),
      element("h2", {}, "Live matches"),
      element("table", { class: "list" }, element("thead", {}, element("tr", {},
        ...["Match", "Game", "Players", "Plies", "Clocks"].map((text) => element("th", {}, text)))), this.live));
  }

  async start() {
    await this.refresh();
    this.follow();
  }

  /** Refresh on every lobby event (WatchLobby, reopened from its last event when it drops). */
  async follow() {
    let attempt = 0;
    while (!this.controller.signal.aborted) {
      try {
        for await (const event of this.lobby.watchLobby({ fromEvent: this.last + 1 }, { signal: this.controller.signal })) {
          attempt = 0;
          this.last = Math.max(this.last, event.number);
          if (event.kind.case === "started" && kept()[event.kind.value.challengeId]) {
            this.enter(event.kind.value.challengeId, event.kind.value.matchId);
            return;
          }
          await this.refresh();
        }
      } catch (error) {
        if (this.controller.signal.aborted) {
          return;
        }
      }
      await sleep(Math.min(4000, 250 * 2 ** attempt));
      attempt += 1;
      await this.refresh();
    }
  }

  /** The open challenges and the live matches, read again. */
  async refresh() {
    try {
      for (const [challengeId, seat] of Object.entries(kept())) {
        const mine = (await this.lobby.listChallenges({ token: seat.token })).challenges[0];
        if (mine?.status === ChallengeStatus.STARTED) {
          this.enter(challengeId, mine.matchId);
          return;
        }
      }
      const open = await this.lobby.listChallenges({});
      this.last = Math.max(this.last, open.lastEvent);
      this.challenges.replaceChildren(...open.challenges.map((challenge) => this.challengeRow(challenge)));
      const live = await this.lobby.listLiveMatches({});
      this.live.replaceChildren(...live.matches.map((match) => {
        const summary = match.summary;
        const anchor = element("a", { href: link({ watch: summary?.matchId ?? "" }) }, summary?.matchId ?? "");
        const clocks = match.clocks.map((clock) => clockText(Number(clock.seconds) * 1000 + clock.nanos / 1e6)).join(" · ");
        return element("tr", { "data-match": summary?.matchId ?? "" }, element("td", {}, anchor),
          element("td", {}, gameName(summary?.game ?? 0)), element("td", {}, (summary?.seats ?? []).join(" – ")),
          element("td", {}, String(summary?.plies ?? 0)), element("td", {}, clocks || "no clock"));
      }));
      document.body.dataset.lobby = String(this.last);
    } catch (error) {
      this.message.textContent = problem(error);
    }
  }

  /** @param {any} challenge */
  challengeRow(challenge) {
    const mine = kept()[challenge.challengeId];
    const seats = challenge.seats.map((/** @type {any} */ seat) => seat.taken ? seat.name : "free").join(" – ");
    let action;
    if (mine) {
      action = element("button", { type: "button", class: "cancel" }, "Withdraw");
      action.addEventListener("click", () => this.cancel(challenge.challengeId, mine.token));
    } else {
      action = element("button", { type: "button", class: "take" }, "Take a seat");
      action.addEventListener("click", () => this.take(challenge.challengeId));
    }
    return element("tr", { "data-challenge": challenge.challengeId },
      element("td", {}, gameName(challenge.rules?.game ?? 0)), element("td", {}, seats),
      element("td", {}, challenge.timeControl || "-"), element("td", {}, challenge.rated ? "rated" : "casual"),
      element("td", {}, mine ? "your seat " + mine.seat + ", waiting " : "", action));
  }

  /**
   * The player this tab seats: its name, and a new Ed25519 public key when the browser can
   * make one (its private key is kept once the seat's token is known: `keepSeatKey`).
   */
  async player() {
    const name = this.name.value.trim();
    if (!name) {
      throw new Error("say your name first");
    }
    sessionStorage.setItem("gamerec-name", name);
    const key = await newSeatKey();
    return { player: key ? { name, publicKey: key.publicKey } : { name }, key };
  }

  /** @param {string} name @param {number} seats @param {string} clock @param {boolean} rated */
  async open(name, seats, clock, rated) {
    this.message.textContent = "";
    try {
      const entry = GAMES.find((each) => each.name === name) ?? GAMES[0];
      const rules = entry.variant
        ? { game: entry.game, variant: { case: entry.variant, value: { players: seats } } }
        : { game: entry.game };
      const { player, key } = await this.player();
      const answer = await this.lobby.openChallenge({
        rules: /** @type {any} */ (rules), seats, timeControl: clock, rated, player,
      });
      if (key) {
        await keepSeatKey(answer.token, key);
      }
      keep(answer.challenge?.challengeId ?? "", answer.token, answer.challenge?.yourSeat ?? 1);
      await this.refresh();
    } catch (error) {
      this.message.textContent = problem(error);
    }
  }

  /** @param {string} challengeId */
  async take(challengeId) {
    this.message.textContent = "";
    try {
      const { player, key } = await this.player();
      const answer = await this.lobby.takeSeat({ challengeId, player });
      if (key) {
        await keepSeatKey(answer.token, key);
      }
      keep(challengeId, answer.token, answer.challenge?.yourSeat ?? 0);
      if (answer.challenge?.status === ChallengeStatus.STARTED) {
        this.enter(challengeId, answer.challenge.matchId);
        return;
      }
      await this.refresh();
    } catch (error) {
      this.message.textContent = problem(error);
    }
  }

  /** @param {string} challengeId @param {string} token */
  async cancel(challengeId, token) {
    try {
      await this.lobby.cancelChallenge({ challengeId, token });
      const seats = kept();
      delete seats[challengeId];
      sessionStorage.setItem(KEPT, JSON.stringify(seats));
      await this.refresh();
    } catch (error) {
      this.message.textContent = problem(error);
    }
  }

  /** Open the match of a full table as this tab's seat. @param {string} challengeId @param {string} matchId */
  enter(challengeId, matchId) {
    const seat = kept()[challengeId];
    const seats = kept();
    delete seats[challengeId];
    sessionStorage.setItem(KEPT, JSON.stringify(seats));
    this.stop();
    location.hash = link({ play: matchId, seat: seat.seat, token: seat.token });
  }

  stop() {
    this.controller.abort();
  }
}
