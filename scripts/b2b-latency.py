"""Back-to-back move latency of a running server (or two nodes of a cluster).

Two guests are matched at random, one connected to A and one to B (the same address for a single
server), and play whole games with no think time: each move is sent the moment its player sees
its turn, and the latency is the time from a move's send to the opponent's state that contains
it. Prints the median, p99 and max over all moves.

    pip install websockets
    python3 scripts/b2b-latency.py 127.0.0.1:8080 127.0.0.1:8080 5    # A B GAMES
"""
import asyncio, json, sys, time, statistics
import websockets

async def recv_until(ws, pred):
    while True:
        m = json.loads(await ws.recv())
        if pred(m):
            return m

async def main(a, b, games):
    lat = []
    for g in range(games):
        x = await websockets.connect(f"ws://{a}/ws")
        y = await websockets.connect(f"ws://{b}/ws")
        await x.send(json.dumps({"type": "queue"}))
        await recv_until(x, lambda m: m["type"] == "queued")
        await y.send(json.dumps({"type": "queue"}))
        mx = await recv_until(x, lambda m: m["type"] == "matched")
        my = await recv_until(y, lambda m: m["type"] == "matched")
        col = {mx["color"]: x, my["color"]: y}
        room = mx["room"]
        sx = await recv_until(x, lambda m: m["type"] == "state")
        await recv_until(y, lambda m: m["type"] == "state")
        s = sx
        n = len(s["history"])
        while s["to_move"] and s["status"] == "playing":
            mover = col[s["to_move"]]
            other = y if mover is x else x
            sq = s["legal"][0]["square"]
            t0 = time.perf_counter()
            await mover.send(json.dumps({"type": "move", "game": room, "square": sq, "version": s["version"]}))
            so = await recv_until(other, lambda m: m["type"] == "state" and len(m["history"]) > n)
            lat.append((time.perf_counter() - t0) * 1000)
            await recv_until(mover, lambda m: m["type"] == "state" and len(m["history"]) > n)
            s = so
            n = len(s["history"])
        await x.close(); await y.close()
    lat.sort()
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]
    print(f"{len(lat)} moves: median {statistics.median(lat):.2f} ms, p99 {p(0.99):.2f} ms, max {lat[-1]:.2f} ms")

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
