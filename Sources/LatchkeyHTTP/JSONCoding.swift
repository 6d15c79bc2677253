import Foundation
package import LatchkeyCore
package import LatchkeyCrypto

extension HTTPRequest {
    /// The body decoded as `Body`. A body that is not JSON, or not an object, is
    /// `invalid_json`; a missing, null or mistyped field is `invalid_request` naming the
    /// field (never its value). Field limits are the body type's own (see
    /// ``Swift/KeyedDecodingContainer/text(_:maxBytes:)``). With `allowingEmpty` (routes whose
    /// body is ``Route/BodyKind/jsonOrEmpty``) no body at all reads as `{}`.
    ///
    /// A flat body (``FlatJSONObject``) is decoded by ``FlatJSONDecoder``, any other by
    /// `JSONDecoder`; both throw the same errors, so the answer never depends on which did.
    package func decodeJSON<Body: Decodable>(_: Body.Type, allowingEmpty: Bool = false) throws -> Body {
        let json = allowingEmpty && body.isEmpty ? Data("{}".utf8) : body
        do {
            if let object = FlatJSONObject(json) {
                do {
                    return try Body(from: FlatJSONDecoder(object: object))
                } catch is FlatJSONDecoder.Unsupported {}
            }
            return try JSONDecoder().decode(Body.self, from: json)
        } catch let error as LatchkeyError {
            throw error
        } catch DecodingError.keyNotFound(let key, _) {
            throw LatchkeyError(.invalidRequest, "The field '\(Self.quotable(key.stringValue))' is required.")
        } catch DecodingError.valueNotFound(_, let context) where !context.codingPath.isEmpty {
            throw LatchkeyError(.invalidRequest, "The field '\(Self.quotable(context.codingPath[0].stringValue))' is required.")
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw LatchkeyError(.invalidRequest, "The field '\(Self.quotable(context.codingPath[0].stringValue))' must be a string.")
        } catch {
            throw LatchkeyError(.invalidJSON, "The request body must be a JSON object.")
        }
    }

    /// `name` if it is short printable ASCII, so an error can quote it without echoing junk.
    private static func quotable(_ name: String) -> String {
        name.utf8.count <= 40 && name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x27 }) ? name : "…"
    }
}

extension KeyedDecodingContainer {
    /// A required string field of at most `maxBytes` UTF-8 bytes (JSON null counts as absent).
    package func text(_ key: Key, maxBytes: Int) throws -> String {
        guard let value = try optionalText(key, maxBytes: maxBytes) else {
            throw LatchkeyError(.invalidRequest, "The field '\(key.stringValue)' is required.")
        }
        return value
    }

    /// An optional string field of at most `maxBytes` UTF-8 bytes and no control character
    /// (see ``Swift/String/containsControlCharacter``); absent and null are nil.
    package func optionalText(_ key: Key, maxBytes: Int) throws -> String? {
        let value: String?
        do {
            value = try decodeIfPresent(String.self, forKey: key)
        } catch DecodingError.typeMismatch {
            throw LatchkeyError(.invalidRequest, "The field '\(key.stringValue)' must be a string.")
        }
        guard let value else { return nil }
        guard value.utf8.count <= maxBytes else {
            throw LatchkeyError(.invalidRequest, "The field '\(key.stringValue)' is too long.")
        }
        guard !value.containsControlCharacter else {
            throw LatchkeyError(.invalidRequest, "The field '\(key.stringValue)' contains a control character.")
        }
        return value
    }

    /// A required secret string field; its value never appears in an error.
    package func secret(_ key: Key, maxBytes: Int) throws -> Redacted<String> {
        Redacted(try text(key, maxBytes: maxBytes))
    }
}

extension HTTPResponse {
    /// `value` as a JSON response (keys sorted, slashes not escaped: ``CompactJSON``).
    package static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        json(body: (try? CompactJSON.encode(value)) ?? Data("{}".utf8), status: status)
    }

    /// `value`, which writes its own members (``CompactJSONObject``), as a JSON response: the
    /// same bytes as through `Encodable`.
    package static func json(_ value: some CompactJSONObject, status: Int = 200) -> HTTPResponse {
        json(body: CompactJSON.encode(value), status: status)
    }

    private static func json(body: Data, status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body)
    }
}
