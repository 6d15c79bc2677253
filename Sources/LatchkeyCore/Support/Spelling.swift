/// What a misspelt name was likely meant to be: "did you mean …?" for settings, commands and
/// subcommands.
package enum Spelling {
    /// Levenshtein distance over UTF-8 bytes: the insertions, deletions and substitutions that
    /// turn `a` into `b`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for (i, byteA) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, byteB) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (byteA == byteB ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The first of `candidates` closest to `word`, when it is at most `maximumDistance` edits
    /// away and fewer edits than `word` has characters (so a short word is never "corrected"
    /// into an unrelated one); nil otherwise.
    package static func closest(to word: String, among candidates: [String], maximumDistance: Int = 2) -> String? {
        guard let best = candidates.min(by: { distance(word, $0) < distance(word, $1) }) else { return nil }
        let edits = distance(word, best)
        return edits <= maximumDistance && edits < word.utf8.count ? best : nil
    }
}
