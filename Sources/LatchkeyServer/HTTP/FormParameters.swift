import Foundation
import LatchkeyCrypto

/// The parameters of an OAuth request — an `application/x-www-form-urlencoded` body or a
/// query string — read with the checks OAuth requires: at most ``maximumCount`` parameters,
/// none repeated (RFC 6749 §3.1, §3.2), each value of bounded length. Every problem is an
/// `invalid_request` naming the parameter, never its value.
struct FormParameters {
    /// The most parameters a request may carry.
    static let maximumCount = 32

    private let values: [String: String]
    private let repeated: Set<String>

    /// Reads the body of `request`, which must be `application/x-www-form-urlencoded`; a
    /// repeated parameter is refused at once.
    init(body request: HTTPRequest) throws {
        let mediaType = request.headers["Content-Type"]?.split(separator: ";", maxSplits: 1).first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw LatchkeyError(.invalidRequest, "Send the parameters as application/x-www-form-urlencoded.")
        }
        guard let text = String(data: request.body, encoding: .utf8),
            let parameters = RequestTarget.formParameters(Substring(text))
        else {
            throw LatchkeyError(.invalidRequest, "The request body is not valid form encoding.")
        }
        try self.init(parameters)
        try checkNoneRepeated()
    }

    /// Reads the query parameters of `request`. A repeated parameter is refused when it is
    /// read (or found by ``checkNoneRepeated()``), so the caller decides which repeat is
    /// fatal before which (an authorization request's redirect URI must be trusted first).
    init(query request: HTTPRequest) throws {
        try self.init(request.query)
    }

    private init(_ parameters: [(name: String, value: String)]) throws {
        guard parameters.count <= Self.maximumCount else {
            throw LatchkeyError(.invalidRequest, "The request has too many parameters.")
        }
        var values: [String: String] = [:]
        var repeated: Set<String> = []
        for (name, value) in parameters where values.updateValue(value, forKey: name) != nil {
            repeated.insert(name)
        }
        self.values = values
        self.repeated = repeated
    }

    /// Throws `invalid_request` if any parameter was repeated.
    func checkNoneRepeated() throws {
        if let name = repeated.first { throw Self.repeatedError(name) }
    }

    /// Whether the parameter is present (possibly empty).
    func contains(_ name: String) -> Bool {
        values[name] != nil
    }

    /// An optional parameter of at most `maxLength` UTF-8 bytes; an empty value counts as absent.
    func optional(_ name: String, maxLength: Int) throws -> String? {
        guard !repeated.contains(name) else { throw Self.repeatedError(name) }
        guard let value = values[name], !value.isEmpty else { return nil }
        guard value.utf8.count <= maxLength else {
            throw LatchkeyError(.invalidRequest, "The parameter '\(name)' is too long.")
        }
        return value
    }

    /// A required parameter of at most `maxLength` UTF-8 bytes.
    func required(_ name: String, maxLength: Int) throws -> String {
        guard let value = try optional(name, maxLength: maxLength) else {
            throw LatchkeyError(.invalidRequest, "The parameter '\(name)' is required.")
        }
        return value
    }

    /// A required secret parameter; its value never appears in an error.
    func secret(_ name: String, maxLength: Int) throws -> Redacted<String> {
        Redacted(try required(name, maxLength: maxLength))
    }

    /// An optional secret parameter.
    func optionalSecret(_ name: String, maxLength: Int) throws -> Redacted<String>? {
        try optional(name, maxLength: maxLength).map(Redacted.init)
    }

    private static func repeatedError(_ name: String) -> LatchkeyError {
        LatchkeyError(.invalidRequest, "The parameter '\(quotable(name))' is repeated.")
    }

    /// `name` if it is short printable ASCII, so an error can quote it without echoing junk.
    private static func quotable(_ name: String) -> String {
        name.utf8.count <= 40 && name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x27 }) ? name : "…"
    }
}
