import LatchkeyCore
import CHiredis
import Foundation
import LatchkeyCrypto
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a Redis server over hiredis. This file is the only place that knows
/// hiredis.
///
/// Connects on first use, with a connect timeout, a timeout on every command, and `AUTH` /
/// `SELECT` as the endpoint asks. Over TLS (`rediss://`; hiredis 0.14, Debian 12's, has no
/// TLS) the bytes travel through a ``TLSClientStream`` and hiredis formats the commands and
/// parses the replies (`redisFormatCommandArgv`, a `redisReader`). A connection that fails is dropped, and the next command
/// connects afresh. Commands on one connection run one at a time; ``RedisConnectionPool``
/// spreads concurrent callers over several.
///
/// A command runs at most once: a limiter script run twice counts an event twice (or refunds
/// twice). So it is sent again, once, on a new connection only when it provably never reached
/// Redis whole — its write failed (a connection Redis had closed: EPIPE, ECONNRESET), and Redis
/// runs nothing it has not read whole. Once every byte was written, a failure (end of file, a
/// reset, a timeout while waiting for the reply) leaves it unknown whether Redis ran it, and the
/// call fails (`rate_limiter_unavailable`: 503, or passed under `LATCHKEY_RATE_LIMIT_FAIL_OPEN`).
/// The common stale case never gets that far: before a pooled connection carries a command it
/// is checked without waiting (`poll`), and one Redis closed or wrote to while it sat idle is
/// replaced before anything is sent. Only a close that races the command itself fails it.
///
/// Every failure throws `rate_limiter_unavailable` (Redis serves only the shared rate
/// limiter), naming the server but never the password.
final class RedisConnection: Sendable {
    private let endpoint: RedisEndpoint
    private let connectTimeout: TimeInterval
    private let commandTimeout: TimeInterval
    private let context = Mutex<Session?>(nil)

    /// A live connection: hiredis's own over TCP, or TLS with a reader of hiredis's.
    private enum Session {
        case plain(UnsafeMutablePointer<redisContext>)
        case tls(TLSSession)

        func close() {
            if case .plain(let context) = self { redisFree(context) }
        }

        /// Whether Redis closed the connection or wrote to it while it sat idle.
        var stirredWhileIdle: Bool {
            switch self {
            case .plain(let context): latchkey_redis_idle_connection_stirred(context) != 0
            case .tls(let session): session.stirredWhileIdle
            }
        }
    }

