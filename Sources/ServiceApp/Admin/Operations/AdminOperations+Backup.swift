import Foundation
import Persistence
import Transport
import WireContract
import WireJSON

extension AdminOperations {
    /// `backup`: a consistent online copy of the SQLite store at `path` (absolute; never
    /// overwrites, and its directory must exist). Other stores answer `unavailable`.
    func backup(_ params: JSONObject) async throws -> JSONValue {
        if store.kind != .sqlite {
            do {
                try await store.backup(to: "")
            } catch let unavailable as BackupUnavailable {
                throw WireError(.unavailable, unavailable.reason)
            }
        }
        let parameter = AdminOperation.Parameter.path
        guard let path = params[parameter]?.stringValue, path.hasPrefix("/") else {
            throw WireError(.invalidInput, "\(parameter) must be an absolute file path")
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw WireError(.invalidInput, "\(parameter) \(path) exists already; backups never overwrite")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WireError(.invalidInput, "directory \(directory) does not exist")
        }
        do {
            try await store.backup(to: path)
        } catch {
            // The operator needs the cause (a read-only or special file system, no space, no
            // permission), not only svcd's log.
            logger.error("backup failed", metadata: ["path": "\(path)", "error": "\(error)"])
            throw WireError(.internal, "cannot write the backup to \(path): \(error)")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        logger.notice("backup written", metadata: ["path": "\(path)", "bytes": "\(bytes)"])
        return object([(AdminOperation.Result.path, .string(path)), (AdminOperation.Result.bytes, .int(bytes))])
    }
}
