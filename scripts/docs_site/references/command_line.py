"""The command line reference (``reference/cli.md``): every ``gamerec`` command, from Typer.

It imports typer, ``gamerec.cli.main`` and the package's ``common``.
"""

from collections.abc import Iterator
from typing import Any

import typer
from typer._click.core import Context
from typer.core import TyperArgument, TyperGroup

from gamerec.cli.main import app, load_command
from scripts.docs_site.references.common import (
    GENERATED_NOTE,
    one_line,
    plain_brackets,
    reference_page,
)


@reference_page("reference/cli.md")
def command_line_page() -> str:
    """Every ``gamerec`` command with its arguments and options, from the Typer app."""
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    root = Context(group, info_name="gamerec")
    lines = [
        "# Command line reference",
        "",
        GENERATED_NOTE.format(source="the Typer application (`gamerec.cli.main`)"),
        "Exit codes, for every command: **0** done (every record valid, nothing different), "
        "**1** something invalid or different, **2** the job could not be done (an input "
        "could not be read, a bad option); errors are one line on stderr, and no output file "
        "is left half-written. `gamerec COMMAND --help` prints the same text in the terminal.",
        "",
        "## `gamerec`",
        "",
        one_line(group.help or ""),
        "",
        "```text",
        "gamerec [OPTIONS] COMMAND [ARGS]...",
        "```",
        "",
        *parameter_items(group.get_params(root), root),
        "",
    ]
    for name in group.list_commands(root):
        command = load_command(name)
        lines += command_section(
            command, f"gamerec {name}", Context(command, info_name=name, parent=root)
        )
        if isinstance(command, TyperGroup):  # gamerec match new|show|...: each its own section
            for sub in command.list_commands(root):
                inner = command.commands[sub]
                context = Context(inner, info_name=sub, parent=root)
                lines += command_section(inner, f"gamerec {name} {sub}", context)
    return "\n".join(lines)


def command_section(command: Any, title: str, context: Any) -> list[str]:
    """One command's section: its help, its usage line, its arguments and options."""
    params = command.get_params(context)
    usage = "COMMAND [ARGS]..." if isinstance(command, TyperGroup) else usage_of(params)
    return [
        f"## `{title}`",
        "",
        plain_brackets((command.help or "").strip()),
        "",
        "```text",
        f"{title} {usage}",
        "```",
        "",
        *parameter_items(params, context),
        "",
    ]


def usage_of(params: list[Any]) -> str:
    """``[OPTIONS] PATH...``: the usage line of a command's parameters."""
    words = ["[OPTIONS]"]
    for param in params:
        if isinstance(param, TyperArgument):
            word = argument_word(param)
            words.append(word if param.required else f"[{word}]")
    return " ".join(words)


def argument_word(param: Any) -> str:
    """An argument as the usage line names it: ``PATH...``, ``new|show``."""
    choices = getattr(param.type, "choices", None)
    if choices:
        word = "|".join(str(getattr(choice, "value", choice)) for choice in choices)
    else:
        word = param.metavar or (param.name or "").upper()
    return f"{word}..." if param.nargs == -1 else word


def parameter_items(params: list[Any], context: Any) -> Iterator[str]:
    """One list item per argument and option (``--help`` left out: every command has it)."""
    for param in params:
        if getattr(param, "hidden", False) or "--help" in param.opts:
            continue
        if isinstance(param, TyperArgument):
            names = f"`{argument_word(param)}`"
        else:
            names = ", ".join(f"`{opt}`" for opt in [*param.opts, *param.secondary_opts])
            if not param.is_flag:
                names += f" `{param.make_metavar(context)}`"
        help_text = plain_brackets(one_line(getattr(param, "help", None) or ""))
        yield f"- {names}: {help_text}{default_note(param)}"


def default_note(param: Any) -> str:
    """`` (default: 0)`` when the option shows a default worth saying, else nothing."""
    default = param.default
    if getattr(param, "is_flag", False) or default is None or default is False:
        return ""
    if default in ("", (), []):
        return ""
    if not getattr(param, "show_default", True):
        return ""
    shown = getattr(default, "value", default)
    return f" (default: `{shown}`)"
