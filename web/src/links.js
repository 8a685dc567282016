// The page's links: everything after `#`, as `key=value&...` (the fragment never reaches the
// server, so a seat's token in it stays out of request lines and logs).

/** The fields of the location's fragment. */
export function fragment() {
  /** @type {Record<string, string>} */
  const fields = {};
  for (const pair of location.hash.replace(/^#/, "").split("&")) {
    const at = pair.indexOf("=");
    if (at > 0) {
      fields[decodeURIComponent(pair.slice(0, at))] = decodeURIComponent(pair.slice(at + 1));
    }
  }
  return fields;
}

/**
 * A fragment link.
 * @param {Record<string, string | number>} fields
 */
export function link(fields) {
  return "#" + Object.entries(fields)
    .map(([key, value]) => encodeURIComponent(key) + "=" + encodeURIComponent(String(value)))
    .join("&");
}

/**
 * Keep a seat's token for this tab (sessionStorage) and take it out of the address bar, so
 * that it is not left in the history or shown over a shoulder; a reload finds it again.
 * @param {string} matchId
 * @param {string} token from the link; "" to look for the kept one
 * @param {number} seat
 */
export function keepToken(matchId, token, seat) {
  const key = "gamerec-seat:" + matchId;
  if (token) {
    sessionStorage.setItem(key, JSON.stringify({ token, seat }));
    history.replaceState(null, "", link({ play: matchId }));
    return { token, seat };
  }
  const kept = sessionStorage.getItem(key);
  return kept ? JSON.parse(kept) : { token: "", seat: 0 };
}
