import LatchkeyCore
/// One row of a PostgreSQL result, every value in PostgreSQL's text format. Columns are
/// read by name; a column that is missing, NULL where a value is required, or not a
/// whole number where one is expected throws a storage error, so a schema drift surfaces
/// as an error instead of a wrong value.
struct PostgresRow: SQLRow {
    private let values: [String?]
    private let columnIndex: [String: Int]

    /// A row of `values`, whose names and positions `columnIndex` gives.
    init(values: [String?], columnIndex: [String: Int]) {
        self.values = values
        self.columnIndex = columnIndex
    }

    /// The text in `column`, or nil for NULL.
    func optionalText(_ column: String) throws -> String? {
        guard let index = columnIndex[column] else {
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
