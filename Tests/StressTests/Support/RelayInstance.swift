import ChildProcess
import Foundation
import SvcdTestSupport
import Synchronization
import Testing
import WireContract
import WireJSON

#if canImport(Glibc)
import Glibc
#endif

/// A second instance of a cluster, for tests, in front of a running svcd: a pyzmq process that
/// binds one ROUTER per use case and passes each request on to the svcd's endpoint and each reply
/// back. Both "instances" therefore serve one store, as the instances of a real cluster on one
/// database do (separate svcd processes cannot share one today: each keeps its own in-memory
/// copies of users and restaurants). Like svcd it writes `DIR/endpoints.json` with its own pid,
/// so `svcctl` finds it the same way, and it can be killed with SIGKILL like svcd.
///
/// Three faults on demand, each also counted in `DIR/relay-status.json`:
/// - SIGUSR1, *black hole*: requests still reach svcd (writes take effect) but no reply comes back,
///   so its clients are left with outcomes they cannot know;
/// - SIGUSR2, *drain*: every request is answered `unavailable` without being passed on, as a
///   draining svcd answers;
/// - SIGHUP, *unconfirmed*: writes still reach svcd (and take effect) but each is answered
///   `internal` with `"outcome": "unknown"`, as svcd answers a write whose database did not
///   confirm the commit in time; reads pass as usual.
final class RelayInstance: Sendable {
    private let process: SpawnedProcess
    /// Its data directory: endpoints.json, relay-status.json and its stderr.
    let dataDirectory: String

    private init(process: SpawnedProcess, dataDirectory: String) {
        self.process = process
        self.dataDirectory = dataDirectory
    }

    /// The relay's process id.
    var pid: Int32 { process.pid }
    /// Whether it still runs.
    var isRunning: Bool { process.isRunning }

    /// Whether `python3` with pyzmq is there to run it.
    static func isAvailable() async throws -> Bool {
        try await runTool("/usr/bin/env", ["python3", "-c", "import zmq"], timeout: 15).status == 0
    }

