# Interop peer for PythonWebSocketsInteropTest: a `websockets` echo server for Weir's client.
# usage: ws_server.py deflate|none ; prints its port, echoes every message, exits after 60 s at most.
import asyncio
import sys

from websockets.asyncio.server import serve


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def main(compress):
    async with serve(echo, "127.0.0.1", 0, compression="deflate" if compress else None,
                     max_size=2 ** 21) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        try:
            await asyncio.wait_for(asyncio.get_running_loop().create_future(), 60)
        except asyncio.TimeoutError:
            pass


asyncio.run(main(sys.argv[1] == "deflate"))
