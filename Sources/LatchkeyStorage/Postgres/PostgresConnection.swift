import LatchkeyCore
import CPostgreSQL
import Foundation
import LatchkeyCrypto
import Synchronization

/// The one wrapper of libpq: owns a `PGconn`, closes it in `deinit`, and runs statements
/// on it only as prepared, parameterised statements (`PQprepare` once per connection and
/// SQL text, then `PQexecPrepared`; values sent as typed text, never spliced into SQL) or as
/// parameterless scripts (migrations). Statements mark parameters with `?`, as on every
/// ``SQLConnection``, or with PostgreSQL's own `$1`, `$2`, ...
///
/// Calls on one instance are serialised by a `Mutex`; ``PostgresConnectionPool`` lends
/// each connection to one caller at a time anyway, so the lock is never contended.
///
/// Every failure is thrown as ``LatchkeyError`` with code `storage_unavailable` when the
/// database may serve a retry (unreachable, the connection lost, a statement past its
/// timeout: a 503 with `Retry-After`) and `storage_error` otherwise, a message safe for
/// clients and PostgreSQL's own text (with its SQLSTATE) in `detail`; the password is never
/// part of either. After a failure, ``lastFailure`` says what kind it was, so the
/// pool can tell a lost connection or a conflict (worth retrying) from anything else.
final class PostgresConnection: Sendable, SQLConnection {
    /// What made the last statement fail, as far as retrying is concerned.
    enum Failure: Sendable, Equatable {
        /// The connection is gone (server restarted, backend terminated, network).
        case connectionLost
        /// PostgreSQL aborted the transaction to resolve a conflict with another one
        /// (deadlock or serialization failure); running it again may succeed.
        case conflict
        /// Anything else: constraint violation, timeout, bad SQL.
        case other
    }

    private struct State {
        let handle: OpaquePointer
        var lastFailure: Failure?
        /// The server-side name of each statement prepared on this connection, by SQL text.
        var prepared: [String: String] = [:]
    }

    /// The most statements one connection keeps prepared; the store's SQL is a fixed set
    /// well below this, so only ad-hoc SQL (tests, tools) runs unprepared beyond it.
    static let preparedStatementLimit = 256

    private let state: Mutex<State>

