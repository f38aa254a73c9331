"""``riftscript serve``: the command line of the web app (importable without the ``web`` extra)."""
from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import sys
from pathlib import Path
from typing import Any

from riftscript.core.script import validated_cache as cachemod
from riftscript.core.errors import RiftScriptError

NEEDS = ("starlette", "uvicorn", "jinja2", "multipart")
INSTALL = "pip install 'riftscript[web]'"


def missing() -> list[str]:
    """The web extra's packages that are not installed."""
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def default_data_dir() -> Path:
    """Games and replays live beside the validation cache unless ``--data-dir`` says otherwise."""
    return cachemod.default_dir() / "web"


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve(args: argparse.Namespace) -> int:
    absent = missing()
    if absent:
        raise RiftScriptError(f"'riftscript serve' needs the web extra ({', '.join(absent)} not installed): {INSTALL}")
    if not 0 < args.port < 65536:
        raise RiftScriptError(f"--port {args.port} is not a port (1-65535)")
    import uvicorn

    from riftscript.tools.web.app import create_app

    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    try:
        data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise RiftScriptError(f"--data-dir {data_dir}: {exc.strerror or exc}") from None
    hosts = ["127.0.0.1", "localhost", "::1"]
    if not loopback(args.host):
        print(f"warning: serving on {args.host}: anyone who can reach this address can play, upload replays "
              "and use the workshop", file=sys.stderr)
        hosts = ["*"]
    app = create_app(data_dir, allowed_hosts=hosts)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"RiftScript on http://{shown}:{args.port}/  (games saved in {data_dir}; Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def add_commands(sub: Any) -> None:
    """Register 'serve' on an argparse subparsers object."""
    serve = sub.add_parser("serve", help="play, replay and write cards in a browser (needs the web extra)",
                           description="Start the local web app: play any mode against agents, replay games, "
                                       f"and a card workshop. Needs the web extra: {INSTALL}")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument("--data-dir", metavar="DIR",
                       help=f"where games and replays are saved (default: {default_data_dir()})")
    serve.set_defaults(func=cmd_serve)
