import Foundation
@testable import LatchkeyCore
@testable import LatchkeyHTTP
import Testing

@Suite struct FormParametersTests {
    private func form(_ body: [UInt8]) throws -> FormParameters {
        try FormParameters(body: HTTPRequest(
            method: "POST", path: "/oauth/token",
            headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]), body: Data(body)))
    }

    private func form(_ body: String) throws -> FormParameters {
        try form(Array(body.utf8))
    }

    @Test("a body's names and values are form-decoded: + a space, %XX a byte, a missing = an empty value, empty pairs skipped")
    func decodesBody() throws {
        let parameters = try form("grant_type=refresh_token&&scope=openid+profile&redirect_uri=app%3A%2F%2Fcb&flag&name=J%C3%BCrgen&=x&")
        #expect(try parameters.required("grant_type", maxLength: 64) == "refresh_token")
        #expect(try parameters.required("scope", maxLength: 64) == "openid profile")
        #expect(try parameters.required("redirect_uri", maxLength: 64) == "app://cb")
        #expect(parameters.contains("flag"))
        #expect(try parameters.optional("flag", maxLength: 64) == nil)
        #expect(try parameters.required("name", maxLength: 64) == "Jürgen")
        #expect(try parameters.required("", maxLength: 64) == "x")
        #expect(FormParameters.decode(urlencoded: "a=1=2&b")?.map { [$0.name, $0.value] } == [["a", "1=2"], ["b", ""]])
    }

    @Test("a body that is not validly encoded is refused", arguments: [
        Array("a=%G1".utf8), Array("a=%4".utf8), Array("%FF=1".utf8), Array("a=%C3%28".utf8), [0x61, 0x3D, 0xC3, 0x28], [0xFF, 0x3D, 0x31],
    ])
    func refusesBadEncoding(body: [UInt8]) {
        #expect(throws: LatchkeyError.self) { try form(body) }
    }

    @Test("& and = separate wherever they are, even before a combining mark")
    func splitsOnBytes() throws {
        let parameters = try form("a=1&\u{301}b=2")
        #expect(try parameters.required("a", maxLength: 8) == "1")
        #expect(try parameters.required("\u{301}b", maxLength: 8) == "2")
    }

    @Test("a repeated parameter or a control character in the body is refused")
    func refusesRepeatsAndControls() {
        #expect(throws: LatchkeyError.self) { try form("a=1&a=2") }
        #expect(throws: LatchkeyError.self) { try form("a=%00") }
        #expect(throws: LatchkeyError.self) { try form("a=1%0Ab") }
    }
}
