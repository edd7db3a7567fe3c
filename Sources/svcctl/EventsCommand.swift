import ArgumentParser
import Dispatch
import Foundation
import RestaurantClient
import Synchronization
import WireJSON

/// `svcctl events`: prints the service's events from its event log, one line each; with
/// `--follow` keeps printing new ones as they are written, following the instances with
/// RestaurantClient's Clone-pattern stream (it moves on when an instance dies).
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the events of the event log (one per line); with --follow, keep printing new ones.",
        discussion: """
            Each line is `seq  time  type  key  summary`; with --json, each event is one JSON \
            object on its own line (as the protocol sends it), for scripts. Without --follow the \
            events after --after up to the log's end are printed and svcctl exits. With --follow \
            it goes on printing each new event, in seq order and exactly once, until interrupted; \
            given several instances of one cluster (repeated --data-dir, or --cluster FILE) it \
            moves to the next when the one it follows stops answering. Exit 1 when the log no \
            longer keeps the events after --after (`gone`: the message names the oldest seq kept).
            """
    )

    @OptionGroup var targets: InstanceTargetOptions

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "Print the events after this seq (0: from the start of the log).")
    var after: Int64 = 0

    @Flag(name: .long, help: "Keep printing new events as they are written, until interrupted.")
    var follow = false

    @Option(name: .customLong("type"), help: ArgumentHelp("Only events of this type; repeat for several (e.g. OrderPlaced).", valueName: "type"))
    var types: [String] = []

    func validate() throws {
        guard after >= 0 else { throw ValidationError("--after must be 0 or more") }
        for type in types where EventType(rawValue: type) == nil {
            throw ValidationError("--type \(type) is not an event type; the types are \(EventType.namesList)")
        }
    }

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let client = try makeClient()
            let wanted = types.isEmpty ? nil : Set(types.compactMap(EventType.init(rawValue:)))
            let outcome = Mutex<CtlFailure?>(nil)
            let done = DispatchSemaphore(value: 0)
            let (after, follow, json) = (self.after, self.follow, options.json)
            // The command is synchronous; the client is async. This thread only waits.
            Task {
                do throws(RestaurantClientError) {
                    if follow {
                        for try await event in client.events(after: after, types: wanted) { Self.print(event, json: json) }
                    } else {
                        try await Self.printLog(client, after: after, types: wanted, json: json)
                    }
                } catch {
                    outcome.withLock { $0 = Self.failure(error) }
                }
                done.signal()
            }
            done.wait()
            if let failure = outcome.withLock({ $0 }) { throw failure }
        }
    }

    /// The events after `after` up to the log's end as it was at the first read.
    private static func printLog(_ client: RestaurantClient, after: Int64, types: Set<EventType>?, json: Bool) async throws(RestaurantClientError) {
        var position = after
        var end: Int64?
        while true {
            let page = try await client.eventLog(after: position, limit: 1000, types: types)
            let last = end ?? page.lastSeq
            end = last
            for event in page.events where event.seq <= last { print(event, json: json) }
            guard let next = page.events.last?.seq, next < last, page.events.count == 1000 else { return }
            position = next
        }
    }

    private static func print(_ event: RestaurantEvent, json: Bool) {
        printOut(json ? event.json.description : EventLine.render(event))
    }

    /// A client over the named instances; for a CURVE instance (svcd --client-keys), with the
    /// key files given, else that instance's local admin key.
    private func makeClient() throws(CtlFailure) -> RestaurantClient {
        var instances: [SvcdInstance] = []
        for (_, file) in try targets.endpointsFiles() {
            var instance = SvcdInstance.endpointsFile(file)
            if case .success(let endpoints) = ServiceEndpoints.locate(endpointsFile: file),
               let credentials = try CurveCredentials.useCases(of: endpoints, source: file, options: options) {
                do throws(RestaurantClientError) {
                    instance = .keyed(instance, clientKeys: try ClientKeys(publicKey: credentials.publicKey, secretKey: credentials.secretKey))
                } catch {
                    throw CtlFailure(ExitStatus.dataError, "\(error)")
                }
            }
            instances.append(instance)
        }
        var clientOptions = RestaurantClientOptions(timeout: .milliseconds(Int64(options.timeoutMilliseconds)))
        if let publicKeyFile = options.publicKeyFile, let secretKeyFile = options.secretKeyFile {
            do throws(RestaurantClientError) {
                clientOptions.clientKeys = try ClientKeys(publicKeyFile: absolutePath(publicKeyFile), secretKeyFile: absolutePath(secretKeyFile))
            } catch {
                throw CtlFailure(ExitStatus.dataError, "\(error)")
            }
        }
        do throws(RestaurantClientError) {
            return try RestaurantClient(instances: instances, options: clientOptions)
        } catch {
            throw CtlFailure(ExitStatus.unavailable, "\(error)")
        }
    }

    /// The exit status and message of a client error.
    private static func failure(_ error: RestaurantClientError) -> CtlFailure {
        switch error {
        case .gone(let firstSeq, let message):
            CtlFailure(ExitStatus.serviceError, "the event log no longer keeps those events; the oldest it keeps is seq \(firstSeq) (\(message))")
        case .service(let code, let message, _):
            WireErrorCode(rawValue: code)?.isSafeToResend == true
                ? CtlFailure(ExitStatus.unavailable, "\(code): \(message)") : CtlFailure(ExitStatus.serviceError, "\(code): \(message)")
        case .timeout:
            CtlFailure(ExitStatus.timedOut, "no instance answered within the timeout", noAnswer: true)
        case .unavailable(let reason):
            CtlFailure(ExitStatus.unavailable, reason, noAnswer: true)
        case .invalidArgument(let reason):
            CtlFailure(ExitStatus.usage, reason)
        case .malformedReply(let reason):
            CtlFailure(ExitStatus.serviceError, "malformed reply: \(reason)")
        }
    }
}
