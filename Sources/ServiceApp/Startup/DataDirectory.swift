import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The data directory's shape on disk: only svcd's user may enter it (0700), and the store's
/// files, which hold people's e-mail addresses, only that user may read (0600) — also in a
/// directory made by an older svcd with looser modes, which start-up tightens.
enum DataDirectory {
    /// Creates `path` (0700) or tightens an existing one to 0700.
    static func prepare(_ path: String) throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw DataDirectoryError(path: path, action: "use as the data directory (it is a file)", code: ENOTDIR)
            }
            guard chmod(path, 0o700) == 0 else { throw DataDirectoryError(path: path, action: "restrict to mode 0700", code: errno) }
        } else {
            do {
                try files.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DataDirectoryError(path: path, action: "create the data directory", code: (error as NSError).underlyingPOSIXCode ?? EACCES)
            }
        }
    }

    /// Makes the SQLite store at `path` and its `-wal`/`-shm` files 0600, creating an empty
    /// database file with that mode when there is none (SQLite gives the files it creates the
    /// database file's mode).
    static func restrictStoreFiles(_ path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard created >= 0 else { throw DataDirectoryError(path: path, action: "create the store file", code: errno) }
            close(created)
        }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            guard chmod(file, 0o600) == 0 else { throw DataDirectoryError(path: file, action: "restrict to mode 0600", code: errno) }
        }
    }
}

extension NSError {
    /// The POSIX error code inside a Foundation file error, if any.
    fileprivate var underlyingPOSIXCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingPOSIXCode
    }
}
