import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyServer

/// A command-line failure: what to print and which exit code to use.
struct CommandFailure: Error {
    /// 2 for usage errors, 1 for everything else.
    let exitCode: Int32
    let message: String
    /// Whether the command has said what failed already (`serve`, in its JSON log), so only
    /// the exit code is left to give.
    var reported = false

    static func usage(_ message: String) -> CommandFailure { CommandFailure(exitCode: 2, message: message) }
    static func failure(_ message: String) -> CommandFailure { CommandFailure(exitCode: 1, message: message) }
}

/// The arguments of one command: positional values, flags, options given once and options
/// that may repeat, checked against what the command accepts.
struct ParsedArguments {
    var positional: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]
    /// The values of each repeatable option, in the order given.
    var repeated: [String: [String]] = [:]

    init(
        _ arguments: ArraySlice<String>, flags allowedFlags: Set<String> = [], options allowedOptions: Set<String> = [],
        repeatable allowedRepeatable: Set<String> = []
    ) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                if allowedFlags.contains(argument) {
                    flags.insert(argument)
                } else if allowedOptions.contains(argument) {
                    guard let value = iterator.next() else { throw CommandFailure.usage("\(argument) needs a value") }
                    guard options[argument] == nil else { throw CommandFailure.usage("\(argument) may be given only once") }
                    options[argument] = value
                } else if allowedRepeatable.contains(argument) {
                    guard let value = iterator.next() else { throw CommandFailure.usage("\(argument) needs a value") }
                    repeated[argument, default: []].append(value)
                } else if argument == "--password" || argument.hasPrefix("--password=") {
                    // Not echoed: the value is a password, and it is in argv already.
                    throw CommandFailure.usage(
                        allowedFlags.contains("--password-stdin")
                            ? "a password is never an argument, where other users (ps) and the shell history see it: "
                                + "use --password-stdin and write it to standard input"
                            : "unknown option --password")
                } else {
                    throw CommandFailure.usage("unknown option \(argument)")
                }
            } else {
                positional.append(argument)
            }
        }
    }
}

