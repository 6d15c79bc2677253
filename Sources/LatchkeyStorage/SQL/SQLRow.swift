import LatchkeyCore
/// One row of a query result, read by column name, whatever database produced it. A
/// column that is missing, NULL where a value is required, or of another type than the
/// one asked for throws a storage error, so a schema drift surfaces as an error instead
/// of a wrong value.
protocol SQLRow: Sendable {
    /// The text in `column`, or nil for NULL.
    func optionalText(_ column: String) throws -> String?
    /// The integer in `column`, or nil for NULL.
    func optionalInteger(_ column: String) throws -> Int64?
}

extension SQLRow {
    /// The non-NULL text in `column`.
    func text(_ column: String) throws -> String {
        guard let text = try optionalText(column) else {
            throw Self.unexpected(column, "expected text, found NULL")
        }
        return text
    }

    /// The non-NULL integer in `column`.
    func integer(_ column: String) throws -> Int64 {
        guard let integer = try optionalInteger(column) else {
            throw Self.unexpected(column, "expected an integer, found NULL")
        }
        return integer
    }

    /// The error for `column` holding something else than the schema promises (`problem`).
    static func unexpected(_ column: String, _ problem: String) -> LatchkeyError {
        LatchkeyError(.storage, "The database holds unexpected data.", detail: "column \(column): \(problem)")
    }
}
