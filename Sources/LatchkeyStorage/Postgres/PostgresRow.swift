import LatchkeyCore
/// One row of a PostgreSQL result, every value in PostgreSQL's text format. Columns are
/// read by name; a column that is missing, NULL where a value is required, or not a
/// whole number where one is expected throws a storage error, so a schema drift surfaces
/// as an error instead of a wrong value.
struct PostgresRow: SQLRow {
    private let values: [String?]
    private let columns: ResultColumns

    /// A row of `values`, whose names `columns` gives.
    init(values: [String?], columns: ResultColumns) {
        self.values = values
        self.columns = columns
    }

    /// The text in `column`, or nil for NULL.
    func optionalText(_ column: String) throws -> String? {
        guard let index = columns.position(of: column) else {
            throw Self.unexpected(column, "the result has no such column")
        }
        return values[index]
    }

    /// The integer in `column`, or nil for NULL.
    func optionalInteger(_ column: String) throws -> Int64? {
        guard let text = try optionalText(column) else { return nil }
        guard let integer = Int64(text) else {
            throw Self.unexpected(column, "expected an integer, found '\(text.prefix(40))'")
        }
        return integer
    }
}
