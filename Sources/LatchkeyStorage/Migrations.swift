import LatchkeyCore
/// The database schema, as numbered migrations shared by every SQL store.
///
/// Conventions, chosen so the same SQL runs on SQLite and PostgreSQL:
/// - ids are `TEXT` (lowercase UUID strings);
/// - digests of secrets are SHA-256 as 64 lowercase hex characters in `TEXT`, never `BLOB`
///   (`bytea` and `BLOB` differ; hex compares and indexes the same everywhere);
/// - instants are `BIGINT` milliseconds since the Unix epoch, UTC (see ``StorageEncoding``);
///   NULL means "not yet" (`used_at`, `revoked_at`, `sent_at`, ...);
/// - enumerations are `TEXT` with a `CHECK` constraint; booleans are `INTEGER` 0 or 1;
/// - lists are `TEXT`: a JSON array of strings, or space-separated when the items cannot
///   contain spaces (OAuth scopes).
///
/// Each migration has its SQLite and its PostgreSQL text side by side; most are
/// ``Migration/init(version:name:portable:)``, one text both run unchanged. A migration is
/// never edited once released: a change is a new, higher version, added as one more entry
/// of ``all``. Each is applied in its own transaction and recorded in
/// `schema_migrations(version, name, applied_at)`.
enum Migrations {
    /// Creates the table that records applied migrations; safe to run every start.
    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER NOT NULL PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at BIGINT NOT NULL
        )
        """

    /// Every migration, in ascending version order.
    static let all: [Migration] = [
        Migration(
            version: 1, name: "initial_schema",
            portable: """
                CREATE TABLE accounts (
                    id TEXT NOT NULL PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    password_hash TEXT,
                    status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
                    credential_version INTEGER NOT NULL DEFAULT 0,
                    locale TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                );

                CREATE TABLE reset_tokens (
                    token_digest TEXT NOT NULL PRIMARY KEY,
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    superseded_at BIGINT
                );
                CREATE INDEX reset_tokens_account_id ON reset_tokens (account_id);

                CREATE TABLE sessions (
                    id TEXT NOT NULL PRIMARY KEY,
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('browser', 'refresh_family')),
                    token_digest TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                );
                CREATE INDEX sessions_account_id ON sessions (account_id);

                CREATE TABLE outbox (
                    id TEXT NOT NULL PRIMARY KEY,
                    recipient TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    text_body TEXT NOT NULL,
                    html_body TEXT NOT NULL,
                    locale TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT NOT NULL,
                    lease_until BIGINT,
                    last_error TEXT,
                    last_attempt_at BIGINT,
                    created_at BIGINT NOT NULL,
                    sent_at BIGINT
                );
                CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
                """
        ),
        Migration(
            version: 2, name: "oauth_clients",
            portable: """
                CREATE TABLE oauth_clients (
                    id TEXT NOT NULL PRIMARY KEY,
                    redirect_uris TEXT NOT NULL,
                    confidential INTEGER NOT NULL CHECK (confidential IN (0, 1)),
                    secret_digest TEXT,
                    first_party INTEGER NOT NULL CHECK (first_party IN (0, 1)),
                    scopes TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    CHECK ((confidential = 1 AND secret_digest IS NOT NULL) OR (confidential = 0 AND secret_digest IS NULL))
                );
                """
        ),
        Migration(
            version: 3, name: "refresh_token_families",
            portable: """
                ALTER TABLE sessions ADD COLUMN family_id TEXT;
                ALTER TABLE sessions ADD COLUMN client_id TEXT;
                ALTER TABLE sessions ADD COLUMN scope TEXT;
                ALTER TABLE sessions ADD COLUMN credential_version INTEGER;
                ALTER TABLE sessions ADD COLUMN used_at BIGINT;
                ALTER TABLE sessions ADD COLUMN absolute_expires_at BIGINT;
                CREATE INDEX sessions_family_id ON sessions (family_id);
                """
        ),
        Migration(
            version: 4, name: "authorization_codes",
            portable: """
                CREATE TABLE authorization_codes (
                    code_digest TEXT NOT NULL PRIMARY KEY,
                    client_id TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    redirect_uri TEXT NOT NULL,
                    code_challenge TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    nonce TEXT,
                    credential_version INTEGER NOT NULL,
                    auth_time BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    family_id TEXT
                );
                CREATE INDEX authorization_codes_expires_at ON authorization_codes (expires_at);
                """
        ),
        Migration(
            version: 5, name: "introspecting_clients",
            portable: """
                ALTER TABLE oauth_clients ADD COLUMN may_introspect INTEGER NOT NULL DEFAULT 0 CHECK (may_introspect IN (0, 1));
                """
        ),
        Migration(
            version: 6, name: "login_failure_epoch",
            portable: """
                ALTER TABLE accounts ADD COLUMN failure_epoch INTEGER NOT NULL DEFAULT 0;
                """
        ),
        Migration(
            version: 7, name: "reset_requests",
            portable: """
                CREATE TABLE reset_requests (
                    id TEXT NOT NULL PRIMARY KEY,
                    email TEXT NOT NULL,
                    reset_url TEXT,
                    locale TEXT,
                    accept_language TEXT,
                    accepted_at BIGINT NOT NULL
                );
                CREATE INDEX reset_requests_accepted_at ON reset_requests (accepted_at);
                """
        ),
        // The algorithm a client's ID tokens are signed with. Clients registered before this
        // migration got ES256 ID tokens and keep them; new ones get RS256 unless registered
        // otherwise (the store always writes the column).
        Migration(
            version: 8, name: "client_id_token_alg",
            portable: """
                ALTER TABLE oauth_clients ADD COLUMN id_token_alg TEXT NOT NULL DEFAULT 'ES256'
                    CHECK (id_token_alg IN ('ES256', 'EdDSA', 'RS256'))
                """
        ),
        // What the consent page shows instead of raw ids: the client's name and, as a JSON
        // object, what each of its scopes lets it do.
        Migration(
            version: 9, name: "client_display_names",
            portable: """
                ALTER TABLE oauth_clients ADD COLUMN display_name TEXT;
                ALTER TABLE oauth_clients ADD COLUMN scope_descriptions TEXT NOT NULL DEFAULT '{}';
                """
        ),
        // The token a rotation issued, so that a client which lost it (a failed save) can be
        // given a fresh one within the reuse grace instead of having its login ended.
        Migration(
            version: 10, name: "refresh_token_successors",
            portable: """
                ALTER TABLE sessions ADD COLUMN successor_digest TEXT;
                """
        ),
        // Pending reset requests kept in the order of their time-ordered ids, which say when
        // each was accepted (PendingResetRequest.id): one tree per request. On SQLite the
        // table is rebuilt WITHOUT ROWID, so the id is the key of the table itself instead
        // of a second tree beside the rowid one, and neither dialect keeps an index on
        // accepted_at any more: orphans and purges are found by id. A request pending when
        // its server was upgraded may still have a random (version 4) id, from before ids
        // were time-ordered; it gets a time-ordered one, made from when it was accepted
        // (the random part replaced by the row's number, or a digest of its old id).
        Migration(
            version: 11, name: "reset_requests_in_id_order",
            sqlite: """
                CREATE TABLE reset_requests_in_id_order (
                    id TEXT NOT NULL PRIMARY KEY,
                    email TEXT NOT NULL,
                    reset_url TEXT,
                    locale TEXT,
                    accept_language TEXT,
                    accepted_at BIGINT NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO reset_requests_in_id_order (id, email, reset_url, locale, accept_language, accepted_at)
                    SELECT
                        CASE WHEN substr(id, 15, 1) = '7' THEN id
                        ELSE printf('%08x-%04x-7000-8000-%012x', accepted_at / 65536, accepted_at % 65536, rowid) END,
                        email, reset_url, locale, accept_language, accepted_at
                    FROM reset_requests;
                DROP TABLE reset_requests;
                ALTER TABLE reset_requests_in_id_order RENAME TO reset_requests;
                """,
            postgres: """
                DROP INDEX reset_requests_accepted_at;
                UPDATE reset_requests
                    SET id = lpad(to_hex(accepted_at / 65536), 8, '0') || '-' || lpad(to_hex(accepted_at % 65536), 4, '0')
                        || '-7000-8000-' || substr(md5(id), 1, 12)
                    WHERE substr(id, 15, 1) <> '7';
                """
        ),
        // What each sign-in proved and when (Assurance): the methods used (amr, space-separated)
        // and the sign-in time, kept by browser sessions, authorization codes and every token
        // of a login. Rows written before have NULLs: the password was then the only method,
        // a browser session's sign-in time is its creation, and a login's is unknown (read as
        // long ago, so it never counts as a recent sign-in).
        Migration(
            version: 12, name: "sign_in_assurance",
            portable: """
                ALTER TABLE sessions ADD COLUMN auth_time BIGINT;
                ALTER TABLE sessions ADD COLUMN amr TEXT;
                ALTER TABLE authorization_codes ADD COLUMN amr TEXT;
                """
        ),
        // Sign-up: requests waiting to be processed (one insert, the same for every address;
        // keyed by their time-ordered ids, as reset requests), and registrations waiting for
        // their address to be confirmed. A registration is not an account: the account is
        // created when its link is used.
        Migration(
            version: 13, name: "registrations",
            portable: """
                CREATE TABLE registration_requests (
                    id TEXT NOT NULL PRIMARY KEY,
                    email TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    verification_url TEXT,
                    locale TEXT,
                    accept_language TEXT,
                    accepted_at BIGINT NOT NULL
                );
                CREATE TABLE registrations (
                    token_digest TEXT NOT NULL PRIMARY KEY,
                    email TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    locale TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    superseded_at BIGINT
                );
                CREATE INDEX registrations_email ON registrations (email);
                """
        ),
        // Sign-out (OpenID Connect RP-Initiated Logout): where each client may send the browser
        // after /oauth/logout (a JSON array, like redirect_uris), and which browser session
        // signed in for a code and so for the login the code starts (the session's
        // token_digest, kept by every token of the family), so that ending the login ends that
        // browser session too. Rows written before have NULLs: no browser session to end.
        Migration(
            version: 14, name: "sign_out",
            portable: """
                ALTER TABLE oauth_clients ADD COLUMN post_logout_redirect_uris TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE authorization_codes ADD COLUMN browser_session_digest TEXT;
                ALTER TABLE sessions ADD COLUMN browser_session_digest TEXT;
                """
        ),
        // The signed-in person's own account. Where each login was started from (the client's
        // truncated IP and its user agent's family, never the header), copied to each rotation;
        // rows from before have NULLs (shown as unknown). And the tokens of address changes: a
        // 'confirm' token mailed to the new address, an 'undo' token mailed to the old one once
        // the change is made, each with both addresses, only its SHA-256 stored.
        Migration(
            version: 15, name: "own_account",
            portable: """
                ALTER TABLE sessions ADD COLUMN client_ip TEXT;
                ALTER TABLE sessions ADD COLUMN user_agent TEXT;

                CREATE TABLE email_change_tokens (
                    token_digest TEXT NOT NULL PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN ('confirm', 'undo')),
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    old_email TEXT NOT NULL,
                    new_email TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    superseded_at BIGINT
                );
                CREATE INDEX email_change_tokens_account_id ON email_change_tokens (account_id);
                """
        ),
        // The second factor (docs/accounts.md, "Second factor"). An enrolled authenticator app:
        // its TOTP secret sealed with the secret key (SecretBox, never the secret itself) and the
        // last time step whose code was accepted, which only moves forward (one conditional
        // UPDATE), so no code is accepted twice on any server. A generated secret not yet
        // confirmed, kept sealed for ten minutes. Recovery codes: SHA-256 digests bound to the
        // account, each deleted when used. And the pages' challenges (the sign-in page's code
        // step, the enrolment page's confirmation): the digest of a token, taken out once.
        Migration(
            version: 16, name: "second_factor",
            portable: """
                CREATE TABLE second_factors (
                    account_id TEXT NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                    sealed_secret TEXT NOT NULL,
                    last_step BIGINT NOT NULL,
                    enabled_at BIGINT NOT NULL
                );
                CREATE TABLE pending_second_factors (
                    account_id TEXT NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                    sealed_secret TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE TABLE recovery_codes (
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    code_digest TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (account_id, code_digest)
                );
                CREATE TABLE second_factor_challenges (
                    token_digest TEXT NOT NULL PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN ('sign_in', 'enrolment')),
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    credential_version INTEGER NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE INDEX second_factor_challenges_account_id ON second_factor_challenges (account_id);
                """
        ),
        // Waiting mail holds live links: its bodies are sealed (SecretBox, the secret key
        // file) from now on. Rows an older build queued stay readable in clear (sealed = 0).
        Migration(
            version: 17, name: "sealed_outbox",
            portable: "ALTER TABLE outbox ADD COLUMN sealed INTEGER NOT NULL DEFAULT 0;"
        ),
        // Recognised devices (docs/accounts.md, "Recognised devices"): for each account, the
        // SHA-256 of each device token it signed in with (never the token), the credential
        // version it was recorded under (a reset or password change forgets every device) and
        // its last sign-in; each account keeps its 20 most recent, for a year after last use.
        Migration(
            version: 18, name: "recognised_devices",
            portable: """
                CREATE TABLE recognised_devices (
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    token_digest TEXT NOT NULL,
                    credential_version INTEGER NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT NOT NULL,
                    PRIMARY KEY (account_id, token_digest)
                );
                CREATE INDEX recognised_devices_token_digest ON recognised_devices (token_digest);
                """
        ),
        // Passkeys (docs/passkeys.md). Each account's user handle (WebAuthn's user.id: 32 random
        // bytes, base64url), made when it first asks to add one. The credentials: the ID
        // (base64url, unique across every account), the COSE public key (base64url), its
        // algorithm, the highest sign count seen, BE and BS, the transports (a JSON array), the
        // AAGUID (hex), the attestation format, the owner's name for it, when it was added and
        // last used. And the ceremonies' challenges: only the SHA-256 of each, for one purpose
        // (a registration's for one account), taken out once by DELETE … RETURNING.
        Migration(
            version: 19, name: "passkeys",
            portable: """
                CREATE TABLE passkey_users (
                    account_id TEXT NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                    user_handle TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL
                );
                CREATE TABLE passkeys (
                    credential_id TEXT NOT NULL PRIMARY KEY,
                    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    public_key TEXT NOT NULL,
                    algorithm INTEGER NOT NULL,
                    sign_count BIGINT NOT NULL,
                    backup_eligible INTEGER NOT NULL CHECK (backup_eligible IN (0, 1)),
                    backup_state INTEGER NOT NULL CHECK (backup_state IN (0, 1)),
                    transports TEXT NOT NULL,
                    aaguid TEXT NOT NULL,
                    attestation_format TEXT NOT NULL,
                    name TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT
                );
                CREATE INDEX passkeys_account_id ON passkeys (account_id);
                CREATE TABLE passkey_challenges (
                    challenge_digest TEXT NOT NULL PRIMARY KEY,
                    purpose TEXT NOT NULL CHECK (purpose IN ('registration', 'authentication')),
                    account_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                );
                CREATE INDEX passkey_challenges_expires_at ON passkey_challenges (expires_at);
                CREATE INDEX passkey_challenges_account_id ON passkey_challenges (account_id);
                """
        ),
    ]
}

/// One numbered schema change, in the dialect of each SQL store.
struct Migration: Sendable {
    /// The number recorded in `schema_migrations`; versions apply in ascending order.
    let version: Int
    /// A short snake_case description, recorded with the version.
    let name: String
    /// The script ``SQLiteStore`` runs.
    let sqlite: String
    /// The script ``PostgresStore`` runs.
    let postgres: String

    /// A migration whose SQL differs between the dialects.
    init(version: Int, name: String, sqlite: String, postgres: String) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
    }

    /// A migration whose SQL runs unchanged on SQLite and PostgreSQL.
    init(version: Int, name: String, portable sql: String) {
        self.init(version: version, name: name, sqlite: sql, postgres: sql)
    }
}
