/// Takes credentials out of text a C library wrote (libpq, hiredis, libcurl), by its structure,
/// never by searching for a password's text.
///
/// Searching for the password replaced every ordinary word that happened to be it — with the
/// password `server`, libpq's "Is the server running" read "Is the <redacted> running", which
/// gave the password away — and missed it in any other spelling (percent-encoded, quoted). What
/// can hold a credential is recognised by its form instead:
/// - a URL's user information (`scheme://user:password@host`): the password, up to the
///   authority's last `@`, becomes `<redacted>`; the user name stays;
/// - a `password=` or `passwd=` (`pass=`, `sslpassword=`, `requirepass=`, any case) parameter,
///   as libpq's keyword/value connection strings and URL query strings write them: the value,
///   quoted or not, becomes `<redacted>`.
///
/// Everything else comes out unchanged, so the text still reads as the library wrote it.
package enum CredentialScrubber {
    /// What a secret is replaced with.
    package static let placeholder = "<redacted>"

    /// Parameter names whose values are secrets (compared in lower case).
    private static let secretParameters: Set<String> = ["password", "passwd", "pass", "pwd", "sslpassword", "requirepass"]

    /// `text` with every URL's password and every password parameter's value replaced by
    /// ``placeholder``.
    package static func scrub(_ text: String) -> String {
        scrubParameters(scrubUserInformation(text))
    }

    /// Replaces the password of each `scheme://user:password@host` in `text`: the authority
    /// runs from `://` to the first `/`, `?`, `#` or white space, and its user information
    /// up to the last `@` in it (a password may hold a bare `@`).
    private static func scrubUserInformation(_ text: String) -> String {
        let characters = Array(text)
        var index = 0
        var output: [Character] = []
        output.reserveCapacity(characters.count)
        while index < characters.count {
            guard index + 2 < characters.count, characters[index] == ":", characters[index + 1] == "/",
                  characters[index + 2] == "/", index > 0, isSchemeCharacter(characters[index - 1])
            else {
                output.append(characters[index])
                index += 1
                continue
            }
            output.append(contentsOf: "://")
            let start = index + 3
            var end = start
            while end < characters.count, !["/", "?", "#"].contains(characters[end]), !characters[end].isWhitespace { end += 1 }
            let authority = characters[start..<end]
            if let at = authority.lastIndex(of: "@"), let colon = characters[start..<at].firstIndex(of: ":") {
                output.append(contentsOf: characters[start...colon])
                output.append(contentsOf: placeholder)
                output.append(contentsOf: characters[at..<end])
            } else {
                // No password: a user name alone, or no user information at all.
                output.append(contentsOf: authority)
            }
            index = end
        }
        return String(output)
    }

    /// Replaces the value of each secret parameter: `name=value` or `name = 'quoted value'`
    /// (libpq's form, `\'` and `\\` escaped inside quotes), the name starting the text or
    /// following a character that cannot be part of a name; an unquoted value runs to the next
    /// white space, `&`, `;` or `#`.
    private static func scrubParameters(_ text: String) -> String {
        let characters = Array(text)
        var output: [Character] = []
        output.reserveCapacity(characters.count)
        var index = 0
        while index < characters.count {
            guard isNameCharacter(characters[index]), index == 0 || !isNameCharacter(characters[index - 1]) else {
                output.append(characters[index])
                index += 1
                continue
            }
            var nameEnd = index
            while nameEnd < characters.count, isNameCharacter(characters[nameEnd]) { nameEnd += 1 }
            var equals = nameEnd
            while equals < characters.count, characters[equals] == " " { equals += 1 }
            guard secretParameters.contains(String(characters[index..<nameEnd]).lowercased()),
                  equals < characters.count, characters[equals] == "="
            else {
                output.append(contentsOf: characters[index..<nameEnd])
                index = nameEnd
                continue
            }
            var valueStart = equals + 1
            while valueStart < characters.count, characters[valueStart] == " " { valueStart += 1 }
            output.append(contentsOf: characters[index..<valueStart])
            output.append(contentsOf: placeholder)
            index = valueEnd(characters, from: valueStart)
        }
        return String(output)
    }

    /// Where the value starting at `start` ends: after its closing quote, or at the first
    /// character that ends an unquoted value.
    private static func valueEnd(_ characters: [Character], from start: Int) -> Int {
        guard start < characters.count else { return start }
        if characters[start] == "'" || characters[start] == "\"" {
            let quote = characters[start]
            var index = start + 1
            while index < characters.count {
                if characters[index] == "\\" {
                    index += 2
                    continue
                }
                if characters[index] == quote { return index + 1 }
                index += 1
            }
            return characters.count
        }
        var index = start
        while index < characters.count, !characters[index].isWhitespace, !["&", ";", "#"].contains(characters[index]) { index += 1 }
        return index
    }

    private static func isSchemeCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "+" || character == "-" || character == ".")
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }
}
