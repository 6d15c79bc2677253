@testable import LatchkeyHTTP
import Testing

@Suite struct RequestTargetTests {
    @Test("the path stays raw while query names and values are form-decoded, repeats kept in order")
    func splitsAndDecodes() throws {
        let target = try #require(RequestTarget("/a%2Fb?scope=openid+profile&x=1&x=2&redirect_uri=app%3A%2F%2Fcb&empty="))
        #expect(target.path == "/a%2Fb")
        #expect(target.query.map { [$0.name, $0.value] } == [
            ["scope", "openid profile"], ["x", "1"], ["x", "2"], ["redirect_uri", "app://cb"], ["empty", ""],
        ])
    }

    @Test("absolute-form targets and fragments are reduced to path and query")
    func absoluteFormAndFragment() throws {
        let absolute = try #require(RequestTarget("http://example.com/p?q=1#frag"))
        #expect(absolute.path == "/p")
        #expect(absolute.query.map(\.value) == ["1"])
        #expect(try #require(RequestTarget("http://example.com")).path == "/")
        #expect(try #require(RequestTarget("/p#a?b=1")).query.isEmpty)
    }

    @Test("bad percent-encoding or non-UTF-8 in the query is refused")
    func refusesBadEncoding() {
        #expect(RequestTarget("/p?a=%G1") == nil)
        #expect(RequestTarget("/p?a=%") == nil)
        #expect(RequestTarget("/p?%FF=1") == nil)
    }
}
