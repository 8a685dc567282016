"""The rating list as text, JSON data and one offline HTML page (no script, no link out)."""

from __future__ import annotations

import html
from typing import Any

from gamerec.recorder.errors import GamerecError
from gamerec.validator.ratings.archive import Archive
from gamerec.validator.ratings.pools import GLICKO2, Pool, Rated
from gamerec.validator.render.tables import page, table_html

#: The columns of each system: heading, then how a player's value is written.
_GLICKO_HEAD = ("#", "Player", "Rating", "RD", "Vol", "Games", "Won", "Drawn")
_WENG_LIN_HEAD = ("#", "Player", "Ordinal", "Mu", "Sigma", "Games", "1st", "1st=")


def _row(place: int, rated: Rated) -> tuple[str, ...]:
    if rated.glicko is not None:
        g = rated.glicko
        numbers = (f"{g.rating:.1f}", f"{g.deviation:.1f}", f"{g.volatility:.5f}")
    else:
        assert rated.weng_lin is not None
        w = rated.weng_lin
        numbers = (f"{w.ordinal:.2f}", f"{w.mu:.2f}", f"{w.sigma:.2f}")
    counts = (str(rated.games), str(rated.firsts), str(rated.shared))
    return (str(place), rated.player, *numbers, *counts)


def _rows(pool: Pool) -> list[tuple[str, ...]]:
    head = _GLICKO_HEAD if pool.system == GLICKO2 else _WENG_LIN_HEAD
    return [head] + [_row(place, rated) for place, rated in enumerate(pool.ranking(), 1)]


def _title(pool: Pool) -> str:
    system = "Glicko-2" if pool.system == GLICKO2 else "Weng-Lin (Plackett-Luce)"
    return (
        f"{pool.game}, {pool.seats} seats: {system}, {len(pool.players)} players, "
        f"{pool.games} games"
    )


def summary(archive: Archive) -> str:
    """One line: games rated, copies rated once, records not rated, unreadable."""
    return (
        f"{len(archive.games)} games rated, {archive.copies} copies rated once, "
        f"{len(archive.not_rated)} records not rated, {len(archive.unreadable)} unreadable"
    )


def ratings_text(pools: list[Pool], archive: Archive) -> str:
    """Each pool's list as an aligned table, then what was not rated."""
    out = [summary(archive)]
    for pool in pools:
        rows = _rows(pool)
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        out += ["", _title(pool)]
        for row in rows:
            cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1])]
            cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
            out.append("  ".join(cells).rstrip())
    if archive.not_rated:
        out += ["", "not rated:", *(f"  {line}" for line in archive.not_rated)]
    return "\n".join(out)


def _player_json(place: int, rated: Rated) -> dict[str, Any]:
    data: dict[str, Any] = {"place": place, "player": rated.player, "rating": rated.rating}
    if rated.glicko is not None:
        data["deviation"] = rated.glicko.deviation
        data["volatility"] = rated.glicko.volatility
    elif rated.weng_lin is not None:
        data["mu"] = rated.weng_lin.mu
        data["sigma"] = rated.weng_lin.sigma
    data.update(games=rated.games, firsts=rated.firsts, shared_firsts=rated.shared)
    return data


def ratings_json(pools: list[Pool], archive: Archive) -> dict[str, Any]:
    """The lists as data: ``rating`` is Glicko-2's ``r`` or Weng-Lin's ordinal."""
    return {
        "games": len(archive.games),
        "copies": archive.copies,
        "not_rated": archive.not_rated,
        "unreadable": len(archive.unreadable),
        "pools": [
            {
                "game": pool.game,
                "seats": pool.seats,
                "system": pool.system,
                "games": pool.games,
                "players": [_player_json(n, r) for n, r in enumerate(pool.ranking(), 1)],
            }
            for pool in pools
        ],
    }


def ratings_html(pools: list[Pool], archive: Archive) -> str:
    """The lists as one offline HTML page."""
    body = f"<p>{html.escape(summary(archive))}</p>"
    for pool in pools:
        body += f"<h2>{html.escape(_title(pool))}</h2>{table_html(_rows(pool))}"
    return page("Ratings", body)


class RatingListError(GamerecError):
    """A rating list (``gamerec ratings --json``) that does not read as one."""


def pool_ratings(data: Any, game: str, seats: int, where: str) -> dict[str, float]:
    """The ratings of one pool (``game`` at ``seats``) of a rating list read from JSON.

    ``where`` names the file in errors. A list without that pool gives no rating.
    """
    try:
        for pool in data["pools"]:
            if pool["game"] == game and pool["seats"] == seats:
                return {str(p["player"]): float(p["rating"]) for p in pool["players"]}
    except (KeyError, TypeError, ValueError) as error:
        raise RatingListError(
            f"{where}: not a rating list of gamerec ratings --json ({type(error).__name__}: "
            f"{str(error)[:200]})"
        ) from None
    return {}
