import ChildProcess
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy in front of a server that can add a fixed delay to every round trip: each chunk it
/// reads from either side is written to the other `delay / 2` after it arrived, in order. For
/// adding latency where the kernel has no `netem` (a userspace stand-in for `tc … netem delay`).
///
/// A Python child process (`python3`, standard library only); ``addDelay()`` and ``removeDelay()``
/// switch the delay with SIGUSR1 and SIGUSR2 for connections old and new.
public final class DelayProxy: Sendable {
    /// The address and port it listens on.
    public let host: String, port: Int
    private let process: SpawnedProcess
    private let stderrPath: String

    private static let script = #"""
    import asyncio, signal, sys
    listen_host, upstream_host, upstream_port, delay_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    state = {"delay": 0.0}

    async def pump(reader, writer):
        loop = asyncio.get_running_loop()
        queue = asyncio.Queue()
        async def sender():
            while True:
                due, data = await queue.get()
                if data is None:
                    break
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()
            writer.close()
        task = asyncio.create_task(sender())
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                queue.put_nowait((loop.time() + state["delay"] / 2, data))
        except Exception:
            pass
        queue.put_nowait((0, None))
        try:
            await task
        except Exception:
            pass

    async def serve(client_reader, client_writer):
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(upstream_host, upstream_port)
        except Exception:
            client_writer.close()
            return
        await asyncio.gather(pump(client_reader, upstream_writer), pump(upstream_reader, client_writer))

    async def main():
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, lambda: state.update(delay=delay_ms / 1000))
        loop.add_signal_handler(signal.SIGUSR2, lambda: state.update(delay=0.0))
        server = await asyncio.start_server(serve, listen_host, 0)
        print(server.sockets[0].getsockname()[1], flush=True)
        await server.serve_forever()

    asyncio.run(main())
    """#

    private init(host: String, port: Int, process: SpawnedProcess, stderrPath: String) {
        self.host = host
        self.port = port
        self.process = process
        self.stderrPath = stderrPath
    }

    /// Starts a proxy listening on `host` (a free port) in front of `upstreamHost:upstreamPort`,
    /// adding `milliseconds` per round trip once ``addDelay()`` is called.
    public static func start(listeningOn host: String, upstreamHost: String, upstreamPort: Int, milliseconds: Int) async throws -> DelayProxy {
        let started = try await ListeningScript.start(
            ["-c", script, host, upstreamHost, String(upstreamPort), String(milliseconds)],
            tag: "delay-proxy", what: "the delay proxy did not start listening on \(host)"
        ) { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return DelayProxy(host: host, port: started.port, process: started.process, stderrPath: started.errPath)
    }

    /// Every chunk from now on waits half the delay in each direction.
    public func addDelay() { process.send(signal: SIGUSR1) }

    /// No more delay.
    public func removeDelay() { process.send(signal: SIGUSR2) }

    /// Stops the proxy (its connections close) and removes its files.
    public func stop() async {
        _ = await process.stop(patience: .seconds(5))
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: stderrPath).deletingLastPathComponent().path)
    }
}
