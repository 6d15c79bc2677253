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

    /// The non-NULL text in `column`.
    func text(_ column: String) throws -> String {
        guard let text = try optionalText(column) else {
            throw Self.unexpected(column, "expected text, found NULL")
        }
        return text
    }

    /// The text in `column`, or nil for NULL.
    func optionalText(_ column: String) throws -> String? {
        guard let index = columnIndex[column] else {
            throw Self.unexpected(column, "the result has no such column")
        }
        return values[index]
    }

    /// The non-NULL integer in `column`.
    func integer(_ column: String) throws -> Int64 {
        guard let integer = try optionalInteger(column) else {
            throw Self.unexpected(column, "expected an integer, found NULL")
        }
        return integer
    }

    /// The integer in `column`, or nil for NULL.
    func optionalInteger(_ column: String) throws -> Int64? {
        guard let text = try optionalText(column) else { return nil }
        guard let integer = Int64(text) else {
            throw Self.unexpected(column, "expected an integer, found '\(text.prefix(40))'")
        }
        return integer
    }

    private static func unexpected(_ column: String, _ problem: String) -> LatchkeyError {
        LatchkeyError(.storage, "The database holds unexpected data.", detail: "column \(column): \(problem)")
    }
}
