"""fwwrules_widgets.server: the Jupyter server extension that sends kernel WebSocket messages
without Nagle's delay (TCP_NODELAY) and compressed, enabled by the file the package installs.

The figures it changes (a drag step's latency in the browser) are bench/browser_latency.py's;
here: what it does to the server's connection class, that it is enabled where the package is
installed, and that loading it costs the server no heavy import.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import tomllib
from fwwrules_widgets.server import (
    _jupyter_server_extension_points,
    _load_jupyter_server_extension,
    nodelay_connection,
)
from test_layering import loaded_after

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "jupyter-config" / "jupyter_server_config.d" / "fwwrules_widgets.json"


class Handler:
    """A WebSocket handler as the connection sees it, once the socket is open."""

    def __init__(self, open_: bool = True) -> None:
        self.ws_connection = object() if open_ else None
        self.nodelay: list[bool] = []

    def set_nodelay(self, value: bool) -> None:
        self.nodelay.append(value)


class Connection:
    """The server's own connection class, reduced to what the extension touches."""

    def __init__(self, handler: Handler) -> None:
        self.websocket_handler = handler
        self.connected = False

    def connect(self) -> str:
        self.connected = True
        return "connected"


def server(cls: Any) -> Any:
    logged: list[str] = []
    return SimpleNamespace(
        web_app=SimpleNamespace(settings={"kernel_websocket_connection_class": cls}),
        log=SimpleNamespace(info=logged.append),
        logged=logged,
    )


def test_the_connection_sends_without_delay_then_connects_as_before() -> None:
    cls = nodelay_connection(Connection)
    handler = Handler()
    conn = cls(handler)
    assert conn.connect() == "connected" and conn.connected  # the server's own connect
    assert handler.nodelay == [True]
    assert issubclass(cls, Connection) and cls.__name__ == "NoDelayConnection"


def test_a_websocket_not_open_is_left_alone() -> None:
    handler = Handler(open_=False)
    assert nodelay_connection(Connection)(handler).connect() == "connected"
    assert handler.nodelay == []


def test_loading_wraps_the_configured_class_once() -> None:
    app = server(Connection)
    _load_jupyter_server_extension(app)
    wrapped = app.web_app.settings["kernel_websocket_connection_class"]
    assert issubclass(wrapped, Connection) and wrapped is not Connection
    _load_jupyter_server_extension(app)  # loaded twice: not wrapped twice
    assert app.web_app.settings["kernel_websocket_connection_class"] is wrapped
    assert len(app.logged) == 2 and "TCP_NODELAY" in app.logged[1]
    none = server(None)
    _load_jupyter_server_extension(none)  # no class configured: nothing to do
    assert none.web_app.settings["kernel_websocket_connection_class"] is None


def test_loading_has_the_kernel_websockets_compress_unless_configured_otherwise() -> None:
    app = server(Connection)
    _load_jupyter_server_extension(app)
    assert app.web_app.settings["websocket_compression_options"] == {}  # tornado's defaults
    assert "compress" in app.logged[0]
    own = server(Connection)
    own.web_app.settings["websocket_compression_options"] = {"compression_level": 1}
    _load_jupyter_server_extension(own)  # the server's own choice stays
    assert own.web_app.settings["websocket_compression_options"] == {"compression_level": 1}


def test_the_package_enables_it_where_it_is_installed() -> None:
    assert _jupyter_server_extension_points() == [{"module": "fwwrules_widgets.server"}]
    config = json.loads(CONFIG.read_text(encoding="utf-8"))
    assert config == {"ServerApp": {"jpserver_extensions": {"fwwrules_widgets.server": True}}}
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["data-files"]
    assert data["etc/jupyter/jupyter_server_config.d"] == [str(CONFIG.relative_to(REPO))]
    # an editable install (make env) gets it from binder/postBuild, as Binder does
    assert str(CONFIG.relative_to(REPO)) in (REPO / "binder" / "postBuild").read_text()


def test_the_server_loads_it_without_matplotlib_or_ipywidgets() -> None:
    assert loaded_after("import fwwrules_widgets.server") == set()
    assert loaded_after("import fwwrules_widgets") == set()
    assert "matplotlib" in loaded_after("from fwwrules_widgets import AttackPanel")
