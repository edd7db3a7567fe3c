import Foundation
import Persistence
import Transport
import WireContract
import WireJSON

extension AdminOperations {
    /// `backup`: a consistent online copy of the SQLite store at `path` (absolute; never
    /// overwrites; missing directories are created). Other stores answer `unavailable`.
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
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            if let failure = Self.makeDirectories(directory) {
                throw WireError(.invalidInput, "cannot create the directory \(failure.path): \(failure.reason)\(Self.whereSvcdMayWrite)")
            }
        } else if !isDirectory.boolValue {
            throw WireError(.invalidInput, "\(directory) is not a directory")
        }
        guard access(directory, W_OK) == 0 else {
            throw WireError(.invalidInput, "svcd cannot write to \(directory): \(String(cString: strerror(errno)))\(Self.whereSvcdMayWrite)")
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

    /// What an operator who hit a read-only or forbidden directory needs to know: under the
    /// systemd units svcd writes only its state directories.
    private static let whereSvcdMayWrite =
        " (under the systemd units svcd may write only its state directories, /var/lib/svcd and /var/lib/svcd-backups, and its /tmp is private to it)"

    /// `mkdir -p` with mode 0700 (private to svcd's user, as the backups themselves are); the
    /// directory that could not be made and the system's reason, or `nil`.
    private static func makeDirectories(_ directory: String) -> (path: String, reason: String)? {
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                return (path, String(cString: strerror(errno)))
            }
        }
        return nil
    }
}
