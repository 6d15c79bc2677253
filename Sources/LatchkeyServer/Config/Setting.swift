import Foundation
import LatchkeyCore

/// One `LATCHKEY_*` setting described as data: its name, the values it takes, its default,
/// what it means and what to set before production. ``Setting/all`` is the table of every
/// setting; the configuration reader and its error messages, `latchkey serve`'s production
/// hints, the warning about unknown variables and the settings table in docs/deploy.md are
/// all derived from it. Texts are Markdown (code in backticks); ``plain(_:)`` strips that
/// for a terminal.
package struct Setting: Sendable {
    /// The variable, e.g. `LATCHKEY_LISTEN`; also the key in the JSON configuration file.
    package let name: String
    /// The values it takes: how the reader parses it and what the docs and errors say.
    package let kind: Kind
    /// The value when it is not set.
    package let defaultValue: Default
    /// What it does, as one sentence.
    package let meaning: String
    /// Who reads it.
    package let scope: Scope
    /// What `latchkey serve` asks the operator to set before production, if anything.
    package let advice: ProductionAdvice?

    /// Describes a setting; see ``Setting/all`` for the table.
    init(
        _ name: String, _ kind: Kind, default defaultValue: Default = .unset(nil), scope: Scope = .server,
        meaning: String, advice: ProductionAdvice? = nil
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.meaning = meaning
        self.scope = scope
        self.advice = advice
    }

    /// Who reads a setting.
    package enum Scope: Sendable {
        /// `latchkey serve` and the administration commands (through ``Configuration``); also
        /// accepted in the JSON configuration file.
        case server
        /// Only the client commands (`login`, `token`, `logout`, `reset`), from the environment.
        case clientCommands
    }

    /// The unit of a whole-number setting.
    package enum Unit: Sendable {
        case count, seconds, bytes, kibibytes
    }

    /// The shape of a free-text setting.
    package enum TextRule: Sendable {
        /// Anything (the component that uses it checks it further).
        case any
        /// One line: at most `maximumLength` characters, no control characters (e.g. a mail header).
        case line(maximumLength: Int)
        /// One word: 1 to `maximumLength` bytes without white space (e.g. a token claim).
        case word(maximumLength: Int)
    }

    /// What each entry of a comma-separated list must be.
    package enum ListEntry: Sendable {
        /// An IPv4 or IPv6 address.
        case ipAddress
        /// `TEAMID.bundle.id` (a 10-character Apple team id).
        case appleAppID
        /// `package:SHA-256 fingerprint` of an Android app.
        case androidApp
        /// An absolute URL without query or fragment that a mail may link to.
        case linkBase
        /// A web origin, `http(s)://host[:port]` and nothing after it.
        case origin
        /// A web origin, or an Android app's `android:apk-key-hash:` origin (a passkey's).
        case passkeyOrigin
    }

    /// The values a setting takes.
    package enum Kind: Sendable {
        /// A whole number within `range`; with `atLeast`, also at least that setting's value.
        case integer(ClosedRange<Int>, Unit, atLeast: String? = nil)
        /// `true` or `false` (also `1`/`0`, `yes`/`no`).
        case flag
        /// One of the listed words (case-insensitive).
        case choice([String])
        /// Free text of the given shape.
        case text(TextRule)
        /// Text that is a secret: never logged, never echoed in an error.
        case secret
        /// A file-system path to what is described, e.g. "a PEM file".
        case path(String)
        /// An absolute URL with one of the schemes.
        case url(schemes: [String])
        /// Comma-separated entries, each of the given form.
        case list(ListEntry)
        /// `IP:PORT`.
        case listenAddress
        /// `COUNT/SECONDS`.
        case rateWindow
        /// An email address.
        case emailAddress
    }

    /// A setting's value when it is not set.
    package enum Default: Sendable, ExpressibleByStringLiteral {
        /// No value; the text (if any) says what happens then.
        case unset(String?)
        /// This text, read exactly as if it had been set.
        case value(String)
        /// Computed from other settings as the text describes; ``Configuration`` computes it.
        case derived(String)

        /// A literal default: the text as if it had been set.
        package init(stringLiteral text: String) {
            self = .value(text)
        }
    }

    /// What to set before production, and when the running configuration still needs it.
    package struct ProductionAdvice: Sendable {
        /// What to set, e.g. "the `https` URL users reach".
        package let recommendation: String
        private let applies: @Sendable (Configuration) -> Bool
        private let currently: (@Sendable (Configuration) -> String)?

        /// Advice shown while `applies` holds, with `currently` (if given) saying what is set now.
        init(
            _ recommendation: String, when applies: @escaping @Sendable (Configuration) -> Bool,
            now currently: (@Sendable (Configuration) -> String)? = nil
        ) {
            self.recommendation = recommendation
            self.applies = applies
            self.currently = currently
        }

        /// The hint for `setting` under `configuration`, or nil when the configuration already
        /// follows the advice.
        func hint(for setting: Setting, in configuration: Configuration) -> ProductionHint? {
            guard applies(configuration) else { return nil }
            return ProductionHint(
                setting: setting.name, recommendation: Setting.plain(recommendation), current: currently.map { $0(configuration) })
        }
    }

    /// One thing to set before production that the configuration does not follow yet, as
    /// `latchkey serve` reports it: a `production_advice` log event, and a line for a terminal.
    package struct ProductionHint: Sendable, Equatable {
        /// The setting's name, e.g. `LATCHKEY_PUBLIC_URL`.
        package let setting: String
        /// What to set, without Markdown, e.g. "the https URL users reach".
        package let recommendation: String
        /// What is set now, when saying so helps.
        package let current: String?

        /// One line without Markdown: `NAME: recommendation (now …)`.
        package var line: String {
            "\(setting): \(recommendation)" + (current.map { " (now \($0))" } ?? "")
        }
    }

    /// `text` without Markdown code marks, for a terminal.
    package static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "")
    }
}

extension Setting {
    /// The table entry named `name`, if there is one.
    package static func named(_ name: String) -> Setting? {
        all.first { $0.name == name }
    }

    /// The setting whose name is closest to `name` (fewest single-character edits) among
    /// `candidates`: the likely intent behind a typo.
    package static func closest(to name: String, among candidates: [Setting] = all) -> Setting? {
        candidates.min { Spelling.distance(name, $0.name) < Spelling.distance(name, $1.name) }
    }

    /// Warnings for `LATCHKEY_*` variables in `environment` that are no setting (typos, or
    /// settings of another version), each naming the closest known setting.
    package static func unknownVariableWarnings(in environment: [String: String]) -> [String] {
        environment.keys.filter { $0.hasPrefix("LATCHKEY_") && named($0) == nil }.sorted().map { name in
            let suggestion = closest(to: name).map { "; did you mean \($0.name)?" } ?? ""
            return "\(name) is not a Latchkey setting and is ignored\(suggestion)"
        }
    }
}
