import ArgumentParser
import Foundation
import WireContract
import WireJSON

/// `svcctl call USECASE [JSON]`: sends one request to a use-case endpoint (plain DEALER, no
/// CURVE) and prints the reply. Exit 0 if it succeeded; 69 if the service could not take the
/// request now, with no effect, so it may be sent again (`unavailable`: draining or its store
/// away; `overloaded`; `deadline_exceeded`); 75, as for no answer, if the error's outcome is
/// unknown (the write may have taken effect); 1 for any other error it answered.
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call a use case with JSON params and print the reply (with --json: the whole envelope)."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The use case, e.g. GetRestaurant (see `svcctl endpoints`).")
    var useCase: String

    @Argument(help: "The params as a JSON object, e.g. '{\"restaurantId\":\"r-000001\"}'.")
    var params: String = "{}"

    @Option(name: .long, help: "Send this W3C traceparent (00-TRACEID-SPANID-FLAGS), so svcd's span and log lines continue your trace (env TRACEPARENT).")
    var traceparent: String?

    @Option(name: .long, help: "Send this W3C tracestate with the traceparent (env TRACESTATE).")
    var tracestate: String?

    func validate() throws {
        if let value = resolvedTraceparent, TraceContext.parse(traceparent: value) == nil {
            throw ValidationError("--traceparent \(value) is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>, lower case, ids not all zeros)")
        }
        if resolvedTracestate != nil, resolvedTraceparent == nil {
            throw ValidationError("--tracestate goes with --traceparent (svcd ignores a tracestate alone)")
        }
    }

    /// `--traceparent`, else `TRACEPARENT`.
    private var resolvedTraceparent: String? {
        traceparent ?? ProcessInfo.processInfo.environment["TRACEPARENT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--tracestate`, else `TRACESTATE`.
    private var resolvedTracestate: String? {
        tracestate ?? ProcessInfo.processInfo.environment["TRACESTATE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() throws {
        try reportingFailures { () throws(CtlFailure) in
            let parsed: JSONValue
            do throws(JSONError) {
                parsed = try JSONParser.parse(params)
            } catch {
                throw CtlFailure(ExitStatus.dataError, "the params argument is not valid JSON: \(error)")
            }
            guard case .object(let object) = parsed else {
                throw CtlFailure(ExitStatus.dataError, "the params argument must be a JSON object, e.g. '{\"restaurantId\":\"r-000001\"}'")
            }
            let useCase = try ServiceEndpoints.useCase(named: useCase)
            let endpoints = try ServiceEndpoints.require(dataDirectory: options.dataDirectory)
            let address = try endpoints.address(of: useCase)
            let id = WireExchange.makeRequestID()
            let request = WireEnvelope.request(id: id, params: object, traceparent: resolvedTraceparent, tracestate: resolvedTracestate)
            // A CURVE svcd (--client-keys) publishes its use-case key: encrypt, with our key.
            let credentials = try CurveCredentials.useCases(of: endpoints, source: EndpointsFile.fileName, options: options.common)
            var exchange = WireExchange(
                address: address, credentials: credentials, timeoutMilliseconds: options.timeoutMilliseconds, peerName: useCase.rawValue)
            exchange.allowList = "svcd's --client-keys file"
            let envelope = try exchange.send(request, id: id)
            let ok = envelope.replySucceeded
            if options.json {
                printOut(prettyJSON(envelope))
            } else if ok {
                printOut(prettyJSON(envelope.replyResult ?? .object(JSONObject())))
            }
            if !ok {
                let status = Self.exitStatus(code: envelope.replyErrorCode.flatMap(WireErrorCode.init(rawValue:)), outcome: envelope.replyErrorOutcome)
                throw CtlFailure(status, "\(useCase) failed: \(AdminClient.describeError(envelope))")
            }
        }
    }

    /// The exit status of an error reply, from its typed code and outcome (never its message).
    static func exitStatus(code: WireErrorCode?, outcome: WireErrorOutcome?) -> Int32 {
        if outcome == .unknown { return ExitStatus.timedOut }
        return code?.isSafeToResend == true ? ExitStatus.unavailable : ExitStatus.serviceError
    }
}