enum Help {
    static let main = """
    latchkey — account recovery and sign-in for Swift apps

    Usage: latchkey COMMAND [ARGUMENTS]
           latchkey --version

    Commands (each reads the server's settings: LATCHKEY_* variables and LATCHKEY_CONFIG_FILE;
    --data-dir DIR, before or after the command, is LATCHKEY_DATA_DIR=DIR. Only serve and
    migrate create a database):
      serve                                 Run the server (configuration from LATCHKEY_* variables)
      migrate                               Create or upgrade the database and create missing key files, then exit
      users create EMAIL --password-stdin   Create an account; the password is read from standard input
      users list                            List accounts (id, email, status, created)
      users disable EMAIL                   Disable an account: no sign-in, no reset mail, every login ended
      users enable EMAIL                    Enable a disabled account again
      users unlock EMAIL                    End the account's sign-in lockouts (failure counts start again)
      users tfa-reset EMAIL                 Remove the account's second factor (lost phone); the owner is mailed
      users verify EMAIL --password-stdin   Exit 0 when the password from standard input is the account's
      users set-password EMAIL --password-stdin
                                            Set a new password (policy checked); every session of the account ends
      users delete EMAIL                    Delete an account with its tokens, sessions and unsent mail
      users set-email OLD NEW               Move an account to another address; its sessions end, the old address is told
      users log-key EMAIL                   Print the keyed hash the server's logs give for the address
      users import FILE [--dry-run]         Create accounts from a Directus user export (JSON or CSV): ids, hashes, authenticators
      keys list                             List token-signing keys (kid, algorithm, created, active or retired)
      keys rotate                           Add new active signing keys; older keys stay published until their tokens expire
      keys revoke KID                       Remove a signing key now: unpublished, the tokens it signed refused
      clients create ID --redirect-uri URI  Register an OAuth client (repeat --redirect-uri; --confidential, --first-party, --scope S,
                                            --name NAME, --id-token-alg RS256|ES256|EdDSA, --post-logout-redirect-uri URI)
      clients list                          List OAuth clients (id, type, first-party, introspects, ID token algorithm, redirect URIs, scopes,
                                            post-logout redirect URIs)
      clients update ID                     Change a client's redirect URIs, scopes, name or post-logout redirect URIs, or give it
                                            a new secret
      clients delete ID                     Remove an OAuth client
      outbox list [--pending|--failed|--sent]
                                            The mail outbox, any transport (id, status, queued, attempts, recipient,
                                            subject, last error)
      outbox retry ID                       Send a pending or given-up mail now
      outbox drop ID                        Remove a pending or given-up mail unsent
      outbox show ID                        A mail the file transport wrote: headers and text, its link whole
      mail test ADDRESS                     Send one test mail now and show what the mail server said
      backup PATH                           Copy the SQLite database to a new file while the server runs
      settings [--markdown]                 List every LATCHKEY_* setting: default, values, meaning

    Client commands (talk to a running server; --issuer URL or LATCHKEY_ISSUER):
      login --client-id ID                  Sign in through the browser (OAuth, loopback redirect); or --email E --password-stdin
      token                                 Print a valid access token, refreshing it when needed
      logout [--forget-device]              Revoke the session on the server and forget it (and this machine's device token)
      reset request EMAIL                   Ask for a password reset mail
      reset complete                        Set a new password with the link from the mail (both read from standard input)
      register EMAIL                        Sign up (password from standard input); the address gets a confirmation link
      register confirm                      Confirm the address with the link (from standard input): the account is made
      account show                          The signed-in account: id, email, status, language
      account password                      Change the password (new, then current password from standard input)
      account email NEW                     Move the account to a new address, once the link mailed to it is opened
      account email confirm | undo          Confirm the new address, or undo the change, with its link (standard input)
      account sessions [end ID]             The devices signed in to the account; sign one out
      account passkeys [rename | delete]    The account's passkeys; rename or remove one
      account delete                        Delete the account for good (asks on a terminal; --yes otherwise)

    Run `latchkey COMMAND --help` for details. Exit codes: 0 success, 1 failure, 2 usage error.
    Settings: `latchkey settings` lists them (the same table is in docs/deploy.md#settings).
    """

    static let outbox = """
    Usage:
      latchkey outbox list [--pending | --failed | --sent] [--limit N]
          Prints the mail in the outbox, whatever the transport, one per line, oldest first:
          id, status (pending: waiting, also between attempts; sent; failed: given up after
          10 attempts), when it was queued (ISO 8601), failed attempts, recipient, subject,
          and why the last attempt failed (`-` when none did). At most N mails (default
          1000). Sent and failed mail is purged a week after.
      latchkey outbox retry ID
          Makes a pending mail (waiting for its next attempt) or a failed one due now; a
          running server sends it within a second, and one more failure gives it up again.
          ID may be the start of an id that only one pending or failed mail has.
      latchkey outbox drop ID
          Removes a pending or failed mail from the outbox; it is never sent. A mail being
          sent at that moment is left alone.
      latchkey outbox show ID
          With the file transport (LATCHKEY_MAIL_TRANSPORT=file, the default): prints the
          mail ID (or the one mail whose id starts with ID) as written to
          LATCHKEY_DATA_DIR/outbox: From, To, Subject, Date and the plain-text body,
          decoded, so a reset link in it is whole and can be copied as it is.
      Every outbox command takes --data-dir DIR and works on the server's database.
    """

    static let backup = """
    Usage: latchkey backup PATH
          Copies the SQLite database (LATCHKEY_DATA_DIR/latchkey.sqlite3) to the new file PATH
          with SQLite's online backup API: safe while the server runs (the copy is the database
          as of one moment, and servers keep answering meanwhile). PATH is written as a
          temporary file of mode 0600 beside it, checked, synced and renamed; an existing file
          is never replaced. Back up the key files (LATCHKEY_SIGNING_KEYS_FILE,
          LATCHKEY_ADDRESS_KEY_FILE, LATCHKEY_SECRET_KEY_FILE) with it. For PostgreSQL use
          pg_dump. How to restore:
          docs/deploy.md#backups.
    """

