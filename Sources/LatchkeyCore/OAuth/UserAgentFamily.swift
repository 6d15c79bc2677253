/// A `User-Agent` header reduced to what a person recognises in a list of signed-in devices:
/// a browser or app and an operating system ("Safari on iOS", "Chrome on Windows",
/// "python-requests"). Nothing else of the header is kept: no versions, no device models.
package enum UserAgentFamily {
    /// The longest header read; the rest is ignored.
    static let maximumHeaderLength = 1024
    /// The longest product name taken from an unknown client's header.
    static let maximumProductLength = 32

    /// The family of `header`; nil when it names nothing recognisable (absent, empty, or no
    /// product token of letters, digits, `.`, `_` and `-`).
    package static func describe(_ header: String?) -> String? {
        guard let header else { return nil }
        let text = String(header.prefix(maximumHeaderLength))
        let client = browser(in: text) ?? product(in: text)
        let system = operatingSystem(in: text)
        switch (client, system) {
        case (let client?, let system?): return client + " on " + system
        case (let client?, nil): return client
        case (nil, let system?): return system
        case (nil, nil): return nil
        }
    }

    /// The browser, by the tokens each puts in its header; checked in this order because
    /// each later one's token also appears in the earlier ones' headers (Edge's and Opera's
    /// carry `Chrome/`, Chrome's carries `Safari/`).
    private static func browser(in header: String) -> String? {
        let browsers: [(tokens: [String], name: String)] = [
            (["Edg/", "EdgA/", "EdgiOS/"], "Edge"),
            (["OPR/", "OPiOS/"], "Opera"),
            (["SamsungBrowser/"], "Samsung Internet"),
            (["Firefox/", "FxiOS/"], "Firefox"),
            (["CriOS/", "Chrome/"], "Chrome"),
            (["Chromium/"], "Chromium"),
        ]
        for browser in browsers where browser.tokens.contains(where: header.contains) {
            return browser.name
        }
        if header.contains("Safari/"), header.contains("Version/") { return "Safari" }
        return nil
    }

    /// The operating system, by the tokens browsers and Apple's networking put in the header.
    private static func operatingSystem(in header: String) -> String? {
        let systems: [(tokens: [String], name: String)] = [
            (["iPhone", "iPad", "iPod"], "iOS"),
            (["Android"], "Android"),
            (["Windows"], "Windows"),
            (["CrOS"], "ChromeOS"),
            (["Macintosh", "Mac OS X"], "macOS"),
            (["Linux"], "Linux"),
        ]
        return systems.first { $0.tokens.contains(where: header.contains) }?.name
    }

    /// The first product token's name (`MyApp` of `MyApp/3 CFNetwork/1490 Darwin/23.2`,
    /// `curl` of `curl/8.5`) when it is made of letters, digits, `.`, `_` and `-`; `Mozilla`,
    /// which every browser sends, says nothing and is no product.
    private static func product(in header: String) -> String? {
        let name = header.prefix { $0 != "/" && $0 != " " && $0 != "(" }
        guard !name.isEmpty, name.count <= maximumProductLength, name != "Mozilla",
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0)) })
        else { return nil }
        return String(name)
    }
}
