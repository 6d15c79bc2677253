package import Foundation

/// A fresh folder under the system temporary directory, removed when the value goes away
/// (or earlier with ``cleanUp()``).
package final class TemporaryDirectory: Sendable {
    /// The folder.
    package let url: URL

    /// Creates the folder, named `prefix` and a UUID.
    package init(prefix: String = "latchkey-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { cleanUp() }

    /// Removes the folder and everything in it.
    package func cleanUp() { try? FileManager.default.removeItem(at: url) }

    /// Names of the files in `subpath` (or the folder itself), sorted.
    package func fileNames(in subpath: String? = nil) throws -> [String] {
        let folder = subpath.map { url.appendingPathComponent($0) } ?? url
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
