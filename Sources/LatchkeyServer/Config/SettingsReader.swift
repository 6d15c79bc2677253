import LatchkeyCore
import LatchkeyCrypto
import Foundation

/// Reads settings from the environment and an optional JSON file, each through its
/// ``Setting`` entry: the entry's kind decides how the text is parsed, its default applies
/// when it is not set, and a bad value becomes an error that names the variable and says
/// what it must be.
struct SettingsReader {
    private let environment: [String: String]
    private let file: [String: String]

    init(environment: [String: String]) throws {
        self.environment = environment
        let configFile = Setting.configFile
        guard let path = environment[configFile.name], !path.isEmpty else {
            file = [:]
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Self.invalid(configFile, "cannot read '\(path)'")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Self.invalid(configFile, "'\(path)' is not valid JSON: \(Self.syntaxProblem(error, in: data))")
        }
        guard let object = parsed as? [String: Any] else {
            throw Self.invalid(configFile, "'\(path)' is not a JSON object")
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

    /// What is wrong with the JSON `data` and where, as Foundation's parser found it: "invalid
    /// value at line 3, column 24" (an operator editing the file over SSH needs the place, and
    /// the parser says only "around character N", a byte offset from 0), or "unexpected end
    /// of file at line 9, column 1".
    static func syntaxProblem(_ error: any Error, in data: Data) -> String {
        let description = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
        let offset: Int?
        let what: Substring
        if let range = description.range(of: " around character ") {
            what = description[..<range.lowerBound]
            offset = Int(description[range.upperBound...].prefix { $0.isNumber })
        } else if description.hasPrefix("Unexpected end of file") {
            what = "Unexpected end of file"
            offset = data.count
        } else {
            what = description.isEmpty ? "not JSON" : Substring(description.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
            offset = nil
        }
        let problem = what.prefix(1).lowercased() + what.dropFirst()
        guard let offset, offset <= data.count else { return problem }
        let before = data.prefix(offset)
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return "\(problem) at line \(line), column \(column)"
    }

    /// The error for a bad value of `setting`: `invalid_configuration`, the message starting with its name.
    static func invalid(_ setting: Setting, _ problem: String) -> LatchkeyError {
        invalid(setting.name, problem)
    }

    private static func invalid(_ name: String, _ problem: String) -> LatchkeyError {
        LatchkeyError(.invalidConfiguration, "\(name) \(problem)")
    }

    /// The error for text that is not what `setting`'s kind allows.
    private static func mismatch(_ setting: Setting, _ text: String) -> LatchkeyError {
        invalid(setting, "must be \(setting.kind.expectation) (got '\(text)')")
    }

    /// Stops on a reader call that does not fit the table entry: a programming error that
    /// the first test loading a configuration finds.
    private static func misread(_ setting: Setting, as reading: String) -> Never {
        preconditionFailure("\(setting.name) is read as \(reading), but its table entry is \(setting.kind)")
    }

    /// The text set for `setting` (environment first, then the file), trimmed; nil when unset or blank.
    func text(_ setting: Setting) -> String? {
        assert(Setting.named(setting.name) != nil, "\(setting.name) is not in Setting.all")
        let value = (environment[setting.name] ?? file[setting.name])?.trimmingCharacters(in: .whitespaces)
        return value?.isEmpty == false ? value : nil
    }

    /// The text set, else the default's: the literal default, or `derived` for a derived one.
    private func textOrDefault(_ setting: Setting, derived: String?) -> String? {
        switch setting.defaultValue {
        case .unset:
            return text(setting)
        case .value(let fallback):
            return text(setting) ?? fallback
        case .derived:
            guard let derived else { preconditionFailure("\(setting.name) has a derived default; the reader needs it") }
            return text(setting) ?? derived
        }
    }

    /// The text of a setting that has a default.
    private func required(_ setting: Setting, derived: String? = nil) -> String {
        guard let text = textOrDefault(setting, derived: derived) else {
            preconditionFailure("\(setting.name) is read as always set, but it has no default")
        }
        return text
    }

    /// Refuses keys in the JSON file that are no server setting, naming the likely intended one.
    func rejectUnknownFileKeys() throws {
        let known = Setting.all.filter { $0.scope == .server }
        if let unknown = file.keys.sorted().first(where: { key in !known.contains { $0.name == key } }) {
            let suggestion = Setting.closest(to: unknown, among: known).map { "; did you mean \($0.name)?" } ?? ""
            throw Self.invalid(unknown, "is not a Latchkey setting (in \(Setting.configFile.name))\(suggestion)")
        }
    }

    /// A whole number in the entry's range; with `atLeast` (the value of the setting the
    /// entry names), not below that either; `derived` for a derived default.
    func integer(_ setting: Setting, atLeast floor: Int? = nil, derived: Int? = nil) throws -> Int {
        guard case .integer(let range, _, let floorName) = setting.kind, (floor != nil) == (floorName != nil) else {
            Self.misread(setting, as: "a whole number")
        }
        let text = required(setting, derived: derived.map(String.init))
        let bounds = max(range.lowerBound, floor ?? range.lowerBound)...range.upperBound
        guard let value = Int(text), bounds.contains(value) else {
            throw Self.invalid(setting, "must be \(setting.kind.expectation(lowerBound: bounds.lowerBound)) (got '\(text)')")
        }
        return value
    }

    /// `true` or `false`.
    func flag(_ setting: Setting) throws -> Bool {
        guard case .flag = setting.kind else { Self.misread(setting, as: "a flag") }
        let text = required(setting)
        switch text.lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw Self.mismatch(setting, text)
        }
    }

    /// One of the entry's words, as the enum whose raw values they are.
    func choice<Value: RawRepresentable<String>>(_ setting: Setting) throws -> Value {
        guard case .choice(let words) = setting.kind else { Self.misread(setting, as: "a choice") }
        let text = required(setting)
        guard words.contains(text.lowercased()) else { throw Self.mismatch(setting, text) }
        guard let value = Value(rawValue: text.lowercased()) else {
            preconditionFailure("\(setting.name) lists '\(text.lowercased())', which \(Value.self) does not have")
        }
        return value
    }

    /// Free text of the entry's shape; `derived` for a derived default.
    func string(_ setting: Setting, derived: String? = nil) throws -> String {
        try checkedText(setting, required(setting, derived: derived))
    }

    /// Free text of the entry's shape; nil when unset.
    func optionalString(_ setting: Setting) throws -> String? {
        try text(setting).map { try checkedText(setting, $0) }
    }

    private func checkedText(_ setting: Setting, _ text: String) throws -> String {
        guard case .text(let rule) = setting.kind else { Self.misread(setting, as: "text") }
        switch rule {
        case .any:
            break
        case .line(let maximumLength):
            guard text.count <= maximumLength, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw Self.invalid(setting, "must be \(setting.kind.expectation)")
            }
        case .word(let maximumLength):
            guard (1...maximumLength).contains(text.utf8.count), !text.contains(where: \.isWhitespace) else {
                throw Self.invalid(setting, "must be \(setting.kind.expectation)")
            }
        }
        return text
    }

    /// A secret, wrapped so that it never prints; nil when unset.
    func secret(_ setting: Setting) -> Redacted<String>? {
        guard case .secret = setting.kind else { Self.misread(setting, as: "a secret") }
        return text(setting).map(Redacted.init)
    }

    /// A path, as a standardized file URL; `derived` for a derived default.
    func path(_ setting: Setting, derived: String? = nil) -> URL {
        guard case .path = setting.kind else { Self.misread(setting, as: "a path") }
        return URL(fileURLWithPath: required(setting, derived: derived)).standardizedFileURL
    }

    /// An absolute URL with one of the entry's schemes; nil when unset.
    func optionalURL(_ setting: Setting) throws -> URL? {
        try text(setting).map { try checkedURL(setting, $0) }
    }

    /// A URL that ends the paths under it (no query, no fragment, no trailing slash), with
    /// one of the entry's schemes; `derived` for a derived default.
    func baseURL(_ setting: Setting, derived: String? = nil) throws -> URL {
        let url = try checkedURL(setting, required(setting, derived: derived))
        guard url.query == nil, url.fragment == nil else {
            throw Self.invalid(setting, "must not have a query or fragment")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? url
    }

    /// `text` as an absolute URL with one of the entry's schemes and a host. The error says
    /// what is wrong and never quotes the value: a URL may carry a password (`smtp://user:pw@host`).
    private func checkedURL(_ setting: Setting, _ text: String) throws -> URL {
        guard case .url(let schemes) = setting.kind else { Self.misread(setting, as: "a URL") }
        let expected = "must be \(setting.kind.expectation)"
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw Self.invalid(setting, "\(expected) (the value is not an absolute URL)")
        }
        guard schemes.contains(scheme) else {
            throw Self.invalid(setting, "\(expected) (the value has another scheme)")
        }
        guard let host = url.host, !host.isEmpty else {
            throw Self.invalid(setting, "\(expected) (the URL has no host)")
        }
        return url
    }

    /// A value that a component parses itself, in errors that name the setting; nil when unset.
    func parsed<Value>(_ setting: Setting, _ parse: (String) throws -> Value) throws -> Value? {
        guard case .url = setting.kind else { Self.misread(setting, as: "a URL parsed elsewhere") }
        return try text(setting).map(parse)
    }

    /// The comma-separated entries, each checked (and normalised) as the entry kind says;
    /// an empty list counts as unset.
    func list(_ setting: Setting) throws -> [String] {
        guard case .list(let entryKind) = setting.kind else { Self.misread(setting, as: "a list") }
        func entries(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var list = entries(text(setting))
        if list.isEmpty, case .value(let fallback) = setting.defaultValue { list = entries(fallback) }
        return try list.map { try Self.check(entryKind, $0, of: setting) }
    }

    /// How a URL entry is named in an error: quoted, unless it may hold a user and password
    /// (it has an `@`), which an error must never print.
    private static func described(_ entry: String) -> String {
        entry.contains("@") ? "an entry with '@' (not shown: it may hold a password)" : "entry '\(entry)'"
    }

    private static func check(_ kind: Setting.ListEntry, _ entry: String, of setting: Setting) throws -> String {
        switch kind {
        case .ipAddress:
            guard IPAddress(entry) != nil else { throw invalid(setting, "entry '\(entry)' is not an IP address") }
            return entry
        case .appleAppID:
            let parts = entry.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 10,
                  parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                  parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw invalid(setting, "entry '\(entry)' is not TEAMID.bundle.id (10-character team id)")
            }
            return entry
        case .androidApp:
            guard let colon = entry.firstIndex(of: ":") else { throw invalid(setting, "entry '\(entry)' is not package:fingerprint") }
            let package = entry[..<colon]
            let fingerprint = entry[entry.index(after: colon)...].uppercased()
            let octets = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
            guard !package.isEmpty, package.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }),
                  octets.count == 32, octets.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
                throw invalid(setting, "entry '\(entry)' is not package:SHA-256 fingerprint (32 hex octets separated by ':')")
            }
            return "\(package):\(fingerprint)"
        case .origin:
            guard let url = URL(string: entry), ["http", "https"].contains(url.scheme?.lowercased()), url.user == nil,
                  url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil, let origin = url.webOrigin
            else { throw invalid(setting, "\(described(entry)) is not an origin (http(s)://host[:port], nothing after it)") }
            return origin
        case .passkeyOrigin:
            let androidPrefix = "android:apk-key-hash:"
            if entry.hasPrefix(androidPrefix) {
                // The SHA-256 of the app's signing certificate, as Android writes it (base64url, no padding).
                guard Base64URL.decode(String(entry.dropFirst(androidPrefix.count)))?.count == 32 else {
                    throw invalid(setting, "\(described(entry)) is not android:apk-key-hash: and a base64url SHA-256")
                }
                return entry
            }
            return try check(.origin, entry, of: setting)
        case .linkBase:
            guard let url = URL(string: entry), let scheme = url.scheme, !scheme.isEmpty, url.fragment == nil, url.query == nil else {
                throw invalid(setting, "\(described(entry)) is not an absolute URL without query or fragment")
            }
            if scheme == "http" || scheme == "https", url.host?.isEmpty ?? true {
                throw invalid(setting, "\(described(entry)) has no host")
            }
            do {
                try MailTemplates.checkLink(entry, name: "link")
            } catch {
                throw invalid(
                    setting, "\(described(entry)) cannot be a mail link (needs scheme:/path or scheme://host/path, "
                        + "and no javascript:, data:, vbscript: or file:)")
            }
            return entry
        }
    }

    /// `IP:PORT`, the IP without brackets.
    func listenAddress(_ setting: Setting) throws -> (host: String, port: Int) {
        guard case .listenAddress = setting.kind else { Self.misread(setting, as: "a listen address") }
        let text = required(setting)
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65_535).contains(port) else {
            throw Self.mismatch(setting, text)
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard IPAddress(host) != nil else {
            throw Self.invalid(setting, "host must be an IP address (got '\(host)')")
        }
        return (host, port)
    }

    /// `COUNT/SECONDS`.
    func rateWindow(_ setting: Setting) throws -> RateLimitPolicy.Window {
        guard case .rateWindow = setting.kind else { Self.misread(setting, as: "a rate window") }
        let text = required(setting)
        let parts = text.split(separator: "/")
        guard parts.count == 2, let limit = Int(parts[0]), let seconds = Int(parts[1]),
              Setting.Kind.rateWindowCounts.contains(limit), Setting.Kind.rateWindowSeconds.contains(seconds) else {
            throw Self.mismatch(setting, text)
        }
        return RateLimitPolicy.Window(limit: limit, seconds: TimeInterval(seconds))
    }

    /// An email address, normalised.
    func emailAddress(_ setting: Setting, derived: String) throws -> String {
        guard case .emailAddress = setting.kind else { Self.misread(setting, as: "an email address") }
        let text = required(setting, derived: derived)
        do {
            return try EmailAddress(text).normalized
        } catch {
            throw Self.mismatch(setting, text)
        }
    }
}
