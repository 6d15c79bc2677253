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

    @Test("the Content-Type's media type is matched before any parameter, without surrounding blanks, letters in any case")
    func contentTypeMediaType() {
        let matching = ["application/json", "Application/JSON", " application/json ", "\tapplication/json\t; charset=utf-8",
                        "application/json;charset=utf-8", "APPLICATION/JSON ;"]
        for value in matching {
            #expect(HTTPHeaders([("Content-Type", value)]).contentTypeIs("application/json"), "\(value)")
        }
        let other = ["application/jsonx", "xapplication/json", "application/js", "application/json-patch+json", "text/json", "",
                     ";application/json", "application/ json", "application/json\u{0}"]
        for value in other {
            #expect(!HTTPHeaders([("Content-Type", value)]).contentTypeIs("application/json"), "\(value)")
        }
        #expect(!HTTPHeaders([("Accept", "application/json")]).contentTypeIs("application/json"))
        // Only letters match across case: "[" is "{" with the case bit cleared.
        #expect(!HTTPHeaders([("Content-Type", "a[")]).contentTypeIs("a{"))
    }

    @Test("several fields are replaced at once: every field of each name goes, the others keep their order, the new ones follow in theirs")
    func severalReplacedAtOnce() {
        var headers = HTTPHeaders([
            ("Content-Type", "text/plain"), ("cache-control", "max-age=60"), ("X-Trace", "1"), ("CACHE-CONTROL", "public"),
            ("pragma", "cache"),
        ])
        headers.set([(name: "Cache-Control", value: "no-store"), (name: "Pragma", value: "no-cache"), (name: "X-Frame-Options", value: "DENY")])
        #expect(Array(headers).map { "\($0.name): \($0.value)" } == [
            "Content-Type: text/plain", "X-Trace: 1", "Cache-Control: no-store", "Pragma: no-cache", "X-Frame-Options: DENY",
        ])
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
