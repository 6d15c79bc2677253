import LatchkeyCore
/// One row of a query result. Columns are read by name; a column that is missing or
/// holds a value of another type throws a storage error, so a schema drift surfaces as
/// an error instead of a wrong value.
struct SQLiteRow: SQLRow {
    private let values: [SQLiteValue]
    private let columns: ResultColumns

    /// A row of `values`, whose names `columns` gives.
    init(values: [SQLiteValue], columns: ResultColumns) {
        self.values = values
        self.columns = columns
    }

    /// The raw value of `column`; throws when the result has no such column.
    func value(_ column: String) throws -> SQLiteValue {
        guard let index = columns.position(of: column) else {
            throw Self.unexpected(column, "the result has no such column")
        }
        return values[index]
    }

    /// The text in `column`, or nil for NULL.
    func optionalText(_ column: String) throws -> String? {
        switch try value(column) {
        case .text(let text): return text
        case .null: return nil
        case let other: throw Self.unexpected(column, "expected text, found \(other.storageClass)")
        }
    }

    /// The integer in `column`, or nil for NULL.
    func optionalInteger(_ column: String) throws -> Int64? {
        switch try value(column) {
        case .integer(let integer): return integer
        case .null: return nil
        case let other: throw Self.unexpected(column, "expected an integer, found \(other.storageClass)")
        }
    }
}

extension SQLiteValue {
    /// SQLite's name for the storage class of this value, for error details.
    fileprivate var storageClass: String {
        switch self {
        case .text: "text"
        case .integer: "integer"
        case .real: "real"
        case .blob: "blob"
        case .null: "NULL"
        }
    }
}
