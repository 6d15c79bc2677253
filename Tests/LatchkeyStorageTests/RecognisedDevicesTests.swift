import Foundation
import LatchkeyCrypto
import LatchkeyTestSupport
import Testing

@testable import LatchkeyCore
@testable import LatchkeyStorage

/// Recognised devices on every `Store` in ``StoreFactory/all``: what a device token is
/// recognised for, and the new-device notice's rules, timed by a ManualClock.
@Suite struct RecognisedDevicesTests {
    private struct Harness {
        let fixture: StoreFixture
        let store: any Store
        let devices: RecognisedDevices
        var clock: ManualClock { fixture.clock }

        init(_ factory: StoreFactory, notices: Bool = true, keep: Int = 20) throws {
            fixture = try factory.make()
            store = try fixture.migratedStore()
            var settings = RecognisedDevices.Settings(notices: notices, resetPageURL: "https://auth.example.com/reset-password")
            settings.devicesPerAccount = keep
            devices = RecognisedDevices(
                store: store, limiter: LocalRateLimiter(), templates: MailTemplates(productName: "Example"), settings: settings,
                clock: fixture.clock, logger: Logger(sink: MemoryLogSink()))
        }

        func account(_ email: String = "ana@example.com", locale: String? = nil) throws -> Account {
            let account = Account(
                id: UUID().uuidString.lowercased(), email: email, passwordHash: nil, status: .active, credentialVersion: 1, locale: locale,
                createdAt: clock.now())
            try store.createAccount(account)
            return account
        }

        /// The mails waiting in the outbox, leased (so each is returned once).
        func mails() throws -> [MailMessage] {
            try store.leaseDueMail(now: clock.now(), lease: 864_000, limit: 100).map(\.message)
        }
    }

    private static let browser = LoginOrigin(clientIP: "203.0.113.77", userAgentHeader:
        "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")

    @Test("a sign-in hands back a token that is then recognised for that account only, and kept when presented again", arguments: StoreFactory.all)
    func recognisedForItsAccount(factory: StoreFactory) throws {
        let harness = try Harness(factory)
        let ana = try harness.account()
        let bea = try harness.account("bea@example.com")
        let token = try harness.devices.signedIn(ana, presented: nil, origin: Self.browser)
        #expect(try harness.devices.isRecognised(token, of: ana, now: harness.clock.now()))
        #expect(try !harness.devices.isRecognised(token, of: bea, now: harness.clock.now()))
        #expect(try !harness.devices.isRecognised(nil, of: ana, now: harness.clock.now()))

        let again = try harness.devices.signedIn(ana, presented: token, origin: Self.browser)
        #expect(again.value.exposed == token.value.exposed)
        // The same browser signing in to another account keeps its one token, now known to both.
        let other = try harness.devices.signedIn(bea, presented: token, origin: Self.browser)
        #expect(other.value.exposed == token.value.exposed)
        #expect(try harness.devices.isRecognised(token, of: bea, now: harness.clock.now()))
    }

    @Test("a token the server never issued is not adopted: the sign-in gets a fresh one", arguments: StoreFactory.all)
    func madeUpTokenNotAdopted(factory: StoreFactory) throws {
        let harness = try Harness(factory)
        let ana = try harness.account()
        let madeUp = DeviceToken.generate()
        let handed = try harness.devices.signedIn(ana, presented: madeUp, origin: Self.browser)
        #expect(handed.value.exposed != madeUp.value.exposed)
        #expect(try !harness.devices.isRecognised(madeUp, of: ana, now: harness.clock.now()))
        #expect(try harness.devices.isRecognised(handed, of: ana, now: harness.clock.now()))
    }

    @Test("a changed credential version (reset, password change) forgets every device; so does a year without a sign-in", arguments: StoreFactory.all)
    func forgotten(factory: StoreFactory) throws {
        let harness = try Harness(factory)
        let ana = try harness.account()
        let token = try harness.devices.signedIn(ana, presented: nil, origin: Self.browser)
        let reset = Account(
            id: ana.id, email: ana.email, passwordHash: nil, status: .active, credentialVersion: ana.credentialVersion + 1, locale: nil,
            createdAt: ana.createdAt)
        #expect(try !harness.devices.isRecognised(token, of: reset, now: harness.clock.now()))
        // Signing in again under the new version makes it known again, under that version.
        _ = try harness.devices.signedIn(reset, presented: token, origin: Self.browser)
        #expect(try harness.devices.isRecognised(token, of: reset, now: harness.clock.now()))

        harness.clock.advance(by: 365 * 86_400 - 1)
        #expect(try harness.devices.isRecognised(token, of: reset, now: harness.clock.now()))
        harness.clock.advance(by: 2)
        #expect(try !harness.devices.isRecognised(token, of: reset, now: harness.clock.now()))
    }