    static let mail = """
    Usage:
      latchkey mail test ADDRESS
          Sends one test message to ADDRESS at once through the configured transport (not
          through the outbox) and prints what happened. With SMTP: the conversation with
          the mail server (its replies, the commands sent, the TLS version and whether the
          certificate was verified; credentials and the message are never shown), then the
          TLS in use, the answer to authentication and the server's last reply. Exits 0
          when the server accepted the message, 1 with the reason otherwise (no STARTTLS,
          wrong username or password, an untrusted certificate, an unreachable server).
          With the file transport: the file written.
    """

    static let serve = """
    Usage: latchkey serve

    Runs the HTTP server until SIGTERM or SIGINT, then shuts down gracefully (in-flight
    requests finish, queued work is saved). Every setting comes from LATCHKEY_* environment
    variables or the JSON file named by LATCHKEY_CONFIG_FILE; with none set, the server uses
    SQLite and .eml mail files under ./data and listens on 127.0.0.1:8080. `latchkey settings`
    lists every setting (the same table is in docs/deploy.md#settings). --data-dir DIR is
    LATCHKEY_DATA_DIR=DIR.
    """

    static let settings = """
    Usage: latchkey settings [--markdown]

    Lists every LATCHKEY_* setting with its default, the values it takes and what it
    means. With --markdown, prints the settings table of docs/deploy.md instead.
    """

    static let migrate = """
    Usage: latchkey migrate

    Creates the database if it does not exist (LATCHKEY_DATABASE_URL, else the SQLite file in
    LATCHKEY_DATA_DIR; --data-dir DIR is LATCHKEY_DATA_DIR=DIR), applies every pending
    migration and prints the versions applied; then creates the signing keys and the address
    key when their files are missing, printing each path. Safe to run repeatedly, also from
    several servers at once. Every command other than serve and migrate needs a database
    that exists and is up to date, and fails naming where it looked otherwise.
    """

    static let keys = """
    Usage:
      latchkey keys list
          Prints one signing key per line: kid, algorithm, created (ISO 8601), active or retired.
      latchkey keys rotate
          Creates a new key for each algorithm (RS256 with a 3072-bit modulus, ES256, EdDSA)
          that signs from now on, and prints `active ALG key: KID` for each. ES256 signs access
          tokens; ID tokens use the algorithm their client is registered for. The previous
          keys stay in /.well-known/jwks.json until every token they signed has expired.
          Running servers on the same key file pick the new keys up within a second. Keys live
          in LATCHKEY_SIGNING_KEYS_FILE (default LATCHKEY_DATA_DIR/signing-keys.json, mode 0600).
      latchkey keys revoke KID
          Removes the key KID from the key file at once, for a key that may have leaked: it is
          no longer in /.well-known/jwks.json, and the tokens it signed are refused (access
          tokens at once here, and by every server sharing the key file at its next reload,
          within a second; relying parties stop accepting its ID tokens when they fetch the
          JWKS again). When KID is the active key of its algorithm, a new one replaces it
          first and `active ALG key: KID` names it. Refresh tokens are not signed: apps refresh
          and carry on.
    """

