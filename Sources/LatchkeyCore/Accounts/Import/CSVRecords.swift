import Foundation

/// The records of CSV text as RFC 4180 writes it (and Directus's export): fields separated by
/// commas, records by CRLF or LF, a field in double quotes may hold commas, line breaks and
/// doubled quotes. Each record keeps the line it starts on, for error reports.
package struct CSVRecords: Sendable {
    /// One record: its fields, and the 1-based line of the text it starts on.
    package struct Record: Sendable, Equatable {
        /// The line the record starts on.
        package let line: Int
        /// The fields, unquoted.
        package let fields: [String]
    }

    /// Why text is not CSV.
    package enum Failure: Error, Equatable {
        /// A quoted field is not closed before the end of the text.
        case unterminatedQuote(line: Int)
        /// Something other than a comma or line break follows a closing quote.
        case textAfterQuote(line: Int)
        /// A bare quote appears inside an unquoted field.
        case quoteInUnquotedField(line: Int)
        /// A NUL byte, which no export holds.
        case nul(line: Int)
    }

    /// The records, in order; blank lines are skipped.
    package let records: [Record]

    /// Parses `text`; throws a ``Failure`` naming the line where it stopped making sense.
    package init(parsing text: String) throws {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var quoted = false  // inside a quoted field
        var afterQuote = false  // a quoted field just closed
        var fieldStarted = false
        let bytes = Array(text.utf8)
        var index = 0

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterQuote = false
            fieldStarted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields.removeAll(keepingCapacity: true)
        }

        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0 { throw Failure.nul(line: line) }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"):
                break  // the LF that follows ends the record
            case UInt8(ascii: "\n"):
                endRecord()
                line += 1
                recordLine = line
            case UInt8(ascii: "\""):
                guard !fieldStarted, !afterQuote else {
                    throw afterQuote ? Failure.textAfterQuote(line: line) : Failure.quoteInUnquotedField(line: line)
                }
                quoted = true
                fieldStarted = true
            default:
                guard !afterQuote else { throw Failure.textAfterQuote(line: line) }
                field.append(byte)
                fieldStarted = true
            }
        }
        guard !quoted else { throw Failure.unterminatedQuote(line: recordLine) }
        if fieldStarted || afterQuote || !fields.isEmpty || !field.isEmpty { endRecord() }
        self.records = records
    }
}
