import LatchkeyHTTP
import Testing

/// Request targets whose `?` is followed by a combining mark: found by the FuzzRequestTarget
/// target. Searched by byte, the `?` must also be stepped over by byte, or the mark (one
/// `Character` with the `?`) is dropped from the first parameter's name.
@Suite struct RequestTargetCombiningMarkTests {
    @Test("a combining mark after ? stays in the first parameter's name")
    func combiningMarkAfterQuestionMark() throws {
        let target = try #require(RequestTarget("/oauth/authorize?\u{301}redirect_uri=x"))
        #expect(target.path == "/oauth/authorize")
        #expect(target.query.map(\.name) == ["\u{301}redirect_uri"])
    }

    @Test("in the absolute form, a ? followed by a combining mark ends the authority")
    func combiningMarkInAbsoluteForm() throws {
        let target = try #require(RequestTarget("http://example.com?\u{301}a=1"))
        #expect(target.path == "/")
        #expect(target.query.map(\.name) == ["\u{301}a"])
    }
}
