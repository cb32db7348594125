"""A minimal asyncio WebSocket client (RFC 6455 text frames: the upgrade, masked frames out,
text frames in, pings answered) — enough for a bench run to hold a thousand game pages open in
one process without another dependency.

Each socket reads all the time (a task of its own), as a browser does: daphne pings every
20 s and drops a page that has not answered within 30 s, and connecting a thousand sockets on
a busy machine takes longer than that.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
import struct


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One final frame from a client: masked with a fresh key, as RFC 6455 5.3 requires."""
    mask = secrets.token_bytes(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 65536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


class WebSocketClosed(Exception):
    pass


class WebSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.messages: asyncio.Queue[str | BaseException] = asyncio.Queue()
        self._reading = asyncio.ensure_future(self._read_all())

    @classmethod
    async def connect(cls, port: int, path: str, *, cookie: str) -> WebSocket:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Origin: http://127.0.0.1:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Cookie: {cookie}\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            writer.close()
            raise WebSocketClosed(f"upgrade refused: {head[:60]!r}")
        return cls(reader, writer)

    async def receive_text(self) -> str:
        """The next text message (raises what ended the connection, if it ended)."""
        message = await self.messages.get()
        if isinstance(message, BaseException):
            self.messages.put_nowait(message)  # and to every later call
            raise message
        return message

    async def _read_all(self) -> None:
        try:
            while True:
                self.messages.put_nowait(await self._read_message())
        except asyncio.CancelledError:
            raise
        except BaseException as error:
            self.messages.put_nowait(error)

    async def _read_message(self) -> str:
        parts: list[bytes] = []
        while True:
            first, second = await self.reader.readexactly(2)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
            # Servers never mask their frames (RFC 6455 5.1).
            payload = await self.reader.readexactly(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise WebSocketClosed(f"closed by the server: {payload[:2].hex()}")
            if opcode == 0x9:
                self._send(0xA, payload)
                continue
            if opcode in (0x0, 0x1):
                parts.append(payload)
                if first & 0x80:
                    return b"".join(parts).decode()

    def _send(self, opcode: int, payload: bytes) -> None:
        self.writer.write(client_frame(opcode, payload))

    async def close(self) -> None:
        self._reading.cancel()
        # A server that already dropped the connection has nothing more to say.
        with contextlib.suppress(OSError, RuntimeError):
            self._send(0x8, struct.pack("!H", 1000))
            await self.writer.drain()
        # Not waiting for the server's answer: a thousand sockets close at once here, and the
        # servers stop right after.
        self.writer.close()
