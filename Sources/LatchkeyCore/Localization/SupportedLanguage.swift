import Foundation

/// A language the server writes its mail and web pages in.
///
/// Each case has a ``catalogue`` with every user-facing text and the direction they run
/// in; ``negotiate(explicit:acceptLanguage:accountLocale:)`` picks one from what a request
/// and an account say, falling back to English.
///
/// Adding a language is a case here (its raw value the BCP 47 primary subtag), its arm in
/// ``catalogue``, and one catalogue file under `Localization/Languages/` (see
/// ``TextCatalogue``).
package enum SupportedLanguage: String, CaseIterable, Sendable {
    /// English.
    case en
    /// Portuguese (Brazilian wording).
    case pt
    /// Spanish.
    case es
    /// Arabic, written right to left.
    case ar

    /// The most entries of an `Accept-Language` header that are looked at; the rest are
    /// ignored, so a huge header costs no more than a normal one.
    static let acceptLanguageEntryLimit = 32

    /// The most characters of an `Accept-Language` header that are kept (with a pending reset
    /// request) and looked at.
    static let acceptLanguageLength = 256

    /// An `Accept-Language` header as the server uses and keeps it: its first
    /// ``acceptLanguageLength`` characters; nil, as if absent, when it holds anything but
    /// printable ASCII (a control character, or non-ASCII text, which no language range has).
    package static func acceptLanguage(_ header: String?) -> String? {
        guard let header, header.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(header.prefix(acceptLanguageLength))
    }

    /// Every text of every surface in this language, and its direction.
    package var catalogue: TextCatalogue {
        switch self {
        case .en: .english
        case .pt: .portuguese
        case .es: .spanish
        case .ar: .arabic
        }
    }

    /// Whether text in this language runs right to left.
    package var isRightToLeft: Bool { catalogue.direction == .rightToLeft }

    /// The HTML `dir` attribute value: `rtl` or `ltr`.
    package var direction: String { catalogue.direction.rawValue }

    /// `text` (a name, an address, a time) ready to be placed inside a sentence of this
    /// language: in a right-to-left language wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL
    /// ISOLATE (U+2068 … U+2069), so left-to-right text and its punctuation keep their order
    /// in plain text and mail subjects as in HTML; unchanged in a left-to-right language.
    package func isolated(_ text: String) -> String {
        isRightToLeft ? "\u{2068}\(text)\u{2069}" : text
    }

    /// The language of a BCP 47 tag such as `pt-BR`, `es_MX` or `AR`, judged by its primary
    /// subtag; nil when the tag names no supported language.
    package init?(tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        guard let language = SupportedLanguage(rawValue: primary.lowercased()) else {
            return nil
        }
        self = language
    }

    /// Chooses the language for a message or page.
    ///
    /// The first that names a supported language wins: the `explicit` choice (a request's
    /// `locale` field), then the account's stored locale, then the best `Accept-Language`
    /// entry by q-value (ties keep header order; `q=0` means "not this one"; a header
    /// ``acceptLanguage(_:)`` refuses counts as absent), else English.
    package static func negotiate(explicit: String?, acceptLanguage: String?, accountLocale: String?) -> SupportedLanguage {
        if let explicit, let language = SupportedLanguage(tag: explicit.trimmingCharacters(in: .whitespaces)) { return language }
        if let accountLocale, let language = SupportedLanguage(tag: accountLocale.trimmingCharacters(in: .whitespaces)) { return language }
        if let header = Self.acceptLanguage(acceptLanguage), let language = preferred(acceptLanguage: header) { return language }
        return .en
    }

    /// The supported language with the highest q-value in an `Accept-Language` header.
    static func preferred(acceptLanguage header: String) -> SupportedLanguage? {
        var best: (language: SupportedLanguage, quality: Double)?
        for entry in header.split(separator: ",", omittingEmptySubsequences: true).prefix(acceptLanguageEntryLimit) {
            let parts = entry.split(separator: ";")
            guard let tag = parts.first, let language = SupportedLanguage(tag: String(tag).trimmingCharacters(in: .whitespaces)) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let value = Double(pair[1]), value.isFinite, (0...1).contains(value) else {
                    quality = 0
                    break
                }
                quality = value
            }
            if quality > 0, quality > (best?.quality ?? 0) {
                best = (language, quality)
            }
        }
        return best?.language
    }
}
