import Foundation
import LatchkeyCrypto
@testable import LatchkeyCore
import LatchkeyHTTP
@testable import LatchkeyServer
import LatchkeyTestSupport
import LatchkeyWebAuthn
import LatchkeyWebAuthnTestSupport
import Testing

/// The owner's mails about passkeys through the routes of a whole application: what a person
/// finds in their mailbox after adding, renaming and removing passkeys over HTTP, and after
/// closing the account.
@Suite struct PasskeyMailRoutesTests {
    private static let password = "correct horse battery staple"
    private static let email = "person@example.com"

    /// Registers a new credential named `name` through the routes, as a client saying `acceptLanguage`.
    private func register(_ harness: AccountRoutesHarness, token: String, name: String, acceptLanguage: String) throws
        -> (SoftwareAuthenticator, HTTPResponse)
    {
        let options = harness.call("POST", "/auth/passkeys/registration/options", token: token)
        let key = try #require((try harness.json(options)["data"] as? [String: Any])?["public_key"] as? [String: Any])
        let handle = try #require(Base64URL.decode((key["user"] as? [String: Any])?["id"] as? String ?? ""))
        let authenticator = SoftwareAuthenticator(algorithm: .es256, userHandle: handle)
        let ceremony = SoftwareAuthenticator.Ceremony(challenge: try #require(Base64URL.decode(key["challenge"] as? String ?? "")))
        let credential = String(decoding: authenticator.register(ceremony).json, as: UTF8.self)
        let request = harness.request(
            "POST", "/auth/passkeys/registration/verify", token: token, body: #"{"credential":\#(credential),"name":"\#(name)"}"#,
            headers: [("Accept-Language", acceptLanguage)])
        return (authenticator, harness.app.router.handle(request))
    }

    @Test("adding, renaming and removing over HTTP: one mail per change in the account's language; closing the account adds none")
    func mailbox() throws {
        let harness = try AccountRoutesHarness(["LATCHKEY_PUBLIC_URL": "https://example.com", "LATCHKEY_PRODUCT_NAME": "Example"])
        _ = try harness.app.accounts.createAccount(email: Self.email, password: Redacted(Self.password), locale: "es")
        let login = try harness.login(Self.email, Self.password)
        _ = try harness.mails()
        let text = SupportedLanguage.es.catalogue.passkeyMail

        let (phone, added) = try register(harness, token: login.access, name: "Teléfono <1>", acceptLanguage: "en")
        #expect(added.status == 201)
        let addedMails = try harness.mails()
        #expect(addedMails.map(\.subject) == [text.addedSubject("Example")])
        #expect(addedMails.first?.to == Self.email)
        #expect(addedMails.first?.htmlBody.contains("«Teléfono &lt;1&gt;»") == true)
        let (laptop, _) = try register(harness, token: login.access, name: "Portátil", acceptLanguage: "en")
        #expect(try harness.mails().count == 1)

        let path = "/users/me/passkeys/" + Base64URL.encode(phone.credentialID)
        #expect(harness.call("PATCH", path, token: login.access, body: #"{"name":"Móvil"}"#).status == 200)
        #expect(try harness.mails().isEmpty)
        // A refused deletion (the passkey is not there) sends nothing; a deletion sends one.
        #expect(harness.call("DELETE", "/users/me/passkeys/" + Base64URL.encode(Data(repeating: 1, count: 16)), token: login.access).status == 404)
        #expect(try harness.mails().isEmpty)
        #expect(harness.call("DELETE", path, token: login.access).status == 204)
        let removed = try harness.mails()
        #expect(removed.map(\.subject) == [text.removedSubject("Example")])
        #expect(removed.first?.textBody.contains("«Móvil»") == true)

        // Closing the account takes the other passkey with it: the account-deleted mail alone.
        #expect(try harness.app.store.passkey(credentialID: laptop.credentialID) != nil)
        #expect(harness.call("DELETE", "/users/me", token: login.access).status == 204)
        #expect(try harness.app.store.passkey(credentialID: laptop.credentialID) == nil)
        #expect(try harness.mails().map(\.subject) == [SupportedLanguage.es.catalogue.accountDeletedMail.subject("Example")])
    }
}
