import Foundation
import LatchkeyCore
import LatchkeyCrypto
import LatchkeyFuzzSupport
import LatchkeyHTTP

// The JSON request body decoder (HTTPRequest.decodeJSON: FlatJSONObject and
// FlatJSONDecoder, else JSONDecoder). Properties: the flat parser accepts only objects
// JSONDecoder reads with the same members; decodeJSON answers exactly as JSONDecoder alone
// would (same value, or an error where JSONDecoder fails); every error is invalid_json or
// invalid_request; accepted fields are within their byte limits and hold no control character.

/// The Directus login body's shape, with the routes' limits.
private struct LoginBody: Decodable, Equatable {
    let email: String
    let password: String
    let mode: String?

    private enum CodingKeys: String, CodingKey { case email, password, mode }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        email = try fields.text(.email, maxBytes: 320)
        password = try fields.secret(.password, maxBytes: 4096).exposed
        mode = try fields.optionalText(.mode, maxBytes: 16)
    }
}

/// A refresh body's shape: an optional token and an optional flag.
private struct RefreshBody: Decodable, Equatable {
    let refreshToken: String?
    let remember: Bool?

    private enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
        case remember
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        refreshToken = try fields.optionalText(.refreshToken, maxBytes: 512)
        remember = try fields.decodeIfPresent(Bool.self, forKey: .remember)
    }
}

/// A JSON value as JSONDecoder reads it, to compare with the flat parser's members.
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

/// What decodeJSON answers, and what JSONDecoder alone answers, for `body`.
private func compare<Body: Decodable & Equatable>(_: Body.Type, _ body: Data, allowingEmpty: Bool) -> Body? {
    let request = HTTPRequest(method: "POST", path: "/auth/login", body: body)
    let direct = try? JSONDecoder().decode(Body.self, from: allowingEmpty && body.isEmpty ? Data("{}".utf8) : body)
    do {
        let decoded = try request.decodeJSON(Body.self, allowingEmpty: allowingEmpty)
        expect(direct == decoded, "decodeJSON accepted a body JSONDecoder reads otherwise")
        return decoded
    } catch let error as LatchkeyError {
        expect(
            error.code == .invalidJSON || error.code == .invalidRequest,
            "decodeJSON threw \(error.code), not invalid_json or invalid_request")
        expect(!error.message.utf8.contains { $0 < 0x20 }, "an error message holds a control character")
        expect(direct == nil, "decodeJSON refused a body JSONDecoder reads")
        return nil
    } catch {
        expect(false, "decodeJSON threw \(type(of: error)), not a LatchkeyError")
        return nil
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONBody(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = FuzzInput(data, size).data

    if let object = FlatJSONObject(body) {
        let members = try? JSONDecoder().decode([String: Scalar].self, from: body)
        expect(members == object.members.mapValues(Scalar.init), "the flat parser's members differ from JSONDecoder's")
    }

    if let login = compare(LoginBody.self, body, allowingEmpty: false) {
        expect(login.email.utf8.count <= 320 && login.password.utf8.count <= 4096, "a field over its limit was accepted")
        expect((login.mode?.utf8.count ?? 0) <= 16, "the mode over its limit was accepted")
        expect(
            !login.email.containsControlCharacter && !login.password.containsControlCharacter
                && !(login.mode?.containsControlCharacter ?? false),
            "an accepted field holds a control character")
    }
    if let refresh = compare(RefreshBody.self, body, allowingEmpty: true), let token = refresh.refreshToken {
        expect(token.utf8.count <= 512 && !token.containsControlCharacter, "the refresh token breaks its limits")
    }
    return 0
}
