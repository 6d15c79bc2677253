import LatchkeyCore
import Foundation

/// Reads raw settings from the environment and an optional JSON file, turning each into
/// a typed value or an error that names the variable.
struct SettingsReader {
    private let environment: [String: String]
    private let file: [String: String]

    init(environment: [String: String]) throws {
        self.environment = environment
        guard let path = environment["LATCHKEY_CONFIG_FILE"], !path.isEmpty else {
            file = [:]
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Self.invalid("LATCHKEY_CONFIG_FILE", "cannot read '\(path)'")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Self.invalid("LATCHKEY_CONFIG_FILE", "'\(path)' is not a JSON object")
        }
        var values: [String: String] = [:]
        for (key, value) in object {
            switch value {
            case let text as String: values[key] = text
            case let number as NSNumber: values[key] = number.stringValue
            case let list as [String]: values[key] = list.joined(separator: ",")
            default: throw Self.invalid(key, "in '\(path)' must be a string, number or list of strings")
            }
        }
        file = values
    }

    static func invalid(_ name: String, _ problem: String) -> LatchkeyError {
        LatchkeyError(.invalidConfiguration, "\(name) \(problem)")
    }

    func string(_ name: String) -> String? {
        let value = (environment[name] ?? file[name])?.trimmingCharacters(in: .whitespaces)
        return value?.isEmpty == false ? value : nil
    }

    func rejectUnknownFileKeys() throws {
        if let unknown = file.keys.sorted().first(where: { !Configuration.variableNames.contains($0) }) {
            throw Self.invalid(unknown, "is not a Latchkey setting (in LATCHKEY_CONFIG_FILE)")
        }
    }

    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = string(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw Self.invalid(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(text)')")
        }
        return value
    }

    func bool(_ name: String, default fallback: Bool) throws -> Bool {
        switch string(name)?.lowercased() {
        case nil: return fallback
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        case let other?: throw Self.invalid(name, "must be true or false (got '\(other)')")
        }
    }

    func choice<Value: RawRepresentable>(_ name: String, default fallback: Value) throws -> Value where Value.RawValue == String {
        guard let text = string(name) else { return fallback }
        guard let value = Value(rawValue: text.lowercased()) else {
            throw Self.invalid(name, "has unknown value '\(text)'")
        }
        return value
    }

    func list(_ name: String) -> [String] {
        (string(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func optionalURL(_ name: String, schemes: Set<String>) throws -> URL? {
        guard let text = string(name) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw Self.invalid(name, "must be an absolute \(schemes.sorted().joined(separator: " or ")) URL (got '\(text)')")
        }
        return url
    }

    func url(_ name: String, default fallback: String, schemes: Set<String>) throws -> URL {
        let url = try optionalURL(name, schemes: schemes) ?? URL(string: fallback)!
        guard url.query == nil, url.fragment == nil else {
            throw Self.invalid(name, "must not have a query or fragment")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text)!
    }

    func hostAndPort(_ name: String, default fallback: String) throws -> (String, Int) {
        let text = string(name) ?? fallback
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65_535).contains(port) else {
            throw Self.invalid(name, "must be HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080 (got '\(text)')")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard IPAddress(host) != nil else {
            throw Self.invalid(name, "host must be an IP address (got '\(host)')")
        }
        return (host, port)
    }

    func rateWindow(_ name: String, default fallback: String) throws -> RateLimitPolicy.Window {
        let text = string(name) ?? fallback
        let parts = text.split(separator: "/")
        guard parts.count == 2, let limit = Int(parts[0]), let seconds = Int(parts[1]),
              (1...1_000_000).contains(limit), (1...86_400).contains(seconds) else {
            throw Self.invalid(name, "must be REQUESTS/SECONDS, e.g. 20/600 (got '\(text)')")
        }
        return RateLimitPolicy.Window(limit: limit, seconds: TimeInterval(seconds))
    }

    func emailAddress(_ name: String, default fallback: String) throws -> String {
        let text = string(name) ?? fallback
        do {
            return try EmailAddress(text).normalized
        } catch {
            throw Self.invalid(name, "is not a valid email address (got '\(text)')")
        }
    }

    func headerText(_ name: String, default fallback: String) throws -> String {
        let text = string(name) ?? fallback
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }), text.count <= 100 else {
            throw Self.invalid(name, "must be at most 100 characters without control characters")
        }
        return text
    }
}
