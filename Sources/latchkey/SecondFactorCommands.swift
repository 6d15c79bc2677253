import Foundation
import LatchkeyClient

/// `latchkey account tfa generate | enable | disable | recovery-codes`: two-step sign-in for the
/// signed-in account, built on LatchkeyClient's ``SecondFactorClient``. The password and the
/// codes come from standard input (typed without echo at a terminal), never from arguments.
///
/// `generate` prints the `otpauth://` URL (for a QR code: `qrencode -t ANSIUTF8 "$(…)"`) and the
/// key; the server keeps the secret for ten minutes, and `enable` confirms it with a code, so
/// no secret is stored by the command line. `enable` and `recovery-codes` print the recovery
/// codes, once.
enum SecondFactorCommands {
    static func run(_ parsed: ParsedArguments) throws {
        guard parsed.positional.count == 1 else {
            throw CommandFailure.usage("account tfa takes one of generate, enable, disable, recovery-codes; run `latchkey account --help`")
        }
        let (store, profile) = try ClientCommands.signedIn(parsed)
        guard let issuer = URL(string: profile.issuer) else { throw CommandFailure.failure("the saved sign-in is damaged; run `latchkey login` again") }
        let factor = SecondFactorClient(baseURL: issuer, session: AuthSession(store: store, refresher: try profile.refresher()))
        var input = try StandardInput.open()
        switch parsed.positional[0] {
        case "generate":
            let password = try input.required("Password: ", missing: "standard input must hold your password on its first line")
            let secret = try runAsync { try await factor.generate(password: password) }
            print(secret.provisioningURL.exposed)
            print("key: \(secret.secret.exposed)")
            FileHandle.standardError.write(Data(
                ("Add it to your authenticator app (scan a QR code of the URL, open it on the phone, or type the key), then run "
                    + "`latchkey account tfa enable` with the code the app shows, within 10 minutes.\n").utf8))
        case "enable":
            let code = try code(&input)
            // The server enrols the secret it generated; the command line need not send it back.
            let codes = try runAsync { try await factor.enable(code: code) }
            print("Two-step sign-in is on. Keep these recovery codes somewhere safe, apart from your phone; each signs in once:")
            for recovery in codes { print(recovery.exposed) }
        case "disable":
            let code = try code(&input)
            try runAsync { try await factor.disable(code: code) }
            print("Two-step sign-in is off: signing in needs your password only.")
        case "recovery-codes":
            let code = try code(&input)
            let codes = try runAsync { try await factor.renewRecoveryCodes(code: code) }
            print("New recovery codes (the old ones no longer work):")
            for recovery in codes { print(recovery.exposed) }
        default:
            throw CommandFailure.usage("unknown subcommand 'account tfa \(parsed.positional[0])'; run `latchkey account --help`")
        }
    }

    /// The code on standard input's first line, or typed without echo.
    private static func code(_ input: inout StandardInput) throws -> ClientSecret {
        try input.required(
            "Code from your authenticator app (or a recovery code): ", missing: "standard input must hold the code on its first line")
    }
}