    /// Creates an unconnected connection to `endpoint`.
    init(endpoint: RedisEndpoint, connectTimeout: TimeInterval, commandTimeout: TimeInterval) {
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    deinit {
        context.withLock { $0?.close() }
    }

    /// Sends one command (binary-safe arguments) and returns its reply. A Redis error reply
    /// is returned as ``RedisReply/error(_:)``; a connection failure throws.
    func command(_ arguments: [String]) throws -> RedisReply {
        try context.withLock { context throws(LatchkeyError) in
            if let idle = context, idle.stirredWhileIdle {
                // Redis closed it (a restart, its idle timeout) or wrote to it unasked.
                idle.close()
                context = nil
            }
            let wasConnected = context != nil
            switch perform(arguments, on: &context) {
            case .success(let reply):
                return reply
            case .failure(let failure) where wasConnected && failure.neverSent:
                return try perform(arguments, on: &context).mapError(\.error).get()
            case .failure(let failure):
                throw failure.error
            }
        }
    }

    private struct ConnectionFailure: Error {
        let error: LatchkeyError
        /// The command never reached Redis whole (its write failed), so Redis did not run it.
        let neverSent: Bool
    }

    private func perform(
        _ arguments: [String], on context: inout Session?
    ) -> Result<RedisReply, ConnectionFailure> {
        let connected: Session
        if let context {
            connected = context
        } else {
            switch Result(catching: { () throws(LatchkeyError) in try connect() }) {
            case .success(let connection): connected = connection
            case .failure(let error): return .failure(ConnectionFailure(error: error, neverSent: false))
            }
            context = connected
        }
        let result = Self.send(arguments, on: connected)
        if let reply = result.reply { return .success(reply) }
        connected.close()
        context = nil
        return .failure(ConnectionFailure(error: unavailable("Redis stopped answering", result.failure), neverSent: result.neverSent))
    }

    private func connect() throws(LatchkeyError) -> Session {
        let connection: Session
        if endpoint.tls {
            do {
                connection = .tls(
                    try TLSSession(
                        stream: try TLSClientStream(
                            host: endpoint.host, port: endpoint.port, caFile: endpoint.caFile, connectTimeout: connectTimeout,
                            ioTimeout: commandTimeout)))
            } catch let error as LatchkeyCryptoError {
                throw unavailable("Cannot connect to Redis over TLS", "\(error.message): \(error.detail ?? "")")
            } catch {
                throw unavailable("Cannot connect to Redis over TLS", "\(type(of: error))")
            }
        } else {
            let context = endpoint.host.withCString { redisConnectWithTimeout($0, Int32(endpoint.port), Self.timeValue(connectTimeout)) }
            guard let context else { throw unavailable("Cannot connect to Redis", "out of memory") }
            guard context.pointee.err == 0 else {
                let failure = String(cString: latchkey_redis_error_text(context))
                redisFree(context)
                throw unavailable("Cannot connect to Redis", failure)
            }
            guard redisSetTimeout(context, Self.timeValue(commandTimeout)) == REDIS_OK else {
                redisFree(context)
                throw unavailable("Cannot set the Redis command timeout", nil)
            }
            connection = .plain(context)
        }
        var setup: [(name: String, arguments: [String])] = []
        if let password = endpoint.password {
            setup.append(("AUTH", ["AUTH"] + (endpoint.username.map { [$0] } ?? []) + [password.exposed]))
        }
        if endpoint.database != 0 { setup.append(("SELECT", ["SELECT", String(endpoint.database)])) }
        for (name, arguments) in setup {
            let result = Self.send(arguments, on: connection)
            guard case .status = result.reply else {
                connection.close()
                // An error reply names the problem (e.g. WRONGPASS) and never echoes the password.
                if case .error(let message) = result.reply { throw unavailable("Redis refused \(name)", message) }
                throw unavailable("Redis did not answer \(name)", result.failure)
            }
        }
        return connection
    }

    /// The error for a failure: what failed and where, and the library's text with any
    /// credential taken out by its form (``CredentialScrubber``).
    private func unavailable(_ what: String, _ detail: String?) -> LatchkeyError {
        LatchkeyError.rateLimiterUnavailable("\(what) at \(endpoint.host):\(endpoint.port).", detail: detail.map(CredentialScrubber.scrub))
    }

    /// The reply, or why there is none.
    private struct SendResult {
        var reply: RedisReply?
        var failure: String?
        /// The command's write failed: it never reached Redis whole.
        var neverSent = false
    }

    private static func send(_ arguments: [String], on session: Session) -> SendResult {
        switch session {
        case .plain(let context): send(arguments, on: context)
        case .tls(let session): session.send(arguments)
        }
    }

    private static func send(_ arguments: [String], on connection: UnsafeMutablePointer<redisContext>) -> SendResult {
        let buffers = arguments.map { argument -> UnsafeMutableBufferPointer<CChar> in
            let bytes = Array(argument.utf8)
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(bytes.count, 1))
            for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        var argv = buffers.map { UnsafePointer($0.baseAddress) }
        let lengths = arguments.map { $0.utf8.count }
        var written: Int32 = 0
        let reply = argv.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeBufferPointer { lengths in
                latchkey_redis_exchange(connection, Int32(arguments.count), argv.baseAddress, lengths.baseAddress, &written)
            }
        }
        guard let reply else {
            return SendResult(failure: String(cString: latchkey_redis_error_text(connection)), neverSent: written == 0)
        }
        defer { freeReplyObject(reply) }
        return SendResult(reply: Self.reply(reply.pointee))
    }

