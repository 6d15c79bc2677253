import Foundation
import LatchkeyCore
import LatchkeyTestSupport
import Testing

@Suite struct LoggerTests {
    @Test("a log line is one JSON object with sorted keys, any text escaped, and the time of the clock")
    func lineIsJSON() throws {
        let sink = MemoryLogSink()
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000.75))
        let hostile = "quote \" backslash \\ newline \n nul \u{0} bell \u{7} del \u{7F} separator \u{2028} é 🔑"
        Logger(sink: sink, clock: clock).warning("event_name", [
            "text": .string(hostile), "count": 3, "ratio": .double(0.25), "ms": .double(12), "flag": .bool(true),
        ])
        let line = try #require(sink.lines.first)
        #expect(!line.contains("\n") && !line.unicodeScalars.contains { $0.value < 0x20 })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["text"] as? String == hostile)
        #expect(object["count"] as? Int == 3)
        #expect(object["ratio"] as? Double == 0.25)
        #expect(object["ms"] as? Int == 12)
        #expect(object["flag"] as? Bool == true)
        #expect(object["event"] as? String == "event_name")
        #expect(object["level"] as? String == "warning")
        #expect(object["ts"] as? String == "2027-01-15T08:00:00Z")
        let positions = ["count", "event", "flag", "level", "ms", "ratio", "text", "ts"].compactMap {
            line.range(of: "\"\($0)\":")?.lowerBound
        }
        #expect(positions.count == 8 && positions == positions.sorted())
    }

    @Test("each character that needs an escape is escaped alone among plain text, and plain text is written as it is")
    func eachEscapeAlone() throws {
        let specials = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}"]
        for special in specials + ["", "—"] {
            let sink = MemoryLogSink()
            let text = "plain é 🔑 " + special + " text"
            Logger(sink: sink).warning("event_name", ["text": .string(text)])
            let line = try #require(sink.lines.first)
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x2028 || $0.value == 0x2029 })
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["text"] as? String == text)
            if special.isEmpty || special == "—" { #expect(line.contains("\"text\":\"\(text)\"")) }
        }
    }

    @Test("timestamps are what ISO8601DateFormatter writes, across leap years, centuries and before 1970")
    func timestampsMatchFoundation() {
        let formatter = ISO8601DateFormatter()
        var seconds: Double = -2_208_988_800  // 1900-01-01
        while seconds < 7_258_118_400 {  // 2200-01-01
            let date = Date(timeIntervalSince1970: seconds + 0.999)
            #expect(Timestamp.iso8601(date) == formatter.string(from: date))
            seconds += 86_400 * 7.3 + 3_601
        }
    }
}
