"""``python -m alphasearch serve``: the API on uvicorn, on the loopback interface unless the server has a token."""
from __future__ import annotations

import ipaddress

from ..config import Settings
from ..errors import ConfigError


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings, host: str) -> None:
    """ConfigError when the server would listen beyond loopback without a token."""
    if not settings.api_token and not is_loopback(host):
        raise ConfigError(f"Refusing to listen on {host} without a token: set ALPHASEARCH_API_TOKEN (clients then "
                          "send 'Authorization: Bearer <token>'), or serve on 127.0.0.1.")


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000) -> None:
    check_bind(settings, host)
    import uvicorn

    from ..pipeline import Engine
    from .app import create_app

    uvicorn.run(create_app(Engine(settings)), host=host, port=port, log_level="info", timeout_graceful_shutdown=5)
