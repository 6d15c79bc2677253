@testable import LatchkeyCore
@testable import LatchkeyStorage
import Testing

/// The memo of decoded client columns: it gives what decoding gives, decodes each text once,
/// remembers no failure, and stays within its bound.
@Suite struct ClientColumnMemoTests {
    private final class Decoder: @unchecked Sendable {
        var calls: [String] = []

        func decode(_ redirectURIs: String, _ scopeDescriptions: String, _ postLogoutRedirectURIs: String) throws -> ClientColumnMemo.Columns {
            calls.append(redirectURIs)
            guard redirectURIs != "bad" else { throw LatchkeyError(.storage, "bad") }
            return ClientColumnMemo.Columns(
                redirectURIs: [try RedirectURI(redirectURIs)], scopeDescriptions: ["profile": scopeDescriptions],
                postLogoutRedirectURIs: [])
        }
    }

    @Test("each text is decoded once; another text (a client registered since) is decoded on its own")
    func decodesEachTextOnce() throws {
        let memo = ClientColumnMemo()
        let decoder = Decoder()
        for _ in 0..<3 {
            let columns = try memo.columns(redirectURIs: "https://a.example/cb", scopeDescriptions: "A", postLogoutRedirectURIs: "[]", decode: decoder.decode)
            #expect(columns.redirectURIs.map(\.value) == ["https://a.example/cb"])
            #expect(columns.scopeDescriptions == ["profile": "A"])
        }
        let other = try memo.columns(redirectURIs: "https://a.example/cb", scopeDescriptions: "B", postLogoutRedirectURIs: "[]", decode: decoder.decode)
        #expect(other.scopeDescriptions == ["profile": "B"])
        #expect(decoder.calls == ["https://a.example/cb", "https://a.example/cb"])
    }

    @Test("a text that fails to decode fails every time, and is not remembered")
    func failureIsNotRemembered() {
        let memo = ClientColumnMemo()
        let decoder = Decoder()
        for _ in 0..<2 {
            #expect(throws: LatchkeyError.self) {
                try memo.columns(redirectURIs: "bad", scopeDescriptions: "", postLogoutRedirectURIs: "[]", decode: decoder.decode)
            }
        }
        #expect(decoder.calls.count == 2)
        #expect(memo.count == 0)
    }

    @Test("past its limit the memo starts over instead of growing")
    func bounded() throws {
        let memo = ClientColumnMemo(limit: 4)
        let decoder = Decoder()
        for index in 0..<10 {
            _ = try memo.columns(redirectURIs: "https://\(index).example/cb", scopeDescriptions: "", postLogoutRedirectURIs: "[]", decode: decoder.decode)
            #expect(memo.count <= 4)
        }
        #expect(memo.count == 2)
    }
}
