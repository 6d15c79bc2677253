import Foundation
import LatchkeyClient

/// `latchkey register …` and `latchkey account …`: sign-up and the signed-in person's own
/// account, built on LatchkeyClient's ``Registration``, ``AccountClient`` and
/// ``EmailChangeLinks``. Passwords and links come from standard input, never from arguments.
enum AccountCommands {
    static func register(_ arguments: ArraySlice<String>) throws {
        if arguments.first == "confirm" {
            let parsed = try ParsedArguments(arguments.dropFirst(), options: ["--issuer"])
            guard parsed.positional.isEmpty else {
                throw CommandFailure.usage("register confirm reads the link from standard input, not from an argument")
            }
            let issuer = try ClientCommands.issuerURL(parsed)
            let link = try readLink(.verifyEmail, issuer: issuer)
            let registration = Registration(baseURL: issuer)
            try runAsync { try await registration.verifyEmail(token: link.token) }
            print("Your address is confirmed and your account is ready: sign in with `latchkey login --email ADDRESS --password-stdin`.")
            return
        }
        let parsed = try ParsedArguments(arguments, options: ["--issuer", "--locale"])
        let email = try onePositional(parsed, "EMAIL")
        let issuer = try ClientCommands.issuerURL(parsed)
        var input = try StandardInput.open()
        let password = try input.required("Password for \(email): ", missing: "standard input must hold the password on its first line")
        let registration = Registration(baseURL: issuer, locale: parsed.options["--locale"])
        try runAsync { try await registration.register(email: email, password: password) }
        print("If \(email) has no account yet, a confirmation link is on its way to it: open it, or give it to `latchkey register confirm`.")
        print("(An address that has an account already gets a mail saying so instead.)")
    }

