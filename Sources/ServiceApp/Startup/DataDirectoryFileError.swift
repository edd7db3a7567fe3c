/// A file svcd keeps in its data directory (`endpoints.json`) could not be written.
public struct DataDirectoryFileError: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    /// Why, as the system said.
    public let reason: String

    public var description: String { "cannot write \(path): \(reason)" }
}
