public import Foundation

/// Where ``KeychainTokenStore`` keeps the lock file processes take turns on
/// (``LockingTokenStore``): in a `Latchkey` directory of the App Group container when the
/// item is shared with extensions (``KeychainOptions/appGroup``) — so the app and its
/// extensions lock the same file — else of the app's own Application Support directory.
/// Portable, so the naming is tested on Linux.
public struct KeychainSupportFiles: Sendable, Equatable {
    /// The directory holding the lock file.
    public let directory: URL
    /// The lock file: `<service>.<account>.lock`.
    public let lockFile: URL

    /// The files for the item of `options` inside `container` (an App Group container,
    /// or the app's Application Support directory).
    public init(container: URL, options: KeychainOptions) {
        directory = container.appendingPathComponent("Latchkey", isDirectory: true)
        let base = Self.fileNamePart(options.service) + "." + Self.fileNamePart(options.account)
        lockFile = directory.appendingPathComponent(base + ".lock")
    }

    /// Creates ``directory`` (and missing parents) with mode 0700 and the Data Protection
    /// class ``FileProtection/none``, so the lock file made in it opens before the first
    /// unlock after a restart: it holds no secret.
    ///
    /// - Throws: ``LatchkeyClientError`` `token_store_failed`.
    public func prepareDirectory() throws {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700, .protectionKey: FileProtection.none.type])
        } catch {
            throw LatchkeyClientError(.tokenStoreFailed, reasons: ["support_directory"])
        }
    }

    /// When this installation of the app began, for ``KeychainOptions/wipeOnReinstall``: the
    /// creation date of the app's home directory (`NSHomeDirectory()`, its data container on
    /// iOS, made at install and kept by updates); nil in an app extension (a bundle ending
    /// in `.appex`), whose container is its own, or when the date cannot be read.
    public static func installationDate(bundleURL: URL, home: URL) -> Date? {
        guard bundleURL.pathExtension != "appex" else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: home.path))?[.creationDate] as? Date
    }

    /// `text` safe as part of a file name: percent-encoded outside ASCII letters, digits,
    /// `-` and `_` (so also `.`, `~` and `/`), so distinct identities never share a file.
    static func fileNamePart(_ text: String) -> String {
        FormEncoding.percentEncode(text).replacingOccurrences(of: ".", with: "%2E").replacingOccurrences(of: "~", with: "%7E")
    }
}
