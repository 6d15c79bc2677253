import Foundation
import Synchronization

/// Where log lines go. The server writes to stderr; tests collect lines to inspect them.
package protocol LogSink: Sendable {
    /// Writes one complete line (no trailing newline included).
    func write(line: String)
}

/// Writes each line to standard error.
package struct StandardErrorSink: LogSink {
    /// Creates the sink.
    package init() {}

    package func write(line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// A structured logger: one JSON object per line with `ts`, `level`, `event` and fields.
///
/// Fields are plain strings and numbers chosen by the caller; secrets never reach a
/// logger because they are ``Redacted`` and the logger accepts no `Any`.
package struct Logger: Sendable {
    /// Severity of an event.
    package enum Level: String, Sendable, Comparable {
        case debug, info, warning, error

        private var rank: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .warning: 2
            case .error: 3
            }
        }

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    /// A field value: text, a number, or a flag.
    package enum Value: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)

        package init(stringLiteral value: String) { self = .string(value) }
        package init(integerLiteral value: Int) { self = .int(value) }
    }

    private let sink: any LogSink
    private let minimumLevel: Level
    private let clock: any WallClock

    /// Creates a logger writing lines at `minimumLevel` or above to `sink`.
    package init(sink: any LogSink = StandardErrorSink(), minimumLevel: Level = .info, clock: any WallClock = SystemClock()) {
        self.sink = sink
        self.minimumLevel = minimumLevel
        self.clock = clock
    }

    /// Logs `event` with `fields` at `level`: one JSON object, keys sorted, written by hand
    /// (no formatter or `[String: Any]` on the request path). Below the minimum level the
    /// fields are not even built.
    package func log(_ level: Level, _ event: String, _ fields: @autoclosure () -> [String: Value] = [:]) {
        guard level >= minimumLevel else { return }
        var all = fields()
        all["ts"] = .string(Timestamp.iso8601(clock.now()))
        all["level"] = .string(level.rawValue)
        all["event"] = .string(event)
        var line = "{"
        for (index, (key, value)) in all.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { line += "," }
            Self.appendJSONString(key, to: &line)
            line += ":"
            switch value {
            case .string(let text): Self.appendJSONString(text, to: &line)
            case .int(let number): line += String(number)
            case .double(let number):
                if !number.isFinite {
                    line += "null"
                } else if number == number.rounded(), abs(number) < 1e15 {
                    line += String(Int64(number))
                } else {
                    line += String(number)
                }
            case .bool(let flag): line += flag ? "true" : "false"
            }
        }
        line += "}"
        sink.write(line: line)
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped
    /// (and DEL, U+2028 and U+2029, which some readers take for line ends).
    private static func appendJSONString(_ text: String, to line: inout String) {
        line += "\""
        // Most values need no escape: copied whole, where going scalar by scalar was a
        // noticeable part of a reset request's time (measured: docs/performance.md, "Log
        // lines: plain values copied whole"). 0xE2 leads U+2028 and U+2029 (and other
        // characters, which the loop then copies as they are).
        var text = text
        let plain = text.withUTF8 { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xE2 }
        }
        if plain {
            line += text
            line += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }

    /// Logs at `info`.
    package func info(_ event: String, _ fields: @autoclosure () -> [String: Value] = [:]) { log(.info, event, fields()) }
    /// Logs at `warning`.
    package func warning(_ event: String, _ fields: @autoclosure () -> [String: Value] = [:]) { log(.warning, event, fields()) }
    /// Logs at `error`.
    package func error(_ event: String, _ fields: @autoclosure () -> [String: Value] = [:]) { log(.error, event, fields()) }
}
