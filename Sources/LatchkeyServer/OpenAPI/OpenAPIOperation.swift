/// What the OpenAPI document says of one route besides what the route table already knows
/// (method, path, `operationId` = the route's name, its error shape): its summary, parameters,
/// body and answers. Kept in ``OpenAPIOperations``, by route name.
struct OpenAPIOperation: Sendable {
    /// One answer of the route.
    enum Response: Sendable {
        /// An answer: what it means, its media type (nil: no body) with its schema if one is
        /// given, and its headers.
        case answer(String, mediaType: String? = nil, schema: JSONValue? = nil, headers: JSONValue? = nil)
        /// An error in the route's error shape, which the document fills in (its schema, or an
        /// HTML page); with `Retry-After` when `retryAfter`.
        case error(String, retryAfter: Bool = false)
    }

    /// One line on what the route does.
    let summary: String
    /// More, when one line is not enough.
    var description: String?
    /// The query parameters, as OpenAPI parameter objects.
    var parameters: [JSONValue] = []
    /// A request body.
    struct RequestBody: Sendable {
        /// Its media type.
        let mediaType: String
        /// Whether a request must have one.
        var required = true
        /// Its schema.
        let schema: JSONValue

        init(_ mediaType: String, required: Bool = true, schema: JSONValue) {
            self.mediaType = mediaType
            self.required = required
            self.schema = schema
        }
    }

    /// The request body, if the route takes one.
    var requestBody: RequestBody?
    /// Whether the route needs a bearer access token.
    var bearer = false
    /// The answers, by status code.
    let responses: [String: Response]
}
