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
/// `SELECT` as the endpoint asks. A connection that fails is dropped, and the next command
/// connects afresh; a command that finds the server gone from a connection that was idle
/// (Redis restarted) is retried once on a new connection. Commands on one connection run
/// one at a time; ``RedisConnectionPool`` spreads concurrent callers over several.
///
/// Every failure throws `rate_limiter_unavailable` (Redis serves only the shared rate
/// limiter), naming the server but never the password.
final class RedisConnection: Sendable {
    private let endpoint: RedisEndpoint
    private let connectTimeout: TimeInterval
    private let commandTimeout: TimeInterval
    private let context = Mutex<UnsafeMutablePointer<redisContext>?>(nil)

    /// Creates an unconnected connection to `endpoint`.
    init(endpoint: RedisEndpoint, connectTimeout: TimeInterval, commandTimeout: TimeInterval) {
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    deinit {
        context.withLock { context in
            if let context { redisFree(context) }
        }
    }

    /// Sends one command (binary-safe arguments) and returns its reply. A Redis error reply
    /// is returned as ``RedisReply/error(_:)``; a connection failure throws.
    func command(_ arguments: [String]) throws -> RedisReply {
        try context.withLock { context throws(LatchkeyError) in
            let wasConnected = context != nil
            switch perform(arguments, on: &context) {
            case .success(let reply):
                return reply
            case .failure(let failure) where wasConnected && failure.serverHungUp:
                return try perform(arguments, on: &context).mapError(\.error).get()
            case .failure(let failure):
                throw failure.error
            }
        }
    }

    private struct ConnectionFailure: Error {
        let error: LatchkeyError
        /// The server closed the connection before this command reached it.
        let serverHungUp: Bool
    }

    private func perform(
        _ arguments: [String], on context: inout UnsafeMutablePointer<redisContext>?
    ) -> Result<RedisReply, ConnectionFailure> {
        let connected: UnsafeMutablePointer<redisContext>
        if let context {
            connected = context
        } else {
            switch Result(catching: { () throws(LatchkeyError) in try connect() }) {
            case .success(let connection): connected = connection
            case .failure(let error): return .failure(ConnectionFailure(error: error, serverHungUp: false))
            }
            context = connected
        }
        let result = Self.send(arguments, on: connected)
        if let reply = result.reply { return .success(reply) }
        redisFree(connected)
        context = nil
        return .failure(ConnectionFailure(error: unavailable("Redis stopped answering", result.failure), serverHungUp: result.serverHungUp))
    }

    private func connect() throws(LatchkeyError) -> UnsafeMutablePointer<redisContext> {
        let connection = endpoint.host.withCString { redisConnectWithTimeout($0, Int32(endpoint.port), Self.timeValue(connectTimeout)) }
        guard let connection else { throw unavailable("Cannot connect to Redis", "out of memory") }
        guard connection.pointee.err == 0 else {
            let failure = String(cString: latchkey_redis_error_text(connection))
            redisFree(connection)
            throw unavailable("Cannot connect to Redis", failure)
        }
        var setup: [(name: String, arguments: [String])] = []
        if let password = endpoint.password {
            setup.append(("AUTH", ["AUTH"] + (endpoint.username.map { [$0] } ?? []) + [password.exposed]))
        }
        if endpoint.database != 0 { setup.append(("SELECT", ["SELECT", String(endpoint.database)])) }
        guard redisSetTimeout(connection, Self.timeValue(commandTimeout)) == REDIS_OK else {
            redisFree(connection)
            throw unavailable("Cannot set the Redis command timeout", nil)
        }
        for (name, arguments) in setup {
            let result = Self.send(arguments, on: connection)
            guard case .status = result.reply else {
                redisFree(connection)
                // An error reply names the problem (e.g. WRONGPASS) and never echoes the password.
                if case .error(let message) = result.reply { throw unavailable("Redis refused \(name)", message) }
                throw unavailable("Redis did not answer \(name)", result.failure)
            }
        }
        return connection
    }

    private func unavailable(_ what: String, _ detail: String?) -> LatchkeyError {
        LatchkeyError.rateLimiterUnavailable("\(what) at \(endpoint.host):\(endpoint.port).", detail: detail)
    }

    /// The reply, or why there is none.
    private struct SendResult {
        var reply: RedisReply?
        var failure: String?
        var serverHungUp = false
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
        let reply = argv.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeBufferPointer { lengths in
                latchkey_redis_command(connection, Int32(arguments.count), argv.baseAddress, lengths.baseAddress)
            }
        }
        let failureNumber = errno
        guard let reply else {
            let code = connection.pointee.err
            return SendResult(
                failure: String(cString: latchkey_redis_error_text(connection)),
                serverHungUp: code == REDIS_ERR_EOF || (code == REDIS_ERR_IO && (failureNumber == EPIPE || failureNumber == ECONNRESET)))
        }
        defer { freeReplyObject(reply) }
        return SendResult(reply: Self.reply(reply.pointee))
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
