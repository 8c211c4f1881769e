"""A tiny asyncio HTTP/1.1 client with keep-alive connections, for the load generator.

Why not a library: the load generator needs only POSTs with form bodies and a handful of headers, the
project ships no async HTTP client, and a few dozen lines of stdlib keep the client's own overhead low and
visible (it runs on the load generator's core, not the server's).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


@dataclass
class _Connection:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    def close(self) -> None:
        self.writer.close()


@dataclass
class Pool:
    """Up to `size` keep-alive connections to one host:port, shared by many simulated members (each request
    carries its member's cookies), as a browser shares a handful of connections per site."""

    host: str
    port: int
    size: int = 32
    timeout: float = 30.0
    _idle: list[_Connection] = field(default_factory=list)
    _open: int = 0
    _waiters: asyncio.Condition | None = None

    async def _acquire(self) -> _Connection:
        if self._waiters is None:
            self._waiters = asyncio.Condition()
        async with self._waiters:
            while not self._idle and self._open >= self.size:
                await self._waiters.wait()
            if self._idle:
                return self._idle.pop()
            self._open += 1
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        except BaseException:
            await self._release(None)
            raise
        return _Connection(reader, writer)

    async def _release(self, connection: _Connection | None) -> None:
        assert self._waiters is not None
        async with self._waiters:
            if connection is None:
                self._open -= 1
            else:
                self._idle.append(connection)
            self._waiters.notify()

    async def request(self, method: str, path: str, *, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> Response:
        connection = await self._acquire()
        try:
            response, keep = await asyncio.wait_for(self._exchange(connection, method, path, headers or {}, body),
                                                    self.timeout)
        except BaseException:
            connection.close()
            await self._release(None)
            raise
        if keep:
            await self._release(connection)
        else:
            connection.close()
            await self._release(None)
        return response

    async def _exchange(self, connection: _Connection, method: str, path: str, headers: dict[str, str],
                        body: bytes) -> tuple[Response, bool]:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        connection.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        await connection.writer.drain()
        reader = connection.reader
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        received: dict[str, str] = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            received[name.strip().lower()] = value.strip()
        if "content-length" in received:
            data = await reader.readexactly(int(received["content-length"]))
        elif received.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int((await reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await reader.readline()
                    break
                chunks.append(await reader.readexactly(size))
                await reader.readline()
            data = b"".join(chunks)
        else:
            data = await reader.read()
            return Response(status, received, data), False
        keep = received.get("connection", "").lower() != "close"
        return Response(status, received, data), keep

    async def close(self) -> None:
        for connection in self._idle:
            connection.close()
        self._idle.clear()
