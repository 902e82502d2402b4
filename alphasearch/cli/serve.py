"""CLI faces for other programs: ``serve`` (the HTTP API on uvicorn) and ``mcp`` (an MCP server on stdio)."""
from __future__ import annotations

import argparse
import sys

from .settings import settings_from_args


def cmd_serve(args: argparse.Namespace) -> int:
    from ..api.server import serve

    serve(settings_from_args(args), host=args.host, port=args.port)
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from ..api.mcp_server import run
    from .terminal import Printable

    if isinstance(sys.stdout, Printable):  # standard output carries the protocol's JSON (escaped), not text
        sys.stdout = sys.stdout.stream
    run(settings_from_args(args))
    return 0


def register(sub, add) -> None:
    sp = add("serve", "serve the HTTP API (OpenAPI page at /docs)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="interface to listen on (default 127.0.0.1; others need ALPHASEARCH_API_TOKEN)")
    sp.add_argument("--port", type=int, default=8000)
    sp.set_defaults(func=cmd_serve)
    sp = add("mcp", "serve the library to an AI assistant over MCP (stdio)")
    sp.set_defaults(func=cmd_mcp)