    static let clients = """
    Usage:
      latchkey clients create ID --redirect-uri URI [--redirect-uri URI ...] [--confidential]
                              [--first-party] [--introspect] [--scope S ...] [--name NAME]
                              [--scope-description S=TEXT ...] [--id-token-alg RS256|ES256|EdDSA]
                              [--post-logout-redirect-uri URI ...]
          Registers an OAuth client. ID is 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', '-'.
          Redirect URIs: https://host/path, a reverse-DNS private-use scheme such as
          com.example.app:/oauth, or loopback http://127.0.0.1/path or http://[::1]/path
          (any port accepted at request time). No fragments, user info, wildcards, or
          http to other hosts (use 127.0.0.1, not localhost).
          --confidential  the client gets a secret, printed once as `client_secret: ...`;
                          only its SHA-256 digest is stored, so save it now
          --first-party   the operator's own app: no consent page
          --introspect    a resource server (confidential only) that may call /oauth/introspect;
                          it sees access tokens and its own refresh tokens, none of other clients
          --scope S       a scope the client may request (repeat for several)
          --id-token-alg  how its OpenID Connect ID tokens are signed: RS256 (the default,
                          what every OpenID Connect library accepts), ES256 or EdDSA
          --name NAME     what the sign-in and consent pages call the client instead of
                          its id (up to 60 characters), e.g. --name "Acme Notes"
          --scope-description S=TEXT
                          what scope S lets the client do, shown on the consent page
                          instead of S (up to 200 characters; repeat for several), e.g.
                          --scope-description "notes.read=Read your notes"; openid and
                          email have descriptions in every language already
          --post-logout-redirect-uri URI
                          where /oauth/logout may send the browser after signing it out
                          (OpenID Connect RP-Initiated Logout's post_logout_redirect_uri;
                          repeat for several); the same forms as --redirect-uri, matched as
                          they are. Without one, signing out ends on Latchkey's own page.
          Prints `client_id: ID`.
      latchkey clients list
          Prints one client per line: id, public or confidential, first-party or
          third-party, `introspects` or `-`, ID token algorithm, redirect URIs
          (space-separated), the scopes it may request (space-separated: openid and email,
          which every client may request, then those given with --scope), post-logout
          redirect URIs (space-separated, `-` for none). Never prints secrets.
      latchkey clients update ID [--redirect-uri URI ...] [--scope S ... | --clear-scopes]
                              [--name NAME | --clear-name] [--new-secret]
                              [--post-logout-redirect-uri URI ... | --clear-post-logout-redirect-uris]
          Changes the client: --redirect-uri (repeat) replaces every registered redirect URI,
          --scope (repeat) or --clear-scopes the scopes it may request besides openid and
          email, --name the name the pages show, --post-logout-redirect-uri (repeat) where
          /oauth/logout may send the browser. --new-secret gives a confidential client a new
          secret, printed once as `client_secret: ...`; the old one is refused at once.
          Takes effect on every server at once; tokens already issued stay valid. Prints what
          the client is now.
      latchkey clients delete ID
          Removes the client; its redirect URIs stop working at once.
    """

    static let login = """
    Usage:
      latchkey login --issuer URL --client-id ID [--redirect-uri http://127.0.0.1[:PORT]/PATH]
                     [--scope S ...] [--no-browser] [--timeout SECONDS]
          Signs in with OAuth 2.0 for native apps (RFC 8252): listens on 127.0.0.1 and ::1
          (the port from --redirect-uri, else a free one; default path /callback; the
          redirect URI names 127.0.0.1, or http://[::1]:PORT/PATH when asked for or when
          the machine has no IPv4 loopback), prints the
          authorization URL on a line of its own on standard output, opens a browser when
          xdg-open (or open) is available, waits for the redirect (default 300 s), redeems
          the code with PKCE and stores the tokens. Register the client with
          `latchkey clients create ID --redirect-uri http://127.0.0.1/callback`.
      latchkey login --issuer URL --email EMAIL --password-stdin
          Signs in with the first-party /auth/login route; the password is read from
          standard input. For an account with two-step sign-in, the code from the
          authenticator app (or a recovery code) is the second line of standard input (at a
          terminal, both are asked for, without echo).
      Tokens are kept in $XDG_STATE_HOME/latchkey (else ~/.local/state/latchkey): the
      directory is 0700, tokens.json and client.json are 0600. --issuer defaults to
      LATCHKEY_ISSUER.
    """

    static let session = """
    Usage:
      latchkey token [--issuer URL]
          Prints a valid access token, refreshing it first when it expires within a minute.
          Several invocations at once refresh once: they take turns on a lock file
          (tokens.lock) next to the tokens, so the same refresh token is never sent twice.
          Exits 1 with "not signed in" or "signed out" when a new login is needed.
      latchkey logout [--forget-device] [--issuer URL]
          Revokes the refresh token on the server (best effort) and deletes the stored tokens.
          When not signed in, says so and exits 0. The device token (which makes this
          machine a recognised device of the server, kept by `login --email`) stays, unless
          --forget-device: then it is deleted too, as on a machine being given away; the next
          sign-in from here is a new device's.
      With --issuer (or LATCHKEY_ISSUER), the stored session must be for that issuer.
    """

