import Foundation
@testable import LatchkeyCore
@testable import LatchkeyStorage
import LatchkeyTestSupport
import Synchronization
import Testing

/// Address changes — asked for, confirmed by the new address, undone from the old one — on
/// every `Store` implementation in ``StoreFactory/all``, with real concurrency.
@Suite struct EmailChangeStoreContractTests {
    @Test("a confirmation is used once, makes the change, supersedes the earlier request and stores the undo token",
          arguments: StoreFactory.all)
    func confirm(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        let earlier = try harness.confirmation(of: account, to: "first@example.com")
        let latest = try harness.confirmation(of: account, to: "second@example.com")
        for confirmation in [earlier, latest] {
            #expect(try store.requestEmailChange(
                login: harness.reference(login), confirmation: confirmation, mail: try noticeMail(to: confirmation.newEmail),
                now: harness.now))
        }
        #expect(try harness.mailCount(to: "first@example.com") == 1)
        #expect(try confirm(earlier.digest, in: harness) == nil)

        let undo = randomDigest()
        let changed = try #require(try confirm(latest.digest, in: harness, undo: undo))
        #expect(changed.email == "second@example.com")
        #expect(changed.credentialVersion == account.credentialVersion)
        #expect(try store.account(email: "second@example.com")?.id == account.id)
        #expect(try store.account(email: "person@example.com") == nil)
        #expect(try harness.mailCount(to: "person@example.com") == 1)
        #expect(try confirm(latest.digest, in: harness) == nil)
        #expect(try harness.fixture.integer(
            "SELECT COUNT(*) AS value FROM email_change_tokens WHERE kind = 'undo' AND token_digest = '\(StorageEncoding.hex(undo))'") == 1)
        // The login goes on: a new address needs no new sign-in.
        #expect(try store.liveFamily(familyID: login.familyID, now: harness.now) != nil)
    }

    @Test("a request needs a live login whose account still has the address it changes from", arguments: StoreFactory.all)
    func requestNeedsALiveLogin(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        let moved = EmailChangeToken(
            digest: randomDigest(), kind: .confirm, accountID: account.id, oldEmail: "earlier@example.com",
            newEmail: "new@example.com", createdAt: harness.now, expiresAt: harness.now.addingTimeInterval(3600))
        #expect(try !store.requestEmailChange(
            login: harness.reference(login), confirmation: moved, mail: try noticeMail(to: "new@example.com"), now: harness.now))
        try store.revokeFamily(id: login.familyID, now: harness.now)
        #expect(try !store.requestEmailChange(
            login: harness.reference(login), confirmation: try harness.confirmation(of: account, to: "new@example.com"),
            mail: try noticeMail(to: "new@example.com"), now: harness.now))
        #expect(try harness.mailCount(to: "new@example.com") == 0)
    }

    @Test("a confirmation fails when the new address was taken meanwhile; an undo when the old one was, changing nothing",
          arguments: StoreFactory.all)
    func takenAddresses(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        let toTaken = try harness.confirmation(of: account, to: "taken@example.com")
        #expect(try store.requestEmailChange(
            login: harness.reference(login), confirmation: toTaken, mail: try noticeMail(to: "taken@example.com"), now: harness.now))
        _ = try harness.account("taken@example.com")
        #expect(try confirm(toTaken.digest, in: harness) == nil)
        #expect(try store.account(id: account.id)?.email == "person@example.com")

        let toFree = try harness.confirmation(of: account, to: "free@example.com")
        #expect(try store.requestEmailChange(
            login: harness.reference(login), confirmation: toFree, mail: try noticeMail(to: "free@example.com"), now: harness.now))
        let undo = randomDigest()
        #expect(try confirm(toFree.digest, in: harness, undo: undo)?.email == "free@example.com")
        let squatter = try harness.account("person@example.com")
        #expect(try store.undoEmailChange(digest: undo, now: harness.now) == nil)
        #expect(try store.account(id: account.id)?.email == "free@example.com")
        #expect(try store.liveFamily(familyID: login.familyID, now: harness.now) != nil)
        // Refused, it stayed usable: once the old address is free again, it works.
        #expect(try store.deleteAccount(email: squatter.email))
        #expect(try store.undoEmailChange(digest: undo, now: harness.now)?.email == "person@example.com")
    }

    @Test("an undo gives the old address back, ends every login and session, supersedes reset tokens, and is used once",
          arguments: StoreFactory.all)
    func undo(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        let undo = try change(account, login: login, to: "new@example.com", in: harness)
        let afterwards = try harness.login(for: account)
        let browser = try harness.browserSession(for: account)
        let resetToken = randomDigest()
        try harness.fixture.insertResetToken(resetToken, accountID: account.id, expiresAt: harness.now.addingTimeInterval(3600))

        let restored = try #require(try store.undoEmailChange(digest: undo, now: harness.now))
        #expect(restored.email == "person@example.com")
        #expect(restored.credentialVersion == account.credentialVersion + 1)
        #expect(try store.account(email: "new@example.com") == nil)
        for family in [login.familyID, afterwards.familyID] {
            #expect(try store.liveFamily(familyID: family, now: harness.now) == nil)
        }
        #expect(try store.browserSession(digest: browser, now: harness.now) == nil)
        #expect(try store.usableResetToken(digest: resetToken, now: harness.now) == nil)
        #expect(try store.undoEmailChange(digest: undo, now: harness.now) == nil)
        harness.clock.advance(by: 8 * 86400)
        let late = try harness.login(for: try #require(try store.account(id: account.id)))
        let expired = try change(account, login: late, to: "later@example.com", in: harness)
        harness.clock.advance(by: 7 * 86400 + 1)
        #expect(try store.undoEmailChange(digest: expired, now: harness.now) == nil)
    }

    @Test("an undo undoes the later changes too; the undo of an earlier change stays usable", arguments: StoreFactory.all)
    func undoOrder(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let store = harness.store
        let first = try harness.account("first@example.com")
        let firstLogin = try harness.login(for: first)
        let firstUndo = try change(first, login: firstLogin, to: "first-b@example.com", in: harness)
        harness.clock.advance(by: 1)
        let laterUndo = try change(first, login: firstLogin, to: "first-c@example.com", in: harness)
        #expect(try store.undoEmailChange(digest: firstUndo, now: harness.now)?.email == "first@example.com")
        #expect(try store.undoEmailChange(digest: laterUndo, now: harness.now) == nil)

        let second = try harness.account("second@example.com")
        let secondLogin = try harness.login(for: second)
        let earlyUndo = try change(second, login: secondLogin, to: "second-b@example.com", in: harness)
        harness.clock.advance(by: 1)
        let lastUndo = try change(second, login: secondLogin, to: "second-c@example.com", in: harness)
        #expect(try store.undoEmailChange(digest: lastUndo, now: harness.now)?.email == "second-b@example.com")
        #expect(try store.undoEmailChange(digest: earlyUndo, now: harness.now)?.email == "second@example.com")
    }

    @Test("racing uses of one confirmation or one undo, on two connections, have one winner", arguments: StoreFactory.all)
    func racingTokens(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let stores = [harness.store, try harness.fixture.openAnother()]
        let account = try harness.account("person@example.com")
        let login = try harness.login(for: account)
        let confirmation = try harness.confirmation(of: account, to: "new@example.com")
        #expect(try harness.store.requestEmailChange(
            login: harness.reference(login), confirmation: confirmation, mail: try noticeMail(to: "new@example.com"), now: harness.now))
        let undos = (0..<20).map { _ in randomDigest() }
        let confirmed = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        let now = harness.now
        runOnThreads(20) { index in
            do {
                let changed = try stores[index % 2].confirmEmailChange(
                    digest: confirmation.digest, undo: (undos[index], now.addingTimeInterval(7 * 86400)), now: now,
                    notification: { change, _ in try noticeMail(to: change.oldEmail) })
                if changed != nil { confirmed.withLock { $0.append(index) } }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let winners = confirmed.withLock { $0 }
        #expect(winners.count == 1)
        #expect(try harness.mailCount(to: "person@example.com") == 1)

        let restored = Mutex<Int>(0)
        runOnThreads(20) { index in
            do {
                if try stores[index % 2].undoEmailChange(digest: undos[winners.first ?? 0], now: now) != nil {
                    restored.withLock { $0 += 1 }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(restored.withLock { $0 } == 1)
        #expect(try harness.store.account(id: account.id)?.email == "person@example.com")
    }

    @Test("two accounts confirming one address and a new account taking it, all at once: one gets it, no one fails",
          arguments: StoreFactory.all)
    func racingForOneAddress(factory: StoreFactory) throws {
        let harness = try AccountHarness(factory)
        let stores = [harness.store, try harness.fixture.openAnother()]
        for round in 0..<5 {
            let wanted = "wanted\(round)@example.com"
            let accounts = try (0..<2).map { try harness.account("person\(round)-\($0)@example.com") }
            let confirmations = try accounts.map { account in
                let login = try harness.login(for: account)
                let confirmation = try harness.confirmation(of: account, to: wanted)
                #expect(try harness.store.requestEmailChange(
                    login: harness.reference(login), confirmation: confirmation, mail: try noticeMail(to: wanted), now: harness.now))
                return confirmation
            }
            let failures = Mutex<[String]>([])
            let now = harness.now
            runOnThreads(3) { index in
                do {
                    if index < 2 {
                        _ = try stores[index].confirmEmailChange(
                            digest: confirmations[index].digest, undo: (randomDigest(), now.addingTimeInterval(86400)), now: now,
                            notification: { change, _ in try noticeMail(to: change.oldEmail) })
                    } else {
                        try stores[0].createAccount(Account(
                            id: UUID().uuidString.lowercased(), email: wanted, passwordHash: nil, status: .active,
                            credentialVersion: 0, locale: nil, createdAt: now))
                    }
                } catch let error as LatchkeyError where error.code == .accountExists {
                    // The new account lost the race: the one expected refusal.
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(try harness.fixture.integer("SELECT COUNT(*) AS value FROM accounts WHERE email = '\(wanted)'") == 1)
        }
    }

    // MARK: Helpers

    /// Confirms the token `digest` at the harness's now, storing `undo` as the undo token.
    private func confirm(_ digest: Data, in harness: AccountHarness, undo: Data = randomDigest()) throws -> Account? {
        try harness.store.confirmEmailChange(
            digest: digest, undo: (undo, harness.now.addingTimeInterval(7 * 86400)), now: harness.now,
            notification: { change, _ in try noticeMail(to: change.oldEmail) })
    }

    /// Asks for and confirms a change of `account`'s address to `newEmail`; returns the undo token's digest.
    private func change(_ account: Account, login: RefreshTokenRecord, to newEmail: String, in harness: AccountHarness) throws -> Data {
        let confirmation = try harness.confirmation(of: account, to: newEmail)
        #expect(try harness.store.requestEmailChange(
            login: harness.reference(login), confirmation: confirmation, mail: try noticeMail(to: newEmail), now: harness.now))
        let undo = randomDigest()
        #expect(try confirm(confirmation.digest, in: harness, undo: undo)?.email == newEmail)
        return undo
    }
}
