package import LatchkeyCore
import Foundation

extension FormParameters {
    /// Reads the body of `request`, which must be `application/x-www-form-urlencoded`; a
    /// repeated parameter is refused at once.
    package init(body request: HTTPRequest) throws {
        guard request.headers.contentTypeIs("application/x-www-form-urlencoded") else {
            throw LatchkeyError(.invalidRequest, "Send the parameters as application/x-www-form-urlencoded.")
        }
        guard let parameters = request.body.withUnsafeBytes({ FormParameters.decode(urlencoded: $0) }) else {
            throw LatchkeyError(.invalidRequest, "The request body is not valid form encoding.")
        }
        try self.init(parameters)
        try checkNoneRepeated()
    }

    /// Reads the query parameters of `request`; repeats are refused when read (see
    /// ``FormParameters/init(_:)``).
    package init(query request: HTTPRequest) throws {
        try self.init(request.query)
    }
}
