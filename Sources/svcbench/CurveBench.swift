import Foundation
import LoadEngine
import WireContract
import ZeroMQ

/// `svcbench --curve`: what CURVE encryption costs on the use-case endpoints. In one session,
/// alternating, with the same DEALER client: the echo in plaintext and as a CURVE server, and
/// two svcd child processes (one plaintext, one started with `--client-keys`, so its use-case
/// endpoints are CURVE servers), each asked GetRestaurant and RegisterUser.
struct CurveBench {
    /// One server and one security setting.
    struct Target: Sendable, Hashable {
        /// What answers.
        enum Server: Sendable, Hashable, CaseIterable {
            /// The raw libzmq ROUTER echo in this process (GetRestaurant bodies).
            case echo
            /// svcd's GetRestaurant (answered from memory).
            case getRestaurant
            /// svcd's RegisterUser (a durable write per request).
            case registerUser

            /// The use case svcd answers with; `nil` for the echo.
            var useCase: UseCaseName? {
                switch self {
                case .echo: nil
                case .getRestaurant: .getRestaurant
                case .registerUser: .registerUser
                }
            }

            /// `echo`, or the use case's name.
            var name: String { useCase?.rawValue ?? "echo" }
        }

        let server: Server
        /// Whether the connection is CURVE-encrypted.
        let curve: Bool

        /// E.g. `GetRestaurant CURVE`.
        var label: String { "\(server.name) \(curve ? "CURVE" : "plaintext")" }

        /// Every target, in report order.
        static let all: [Target] = Server.allCases.flatMap { [Target(server: $0, curve: false), Target(server: $0, curve: true)] }
    }

    /// One timed run of one target.
    struct Run: Sendable {
        let target: Target
        let result: RunResult
    }

    let svcdExecutable: String
    let inFlightSettings: [Int]
    let rounds: Int
    let seconds: Double
    let warmup: Double
    let restaurantId: String

    /// Starts the servers, runs every round, stops the servers (also on failure), returns the report.
    func run() async throws -> CurveReport {
        guard ZMQ.hasCapability("curve") else { throw BenchError("this libzmq was built without CURVE") }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("svcbench-curve-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        let clientPair = try ZMQCurveKeyPair.generate()
        let echoPair = try ZMQCurveKeyPair.generate()
        let clientKeysPath = scratch + "/client-keys"
        try Data("# svcbench --curve: its client's public key\n\(clientPair.publicKey)\n".utf8).write(to: URL(fileURLWithPath: clientKeysPath))

        // The children first, before this process opens any socket they could inherit.
        var children: [SvcdChild] = []
        var echoes: [EchoServer] = []
        var context: ZMQContext?
        let outcome: Result<CurveReport, any Error>
        do {
            let plain = try await SvcdChild.launch(executable: svcdExecutable, dataDirectory: scratch + "/svcd-plaintext", arguments: [])
            children.append(plain)
            let curve = try await SvcdChild.launch(
                executable: svcdExecutable, dataDirectory: scratch + "/svcd-curve", arguments: ["--client-keys", clientKeysPath]
            )
            children.append(curve)
            guard let serverKey = curve.endpoints.useCaseServerKey else {
                throw BenchError("svcd with --client-keys published no useCaseServerKey in endpoints.json")
            }
            guard plain.endpoints.useCaseServerKey == nil else {
                throw BenchError("the plaintext svcd published a useCaseServerKey: its endpoints are not plaintext")
            }
            let echoPlain = try await EchoServer.start()
            echoes.append(echoPlain)
            let echoCurve = try await EchoServer.start(curveSecretKey: echoPair.secretKey)
            echoes.append(echoCurve)

            let clientContext = try ZMQContext(ioThreads: 1)
            context = clientContext
            let client = LoadClient(
                context: clientContext, warmupNanoseconds: UInt64(warmup * 1e9), windowNanoseconds: UInt64(seconds * 1e9),
                restaurantId: restaurantId
            )
            let endpoints: [Target: String] = [
                Target(server: .echo, curve: false): echoPlain.endpoint,
                Target(server: .echo, curve: true): echoCurve.endpoint,
                Target(server: .getRestaurant, curve: false): try plain.address(.getRestaurant),
                Target(server: .getRestaurant, curve: true): try curve.address(.getRestaurant),
                Target(server: .registerUser, curve: false): try plain.address(.registerUser),
                Target(server: .registerUser, curve: true): try curve.address(.registerUser),
            ]
            let keys: [Server: CurveClientKeys] = [
                .echo: CurveClientKeys(serverPublicKey: echoPair.publicKey, client: clientPair),
                .getRestaurant: CurveClientKeys(serverPublicKey: serverKey, client: clientPair),
                .registerUser: CurveClientKeys(serverPublicKey: serverKey, client: clientPair),
            ]
            var settings: [CurveReport.Setting] = []
            for inFlight in inFlightSettings {
                var runs: [Run] = []
                for round in 1...rounds {
                    for target in Self.order(round: round) {
                        guard let endpoint = endpoints[target] else { continue }
                        let workload: LoadClient.Workload = target.server == .registerUser
                            ? .registerUser(tag: "f\(inFlight)r\(round)\(target.curve ? "c" : "p")")
                            : .getRestaurant
                        let result = try await client.run(
                            target.server == .echo ? .echo : .service, endpoint: endpoint, inFlight: inFlight, round: round,
                            workload: workload, curve: target.curve ? keys[target.server] : nil
                        )
                        let run = Run(target: target, result: result)
                        FileHandle.standardError.write(Data((CurveReport.runLine(run) + "\n").utf8))
                        runs.append(run)
                    }
                }
                settings.append(CurveReport.Setting(inFlight: inFlight, runs: runs))
            }
            let version = ZMQ.version
            outcome = .success(CurveReport(
                settings: settings, seconds: seconds, warmup: warmup, rounds: rounds,
                libzmqVersion: "\(version.major).\(version.minor).\(version.patch)",
                cores: ProcessInfo.processInfo.activeProcessorCount,
                getRestaurantBody: String(decoding: client.body(slot: 0), as: UTF8.self),
                registerUserBody: String(decoding: LoadClient.registrationBody(slot: 0, tag: "f64r1p", sequence: 1), as: UTF8.self)
            ))
        } catch {
            outcome = .failure(error)
        }
        // Client sockets are closed on their threads already; echo threads close theirs when
        // their contexts shut down; svcd answers what is in flight and exits on SIGTERM.
        for echo in echoes { await echo.stop() }
        context?.terminate()
        for child in children { await child.stop() }
        return try outcome.get()
    }

    private typealias Server = Target.Server

    /// The runs of one round: per server plaintext then CURVE, and the other way round in even
    /// rounds, so a drift of the shared machine within a round does not always favour one side.
    static func order(round: Int) -> [Target] {
        Server.allCases.flatMap { server in
            let pair = [Target(server: server, curve: false), Target(server: server, curve: true)]
            return round % 2 == 1 ? pair : pair.reversed()
        }
    }
}