    static let reset = """
    Usage:
      latchkey reset request EMAIL [--issuer URL]
          Asks the server to mail a reset link to EMAIL. The answer is the same whether
          or not the account exists.
      latchkey reset complete [--issuer URL]
          Sets a new password with the link from the mail. Standard input holds the link
          on its first line (https://ISSUER-HOST/reset-password#token=...; http only for a
          loopback issuer) and the new password on its second; neither is ever an argument,
          where other users and the shell history would see it. Every session of the
          account ends; when the stored session is that account's, it is forgotten here too.
    """

    static let register = """
    Usage:
      latchkey register EMAIL [--issuer URL] [--locale \(SupportedLanguage.allCases.map(\.rawValue).joined(separator: "|"))]
          Signs up. The password is read from standard input (the first line; at a terminal,
          typed without echo) and checked as a reset's is: 8 to 128 characters, not easy to
          guess, not containing the address. The answer is the same whether or not EMAIL has
          an account: a new address is mailed a confirmation link, valid 24 hours; an address
          with an account is mailed that it has one. Nothing can sign in until the link is
          used. The server must take sign-ups (LATCHKEY_REGISTRATION=open).
      latchkey register confirm [--issuer URL]
          Confirms the address with the link from the mail (https://ISSUER-HOST/verify-email#token=...;
          http only for a loopback issuer), read from the first line of standard input, never
          from an argument. The account is then made, with the password chosen at sign-up:
          sign in with `latchkey login --email EMAIL --password-stdin`.
      --issuer defaults to LATCHKEY_ISSUER.
    """

    static let account = """
    Usage (the signed-in account of `latchkey login`; --issuer URL or LATCHKEY_ISSUER, when
    given, must be the stored login's issuer):
      latchkey account show
          Prints the account: id, email, email_verified, status, language.
      latchkey account password
          Sets a new password. Standard input holds the new password on its first line and,
          when the sign-in is older than five minutes, the current password on its second (at
          a terminal, both are asked for, without echo, the current one only when needed).
          Every other device is signed out; this one stays signed in.
      latchkey account email NEW
          Asks to move the account to NEW: a confirmation link goes to NEW, and the address
          changes once it is opened (the old address then gets a link that undoes the change,
          valid 7 days). The current password, when needed, is the first line of standard input.
      latchkey account email confirm
      latchkey account email undo
          Confirms the new address, or undoes the change, with the mailed link
          (.../confirm-email#token=... or .../undo-email-change#token=...) from the first line
          of standard input; no sign-in needed. Undoing signs every device of the account out.
      latchkey account sessions
          Prints one signed-in device per line: id, `current` or -, OAuth client id (or
          password-login), signed in, last used (ISO 8601), address, user agent (or -).
      latchkey account sessions end ID
          Signs the device ID out; for the current one, as `latchkey logout` does.
      latchkey account tfa generate
          Two-step sign-in: with your password (first line of standard input), prints the
          otpauth:// URL to add to an authenticator app (as a QR code, or opened on the
          phone) and its key. The server keeps the secret for 10 minutes.
      latchkey account tfa enable
          Turns it on with the code the app shows (first line of standard input) and prints
          the 10 recovery codes, once.
      latchkey account tfa disable
          Turns it off with a code from the app or a recovery code.
      latchkey account tfa recovery-codes
          Replaces the recovery codes with 10 new ones, with a code from the app.
      latchkey account passkeys
          Prints one passkey per line: id, name, created, last used (ISO 8601, or -), and
          `synced` (iCloud Keychain, a password manager) or `device-bound`.
      latchkey account passkeys rename ID NAME
          Renames the passkey ID (1 to 64 characters).
      latchkey account passkeys delete ID
          Removes the passkey ID from the account: it signs in no more (it stays on the
          device until deleted there). Needs the re-authentication below; the account's last
          way to sign in (no password, no other passkey) cannot be removed.
          Passkeys are made in an app or on the sign-in page, with the device's authenticator
          (Face ID, Touch ID, a security key): a terminal has none, so there is no command to
          make one here.
      latchkey account delete [--yes]
          Deletes the account and everything in it, for good. At a terminal it asks you to
          type the address first; otherwise it needs --yes. The current password, when
          needed, is the first line of standard input (at a terminal, asked for). This command
          line is signed out afterwards.
      Changing the password or address, removing a passkey and deleting need a sign-in
      within the last five minutes or the current password; a wrong one counts as a failed
      sign-in. With two-step sign-in on, the code goes on the line after the current
      password (at a terminal, it is asked for when the server needs it).
    """

