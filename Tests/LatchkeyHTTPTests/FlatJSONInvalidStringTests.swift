import Foundation
import LatchkeyCore
import LatchkeyHTTP
import Testing

/// A member whose string is not valid UTF-8, followed by a literal: found by the FuzzJSONBody
/// target. The flat parser read `"a\u{B9}"null` as null (the literal after the refused
/// string), accepting a body JSONDecoder refuses.
@Suite struct FlatJSONInvalidStringTests {
    private struct Body: Decodable {
        let email: String
        let mode: String?
    }

    private static func bytes(_ prefix: String, _ invalid: UInt8, _ suffix: String) -> Data {
        Data(Array(prefix.utf8) + [invalid] + Array(suffix.utf8))
    }

    @Test("a string of invalid UTF-8 followed by a literal is no flat object")
    func invalidStringThenLiteral() {
        #expect(FlatJSONObject(Self.bytes(#"{"email":"a"#, 0xB9, #""null}"#)) == nil)
        #expect(FlatJSONObject(Self.bytes(#"{"mode":""#, 0xFF, #""true}"#)) == nil)
        #expect(FlatJSONObject(Data(#"{"email":"a","mode":null}"#.utf8)) != nil)
    }

    @Test("such a body is invalid JSON, as JSONDecoder says, not a body with the member null")
    func decodedAsJSONDecoderDoes() {
        let request = HTTPRequest(method: "POST", path: "/", body: Self.bytes(#"{"email":"a@b.c","mode":""#, 0xFF, #""null}"#))
        do {
            _ = try request.decodeJSON(Body.self)
            Issue.record("the body was accepted")
        } catch let error as LatchkeyError {
            #expect(error.code == .invalidJSON)
        } catch {
            Issue.record("decodeJSON threw \(error)")
        }
    }
}
