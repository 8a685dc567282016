// The gamerec web client (docs/web-client.md): the page a link opens, by its fragment.
//   #watch=<match>                    watch a match (a finished one opens as the replay viewer)
//   #play=<match>&seat=<n>&token=<t>  play a seat (the token is kept by the tab, then removed)
//   #matches                          every match on the server
//   (nothing)                         the lobby: open challenges, live matches
import { MatchStatus } from "../gen/gamerec/v1/match_pb.js";
import { Game } from "../gen/gamerec/v1/record_pb.js";
import { clients, problem } from "./api.js";
import { fragment, keepToken, link } from "./links.js";
import { LobbyPage } from "./lobby.js";
import { MatchPage } from "./match.js";

/** @type {MatchPage | LobbyPage | null} */
let current = null;

async function route() {
  current?.stop();
  current = null;
  const root = /** @type {HTMLElement} */ (document.getElementById("app"));
  const where = /** @type {HTMLElement} */ (document.getElementById("where"));
  const fields = fragment();
  delete document.body.dataset.finished;
  if (fields.play) {
    const me = keepToken(fields.play, fields.token ?? "", Number(fields.seat ?? 0));
    where.textContent = "match " + fields.play + (me.token ? ", seat " + me.seat : " (watching: no seat token in this tab)");
    current = new MatchPage(root, fields.play, me);
    await current.start();
  } else if (fields.watch) {
    where.textContent = "watching match " + fields.watch;
    current = new MatchPage(root, fields.watch);
    await current.start();
  } else if (location.hash === "#matches") {
    where.textContent = "matches";
    await matchList(root);
  } else {
    where.textContent = "lobby";
    current = new LobbyPage(root);
    await current.start();
  }
}

/** The server's matches, newest first, each a link to watch it. @param {HTMLElement} root */
async function matchList(root) {
  let answer;
  try {
    answer = await clients("").matches.listMatches({ limit: 50 });
  } catch (error) {
    root.textContent = "Cannot list the matches: " + problem(error);
    return;
  }
  const rows = answer.matches.map((match) => {
    const row = document.createElement("tr");
    const cells = [
      Game[match.game]?.replace(/^GAME_/, "") ?? "",
      match.seats.join(" – "),
      MatchStatus[match.status]?.replace(/^MATCH_STATUS_/, "").toLowerCase() ?? "",
      String(match.plies),
    ];
    const anchor = document.createElement("a");
    anchor.href = link({ watch: match.matchId });
    anchor.textContent = match.matchId;
    const first = document.createElement("td");
    first.append(anchor);
    row.append(first, ...cells.map((text) => {
      const cell = document.createElement("td");
      cell.textContent = text;
      return cell;
    }));
    return row;
  });
  const table = document.createElement("table");
  table.className = "list";
  table.id = "matches";
  table.innerHTML = "<thead><tr><th>Match</th><th>Game</th><th>Seats</th><th>Status</th><th>Plies</th></tr></thead>";
  const body = document.createElement("tbody");
  body.append(...rows);
  table.append(body);
  const title = document.createElement("h1");
  title.textContent = "Matches";
  root.replaceChildren(title, table);
}

window.addEventListener("hashchange", () => { route(); });
route();
