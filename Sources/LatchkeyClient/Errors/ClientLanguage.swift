/// A language the SDK's messages exist in. Every message exists in each case.
public enum ClientLanguage: String, CaseIterable, Sendable {
    /// English.
    case en
    /// Portuguese (Brazilian wording).
    case pt
    /// Spanish.
    case es
    /// Arabic, written right to left.
    case ar

    /// The first supported language among `preferredLanguages` (BCP 47 tags such as
    /// `pt-BR` or `es_MX`, judged by their primary subtag, e.g. `Locale.preferredLanguages`),
    /// else English.
    public init(preferredLanguages: [String]) {
        for tag in preferredLanguages {
            let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
            if let language = ClientLanguage(rawValue: primary.lowercased()) {
                self = language
                return
            }
        }
        self = .en
    }
}