    /// A connection over TLS: commands formatted by hiredis and written to the stream, replies
    /// read from it into a hiredis reader until one is whole.
    private final class TLSSession {
        /// The most bytes read at once.
        private static let readSize = 16 * 1024
        private let stream: TLSClientStream
        private let reader: UnsafeMutablePointer<redisReader>

        init(stream: TLSClientStream) throws {
            guard let reader = redisReaderCreate() else {
                throw LatchkeyCryptoError(.tlsFailure, "The Redis reply reader could not be made", detail: "out of memory")
            }
            self.stream = stream
            self.reader = reader
        }

        deinit { redisReaderFree(reader) }

        /// Whether Redis closed the connection or wrote to it while it sat idle.
        var stirredWhileIdle: Bool { stream.stirredWhileIdle }

        func send(_ arguments: [String]) -> SendResult {
            let cStrings = arguments.map { strdup($0) }
            defer { cStrings.forEach { free($0) } }
            var argv = cStrings.map { UnsafePointer($0) }
            let lengths = arguments.map { $0.utf8.count }
            var formatted: UnsafeMutablePointer<CChar>?
            let length = argv.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { lengths in
                    redisFormatCommandArgv(&formatted, Int32(arguments.count), argv.baseAddress, lengths.baseAddress)
                }
            }
            guard length > 0, let formatted else { return SendResult(failure: "the command could not be formatted") }
            defer { redisFreeCommand(formatted) }
            do {
                try stream.write(Array(UnsafeRawBufferPointer(start: formatted, count: Int(length))))
            } catch let error as LatchkeyCryptoError {
                // Redis reads a command whole before it runs it; this one was not sent whole.
                return SendResult(failure: "\(error.message): \(error.detail ?? "")", neverSent: true)
            } catch {
                return SendResult(failure: "\(type(of: error))", neverSent: true)
            }
            do {
                while true {
                    var reply: UnsafeMutableRawPointer?
                    guard redisReaderGetReply(reader, &reply) == REDIS_OK else {
                        return SendResult(failure: "the reply could not be read (\(String(cString: latchkey_redis_reader_error(reader))))")
                    }
                    if let reply {
                        defer { freeReplyObject(reply) }
                        return SendResult(reply: RedisConnection.reply(reply.assumingMemoryBound(to: redisReply.self).pointee))
                    }
                    let bytes = try stream.read(maximum: Self.readSize)
                    guard !bytes.isEmpty else { return SendResult(failure: "the server closed the connection") }
                    _ = bytes.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) { redisReaderFeed(reader, $0.baseAddress, $0.count) }
                    }
                }
            } catch let error as LatchkeyCryptoError {
                return SendResult(failure: "\(error.message): \(error.detail ?? "")")
            } catch {
                return SendResult(failure: "\(type(of: error))")
            }
        }
    }

    private static func reply(_ reply: redisReply) -> RedisReply {
        func text() -> String {
            guard let bytes = reply.str else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: bytes, count: reply.len), as: UTF8.self)
        }
        switch reply.type {
        case REDIS_REPLY_STRING: return .string(text())
        case REDIS_REPLY_STATUS: return .status(text())
        case REDIS_REPLY_ERROR: return .error(text())
        case REDIS_REPLY_INTEGER: return .integer(Int(reply.integer))
        case REDIS_REPLY_ARRAY:
            guard let elements = reply.element else { return .array([]) }
            return .array((0..<reply.elements).map { index in elements[index].map { Self.reply($0.pointee) } ?? .null })
        default: return .null
        }
    }

    private static func timeValue(_ seconds: TimeInterval) -> timeval {
        let whole = seconds.rounded(.down)
        return timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1_000_000))
    }
}
