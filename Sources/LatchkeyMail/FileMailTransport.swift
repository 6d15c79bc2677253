package import LatchkeyCore
package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Delivers mail by writing each message as an RFC 5322 `.eml` file: the development
/// default, and a way to inspect exactly what would be sent.
///
/// Files are named `<message id>.eml` (a retried message replaces its earlier file), are
/// written to a temporary name and renamed into place so a reader never sees half a
/// message, and are readable by the owner only (0600) because they hold reset links. Each
/// file written is logged (`mail_written`, with its path), so a developer finds the mail.
package struct FileMailTransport: MailTransport {
    /// The folder the `.eml` files go to.
    package let directory: URL
    private let writer: MIMEMessageWriter
    private let clock: any WallClock
    private let logger: Logger?

    /// Creates the transport, creating `directory` (mode 0700) if it does not exist; with a
    /// `logger`, every file written is logged there.
    /// Throws ``LatchkeyError`` `invalid_configuration` when the folder cannot be created.
    package init(directory: URL, sender: MailSender, clock: any WallClock = SystemClock(), logger: Logger? = nil) throws {
        self.directory = directory
        self.writer = MIMEMessageWriter(sender: sender)
        self.clock = clock
        self.logger = logger
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw LatchkeyError(
                .invalidConfiguration, "The mail folder \(directory.path) cannot be created.",
                detail: "\(type(of: error)): \(error.localizedDescription)"
            )
        }
    }

    /// Writes `message` to `<directory>/<id>.eml`. Throws ``LatchkeyError``
    /// `invalid_mail_header` for an unsafe header value and `mail_delivery_failed` when the
    /// file cannot be written.
    package func send(_ message: MailMessage) throws {
        let bytes = try writer.render(message, date: clock.now())
        let finalPath = directory.appendingPathComponent("\(message.id).eml").path
        var random = SystemRandomNumberGenerator()
        let temporaryPath = directory.appendingPathComponent(".\(message.id).\(random.next() as UInt64).tmp").path
        do {
            try Self.writeOwnerOnly(bytes, to: temporaryPath)
            guard rename(temporaryPath, finalPath) == 0 else { throw POSIXFailure(operation: "rename", code: errno) }
        } catch let failure as POSIXFailure {
            unlink(temporaryPath)
            throw LatchkeyError(
                .mailDelivery, "The mail file could not be written.",
                detail: "\(failure.operation) \(finalPath): \(String(cString: strerror(failure.code)))"
            )
        }
        logger?.info("mail_written", ["message_id": .string(message.id), "path": .string(finalPath)])
    }

    /// Creates `path` with mode 0600 (never wider, whatever the umask), writes `bytes` and
    /// flushes them to disk.
    private static func writeOwnerOnly(_ bytes: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure(operation: "open", code: errno) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure(operation: "write", code: errno)
            }
            written += result
        }
        guard fsync(descriptor) == 0 else { throw POSIXFailure(operation: "fsync", code: errno) }
    }
}

/// A failed system call and its errno, turned into a ``LatchkeyError`` by the caller.
private struct POSIXFailure: Error {
    let operation: String
    let code: Int32
}
