/// A JSON value built in code, for documents the server assembles from its own tables (the
/// OpenAPI description). Written with object keys sorted, so the same value always gives the
/// same bytes.
indirect enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null

    /// An array of strings.
    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map(JSONValue.string))
    }

    /// A reference to the schema `name` of the document's components.
    static func reference(_ name: String) -> JSONValue {
        .object(["$ref": .string("#/components/schemas/" + name)])
    }

    /// `self` with `other`'s members added (an object's member named in both takes `other`'s).
    func merging(_ other: [String: JSONValue]) -> JSONValue {
        guard case .object(let members) = self else { preconditionFailure("only an object has members") }
        return .object(members.merging(other) { _, new in new })
    }

    /// The value as JSON text.
    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .object(let members):
            output += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output += "," }
                Self.write(string: member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .string(let value): Self.write(string: value, to: &output)
        case .integer(let value): output += String(value)
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        }
    }

    private static func write(string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
