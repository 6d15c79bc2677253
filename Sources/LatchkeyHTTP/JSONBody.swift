import LatchkeyCore
import Foundation
package import LatchkeyCrypto

/// The fields of a JSON object request body, read with type and length checks. Every problem
/// is a `400` with a stable code; nothing here crashes on hostile input.
package struct JSONBody {
    private let object: [String: Any]

    package init(_ request: HTTPRequest) throws {
        guard let parsed = try? JSONSerialization.jsonObject(with: request.body, options: [.fragmentsAllowed]),
              let object = parsed as? [String: Any] else {
            throw LatchkeyError(.invalidJSON, "The request body must be a JSON object.")
        }
        self.object = object
    }

    /// A required string field of at most `maxLength` UTF-8 bytes.
    package func string(_ name: String, maxLength: Int) throws -> String {
        guard let value = try optionalString(name, maxLength: maxLength) else {
            throw LatchkeyError(.invalidRequest, "The field '\(name)' is required.")
        }
        return value
    }

    /// An optional string field of at most `maxLength` UTF-8 bytes; JSON null counts as absent.
    package func optionalString(_ name: String, maxLength: Int) throws -> String? {
        switch object[name] {
        case nil, is NSNull: return nil
        case let text as String:
            guard text.utf8.count <= maxLength else {
                throw LatchkeyError(.invalidRequest, "The field '\(name)' is too long.")
            }
            return text
        default:
            throw LatchkeyError(.invalidRequest, "The field '\(name)' must be a string.")
        }
    }

    /// A required secret string field; its value never appears in an error.
    package func secret(_ name: String, maxLength: Int) throws -> Redacted<String> {
        Redacted(try string(name, maxLength: maxLength))
    }
}
