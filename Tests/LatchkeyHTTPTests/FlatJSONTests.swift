import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyTestSupport
import Testing

/// Request bodies read without `JSONDecoder`: the flat parser accepts only what `JSONDecoder`
/// reads the same way, and a body decodes to the same value or the same error either way.
@Suite struct FlatJSONTests {
    /// A JSON value as `JSONDecoder` reads it, for comparing with the flat parser's members.
    private enum Scalar: Decodable, Equatable {
        case string(String), bool(Bool), null, other

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let text = try? value.decode(String.self) {
                self = .string(text)
            } else {
                self = .other
            }
        }

        init(_ value: FlatJSONObject.Value) {
            switch value {
            case .string(let text): self = .string(text)
            case .bool(let flag): self = .bool(flag)
            case .null: self = .null
            }
        }
    }

    private static let bodies = [
        #"{"token":"abc-DEF_123"}"#, "{}", " \t\r\n{ \"a\" : \"x\" , \"b\":true,\"c\":false, \"d\" : null }\n ",
        #"{"email":"é@exämple.com","password":"pässwörd 😀"}"#, #"{"a":""}"#, #"{"":"x"}"#, #"{"a":"x","a":"y"}"#,
        #"{"a":"x",}"#, #"{"a":"x""#, #"{"a":"x"}x"#, #"{"a":"x"}{}"#, #"{"a":"x\"y"}"#, #"{"a":"\u0041"}"#,
        #"{"a":1}"#, #"{"a":-0.5e3}"#, #"{"a":[]}"#, #"{"a":{}}"#, #"{"a":tru}"#, #"{"a":nulll}"#, #"{"a" "x"}"#,
        #"{a:"x"}"#, #"{'a':'x'}"#, #"["a"]"#, #""a""#, "", " ", "{", "}", "\u{FEFF}{\"a\":\"x\"}",
        "{\"a\":\"x\ty\"}", "{\"a\":\"x\u{0}y\"}", "{\"a\":\"\u{7F}\"}", "{\"a\":\"\u{2028}\"}",
    ]

    @Test("every object the flat parser accepts, JSONDecoder reads with the same members")
    func parserAgreesWithJSONDecoder() throws {
        var random = SplitMix64(seed: 7)
        var accepted = 0
        for body in Self.bodies {
            var bytes = Array(body.utf8)
            try check(bytes, accepted: &accepted)
            // Mutations of each body: a byte replaced, dropped or repeated, invalid UTF-8 included.
            for _ in 0..<200 where !bytes.isEmpty {
                bytes = Array(body.utf8)
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                default: bytes.insert(bytes[position], at: position)
                }
                try check(bytes, accepted: &accepted)
            }
        }
        // The check is not vacuous: many inputs took the flat path.
        #expect(accepted > 300)
    }

    private func check(_ bytes: [UInt8], accepted: inout Int) throws {
        guard let object = FlatJSONObject(Data(bytes)) else { return }
        accepted += 1
        let decoded = try #require(
            try? JSONDecoder().decode([String: Scalar].self, from: Data(bytes)), "JSONDecoder refuses \(bytes)")
        #expect(decoded == object.members.mapValues(Scalar.init), "\(bytes)")
    }

    @Test("the bodies Latchkey's clients send take the flat path")
    func typicalBodiesAreFlat() {
        for body in [#"{"token":"abc"}"#, #"{"email":"a@example.com", "password":"p", "mode":"cookie"}"#, "{}", "{ }\n"] {
            #expect(FlatJSONObject(Data(body.utf8)) != nil, "\(body)")
        }
    }

    /// A body with a required, an optional and a boolean member, as the routes' bodies are.
    private struct Probe: Decodable, Equatable {
        let a: String
        let b: String?
        let c: Bool?

        private enum CodingKeys: String, CodingKey { case a, b, c }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            a = try fields.text(.a, maxBytes: 8)
            b = try fields.optionalText(.b, maxBytes: 8)
            c = try fields.decodeIfPresent(Bool.self, forKey: .c)
        }
    }

    @Test("a flat body decodes to the same value or the same error as the same body through JSONDecoder")
    func sameAnswerEitherWay() throws {
        let members = [
            #""a":"x""#, "", #""a":null"#, #""a":true"#, #""a":"x","b":null"#, #""a":"x","b":false"#, #""a":"x","b":"y""#,
            #""a":"x","c":"yes""#, #""a":"x","c":true"#, #""a":"x","c":null"#, #""a":"123456789""#, #""a":"x","b":"é""#,
            #""b":"y""#, #""A":"x""#,
        ]
        for member in members {
            let flat = "{\(member)}"
            // An unread number member sends the same body to JSONDecoder instead.
            let general = member.isEmpty ? #"{"z":0}"# : "{\(member),\"z\":0}"
            #expect(FlatJSONObject(Data(flat.utf8)) != nil, "\(flat)")
            #expect(FlatJSONObject(Data(general.utf8)) == nil, "\(general)")
            #expect(answer(flat) == answer(general), "\(flat)")
        }
    }

    private func answer(_ body: String) -> String {
        let request = HTTPRequest(method: "POST", path: "/", headers: HTTPHeaders([]), body: Data(body.utf8))
        do {
            return "\(try request.decodeJSON(Probe.self))"
        } catch let error as LatchkeyError {
            return "\(error.code): \(error.message)"
        } catch {
            return "unexpected \(error)"
        }
    }
}
