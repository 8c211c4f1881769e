"""The bare baseline: the least a Python process must do to serve the same pattern, with no Django at all.

Built on the same WebSocket library the load generator uses (`websockets`, asyncio), one process, no
database, no templates. A socket at /ws/table/<code>/ joins that table's group and gets a board at once;
a text message "move <version>" (the stand-in for the site's POST) bumps the table's version, is answered
with "ack <new version>", and every socket of the table is sent a board of the same size as the site's
(`--board-bytes`), formatted per recipient as the site renders per member. Every figure of the Django site
is then also read as a ratio to this one.

    python -m bench.baseline_server --port 8200 --board-bytes 6000
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections import defaultdict

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed


class Club:
    def __init__(self, board_bytes: int) -> None:
        self.groups: dict[str, set[ServerConnection]] = defaultdict(set)
        self.versions: dict[str, int] = defaultdict(int)
        self.padding = "x" * max(0, board_bytes - 120)

    def board(self, code: str, name: str) -> str:
        version = self.versions[code]
        return (f'<section id="board" class="board" data-version="{version}" hx-swap-oob="true" '
                f'data-for="{name}">{self.padding}</section>')

    async def handle(self, ws: ServerConnection) -> None:
        path = ws.request.path if ws.request is not None else ""
        parts = [p for p in path.split("?")[0].split("/") if p]
        if len(parts) != 3 or parts[:2] != ["ws", "table"]:
            await ws.close(code=4404)
            return
        code = parts[2]
        name = str(id(ws))
        group = self.groups[code]
        group.add(ws)
        try:
            await ws.send(self.board(code, name))
            async for message in ws:
                if not isinstance(message, str) or not message.startswith("move "):
                    await ws.send("error: moves are 'move <version>'")
                    continue
                self.versions[code] += 1
                await ws.send(f"ack {self.versions[code]}")
                for other in list(group):
                    try:
                        await other.send(self.board(code, str(id(other))))
                    except ConnectionClosed:
                        group.discard(other)
        except ConnectionClosed:
            pass
        finally:
            group.discard(ws)


async def serve_forever(port: int, board_bytes: int) -> None:
    club = Club(board_bytes)
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set_result, None)
    async with serve(club.handle, "127.0.0.1", port, compression=None, max_size=1 << 20, ping_interval=None):
        print(f"baseline listening on 127.0.0.1:{port}", file=sys.stderr, flush=True)
        await stop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8200)
    parser.add_argument("--board-bytes", type=int, default=6000)
    args = parser.parse_args(argv)
    asyncio.run(serve_forever(args.port, args.board_bytes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
