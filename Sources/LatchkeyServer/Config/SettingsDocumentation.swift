import Foundation

extension Setting.Kind {
    /// The counts a `COUNT/SECONDS` rate window allows.
    static let rateWindowCounts = 1...1_000_000
    /// The seconds a `COUNT/SECONDS` rate window allows.
    static let rateWindowSeconds = 1...86_400

    /// What a value must be, completing "… must be": plain text for an error message.
    var expectation: String { expectation(lowerBound: nil) }

    /// ``expectation`` with the lower bound of a whole number that depends on another setting.
    func expectation(lowerBound: Int?) -> String {
        switch self {
        case .integer(let range, let unit, _):
            let of = unit.word.map { " of \($0)" } ?? ""
            return "a whole number\(of) from \(lowerBound ?? range.lowerBound) to \(range.upperBound)"
        case .flag: return "true or false"
        case .choice(let words): return "one of \(words.joined(separator: ", "))"
        case .text(.any), .secret: return "text"
        case .text(.line(let maximumLength)): return "at most \(maximumLength) characters without control characters"
        case .text(.word(let maximumLength)): return "1 to \(maximumLength) characters without spaces"
        case .path(let what): return "the path of \(what)"
        case .url(let schemes): return "an absolute \(schemes.joined(separator: " or ")) URL"
        case .list(let entry): return "a comma-separated list of \(Setting.plain(entry.plural))"
        case .listenAddress: return "IP:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"
        case .rateWindow: return "COUNT/SECONDS, e.g. 20/600 (\(Self.rateWindowBounds))"
        case .emailAddress: return "an email address"
        }
    }

    /// The values a setting takes, for the docs table (Markdown).
    var documentation: String {
        switch self {
        case .integer(let range, let unit, let atLeast):
            let suffix = unit.word.map { " \($0)" } ?? ""
            return "\(atLeast.map { "`\($0)`" } ?? "\(range.lowerBound)")–\(range.upperBound)\(suffix)"
        case .flag: return "`true`, `false`"
        case .choice(let words): return words.map { "`\($0)`" }.joined(separator: ", ")
        case .text(.any): return "text"
        case .secret: return "text, never logged"
        case .text(.line(let maximumLength)): return "text, at most \(maximumLength) characters, no control characters"
        case .text(.word(let maximumLength)): return "1–\(maximumLength) characters, no spaces"
        case .path(let what): return "path of \(what)"
        case .url(let schemes): return schemes.map { "`\($0)://`" }.joined(separator: " or ") + " URL"
        case .list(let entry): return "comma-separated \(entry.plural)"
        case .listenAddress: return "`IP:PORT` (`[::1]:8080` for IPv6)"
        case .rateWindow: return "`COUNT/SECONDS` (\(Self.rateWindowBounds))"
        case .emailAddress: return "email address"
        }
    }

    private static var rateWindowBounds: String {
        "count \(rateWindowCounts.lowerBound)–\(rateWindowCounts.upperBound), "
            + "seconds \(rateWindowSeconds.lowerBound)–\(rateWindowSeconds.upperBound)"
    }
}

extension Setting.Unit {
    /// The unit's word after a number; nil for a plain count.
    var word: String? {
        switch self {
        case .count: nil
        case .seconds: "seconds"
        case .bytes: "bytes"
        case .kibibytes: "KiB"
        }
    }
}

extension Setting.ListEntry {
    /// What the entries are, in the plural (Markdown).
    var plural: String {
        switch self {
        case .ipAddress: "IP addresses"
        case .appleAppID: "`TEAMID.bundle.id`"
        case .androidApp: "`package:SHA-256-fingerprint`"
        case .linkBase: "absolute URLs without query or fragment"
        case .origin: "origins (`https://host[:port]`)"
        case .passkeyOrigin: "origins (`https://host[:port]`, `android:apk-key-hash:…`)"
        }
    }
}

extension Setting.Default {
    /// The default for the docs table (Markdown).
    var documentation: String {
        switch self {
        case .unset(nil): "—"
        case .unset(let consequence?): "— (\(consequence))"
        case .value(let text): "`\(text)`"
        case .derived(let description): description
        }
    }
}

extension Setting {
    /// The meaning, with the production advice if there is any (Markdown).
    var documentation: String {
        meaning + (advice.map { " Before production: \($0.recommendation)." } ?? "")
    }

    /// The settings table of docs/deploy.md: every setting with its default, its values and
    /// its meaning (`latchkey settings --markdown` prints it).
    package static var markdownTable: String {
        func row(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        return ([row(["variable", "default", "values", "meaning"]), "|---|---|---|---|"]
            + all.map { row(["`\($0.name)`", $0.defaultValue.documentation, $0.kind.documentation, $0.documentation]) })
            .joined(separator: "\n")
    }

    /// Every setting for a terminal (`latchkey settings`): name, default, values, meaning.
    package static var textList: String {
        all.map { setting in
            plain("""
                \(setting.name)
                  default: \(setting.defaultValue.documentation)
                  values:  \(setting.kind.documentation)
                  \(setting.documentation)
                """)
        }.joined(separator: "\n\n")
    }
}
