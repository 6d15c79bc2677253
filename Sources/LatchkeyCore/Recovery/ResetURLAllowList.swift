import Foundation

/// The reset link bases a client may ask for. A requested `reset_url` is accepted only when it
/// equals an entry: for http(s) the scheme and host compare without case, port and path
/// exactly; any other (custom) scheme compares as the whole string. Never by "origin":
/// `https://app.example.com/reset` does not allow `https://app.example.com/evil`.
struct ResetURLAllowList: Sendable {
    private let entries: [String]

    init(_ entries: [String]) {
        self.entries = entries
    }

    func allows(_ candidate: String) -> Bool {
        guard candidate.utf8.count <= 2048,
              !candidate.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
        else { return false }
        return entries.contains { Self.matches(entry: $0, candidate: candidate) }
    }

    private static func matches(entry: String, candidate: String) -> Bool {
        guard let entryURL = URLComponents(string: entry), let candidateURL = URLComponents(string: candidate),
              let entryScheme = entryURL.scheme?.lowercased(), let candidateScheme = candidateURL.scheme?.lowercased(),
              entryScheme == candidateScheme else { return false }
        guard entryScheme == "http" || entryScheme == "https" else { return entry == candidate }
        return candidateURL.user == nil && candidateURL.password == nil
            && candidateURL.query == nil && candidateURL.fragment == nil
            && entryURL.host?.lowercased() == candidateURL.host?.lowercased()
            && entryURL.port == candidateURL.port
            && entryURL.percentEncodedPath == candidateURL.percentEncodedPath
    }
}
