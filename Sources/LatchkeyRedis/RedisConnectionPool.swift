import LatchkeyCore
import Foundation
import Synchronization

/// Redis connections shared by every request thread: a command takes an idle connection
/// (or opens a new one when all are busy) and gives it back afterwards, so concurrent
/// requests never wait on one socket. At most `maximumIdle` connections are kept open.
final class RedisConnectionPool: Sendable {
    private let endpoint: RedisEndpoint
    private let connectTimeout: TimeInterval
    private let commandTimeout: TimeInterval
    private let maximumIdle: Int
    private let idle = Mutex<[RedisConnection]>([])

    /// Creates an empty pool; connections open on first use.
    init(endpoint: RedisEndpoint, connectTimeout: TimeInterval, commandTimeout: TimeInterval, maximumIdle: Int) {
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.maximumIdle = maximumIdle
    }

    /// Runs one command on a free connection; see ``RedisConnection/command(_:)``.
    func command(_ arguments: [String]) throws -> RedisReply {
        let connection = idle.withLock { $0.popLast() }
            ?? RedisConnection(endpoint: endpoint, connectTimeout: connectTimeout, commandTimeout: commandTimeout)
        defer {
            idle.withLock { idle in
                if idle.count < maximumIdle { idle.append(connection) }
            }
        }
        return try connection.command(arguments)
    }
}
