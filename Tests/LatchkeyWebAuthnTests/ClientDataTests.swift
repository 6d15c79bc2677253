import Foundation
import LatchkeyWebAuthn
import Testing

/// Client data JSON (§5.8.1): read strictly, whatever the member order or extra members.
@Suite struct ClientDataTests {
    private func code(_ json: String) -> WebAuthnError.Code? {
        refusal { try ClientData.parse(bytes: Data(json.utf8)) }
    }

    @Test("a browser's client data reads, extra members skipped, escapes decoded")
    func reads() throws {
        let json = #"""
            { "challenge": "AAEC", "origin" : "https:\/\/example.com", "type":"webauthn.get", "crossOrigin": false,
              "other_keys_can_be_added_here": "do not compare clientDataJSON against a template. See https://goo.gl/yabPex",
              "tokenBinding": {"status": "present", "id": "x", "nested": [1, -2.5e+3, true, null, {"a": []}]},
              "n": 0, "u": "\u00fc\ud83d\ude00" }
            """#
        let data = try ClientData.parse(bytes: Data(json.utf8))
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == "AAEC")
        #expect(data.origin == "https://example.com")
        #expect(data.crossOrigin == false)
        #expect(data.topOrigin == nil)
    }

    @Test("faults are refused as invalid client data", arguments: [
        ("a member named twice", #"{"type":"webauthn.get","challenge":"AA","origin":"https://example.com","type":"webauthn.create"}"#),
        ("no origin", #"{"type":"webauthn.get","challenge":"AA"}"#),
        ("a numeric type", #"{"type":1,"challenge":"AA","origin":"o"}"#),
        ("crossOrigin as text", #"{"type":"t","challenge":"AA","origin":"o","crossOrigin":"false"}"#),
        ("an array", #"["type"]"#), ("not JSON", "type=webauthn.get"), ("nothing", ""),
        ("an unterminated object", #"{"type":"t","challenge":"AA","origin":"o""#),
        ("trailing text", #"{"type":"t","challenge":"AA","origin":"o"} x"#),
        ("a raw control character in a string", "{\"type\":\"t\",\"challenge\":\"AA\",\"origin\":\"o\u{01}\"}"),
        ("an unknown escape", #"{"type":"t","challenge":"AA","origin":"\x"}"#),
        ("a lone surrogate", #"{"type":"t","challenge":"AA","origin":"\ud800"}"#),
        ("a leading zero", #"{"type":"t","challenge":"AA","origin":"o","n":01}"#),
        ("a trailing comma", #"{"type":"t","challenge":"AA","origin":"o",}"#),
        ("nesting past 8 levels", #"{"type":"t","challenge":"AA","origin":"o","n":[[[[[[[[[]]]]]]]]]}"#),
        ("a misspelt literal", #"{"type":"t","challenge":"AA","origin":"o","crossOrigin":fals}"#),
        ("a number past Double's range", #"{"type":"t","challenge":"AA","origin":"o","n":1e400}"#),
        ("a 400-digit integer", #"{"type":"t","challenge":"AA","origin":"o","n":"# + String(repeating: "9", count: 400) + "}"),
    ])
    func refuses(_ label: String, _ json: String) {
        #expect(code(json) == .invalidClientData, "\(label)")
    }

    @Test("invalid UTF-8 is refused, and client data past 4 KiB is refused as too large")
    func bytesAndSize() {
        var bytes = Data(#"{"type":"t","challenge":"AA","origin":""#.utf8)
        bytes += Data([0xC3, 0x28]) + Data(#""}"#.utf8)
        #expect(throws: WebAuthnError.self) { try ClientData.parse(bytes: bytes) }
        let padding = String(repeating: " ", count: ClientData.maximumLength)
        #expect(code(#"{"type":"t","challenge":"AA","origin":"o"}"# + padding) == .responseTooLarge)
    }
}
