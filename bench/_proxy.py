"""A delaying, rate-limiting TCP proxy on 127.0.0.1, for measuring a remote reader.

Chromium's own network emulation delays HTTP but not the kernel's WebSocket, so the browser
benchmarks put this between Chromium and the Lab server instead: every byte, HTTP and
WebSocket alike, waits half the round trip in each direction, and each direction is a link
of the given rate (bytes queue behind each other, as on a slow line). It counts the bytes
sent toward the browser.

``with LinkProxy(target_port, rtt_ms=150, down_mbit=2, up_mbit=1) as proxy:`` serves on
``proxy.port``; ``proxy.down_bytes`` is the count so far. It runs its own asyncio loop on a
thread and stops (closing every connection) when the ``with`` block ends. Only loopback
addresses are used.
"""

from __future__ import annotations

import asyncio
import threading
import time
from types import TracebackType

CHUNK = 16 * 1024


class _Link:
    """One direction: a line of ``mbit`` Mbit/s (None: unlimited) and a one-way delay."""

    def __init__(self, delay_s: float, mbit: float | None) -> None:
        self.delay_s = delay_s
        self.bytes_per_s = None if mbit is None else mbit * 1e6 / 8
        self.free_at = 0.0

    def due(self, size: int) -> float:
        """When ``size`` bytes handed over now arrive at the far end."""
        now = time.monotonic()
        start = max(now, self.free_at)
        self.free_at = start + (0.0 if self.bytes_per_s is None else size / self.bytes_per_s)
        return self.free_at + self.delay_s


class LinkProxy:
    """See the module's text."""

    def __init__(
        self,
        target_port: int,
        *,
        rtt_ms: float = 0.0,
        down_mbit: float | None = None,
        up_mbit: float | None = None,
    ) -> None:
        self.target_port = target_port
        self.rtt_ms = rtt_ms
        self.down_mbit = down_mbit
        self.up_mbit = up_mbit
        self.port = 0
        self.down_bytes = 0
        self.kernel_bytes = 0
        """Of ``down_bytes``, those of kernel WebSockets (``/api/kernels/.../channels``)."""
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def __enter__(self) -> LinkProxy:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the proxy did not start")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0)
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            self._server.close()
            for task in list(self._tasks):
                task.cancel()
            self._loop.run_until_complete(asyncio.sleep(0))
            self._loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        half = self.rtt_ms / 2000.0
        kind = {"kernel": False}
        for src, dst, link, down in (
            (reader, up_writer, _Link(half, self.up_mbit), False),
            (up_reader, writer, _Link(half, self.down_mbit), True),
        ):
            task = asyncio.ensure_future(self._pump(src, dst, link, down, kind))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self,
        src: asyncio.StreamReader,
        dst: asyncio.StreamWriter,
        link: _Link,
        down: bool,
        kind: dict[str, bool],
    ) -> None:
        """Copy ``src`` to ``dst``, each chunk arriving when the link says (in order)."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                dst.write(data)
                if down:
                    self.down_bytes += len(data)
                    if kind["kernel"]:
                        self.kernel_bytes += len(data)
                await dst.drain()
            dst.close()

        sender = asyncio.ensure_future(deliver())
        first = not down
        try:
            while True:
                data = await src.read(CHUNK)
                if first:  # the request line says what this connection is
                    line = data.split(b"\r\n", 1)[0]
                    kind["kernel"] = b"/api/kernels/" in line and b"/channels" in line
                    first = False
                await queue.put((link.due(len(data)), data))
                if not data:
                    break
            await sender
        except (ConnectionError, asyncio.CancelledError):
            sender.cancel()
            dst.close()