    @Test("an account keeps its most recently used devices, the oldest going first", arguments: StoreFactory.all)
    func bounded(factory: StoreFactory) throws {
        let harness = try Harness(factory, keep: 3)
        let ana = try harness.account()
        var tokens: [DeviceToken] = []
        for _ in 0..<4 {
            tokens.append(try harness.devices.signedIn(ana, presented: nil, origin: Self.browser))
            harness.clock.advance(by: 10)
        }
        let now = harness.clock.now()
        #expect(try !harness.devices.isRecognised(tokens[0], of: ana, now: now))
        for token in tokens.dropFirst() { #expect(try harness.devices.isRecognised(token, of: ana, now: now)) }
        #expect(try harness.fixture.integer("SELECT COUNT(*) AS value FROM recognised_devices") == 3)
    }

    @Test("one notice: none for an account's first sign-in or a known device, one for a new device, none for another within the hour", arguments: StoreFactory.all)
    func noticeRules(factory: StoreFactory) throws {
        let harness = try Harness(factory)
        let ana = try harness.account(locale: "pt-BR")
        let first = try harness.devices.signedIn(ana, presented: nil, origin: Self.browser)
        #expect(try harness.mails().isEmpty, "the account's first sign-in is not news")
        _ = try harness.devices.signedIn(ana, presented: first, origin: Self.browser)
        #expect(try harness.mails().isEmpty, "a recognised device")

        harness.clock.advance(by: 60)
        _ = try harness.devices.signedIn(ana, presented: nil, origin: LoginOrigin(clientIP: "2001:db8:1234:5678::9", userAgentHeader: nil))
        let mails = try harness.mails()
        #expect(mails.count == 1)
        let mail = try #require(mails.first)
        let text = SupportedLanguage.pt.catalogue.newDeviceMail
        #expect(mail.to == "ana@example.com")
        #expect(mail.subject == text.subject("Example"))
        #expect(mail.textBody.contains(text.unknownDevice))
        #expect(mail.textBody.contains("2001:db8:1234::"))
        #expect(!mail.textBody.contains("5678"), "the address is truncated to its /48")
        #expect(mail.textBody.contains("https://auth.example.com/reset-password?lang=pt"))

        _ = try harness.devices.signedIn(ana, presented: nil, origin: Self.browser)
        #expect(try harness.mails().isEmpty, "at most one an hour")
        harness.clock.advance(by: 3600)
        _ = try harness.devices.signedIn(ana, presented: nil, origin: Self.browser)
        let later = try harness.mails()
        #expect(later.count == 1)
        #expect(later.first?.textBody.contains("Firefox") == true)
        #expect(later.first?.textBody.contains("203.0.113.0") == true)
        #expect(later.first?.textBody.contains("203.0.113.77") == false)
    }

    @Test("with notices off nothing is mailed, and devices are recognised all the same", arguments: StoreFactory.all)
    func offSwitch(factory: StoreFactory) throws {
        let harness = try Harness(factory, notices: false)
        let ana = try harness.account()
        _ = try harness.devices.signedIn(ana, presented: nil, origin: Self.browser)
        let token = try harness.devices.signedIn(ana, presented: nil, origin: Self.browser)
        #expect(try harness.mails().isEmpty)
        #expect(try harness.devices.isRecognised(token, of: ana, now: harness.clock.now()), "devices are recognised either way")
    }

    @Test("the notice renders in every language with the device, the address and the reset link", arguments: SupportedLanguage.allCases)
    func noticeTexts(language: SupportedLanguage) throws {
        let mail = try MailTemplates(productName: "Acme").render(
            .newDeviceSignIn(
                signedInAt: Date(timeIntervalSince1970: 1_900_000_000), device: "Safari on iOS", address: "198.51.100.0",
                resetPageURL: "https://auth.example.com/reset-password?lang=\(language.rawValue)"),
            to: "a@example.com", language: language, id: "n")
        let text = language.catalogue.newDeviceMail
        for line in [text.greeting, text.ifYou, text.ifNotYou, text.button, text.linkFallback] {
            #expect(mail.htmlBody.contains(line.htmlEscaped), "\(language): \(line)")
        }
        #expect(mail.textBody.contains("Safari on iOS"))
        #expect(mail.textBody.contains("198.51.100.0"))
        #expect(mail.textBody.contains("2030-03-17"))
        #expect(mail.htmlBody.contains("https://auth.example.com/reset-password?lang=\(language.rawValue)"))
    }
}
