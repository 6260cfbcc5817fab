"""A Jupyter server extension: the kernel's messages reach the browser without waiting, and
compressed.

The board panels send a few small messages per mouse move (the kernel's status, the ruling's
text, a frame). Jupyter's server writes them to the browser's WebSocket with the operating
system's default for TCP, Nagle's algorithm: a small message waits until the browser has
acknowledged the one before it, and a browser acknowledges late on purpose (up to about 40
ms on a local link, a round trip on a remote one). A drag then waits 20-40 ms a move on
top of the drawing. This extension turns that wait off (``TCP_NODELAY``) on the kernel
WebSockets. It also has those WebSockets compress their messages (permessage-deflate, which
every browser offers), unless the server is configured otherwise
(``ServerApp.websocket_compression_options``): every message toward the kernel is answered
by the kernel's busy and idle status, about 1.1 KB of JSON that is nearly the same each
time, and a frame's own header is as much again; compressed, they are a fraction of it on
a slow link (a frame's pixels are compressed already). The messages and their order are the
server's own.

Installing the package enables it (``etc/jupyter/jupyter_server_config.d/
fwwrules_widgets.json``); ``jupyter server extension disable fwwrules_widgets.server``
turns it off. The module is imported only by a Jupyter server, never by
``import fwwrules_widgets``.
"""

from __future__ import annotations

from typing import Any

COMPRESSION: dict[str, Any] = {}
"""Tornado's options for the kernel WebSockets' compression (permessage-deflate, which every
browser offers; an empty dict: tornado's defaults)."""


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """Where the server finds the extension (this module)."""
    return [{"module": "fwwrules_widgets.server"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Give the server's kernel WebSocket connections ``TCP_NODELAY`` (whatever connection
    class it is configured with; nothing happens when it has none or has it already)."""
    settings = serverapp.web_app.settings
    if settings.get("websocket_compression_options") is None:  # unless configured otherwise
        settings["websocket_compression_options"] = COMPRESSION
        serverapp.log.info("fwwrules_widgets: kernel WebSockets compress their messages")
    base = settings.get("kernel_websocket_connection_class")
    if base is None or getattr(base, "fwwrules_nodelay", False):
        return
    settings["kernel_websocket_connection_class"] = nodelay_connection(base)
    serverapp.log.info("fwwrules_widgets: kernel WebSockets send without delay (TCP_NODELAY)")


def nodelay_connection(base: type[Any]) -> type[Any]:
    """A subclass of the kernel WebSocket connection class ``base`` whose WebSocket sends
    each message at once: ``connect`` (called once the WebSocket is open) sets
    ``TCP_NODELAY`` on it, then connects as ``base`` does."""

    class NoDelayConnection(base):  # type: ignore[misc]
        fwwrules_nodelay = True

        def connect(self) -> Any:
            handler = getattr(self, "websocket_handler", None)
            if handler is not None and getattr(handler, "ws_connection", None) is not None:
                handler.set_nodelay(True)
            return super().connect()

    NoDelayConnection.__name__ = NoDelayConnection.__qualname__ = f"NoDelay{base.__name__}"
    return NoDelayConnection