    static func account(_ arguments: ArraySlice<String>) throws {
        guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey account --help`") }
        let parsed = try ParsedArguments(arguments.dropFirst(), flags: ["--yes"], options: ["--issuer"])
        guard subcommand == "delete" || !parsed.flags.contains("--yes") else { throw CommandFailure.usage("only account delete takes --yes") }
        switch (subcommand, parsed.positional.first) {
        case ("show", nil):
            let (account, _) = try signedIn(parsed)
            let user = try runAsync { try await account.current() }
            print("id: \(user.id)")
            print("email: \(user.email)")
            print("email_verified: \(user.emailVerified)")
            print("status: \(user.status)")
            print("language: \(user.language ?? "-")")
        case ("password", nil):
            try changePassword(parsed)
        case ("email", "confirm"?), ("email", "undo"?):
            try followEmailChangeLink(parsed)
        case ("email", _):
            try changeEmail(parsed)
        case ("sessions", nil):
            let (account, _) = try signedIn(parsed)
            let devices = try runAsync { try await account.devices() }
            let formatter = ISO8601DateFormatter()
            for device in devices {
                print(
                    [
                        device.id, device.isCurrent ? "current" : "-", device.clientID ?? "password-login",
                        formatter.string(from: device.signedInAt), formatter.string(from: device.lastUsedAt), device.ip ?? "-",
                        device.userAgent ?? "-",
                    ].joined(separator: "\t"))
            }
        case ("sessions", "end"?):
            try endSession(parsed)
        case ("delete", nil):
            try deleteAccount(parsed)
        case ("tfa", _):
            try SecondFactorCommands.run(parsed)
        case ("passkeys", _):
            try passkeys(parsed)
        case ("show", _?), ("password", _?), ("sessions", _?), ("delete", _?):
            throw CommandFailure.usage("unexpected argument to account \(subcommand); run `latchkey account --help`")
        default:
            throw CommandFailure.usage("unknown subcommand 'account \(subcommand)'; run `latchkey account --help`")
        }
    }

    /// `account password`: the new password, then (when needed) the current one.
    private static func changePassword(_ parsed: ParsedArguments) throws {
        let (account, _) = try signedIn(parsed)
        var input = try StandardInput.open()
        let newPassword = try input.required("New password: ", missing: "standard input must hold the new password on its first line")
        try withCurrentPassword(&input, line: "second") { current, code in
            _ = try runAsync { try await account.changePassword(to: newPassword, currentPassword: current, code: code) }
        }
        print("Your password has been changed. Every other device has been signed out; this one stays signed in.")
    }

    /// `account email NEW`: asks for the move; the current password (when needed) from standard input.
    private static func changeEmail(_ parsed: ParsedArguments) throws {
        let newEmail = try onePositional(parsed, "NEW email address")
        let (account, _) = try signedIn(parsed)
        var input = try StandardInput.open()
        try withCurrentPassword(&input, line: "first") { current, code in
            _ = try runAsync { try await account.changeEmail(to: newEmail, currentPassword: current, code: code) }
        }
        print("A confirmation link is on its way to \(newEmail): the address changes once it is opened.")
        print("(If \(newEmail) has an account already, it gets a mail saying so instead.)")
    }

    /// `account email confirm` and `account email undo`: the link from standard input; no sign-in needed.
    private static func followEmailChangeLink(_ parsed: ParsedArguments) throws {
        guard parsed.positional.count == 1 else {
            throw CommandFailure.usage("account email \(parsed.positional[0]) reads the link from standard input, not from an argument")
        }
        let issuer = try ClientCommands.issuerURL(parsed)
        let links = EmailChangeLinks(baseURL: issuer)
        if parsed.positional[0] == "confirm" {
            let link = try readLink(.confirmEmailChange, issuer: issuer)
            try runAsync { try await links.confirm(token: link.token) }
            print("The new address is confirmed: it is the account's address now.")
        } else {
            let link = try readLink(.undoEmailChange, issuer: issuer)
            try runAsync { try await links.undo(token: link.token) }
            print("The old address is back, and every device has been signed out. Choose a new password: `latchkey reset request`.")
            if try ClientCommands.forgetSessionEnded(parsed) {
                FileHandle.standardError.write(Data("signed out: the undo ended this account's sessions, here too\n".utf8))
            }
        }
    }

    /// `account sessions end ID`: the current device signs out as `logout` does.
    private static func endSession(_ parsed: ParsedArguments) throws {
        guard parsed.positional.count == 2 else { throw CommandFailure.usage("expected exactly one session ID after `sessions end`") }
        let id = parsed.positional[1]
        let (account, store) = try signedIn(parsed)
        let devices = try runAsync { try await account.devices() }
        guard let device = devices.first(where: { $0.id == id }) else {
            throw CommandFailure.failure("no device is signed in with the id \(id); `latchkey account sessions` lists them")
        }
        try runAsync { try await account.signOut(device: device) }
        if device.isCurrent {
            ClientProfile.remove(from: store)
            FileHandle.standardError.write(Data("signed out (this was the stored login)\n".utf8))
        } else {
            print("signed out \(id)")
        }
    }

    /// `account passkeys [rename ID NAME | delete ID]`. Making a passkey needs an authenticator
    /// (Face ID, a security key) that a terminal does not have: apps and the sign-in page make them.
    private static func passkeys(_ parsed: ParsedArguments) throws {
        let (account, _) = try signedIn(parsed)
        let arguments = parsed.positional
        switch (arguments.first, arguments.count) {
        case (nil, _):
            let formatter = ISO8601DateFormatter()
            for passkey in try runAsync({ try await account.passkeys() }) {
                print(
                    [
                        passkey.id, passkey.name, formatter.string(from: passkey.createdAt),
                        passkey.lastUsedAt.map(formatter.string(from:)) ?? "-", passkey.isSynced ? "synced" : "device-bound",
                    ].joined(separator: "\t"))
            }
        case ("rename"?, 3):
            let passkey = try passkey(arguments[1], of: account)
            let renamed = try runAsync { try await account.renamePasskey(passkey, to: arguments[2]) }
            print("renamed \(renamed.id) to \(renamed.name)")
        case ("delete"?, 2):
            let passkey = try passkey(arguments[1], of: account)
            var input = try StandardInput.open()
            try withCurrentPassword(&input, line: "first") { current, code in
                try runAsync { try await account.deletePasskey(passkey, currentPassword: current, code: code) }
            }
            print("removed \(passkey.id) (\(passkey.name)); it no longer signs in to this account")
        default:
            throw CommandFailure.usage("expected `account passkeys`, `account passkeys rename ID NAME` or `account passkeys delete ID`")
        }
    }

    /// The account's passkey with `id`, as `account passkeys` lists it.
    private static func passkey(_ id: String, of account: AccountClient) throws -> Passkey {
        guard let passkey = try runAsync({ try await account.passkeys() }).first(where: { $0.id == id }) else {
            throw CommandFailure.failure("the account has no passkey with the id \(id); `latchkey account passkeys` lists them")
        }
        return passkey
    }

    /// `account delete`: asks on a terminal, else needs `--yes`.
    private static func deleteAccount(_ parsed: ParsedArguments) throws {
        var input = try StandardInput.open()
        if !parsed.flags.contains("--yes") {
            guard input.isTerminal else {
                throw CommandFailure.usage("account delete asks for confirmation on a terminal; pass --yes to delete without asking")
            }
        }
        let (account, store) = try signedIn(parsed)
        if !parsed.flags.contains("--yes") {
            let email = try runAsync { try await account.current() }.email
            FileHandle.standardError.write(Data("This deletes the account \(email) and everything in it, for good.\n".utf8))
            let typed = input.line("Type the address to confirm: ")
            guard typed.trimmingCharacters(in: .whitespaces).lowercased() == email.lowercased() else {
                throw CommandFailure.failure("not deleted: the address typed is not the account's")
            }
        }
        try withCurrentPassword(&input, line: "first") { current, code in
            try runAsync { try await account.deleteAccount(currentPassword: current, code: code) }
        }
        ClientProfile.remove(from: store)
        print("Your account has been deleted, and this command line is signed out.")
    }

    /// Runs `attempt` with the current password read from standard input's `line` line when
    /// piped (none when that line is absent or empty) and, for an account with two-step sign-in,
    /// the code on the line after it; on a terminal first without, then — when the server asks
    /// for it (`reauthentication_required`) — once more with the password typed at a prompt, and
    /// when it asks for the code too (`invalid_otp`), with the code typed at a prompt.
    private static func withCurrentPassword(
        _ input: inout StandardInput, line: String, _ attempt: (ClientSecret?, ClientSecret?) throws -> Void
    ) throws {
        var password = input.next()
        var code = password == nil ? nil : input.next()
        while true {
            do {
                return try attempt(password, code)
            } catch let error as LatchkeyClientError where error.code == .reauthenticationRequired && password == nil {
                guard input.isTerminal else {
                    throw CommandFailure.failure(
                        "the server asks for your current password (reauthentication_required): give it on the \(line) line of standard input")
                }
                password = try input.required("Current password: ", missing: "no current password given")
            } catch let error as LatchkeyClientError where error.code == .invalidOTP && code == nil {
                guard input.isTerminal else {
                    throw CommandFailure.failure(
                        "this account has two-step sign-in: give the code from the authenticator app (or a recovery code) on the line "
                            + "after the current password")
                }
                code = try input.required("Code from your authenticator app (or a recovery code): ", missing: "no code given")
            }
        }
    }

    /// The account client and token store of the stored login.
    private static func signedIn(_ parsed: ParsedArguments) throws -> (account: AccountClient, store: FileTokenStore) {
        let (store, profile) = try ClientCommands.signedIn(parsed)
        guard let issuer = URL(string: profile.issuer) else { throw CommandFailure.failure("the saved sign-in is damaged; run `latchkey login` again") }
        let session = AuthSession(store: store, refresher: try profile.refresher())
        return (AccountClient(baseURL: issuer, session: session), store)
    }

    /// The link of `kind` on the first line of standard input, a link of the issuer's host.
    private static func readLink(_ kind: AccountLink.Kind, issuer: URL) throws -> AccountLink {
        var input = try StandardInput.open()
        let missing = "the first line of standard input must be the link from the mail"
        let text = try input.required("Link from the mail: ", missing: missing).exposed.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: text), let host = issuer.host else { throw CommandFailure.failure(missing) }
        let parser = AccountLinkParser(
            universalLinkHosts: [host], customSchemes: [], paths: [kind: kind.defaultPath], allowsInsecureLoopback: true)
        return try parser.parse(url)
    }
}
