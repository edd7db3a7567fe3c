import Foundation
import WireJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `DATA_DIR/endpoints.json` says about a running svcd.
struct ServiceEndpoints {
    /// svcd's process id.
    let pid: Int
    /// The admin endpoint's address, if this svcd has one.
    let admin: String?
    /// The admin endpoint's CURVE server public key (Z85).
    let adminServerKey: String?
    /// Path of the local admin client's public key file.
    let adminClientPublicKeyFile: String?
    /// Path of the local admin client's secret key file.
    let adminClientSecretKeyFile: String?
    /// The use-case endpoints' CURVE public key (Z85), when svcd runs with `--client-keys`.
    let useCaseServerKey: String?
    /// Use-case names and addresses, in file order.
    let useCases: [(name: String, address: String)]

    /// Why no running svcd could be found.
    enum Absence {
        case noFile(String)
        case unreadable(String)
        case deadProcess(Int)
    }

    /// Reads `dataDirectory/endpoints.json` and checks that the pid in it is alive.
    static func locate(dataDirectory: String) -> Result<ServiceEndpoints, AbsenceError> {
        locate(endpointsFile: URL(fileURLWithPath: dataDirectory).appendingPathComponent("endpoints.json").path)
    }

    /// Reads the endpoints file at `path` (an svcd's `endpoints.json`, wherever it lies) and
    /// checks that the pid in it is alive.
    static func locate(endpointsFile path: String) -> Result<ServiceEndpoints, AbsenceError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(AbsenceError(path: path, reason: .noFile(path)))
        }
        guard let value = try? JSONParser.parse(Array(data)), let pid = value["pid"]?.intValue else {
            return .failure(AbsenceError(path: path, reason: .unreadable(path)))
        }
        guard processIsAlive(pid) else {
            return .failure(AbsenceError(path: path, reason: .deadProcess(pid)))
        }
        var useCases: [(name: String, address: String)] = []
        for member in value["useCases"]?.objectValue ?? JSONObject() {
            if let address = member.value.stringValue { useCases.append((member.key, address)) }
        }
        return .success(ServiceEndpoints(
            pid: pid,
            admin: value["admin"]?.stringValue,
            adminServerKey: value["adminServerKey"]?.stringValue,
            adminClientPublicKeyFile: value["adminClientPublicKeyFile"]?.stringValue,
            adminClientSecretKeyFile: value["adminClientSecretKeyFile"]?.stringValue,
            useCaseServerKey: value["useCaseServerKey"]?.stringValue,
            useCases: useCases
        ))
    }

    /// Like ``locate(dataDirectory:)`` but fails with exit code 69 (service unavailable).
    static func require(dataDirectory: String) throws(CtlFailure) -> ServiceEndpoints {
        switch locate(dataDirectory: dataDirectory) {
        case .success(let endpoints): return endpoints
        case .failure(let absence): throw CtlFailure(ExitStatus.unavailable, absence.description)
        }
    }

    /// The address of a use case, or exit 64 naming the known ones.
    func address(ofUseCase name: String) throws(CtlFailure) -> String {
        if let entry = useCases.first(where: { $0.name == name }) { return entry.address }
        let known = useCases.map(\.name).joined(separator: ", ")
        throw CtlFailure(ExitStatus.usage, "unknown use case '\(name)'; svcd serves: \(known)")
    }

    /// Whether a process with this id exists (`kill(pid, 0)`; `EPERM` still means it exists).
    static func processIsAlive(_ pid: Int) -> Bool {
        guard pid > 0, let pid = pid_t(exactly: pid) else { return false }
        if kill(pid, 0) == 0 { return true }
        return errno == EPERM
    }
}

/// No running svcd behind a data directory, with the reason.
struct AbsenceError: Error, CustomStringConvertible {
    /// The endpoints.json path looked at.
    let path: String
    /// Why the service is considered absent.
    let reason: ServiceEndpoints.Absence

    var description: String {
        switch reason {
        case .noFile(let path): "svcd is not running: no \(path)"
        case .unreadable(let path): "cannot read \(path): not valid JSON or no pid"
        case .deadProcess(let pid): "svcd is not running: process \(pid) from \(path) is gone (stale file)"
        }
    }
}
