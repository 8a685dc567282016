"""The players' tickets of a round started on a server: printed, or one file each (mode 0600).

A ticket names the round, the table, the seat and the opponents, and says how to play:
the web client's link when the server has one (the seat's token in the link's fragment),
else the ``gamerec play`` command. With a tokens folder each player's ticket is a file of its
own, ``round-R-NN-NAME.txt`` (NN: the pairing number; characters other than letters, digits,
``-`` and ``_`` in the name become ``_``), made new (never over a file) and readable by its
owner only; the lines printed then name the files instead of the tokens.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from gamerec.recorder.errors import GamerecError
from gamerec.validator.events.model import Event
from gamerec.validator.events.on_server import Ticket

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class TicketWriter:
    """Says or writes the tickets of one start.

    Args:
        server: the server's ``HOST:PORT`` (for the ``gamerec play`` command).
        web_url: the server's web client, or None.
        folder: where to write one file per player, or None to print the tickets.
    """

    def __init__(self, server: str, web_url: str | None, folder: str | None) -> None:
        """Keep where the tickets go."""
        self.server = server
        self.web_url = web_url
        self.folder = Path(folder) if folder is not None else None
        self.written: list[Path] = []

    def check_folder(self) -> None:
        """Before anything is created: the folder exists (or is made) and is a folder.

        Raises:
            GamerecError: it cannot be made, or is not a folder.
        """
        if self.folder is None:
            return
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise GamerecError(
                f"--tokens-dir: {self.folder}: cannot make the folder: {error.strerror}"
            ) from None
        if not self.folder.is_dir():
            raise GamerecError(f"--tokens-dir: {self.folder} is not a folder")

    def check_free(self, event: Event, number: int) -> None:
        """Before anything is created: no ticket file of round ``number`` is there already.

        Raises:
            GamerecError: naming the first file there.
        """
        if self.folder is None:
            return
        numbers = {player.name: player.number for player in event.players}
        for table in event.round(number).tables:
            for seat, name in enumerate(table.seats, 1):
                ticket = Ticket(number, table.number, seat, name, numbers[name], "", "")
                path = self.folder / self.file_name(ticket)
                if os.path.lexists(path):
                    raise GamerecError(
                        f"--tokens-dir: {path} is there already; not written over (no match "
                        "was created)"
                    )

    def how(self, ticket: Ticket) -> str:
        """How the ticket's player plays: the link or the command."""
        if self.web_url:
            return ticket.link(self.web_url)
        return ticket.command(self.server)

    def file_name(self, ticket: Ticket) -> str:
        """``round-R-NN-NAME.txt``."""
        return f"round-{ticket.round}-{ticket.number:02d}-{_UNSAFE.sub('_', ticket.player)}.txt"

    def write(self, event: Event, tickets: Sequence[Ticket]) -> list[str]:
        """The lines to print; with a folder, each ticket written to its file first.

        Raises:
            GamerecError: a file cannot be made (one is there already, the disk is full);
                the files this call wrote are removed.
        """
        if not tickets:
            return []
        number = tickets[0].round
        made = event.round(number)
        matches = len({ticket.match_id for ticket in tickets})
        first = made.tables[0].match
        when = f", clocks start at {first.start_at}" if first and first.start_at else ""
        lines = [
            f"{event.settings.name}: round {number} started on {self.server}: "
            f"{matches} matches{when}"
        ]
        numbers = {player.name: player.number for player in event.players}
        for table in made.tables:
            seats = " - ".join(f"{name} ({numbers[name]})" for name in table.seats)
            match_id = table.match.match_id if table.match else "?"
            lines.append(f"{table.number:>4}  {seats}  match {match_id}")
        try:
            for ticket in tickets:
                lines.append(f"{ticket.player} ({ticket.number}): {self._say(event, ticket)}")
        except BaseException:
            self.remove()
            raise
        return lines

    def _say(self, event: Event, ticket: Ticket) -> str:
        """The ticket printed, or the file it was written to."""
        if self.folder is None:
            return self.how(ticket)
        path = self.folder / self.file_name(ticket)
        table = event.round(ticket.round).tables[ticket.table - 1]
        others = ", ".join(name for name in table.seats if name != ticket.player)
        text = (
            f"{event.settings.name}, round {ticket.round}, table {ticket.table}, seat "
            f"{ticket.seat}: {ticket.player} against {others}\n{self.how(ticket)}\n"
        )
        try:
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise GamerecError(f"--tokens-dir: {path} is there already; not written over") from None
        except OSError as error:
            raise GamerecError(f"--tokens-dir: {path}: {error.strerror}") from None
        self.written.append(path)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        return str(path)

    def remove(self) -> None:
        """Remove the files this writer wrote (the start is undone)."""
        for path in self.written:
            path.unlink(missing_ok=True)
        self.written.clear()
