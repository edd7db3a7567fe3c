import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of one version of an `endpoints.json`: svcd replaces the file atomically (a new
/// inode) on every start, so a different stamp means the instance may listen elsewhere now.
struct EndpointsFileStamp: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// The stamp of the file at `path` now, `nil` when it does not exist or cannot be examined.
    static func current(_ path: String) -> EndpointsFileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return EndpointsFileStamp(info)
    }

    /// The file's bytes with the stamp of exactly those bytes (read from one open descriptor, so
    /// a replacement racing the read cannot pair new bytes with an old stamp).
    static func read(_ path: String) -> (bytes: [UInt8], stamp: EndpointsFileStamp)? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let data: Data?
        do {
            data = try handle.readToEnd()
        } catch {
            return nil
        }
        return (Array(data ?? Data()), EndpointsFileStamp(info))
    }
}
