import LatchkeyHTTP
import Testing

/// Header field names as RFC 9110 compares them: equal but for the case of ASCII letters.
@Suite struct HTTPHeadersTests {
    @Test("a field is found and replaced whatever the case of its name's letters")
    func namesIgnoreLetterCase() {
        var headers = HTTPHeaders([("Content-Type", "application/json"), ("X-Frame-Options", "DENY")])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.contentTypeIs("application/json"))
        headers.set("x-frame-options", "SAMEORIGIN")
        #expect(headers.values("X-Frame-Options") == ["SAMEORIGIN"])
        #expect(Array(headers).count == 2)
    }

    @Test("names differing in anything but a letter's case are different fields")
    func otherBytesAreCompared() {
        // `[` and `{`, `@` and `` ` ``, `^` and `~` differ only in the bit that separates a
        // letter's cases; they are not letters, so the names differ.
        let headers = HTTPHeaders([("X-[", "bracket"), ("X-@", "at"), ("X-^", "caret"), ("Content-Type", "text/plain")])
        #expect(headers["X-{"] == nil)
        #expect(headers["X-`"] == nil)
        #expect(headers["X-~"] == nil)
        #expect(headers["X-["] == "bracket")
        #expect(headers["Content-Typf"] == nil)
        #expect(headers["Content-Type "] == nil)
        #expect(headers["Content-Typé"] == nil)
    }
}
