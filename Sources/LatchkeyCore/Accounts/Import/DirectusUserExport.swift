package import Foundation

/// The users of a Directus user export: a JSON array of user objects (Directus's JSON export,
/// or `{"data": [...]}` as its API answers) or CSV with a header row (Directus's CSV export,
/// or `COPY directus_users TO STDOUT WITH CSV HEADER`). Columns other than id, email,
/// password, status, tfa_secret and language are ignored.
package enum DirectusUserExport {
    /// Files larger than this are refused before parsing (about 100 000 users fit in a tenth).
    package static let maximumBytes = 256 << 20

    /// The users in `data`; throws `invalid_request` when the file as a whole cannot be read
    /// (too large, not UTF-8, not JSON or CSV of users, no `email` column).
    package static func records(from data: Data) throws -> [DirectusUserRecord] {
        guard data.count <= maximumBytes else {
            throw LatchkeyError(.invalidRequest, "The export is larger than \(maximumBytes >> 20) MiB; split it into several files.")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LatchkeyError(.invalidRequest, "The export is not UTF-8 text.")
        }
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first
        return start == "[" || start == "{" ? try json(data) : try csv(text)
    }

    private static func json(_ data: Data) throws -> [DirectusUserRecord] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw LatchkeyError(.invalidRequest, "The export starts like JSON but is not valid JSON.")
        }
        let elements: [Any]
        if let array = parsed as? [Any] {
            elements = array
        } else if let object = parsed as? [String: Any], let array = object["data"] as? [Any] {
            elements = array
        } else {
            throw LatchkeyError(.invalidRequest, "A JSON export is an array of users, or an object whose \"data\" is one.")
        }
        return elements.enumerated().map { index, element in
            let user = element as? [String: Any]
            func text(_ key: String) -> String? { user?[key] as? String }
            return DirectusUserRecord(
                location: "user \(index + 1)", id: text("id"), email: text("email"), password: text("password"),
                status: text("status"), tfaSecret: text("tfa_secret"), language: text("language"),
                defect: user == nil ? "is not a JSON object" : nil)
        }
    }

    private static func csv(_ text: String) throws -> [DirectusUserRecord] {
        let table: CSVRecords
        do {
            table = try CSVRecords(parsing: text)
        } catch let failure as CSVRecords.Failure {
            throw LatchkeyError(.invalidRequest, "The export is neither JSON nor well-formed CSV: \(failure).")
        }
        guard let header = table.records.first else { return [] }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let emailColumn = names.firstIndex(of: "email") else {
            throw LatchkeyError(.invalidRequest, "A CSV export needs a header row with an \"email\" column.")
        }
        func column(_ name: String) -> Int? { names.firstIndex(of: name) }
        let columns = (id: column("id"), password: column("password"), status: column("status"),
            tfa: column("tfa_secret"), language: column("language"))
        return table.records.dropFirst().map { record in
            func field(_ index: Int?) -> String? {
                guard let index, index < record.fields.count else { return nil }
                return record.fields[index]
            }
            return DirectusUserRecord(
                location: "line \(record.line)", id: field(columns.id), email: field(emailColumn),
                password: field(columns.password), status: field(columns.status), tfaSecret: field(columns.tfa),
                language: field(columns.language),
                defect: record.fields.count == names.count
                    ? nil : "has \(record.fields.count) fields where the header has \(names.count)")
        }
    }
}
