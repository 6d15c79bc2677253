/// One user of a Directus export, as `latchkey users import` reads it: the fields Latchkey
/// keeps, as text (nil when the export has no value), and where the user was in the file.
package struct DirectusUserRecord: Sendable, Equatable {
    /// Where the user is in the file, for reports: `line 12` (the line a CSV record starts
    /// on) or `user 3` (the position, from 1, of a JSON array's element).
    package let location: String
    /// Directus's `id` (a UUID), kept as the account's id so the `sub` of tokens stays the same.
    package let id: String?
    /// `email`.
    package let email: String?
    /// `password`: an Argon2 PHC string from `directus_users`, or `**********` when the export
    /// came through Directus's API, which hides it.
    package let password: String?
    /// `status`: `active`, `suspended`, `archived`, `invited`, `unverified` or `draft`.
    package let status: String?
    /// `tfa_secret`: the base32 TOTP secret of an enrolled authenticator.
    package let tfaSecret: String?
    /// `language`, such as `en-US`.
    package let language: String?
    /// Why the record cannot be a user whatever its fields say (a JSON element that is not an
    /// object, a CSV record with another number of fields than the header), if so.
    package let defect: String?

    /// A record with these fields; an empty text counts as no value.
    package init(
        location: String, id: String?, email: String?, password: String?, status: String?, tfaSecret: String?, language: String?,
        defect: String? = nil
    ) {
        func value(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        self.location = location
        self.id = value(id)
        self.email = value(email)
        self.password = value(password)
        self.status = value(status)
        self.tfaSecret = value(tfaSecret)
        self.language = value(language)
        self.defect = defect
    }
}
