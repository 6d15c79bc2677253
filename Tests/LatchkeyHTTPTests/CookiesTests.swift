import LatchkeyCore
import LatchkeyHTTP
import Testing

/// The Cookie header read as a browser writes it: bytes, pairs split at `;`, names at `=`.
@Suite struct CookiesTests {
    private func cookie(_ name: String, in fields: String...) -> String? {
        HTTPRequest(method: "GET", path: "/", headers: HTTPHeaders(fields.map { ("Cookie", $0) })).cookie(name)
    }

    @Test("a cookie sent once is found among others, spaces and tabs around it dropped")
    func foundOnce() {
        #expect(cookie("latchkey_session", in: "theme=dark; latchkey_session=abc-123_X.y") == "abc-123_X.y")
        #expect(cookie("latchkey_session", in: "theme=dark", "\tlatchkey_session = abc ;") == "abc")
        #expect(cookie("a", in: "a=") == "")
        #expect(cookie("a", in: "a=b=c") == "b=c")
        #expect(cookie("a", in: "b=1") == nil)
        #expect(cookie("a", in: "A=1") == nil)
    }

    @Test("a cookie sent twice, in one field or across fields, is not read (a sibling domain cannot shadow ours)")
    func sentTwiceIsNotRead() {
        #expect(cookie("a", in: "a=1; a=2") == nil)
        #expect(cookie("a", in: "a=1", "a=1") == nil)
        #expect(cookie("a", in: "a=1; a=\u{1}") == nil)
    }

    @Test("a combining mark after ; or = does not hide a pair or join it to the value before")
    func combiningMarksDoNotJoinSeparators() {
        // As Swift characters ";\u{301}" is one character, not a ";": split by characters, the
        // value of x would run on to the end of the field.
        #expect(cookie("x", in: "x=1;\u{301} a=2") == "1")
        #expect(cookie("x", in: "x=1;\u{301}") == "1")
        // The mark is part of the next pair's name, as a browser reads the bytes.
        #expect(cookie("a", in: "x=1;\u{301} a=2") == nil)
        #expect(cookie("\u{301} a", in: "x=1;\u{301} a=2") == "2")
        #expect(cookie("a", in: "a=\u{301}x") == nil)
        #expect(cookie("a", in: "a= \u{301}x") == nil)
    }

    @Test("a value outside RFC 6265's cookie-octet is not read: control characters, non-ASCII, quotes, commas, backslashes, inner spaces")
    func characterPolicy() {
        for value in ["a\u{0}b", "a\u{7F}", "é", "\"quoted\"", "a,b", "a\\b", "a b", "a\u{1B}[0m"] {
            #expect(cookie("a", in: "a=\(value)") == nil, "\(value.debugDescription)")
        }
    }

    @Test("a field over 8 KiB is not read")
    func longFieldIsNotRead() {
        let padding = String(repeating: "p", count: 8192)
        #expect(cookie("a", in: "a=1; pad=\(padding)") == nil)
        #expect(cookie("a", in: "pad=\(padding)", "a=1") == "1")
    }
}
