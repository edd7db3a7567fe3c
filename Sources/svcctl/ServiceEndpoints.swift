import Foundation
import WireContract
import WireJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `DATA_DIR/endpoints.json` says about a running svcd, once its process is known to be alive.
struct ServiceEndpoints {
    /// The file as svcd wrote it.
    let file: EndpointsFile

    /// svcd's process id.
    var pid: Int { Int(file.pid) }
    /// The admin endpoint's address, if this svcd has one.
    var admin: String? { file.admin }
    /// The admin endpoint's CURVE server public key (Z85).
    var adminServerKey: String? { file.adminServerKey }
    /// Path of the local admin client's public key file.
    var adminClientPublicKeyFile: String? { file.adminClientPublicKeyFile }
    /// Path of the local admin client's secret key file.
    var adminClientSecretKeyFile: String? { file.adminClientSecretKeyFile }
    /// The use-case endpoints' CURVE public key (Z85), when svcd runs with `--client-keys`.
    var useCaseServerKey: String? { file.useCaseServerKey }

    /// Why no running svcd could be found.
    enum Absence {
        case noFile(String)
        case unreadable(String, EndpointsFileError)
        case deadProcess(Int)
    }

    /// Reads `dataDirectory/endpoints.json` and checks that the pid in it is alive.
    static func locate(dataDirectory: String) -> Result<ServiceEndpoints, AbsenceError> {
        locate(endpointsFile: EndpointsFile.path(in: dataDirectory))
    }

    /// Reads the endpoints file at `path` (an svcd's `endpoints.json`, wherever it lies) and
    /// checks that the pid in it is alive.
    static func locate(endpointsFile path: String) -> Result<ServiceEndpoints, AbsenceError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(AbsenceError(path: path, reason: .noFile(path)))
        }
        let file: EndpointsFile
        do {
            file = try EndpointsFile.parse(Array(data))
        } catch {
            return .failure(AbsenceError(path: path, reason: .unreadable(path, error)))
        }
        guard processIsAlive(Int(file.pid)) else {
            return .failure(AbsenceError(path: path, reason: .deadProcess(Int(file.pid))))
        }
        return .success(ServiceEndpoints(file: file))
    }

    /// Like ``locate(dataDirectory:)`` but fails with exit code 69 (service unavailable).
    static func require(dataDirectory: String) throws(CtlFailure) -> ServiceEndpoints {
        switch locate(dataDirectory: dataDirectory) {
        case .success(let endpoints): return endpoints
        case .failure(let absence): throw CtlFailure(ExitStatus.unavailable, absence.description)
        }
    }

    /// The use case named `name`, or exit 64 naming the contract's use cases.
    static func useCase(named name: String) throws(CtlFailure) -> UseCaseName {
        guard let useCase = UseCaseName(rawValue: name) else {
            throw CtlFailure(ExitStatus.usage, "unknown use case '\(name)'; the use cases are: \(UseCaseName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return useCase
    }

    /// The address of a use case, or exit 64 naming the ones this svcd serves.
    func address(of useCase: UseCaseName) throws(CtlFailure) -> String {
        if let address = file.useCases[useCase] { return address }
        let served = UseCaseName.allCases.filter { file.useCases[$0] != nil }.map(\.rawValue).joined(separator: ", ")
        throw CtlFailure(ExitStatus.usage, "svcd does not serve \(useCase.rawValue); it serves: \(served)")
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
        case .unreadable(let path, let error): "cannot read \(path): \(error)"
        case .deadProcess(let pid): "svcd is not running: process \(pid) from \(path) is gone (stale file)"
        }
    }
}
