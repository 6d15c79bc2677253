import LatchkeyCore
import Testing

@Suite struct MailLanguageTests {
    @Test("the explicit locale wins, then the account's, then Accept-Language, then English")
    func order() {
        #expect(SupportedLanguage.negotiate(explicit: "es", acceptLanguage: "pt", accountLocale: "ar") == .es)
        #expect(SupportedLanguage.negotiate(explicit: nil, acceptLanguage: "pt", accountLocale: "ar") == .ar)
        #expect(SupportedLanguage.negotiate(explicit: nil, acceptLanguage: "pt", accountLocale: nil) == .pt)
        #expect(SupportedLanguage.negotiate(explicit: nil, acceptLanguage: nil, accountLocale: nil) == .en)
    }

    @Test("an unsupported or malformed choice falls through to the next source")
    func fallThrough() {
        #expect(SupportedLanguage.negotiate(explicit: "fr", acceptLanguage: nil, accountLocale: "pt-PT") == .pt)
        #expect(SupportedLanguage.negotiate(explicit: "", acceptLanguage: "es-MX", accountLocale: "de") == .es)
        #expect(SupportedLanguage.negotiate(explicit: "klingon-long-tag", acceptLanguage: "ja, zh;q=0.9", accountLocale: nil) == .en)
    }

    @Test("region subtags, underscores and letter case are understood")
    func regionSubtags() {
        #expect(SupportedLanguage(tag: "pt-BR") == .pt)
        #expect(SupportedLanguage(tag: "es_419") == .es)
        #expect(SupportedLanguage(tag: "AR-eg") == .ar)
        #expect(SupportedLanguage(tag: "en") == .en)
        #expect(SupportedLanguage(tag: "eng") == nil)
        #expect(SupportedLanguage(tag: "") == nil)
    }

    @Test("Accept-Language is ranked by q-value, ties keep header order, q=0 excludes")
    func acceptLanguage() {
        func pick(_ header: String) -> SupportedLanguage {
            SupportedLanguage.negotiate(explicit: nil, acceptLanguage: header, accountLocale: nil)
        }
        #expect(pick("fr-CA, fr;q=0.9, es;q=0.5, ar;q=0.7") == .ar)
        #expect(pick("pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7") == .pt)
        #expect(pick("es, pt") == .es)
        #expect(pick("ar;q=0, es;q=0.1") == .es)
        #expect(pick("ar;q=0") == .en)
        #expect(pick("ar;q=2, pt;q=0.3") == .pt)
        #expect(pick("ar;q=abc, es") == .es)
        #expect(pick("*;q=0.5, ar ; q=0.8") == .ar)
        #expect(pick(",,;;==") == .en)
    }

    @Test("a huge Accept-Language header is read only up to its entry limit")
    func hugeHeader() {
        let header = Array(repeating: "de", count: 10_000).joined(separator: ",") + ",ar"
        #expect(SupportedLanguage.negotiate(explicit: nil, acceptLanguage: header, accountLocale: nil) == .en)
    }

    @Test("only Arabic is right to left")
    func direction() {
        #expect(SupportedLanguage.allCases.filter(\.isRightToLeft) == [.ar])
        #expect(SupportedLanguage.ar.direction == "rtl")
        #expect(SupportedLanguage.pt.direction == "ltr")
    }
}
