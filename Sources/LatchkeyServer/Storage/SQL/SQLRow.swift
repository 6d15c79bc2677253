/// One row of a query result, read by column name, whatever database produced it. A
/// column that is missing, NULL where a value is required, or of another type than the
/// one asked for throws a storage error, so a schema drift surfaces as an error instead
/// of a wrong value.
protocol SQLRow: Sendable {
    /// The non-NULL text in `column`.
    func text(_ column: String) throws -> String
    /// The text in `column`, or nil for NULL.
    func optionalText(_ column: String) throws -> String?
    /// The non-NULL integer in `column`.
    func integer(_ column: String) throws -> Int64
    /// The integer in `column`, or nil for NULL.
    func optionalInteger(_ column: String) throws -> Int64?
}
