/// The names of a result's columns in order, shared by every row of the result. A name is
/// looked up by comparing it with each in turn: a result has a handful of columns, and
/// comparing short names costs less than hashing them (a SQLite row's every value is read
/// by name, on every request that reads the database).
struct ResultColumns: Sendable {
    private let names: [String]

    /// The columns named `names`, in result order.
    init(_ names: [String]) {
        self.names = names
    }

    /// The position of the column named `name` — the last such column when a result names
    /// two alike — or nil when the result has no such column.
    func position(of name: String) -> Int? {
        // Lengths first: a native string knows its own, and most names differ in it, so few
        // reach the comparison of their contents (a row's every column is looked up by name).
        let length = name.utf8.count
        return names.lastIndex { $0.utf8.count == length && $0 == name }
    }
}
