"""The ``bridgehub`` subcommands, each imported when it is run or listed, not before: a
``bridgehub run`` restarted after a crash does not first load the console, the demo, the
report writer and the plugins (issue 12: restart to the first ACK in under 2 s)."""

from __future__ import annotations

import importlib
from importlib.metadata import EntryPoint, entry_points

import click

# name → "module:attribute" of the hub's own subcommands (``bridgehub --help`` lists them,
# with every plugin's, from the commands themselves)
BUILT_IN: dict[str, str] = {
    "console": "hub.cli.console:console",
    "deal": "hub.cli.deal:deal",
    "demo": "hub.cli.demo:demo",
    "event": "hub.cli.event:event",
    "hand-records": "hub.cli.hand_records:hand_records",
    "ko": "hub.cli.ko:ko",
    "movement": "hub.cli.movement:movement",
    "rulings": "hub.cli.rulings:rulings",
    "run": "hub.cli.run:run",
    "screen": "hub.cli.screen:screen",
    "teams": "hub.cli.teams:teams",
    "web": "hub.cli.web:web",
}
# subcommands other packages provide: the simulator adds ``simulate`` without the hub
# importing it (architecture: layers)
PLUGINS = "bridgehub.commands"


def _plugins() -> list[EntryPoint]:
    return list(entry_points(group=PLUGINS))


class _Commands(dict[str, click.Command]):
    """A group's commands; one not loaded yet is loaded when looked up by name, so that
    ``cli.commands["demo"]`` works as with a group that imports everything."""

    def __init__(self, group: LazyGroup) -> None:
        super().__init__()
        self.group = group

    def __missing__(self, name: str) -> click.Command:
        command = self.group.load(name)
        if command is None:
            raise KeyError(name)
        return command


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module when that subcommand is used
    (click's "lazy loading subcommands" pattern). Used on the main thread, before any
    loop runs."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        loaded = _Commands(self)
        loaded.update(self.commands)  # any given to the constructor
        self.commands = loaded

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *BUILT_IN, *(ep.name for ep in _plugins())})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        return self.load(cmd_name)

    def load(self, name: str) -> click.Command | None:
        """The subcommand ``name``, imported now; None if there is none. A plugin that
        fails to load is named on stderr and left out: it must not take the hub's command
        line down."""
        if name in BUILT_IN:
            module, _, attribute = BUILT_IN[name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
        else:
            found = next((ep for ep in _plugins() if ep.name == name), None)
            if found is None:
                return None
            try:
                command = found.load()
            except Exception as e:  # a broken plugin: say which, keep the rest working
                click.echo(f"bridgehub: command {name!r} unavailable: {e}", err=True)
                return None
        self.add_command(command, name)
        return command
