package import LatchkeyCore
package import Foundation
import Synchronization

/// A rate limiter kept in Redis, so every server instance sharing that Redis shares the
/// limits. It makes exactly the decisions of ``LocalRateLimiter`` (sliding windows, every
/// window must have room, a block that attempts while blocked never lengthen, the same
/// `Retry-After` values): each call is
/// one Lua script that reads and updates the key atomically, with the caller's `now`
/// (never Redis's clock).
///
/// A key is stored as a sorted set of allowed events and a hash of its penalty state,
/// named `<namespace>{<key>}:events` and `:state`; both expire once they no longer limit
/// anything. When Redis is unreachable or refuses, calls throw `rate_limiter_unavailable`.
package final class RedisRateLimiter: RateLimiter {
    private let pool: RedisConnectionPool
    private let namespace: String
    private let scriptDigest = Mutex<String?>(nil)

    /// Creates a limiter on `endpoint`; connects on first use. `namespace` prefixes every key.
    package init(
        endpoint: RedisEndpoint, namespace: String = "latchkey:rl:", connectTimeout: TimeInterval = 1,
        commandTimeout: TimeInterval = 1, maximumIdleConnections: Int = 16
    ) {
        self.pool = RedisConnectionPool(
            endpoint: endpoint, connectTimeout: connectTimeout, commandTimeout: commandTimeout, maximumIdle: maximumIdleConnections)
        self.namespace = namespace
    }

    package func consume(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        try run("consume", key: key, policy: policy, now: now)
    }

    package func check(_ key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        try run("check", key: key, policy: policy, now: now)
    }

    package func refund(_ key: String, policy: RateLimitPolicy, now: Date) throws {
        _ = try run("refund", key: key, policy: policy, now: now)
    }

    /// Connects (with `AUTH` and `SELECT`) and pings Redis; throws `rate_limiter_unavailable`
    /// when that fails. For a check at start-up.
    package func ping() throws {
        let reply = try pool.command(["PING"])
        guard reply == .status("PONG") else { throw Self.unexpected(reply) }
    }

    /// The names of the two Redis keys that hold `key`'s state.
    func storageKeys(_ key: String) -> [String] {
        // The hash tag keeps both keys in one slot, as a script on a Redis Cluster needs.
        ["\(namespace){\(key)}:events", "\(namespace){\(key)}:state"]
    }

    private func run(_ mode: String, key: String, policy: RateLimitPolicy, now: Date) throws -> RateLimitDecision {
        // Decimal text of a Double round-trips exactly, so the script computes with the
        // same numbers LocalRateLimiter would.
        var arguments = ["2"] + storageKeys(key) + [
            mode, String(now.timeIntervalSince1970), policy.basePenalty.map { String($0) } ?? "",
        ]
        for window in policy.windows { arguments += [String(window.limit), String(window.seconds)] }

        var reply = try pool.command(["EVALSHA", try loadedScriptDigest()] + arguments)
        if case .error(let message) = reply, message.hasPrefix("NOSCRIPT") {
            // Redis restarted or flushed its script cache; EVAL loads the script again.
            reply = try pool.command(["EVAL", Self.script] + arguments)
        }
        guard case .array(let values) = reply, values.count == 2,
              case .integer(let allowed) = values[0], case .integer(let retryAfter) = values[1] else {
            throw Self.unexpected(reply)
        }
        return allowed == 1 ? .allowed : .limited(retryAfter: retryAfter)
    }

    private func loadedScriptDigest() throws -> String {
        if let digest = scriptDigest.withLock({ $0 }) { return digest }
        let reply = try pool.command(["SCRIPT", "LOAD", Self.script])
        guard case .string(let digest) = reply else { throw Self.unexpected(reply) }
        scriptDigest.withLock { $0 = digest }
        return digest
    }

    private static func unexpected(_ reply: RedisReply) -> LatchkeyError {
        if case .error(let message) = reply {
            return LatchkeyError.rateLimiterUnavailable("Redis refused a rate limit command.", detail: message)
        }
        return LatchkeyError.rateLimiterUnavailable("Redis gave an unexpected reply to a rate limit command.")
    }

    /// The decision of LocalRateLimiter, step for step, in Redis's Lua 5.1.
    /// KEYS: the events sorted set (score = time in seconds, member = a sequence number) and
    /// the state hash (blocked_until, seq).
    /// ARGV: mode (consume, check or refund), now, base penalty ('' for none), then the limit
    /// and seconds of each window.
    /// Returns {1, 0} when allowed, {0, retry-after seconds} when limited.
    static let script = """
        local events, state = KEYS[1], KEYS[2]
        local now = tonumber(ARGV[2])
        local base = tonumber(ARGV[3])
        local windows, longest = {}, 0
        for i = 4, #ARGV, 2 do
          local window = {limit = tonumber(ARGV[i]), seconds = tonumber(ARGV[i + 1])}
          windows[#windows + 1] = window
          if window.seconds > longest then longest = window.seconds end
        end

        -- tostring keeps 14 digits; 17 round-trip a double exactly.
        local function exact(x) return string.format('%.17g', x) end
        local function retry_after(seconds) return math.max(1, math.ceil(seconds)) end

        -- How long until every window has room again; nil when all have room now.
        local function full_window_wait()
          local wait = nil
          for _, window in ipairs(windows) do
            local after = '(' .. exact(now - window.seconds)
            local count = redis.call('ZCOUNT', events, after, '+inf')
            if count > 0 and count >= window.limit then
              local oldest = tonumber(redis.call('ZRANGEBYSCORE', events, after, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2])
              local this_wait = window.seconds - (now - oldest)
              if wait == nil or this_wait > wait then wait = this_wait end
            end
          end
          return wait
        end

        -- Keeps both keys at least `seconds` longer (plus a second for clock skew between servers).
        local function keep(seconds)
          local milliseconds = math.ceil(seconds * 1000) + 1000
          for _, key in ipairs({events, state}) do
            if redis.call('PTTL', key) < milliseconds then redis.call('PEXPIRE', key, milliseconds) end
          end
        end

        local blocked_until = tonumber(redis.call('HGET', state, 'blocked_until'))
        local blocked = blocked_until ~= nil and blocked_until > now

        if ARGV[1] == 'refund' then
          local latest = redis.call('ZREVRANGEBYSCORE', events, exact(now), '-inf', 'LIMIT', 0, 1)
          if #latest > 0 then redis.call('ZREM', events, latest[1]) end
          return {1, 0}
        end

        if ARGV[1] == 'check' then
          if blocked then return {0, retry_after(blocked_until - now)} end
          local wait = full_window_wait()
          if wait ~= nil then return {0, retry_after(wait)} end
          return {1, 0}
        end

        redis.call('ZREMRANGEBYSCORE', events, '-inf', exact(now - longest))
        local wait = full_window_wait()
        if not blocked and wait == nil then
          local sequence = redis.call('HINCRBY', state, 'seq', 1)
          redis.call('ZADD', events, exact(now), sequence)
          redis.call('HDEL', state, 'blocked_until')
          keep(longest)
          return {1, 0}
        end
        if base == nil then return {0, retry_after(wait or 1)} end

        -- A block runs until every window has room again, at least `base`; an attempt while
        -- blocked is told what remains and changes nothing, so the wait never grows.
        if blocked then return {0, retry_after(blocked_until - now)} end
        local penalty = math.max(base, wait or 0)
        redis.call('HSET', state, 'blocked_until', exact(now + penalty))
        keep(penalty)
        return {0, retry_after(penalty)}
        """
}