    /// Connects to the database `url` names, with `statementTimeout` (seconds, rounded to
    /// milliseconds) applied to every statement of the session and `connectTimeout`
    /// (whole seconds, at least 2 as libpq requires) to establishing it. Throws
    /// `storage_unavailable` when the server cannot be reached or refuses the login.
    init(url: PostgresURL, statementTimeout: TimeInterval, connectTimeout: Int) throws {
        var parameters: [(String, String)] = [
            ("host", url.host), ("port", String(url.port)), ("dbname", url.database),
            ("client_encoding", "UTF8"),
            ("options", "-c statement_timeout=\(Int((statementTimeout * 1000).rounded(.up)))"),
            // statement_timeout is the server's: a database host that vanishes mid-query
            // (a failover) never answers, and without these the call would wait for the
            // kernel's defaults (hours). Keepalive probes from 5 s of silence find it in
            // about 11 s; unacknowledged sends give up after 10 s.
            ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "10000"),
        ]
        // The URL's own connect_timeout and application_name win over these.
        if url.options["connect_timeout"] == nil { parameters.append(("connect_timeout", String(max(2, connectTimeout)))) }
        if url.options["application_name"] == nil { parameters.append(("application_name", "latchkey")) }
        if let user = url.user { parameters.append(("user", user)) }
        if let password = url.password { parameters.append(("password", password.exposed)) }
        parameters += url.options.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }

        let handle = Self.connect(parameters)
        guard let handle else {
            throw LatchkeyError.storageUnavailable("The database could not be reached.", retryAfter: 5, detail: "\(url): out of memory")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let detail = CredentialScrubber.scrub(String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw LatchkeyError.storageUnavailable("The database could not be reached.", retryAfter: 5, detail: "\(url): \(detail)")
        }
        // Without this, libpq prints server notices ("relation already exists, skipping") on stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        state = Mutex(State(handle: handle, lastFailure: nil))
    }

    /// Opens a connection with libpq's keyword/value parameters (no conninfo string, so
    /// no value needs quoting).
    private static func connect(_ parameters: [(String, String)]) -> sending OpaquePointer? {
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        return (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordList in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
                PQconnectdbParams(keywordList.baseAddress, valueList.baseAddress, 0)
            }
        }
    }

    deinit {
        state.withLock { PQfinish($0.handle) }
    }

    /// What made the most recent statement fail; nil when it succeeded.
    var lastFailure: Failure? {
        state.withLock { $0.lastFailure }
    }

    /// Whether the connection can be lent out again: connected, outside any transaction,
    /// and not closed by the server meanwhile. Reads (without blocking) whatever the server
    /// sent while the connection sat idle, so a backend that was terminated or a server
    /// that restarted is noticed here, without a round trip, instead of by the next query.
    var isReusable: Bool {
        state.withLock { state in
            let handle = state.handle
            guard PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) == PQTRANS_IDLE else { return false }
            // The first call takes pending data (a termination notice), the second sees the end of the stream.
            guard PQconsumeInput(handle) == 1, PQconsumeInput(handle) == 1 else { return false }
            return PQstatus(handle) == CONNECTION_OK
        }
    }

    /// Runs one statement with `values` bound to its parameters (`?` or `$1`, `$2`, ...) in
    /// order; returns how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        try run(sql, values).affectedRows
    }

    /// Runs one statement with `values` bound to its parameters (`?` or `$1`, `$2`, ...) in
    /// order; returns every row it produced (a `SELECT`, or a statement with `RETURNING`).
    func query(_ sql: String, _ values: [SQLValue] = []) throws -> [PostgresRow] {
        try run(sql, values).rows
    }

    /// Runs a script of several statements without parameters, such as a migration.
    func executeScript(_ sql: String) throws {
        try state.withLock { state in
            state.lastFailure = nil
            let result = PQexec(state.handle, sql)
            defer { PQclear(result) }
            try check(result, in: &state)
        }
    }

    private func run(_ sql: String, _ values: [SQLValue]) throws -> (rows: [PostgresRow], affectedRows: Int) {
        // libpq reads text parameters as C strings: a NUL would cut the value short, so
        // PostgreSQL would see another string than SQLite (and than any key made from it).
        for case .text(let text?) in values where text.utf8.contains(0) {
            throw LatchkeyError(.storage, "A database value was refused.", detail: "text parameter with a NUL byte")
        }
        return try state.withLock { state in
            state.lastFailure = nil
            let types: [Oid] = values.map { value in
                switch value {
                case .text: 25  // text
                case .integer: 20  // int8
                }
            }
            let texts: [UnsafeMutablePointer<CChar>?] = values.map { value in
                switch value {
                case .text(let text): text.map { strdup($0) }
                case .integer(let integer): integer.map { strdup(String($0)) }
                }
            }
            defer { texts.forEach { free($0) } }
            var name = state.prepared[sql]
            if name == nil, state.prepared.count < Self.preparedStatementLimit {
                let candidate = "latchkey_\(state.prepared.count + 1)"
                let preparation = types.withUnsafeBufferPointer { types in
                    PQprepare(state.handle, candidate, Self.numberingParameters(sql), Int32(values.count), types.baseAddress)
                }
                defer { PQclear(preparation) }
                try check(preparation, in: &state)
                state.prepared[sql] = candidate
                name = candidate
            }
            let result = texts.map { UnsafePointer($0) }.withUnsafeBufferPointer { parameters in
                types.withUnsafeBufferPointer { types in
                    if let name {
                        PQexecPrepared(state.handle, name, Int32(values.count), parameters.baseAddress, nil, nil, 0)
                    } else {
                        PQexecParams(
                            state.handle, Self.numberingParameters(sql), Int32(values.count), types.baseAddress,
                            parameters.baseAddress, nil, nil, 0)
                    }
                }
            }
            defer { PQclear(result) }
            try check(result, in: &state)

            let rowCount = PQntuples(result)
            let columnCount = PQnfields(result)
            let columns = ResultColumns((0..<columnCount).map { String(cString: PQfname(result, $0)) })
            var rows: [PostgresRow] = []
            rows.reserveCapacity(Int(rowCount))
            for row in 0..<rowCount {
                let fields: [String?] = (0..<columnCount).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                }
                rows.append(PostgresRow(values: fields, columns: columns))
            }
            let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
            return (rows, affected)
        }
    }

    /// Throws, and records the kind of failure, unless `result` reports success.
    private func check(_ result: OpaquePointer?, in state: inout State) throws {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            break
        }
        let sqlState = PQresultErrorField(result, latchkey_pg_diag_sqlstate()).map { String(cString: $0) }
        // The primary message only: the DETAIL line can quote row values (emails, digests).
        let message = PQresultErrorField(result, latchkey_pg_diag_message_primary()).map { String(cString: $0) }
            ?? String(cString: PQerrorMessage(state.handle))
        let detail = CredentialScrubber.scrub(
            "\(sqlState.map { "SQLSTATE \($0): " } ?? "")\(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        if PQstatus(state.handle) != CONNECTION_OK || sqlState?.hasPrefix("08") == true {
            state.lastFailure = .connectionLost
            throw LatchkeyError.storageUnavailable("The database connection was lost.", retryAfter: 5, detail: detail)
        }
        switch sqlState {
        case "40001", "40P01":
            state.lastFailure = .conflict
            throw LatchkeyError(.storage, "A database transaction conflicted with another.", detail: detail)
        case "57014":
            state.lastFailure = .other
            throw LatchkeyError.storageUnavailable("The database did not answer in time.", detail: detail)
        default:
            state.lastFailure = .other
            throw LatchkeyError(.storage, "A database statement failed.", detail: detail)
        }
    }

    /// `sql` with its `?` parameter markers numbered `$1`, `$2`, ... in order, as PostgreSQL
    /// expects; a `?` inside a string literal, a quoted identifier or a `--` comment stays.
    static func numberingParameters(_ sql: String) -> String {
        var numbered = ""
        var count = 0
        var closing: Character?
        var previous: Character?
        for character in sql {
            switch closing {
            case nil where character == "'" || character == "\"":
                closing = character
            case nil where character == "-" && previous == "-":
                closing = "\n"
            case nil where character == "?":
                count += 1
                numbered += "$\(count)"
                previous = character
                continue
            case let end? where character == end:
                closing = nil
            default:
                break
            }
            numbered.append(character)
            previous = character
        }
        return numbered
    }
}