    static let users = """
    Usage:
      latchkey users create EMAIL --password-stdin [--locale \(SupportedLanguage.allCases.map(\.rawValue).joined(separator: "|"))]
          Creates an active account. The password is read from standard input (one line;
          never pass it as an argument; at a terminal it is asked for and not echoed) and
          must meet the password policy.
      latchkey users list
          Prints one account per line: id, email, status, created (ISO 8601).
      latchkey users disable EMAIL
          Disables the account; it can no longer sign in and gets no reset mail. Every
          login, browser session and reset link it has ends for good.
      latchkey users enable EMAIL
          Enables a disabled account again (it signs in anew; nothing ended comes back).
      latchkey users unlock EMAIL
          Ends the account's sign-in lockouts on every server at once: its failure counts
          start again from zero (a completed password reset does the same), and so do its
          counts of wrong second-factor codes.
      latchkey users tfa-reset EMAIL
          Removes the account's second factor (its authenticator app and recovery codes), for
          a person who lost their phone and their recovery codes and has proved who they are
          to you some other way, and mails the account's address that it was done. The next
          sign-in needs the password only; the owner can turn two-step sign-in on again. A
          password reset never removes it: nothing mailed signs in without the second factor.
      latchkey users verify EMAIL --password-stdin
          Exits 0 when the password read from standard input (at a terminal: asked for,
          not echoed) is the account's current password, 1 otherwise.
      latchkey users set-password EMAIL --password-stdin
          Sets the password read from standard input (one line, not echoed at a terminal;
          it must meet the password policy) and, as a completed reset does, ends every session of the account and
          voids its outstanding reset links. No mail is sent.
      latchkey users sessions EMAIL
          Prints the account's signed-in devices (live logins), most recently used first: id,
          client (or first-party), signed in, last used (ISO 8601), truncated IP, browser or app.
      latchkey users sessions end EMAIL ID
      latchkey users sessions end EMAIL --all
          Ends that login (or every one) on every server at once: its refresh token and access
          tokens stop working.
      latchkey users delete EMAIL
          Deletes the account with its reset links, sessions and the mail not yet sent to it.
      latchkey users set-email OLD NEW
          Gives the account with the address OLD the address NEW (which no account may have).
          Every session and reset link of the account ends at once (it signs in again with
          NEW), and a mail to OLD says that the address changed, to which (as a hint,
          n***@example.com) and when, in the account's language.
      latchkey users log-key EMAIL
          Prints the keyed hash the server's log lines give for the address (their `address`
          field; logs never hold an address), made with the address key file
          (LATCHKEY_ADDRESS_KEY_FILE), so the lines about one person can be found with grep.
          Works whether or not the address has an account.
      latchkey users import FILE [--dry-run]
          Creates accounts from a Directus user export: JSON (an array of users, or
          {"data": [...]}) or CSV with a header row, such as `COPY directus_users TO STDOUT
          WITH CSV HEADER` (FILE `-` is standard input). Keeps each user's id, its Argon2
          password hash (replaced at its next sign-in when weaker than the configured costs)
          and its authenticator app (tfa_secret, sealed with the secret key file);
          active stays active, suspended and archived become disabled, invited, unverified
          and draft get no password until their owner completes a reset. A user whose id and
          address are already an account is left as it is, so a rerun changes nothing. Prints
          each user it refused and why (such as a hidden password: export from the database,
          not through Directus's API), then the counts; exits 1 when any was refused.
          --dry-run checks everything and changes nothing.
      Every users command takes --data-dir DIR (LATCHKEY_DATA_DIR=DIR) and works on an
      existing, migrated database only.
    """
}
