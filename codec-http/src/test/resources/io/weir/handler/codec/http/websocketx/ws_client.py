# Interop peer for PythonWebSocketsInteropTest: a `websockets` client against Weir's echo server.
# usage: ws_client.py URL deflate|none ; prints the agreed extensions, then OK.
import asyncio
import os
import sys

from websockets.asyncio.client import connect


async def main(url, compress):
    async with connect(url, compression="deflate" if compress else None, max_size=2 ** 21,
                       open_timeout=10, close_timeout=10) as ws:
        print("extensions:", ws.response.headers.get("Sec-WebSocket-Extensions"), flush=True)
        messages = ["hello", "κόσμε ✓ " * 10, "x" * 70000, b"\x00\x01\x02" * 1000, os.urandom(200000), ""]
        for m in messages:
            await ws.send(m)
            echoed = await asyncio.wait_for(ws.recv(), 10)
            assert echoed == m, ("echo mismatch", type(m), len(m), len(echoed))
        await ws.send(["frag1-", "frag2-", "frag3"])
        assert await asyncio.wait_for(ws.recv(), 10) == "frag1-frag2-frag3"
        pong = await ws.ping(b"are you there")
        await asyncio.wait_for(pong, 10)
    print("close code:", ws.close_code, flush=True)
    assert ws.close_code == 1000, ws.close_code
    print("OK", flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2] == "deflate"))
