"""Runs the installed Chronoscope plugin the way Hermes Agent 0.19 does: imports
$HERMES_HOME/plugins/chronoscope/__init__.py, calls register(ctx), then calls the
registered callbacks with keyword arguments only (plus a field Hermes may add
later; objects where Hermes passes objects), in the order Hermes calls them around
a tool call. Reads a JSON list of
steps on stdin, prints a JSON list of what each returned."""
import importlib.util
import json
import os
import sys
import time
from types import SimpleNamespace


class Ctx:
    def __init__(self):
        self.hooks = {}
        self.commands = {}
        # An older Hermes knows fewer hooks, and some refuse an unknown name (ValueError).
        known = os.environ.get("HARNESS_KNOWN_HOOKS")
        self.known = None if known is None else set(known.split(","))

    def register_hook(self, name, callback):
        if self.known is not None and name not in self.known:
            raise ValueError("Unknown hook: " + name)
        self.hooks.setdefault(name, []).append(callback)

    def register_command(self, name, handler, description=""):
        self.commands[name] = handler


def main():
    plugin_dir = sys.argv[1]
    spec = importlib.util.spec_from_file_location("hermes_plugins.chronoscope", plugin_dir + "/__init__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ctx = Ctx()
    module.register(ctx)
    out = []
    for step in json.load(sys.stdin):
        started = time.monotonic()
        if "command" in step:
            value = ctx.commands[step["command"]](step.get("args", ""))
        elif "write" in step:  # the tool itself runs between pre_tool_call and post_tool_call
            with open(step["write"], "w") as f:
                f.write(step["text"])
            value = None
        else:
            kwargs = dict(step["kwargs"])
            # Objects where Hermes passes objects (post_api_request's assistant_message: an SDK
            # message or SimpleNamespace with .content and .tool_calls, each with .id).
            for key in step.get("objects", []):
                kwargs[key] = json.loads(json.dumps(kwargs[key]), object_hook=lambda d: SimpleNamespace(**d))
            kwargs["some_future_field"] = 1  # Hermes adds fields: callbacks must accept them
            value = None
            for callback in ctx.hooks.get(step["hook"], []):
                try:
                    value = callback(**kwargs)
                except Exception as err:  # Hermes logs and ignores a raising hook; the test must see it
                    value = {"raised": repr(err)}
        out.append({"value": value, "seconds": round(time.monotonic() - started, 3)})
    print(json.dumps({"registered": sorted(ctx.hooks), "commands": sorted(ctx.commands), "steps": out}))


main()
