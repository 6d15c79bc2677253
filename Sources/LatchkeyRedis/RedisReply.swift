import LatchkeyCore
/// One reply of the Redis protocol (RESP2), as plain Swift values.
enum RedisReply: Sendable, Equatable {
    /// A bulk string.
    case string(String)
    /// A status line such as `OK`.
    case status(String)
    /// An error line such as `NOSCRIPT No matching script`.
    case error(String)
    /// An integer.
    case integer(Int)
    /// An array of replies.
    case array([RedisReply])
    /// The nil bulk string or nil array.
    case null
}