    /// Starts a relay in front of `upstream` (whose endpoints.json must exist) with its data in
    /// `dataDirectory`, and waits until it has written its endpoints.json.
    static func launch(fronting upstream: SvcdChild, dataDirectory: String) async throws -> RelayInstance {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let stderrPath = URL(fileURLWithPath: dataDirectory).appendingPathComponent("relay.stderr").path
        guard FileManager.default.createFile(atPath: stderrPath, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let upstreamFile = URL(fileURLWithPath: upstream.dataDirectory).appendingPathComponent("endpoints.json").path
        let process = try SpawnedProcess.spawn("/usr/bin/env", ["python3", "-c", script, upstreamFile, dataDirectory], stderr: .file(stderrPath))
        let relay = RelayInstance(process: process, dataDirectory: dataDirectory)
        do {
            try await relay.waitUntilReady(stderrPath: stderrPath)
        } catch {
            await relay.stop()
            throw error
        }
        return relay
    }

    private func waitUntilReady(stderrPath: String) async throws {
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("endpoints.json").path
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while true {
            if let data = FileManager.default.contents(atPath: path), let value = try? JSONParser.parse(Array(data)),
                value["pid"]?.intValue == Int(pid)
            {
                return
            }
            let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            if !isRunning { throw ChildFailure("the relay exited before writing endpoints.json; stderr:\n\(stderr)") }
            if clock.now >= deadline { throw ChildFailure("the relay wrote no endpoints.json within 30 s; stderr:\n\(stderr)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// What it has done: `mode`, `forwarded` replies, `dropped` replies (`droppedWrites` of them
    /// to writes), `drained` requests and `unconfirmed` writes.
    func status() -> JSONValue? {
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("relay-status.json").path
        return FileManager.default.contents(atPath: path).flatMap { try? JSONParser.parse(Array($0)) }
    }

    /// Polls ``status()`` until `condition` holds or `seconds` pass; returns the last status.
    func waitForStatus(timeout seconds: Double, _ condition: (JSONValue) -> Bool) async throws -> JSONValue? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        var last = status()
        while clock.now < deadline {
            if let current = last, condition(current) { return current }
            try await Task.sleep(for: .milliseconds(5))
            last = status()
        }
        return last
    }

    /// Sends a signal to the relay.
    func send(signal: Int32) {
        process.send(signal: signal)
    }

    /// Polls until the relay has exited or `seconds` pass; returns whether it exited.
    func waitForExit(timeout seconds: Double) async -> Bool {
        await process.waitForEnd(timeout: seconds) != nil
    }

    /// Stops the relay if it still runs (SIGKILL: it holds nothing worth a graceful stop).
    func stop() async {
        send(signal: SIGKILL)
        _ = await waitForExit(timeout: 10)
    }

    /// The relay itself. Status is written on every fault event only (not per forwarded message),
    /// so the relay stays fast in normal operation.
    /// The contract's writes as a Python set's members, derived from WireContract.
    private static let pythonWrites = UseCaseName.allCases.filter(\.writes).map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    private static let script = #"""
        import json, os, signal, sys, zmq

        upstream_file, data_dir = sys.argv[1], sys.argv[2]
        upstream = json.load(open(upstream_file))
        writes = {\#(pythonWrites)}
        context = zmq.Context()
        poller = zmq.Poller()
        partner = {}
        addresses = {}
        for name, address in upstream["useCases"].items():
            front = context.socket(zmq.ROUTER)
            front.setsockopt(zmq.LINGER, 0)
            front.bind("tcp://127.0.0.1:*")
            back = context.socket(zmq.DEALER)
            back.setsockopt(zmq.LINGER, 0)
            back.connect(address)
            partner[front] = (back, name)
            partner[back] = (front, name)
            poller.register(front, zmq.POLLIN)
            poller.register(back, zmq.POLLIN)
            addresses[name] = front.getsockopt_string(zmq.LAST_ENDPOINT)

        state = {"mode": "forward", "forwarded": 0, "dropped": 0, "droppedWrites": 0, "drained": 0, "unconfirmed": 0}

        def write_json(name, value):
            path = os.path.join(data_dir, name)
            with open(path + ".tmp", "w") as f:
                json.dump(value, f)
            os.replace(path + ".tmp", path)

        def error_reply(frames, error):
            # The request's envelope and id, answered with `error` instead of svcd's reply.
            reply = {"v": 1, "id": json.loads(frames[-1]).get("id"), "ok": False, "error": error}
            return frames[:-1] + [json.dumps(reply).encode()]

        def switch(mode):
            state["mode"] = mode
            write_json("relay-status.json", state)

        signal.signal(signal.SIGUSR1, lambda *_: switch("blackhole"))
        signal.signal(signal.SIGUSR2, lambda *_: switch("drain"))
        signal.signal(signal.SIGHUP, lambda *_: switch("unconfirmed"))
        # A child inherits its parent's signal mask; the test runner's may block these.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1, signal.SIGUSR2, signal.SIGHUP})
        write_json("relay-status.json", state)
        write_json("endpoints.json", {"pid": os.getpid(), "useCases": addresses})

        while True:
            for socket, _ in poller.poll(100):
                other, name = partner[socket]
                while True:
                    try:
                        frames = socket.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    if socket.type == zmq.ROUTER:
                        if state["mode"] == "drain":
                            socket.send_multipart(error_reply(frames, {"code": "unavailable", "message": "relay draining"}))
                            state["drained"] += 1
                            write_json("relay-status.json", state)
                        else:
                            other.send_multipart(frames)
                    elif state["mode"] == "blackhole":
                        state["dropped"] += 1
                        if name in writes:
                            state["droppedWrites"] += 1
                        write_json("relay-status.json", state)
                    elif state["mode"] == "unconfirmed" and name in writes:
                        other.send_multipart(error_reply(frames, {
                            "code": "internal", "outcome": "unknown", "message": "relay: the commit was not confirmed"}))
                        state["unconfirmed"] += 1
                        write_json("relay-status.json", state)
                    else:
                        state["forwarded"] += 1
                        other.send_multipart(frames)
        """#
}
