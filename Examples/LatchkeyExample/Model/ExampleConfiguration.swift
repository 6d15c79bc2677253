public import Foundation
public import LatchkeyClient

/// What the sample app is set up with: the one place to change for your own server.
public struct ExampleConfiguration: Sendable {
    /// The Latchkey server (its public URL): issuer, password reset and first-party login.
    public var issuer: URL
    /// The app's OAuth client (`latchkey clients create ios-app --redirect-uri … --first-party`).
    public var clientID: String
    /// Where the browser sign-in comes back to: the custom scheme below, or an https URL
    /// on a `webcredentials:` associated domain (iOS 17.4 and later).
    public var redirectURI: URL
    /// The hosts whose `/reset-password` universal links open the app (`applinks:`).
    public var universalLinkHosts: [String]
    /// The app's URL scheme, for custom-scheme reset links (when universal links are off).
    public var urlScheme: String
    /// The API the home screen calls with the access token (Latchkey's `/userinfo` here).
    public var apiURL: URL
    /// SHA-256 pins of the issuer's public keys (``PublicKeyPins``), or none.
    public var pins: [String]
    /// The passkeys' relying party: the app's `webcredentials:` associated domain and the
    /// server's `LATCHKEY_WEBAUTHN_RP_ID`; nil hides the passkey buttons (a loopback server
    /// has no domain for passkeys).
    public var passkeyRelyingParty: String?

    /// A configuration with the given values.
    public init(
        issuer: URL, clientID: String, redirectURI: URL, universalLinkHosts: [String], urlScheme: String, apiURL: URL,
        pins: [String] = [], passkeyRelyingParty: String? = nil
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.universalLinkHosts = universalLinkHosts
        self.urlScheme = urlScheme
        self.apiURL = apiURL
        self.pins = pins
        self.passkeyRelyingParty = passkeyRelyingParty
    }

    /// The settings of the sample as shipped: `auth.example.com` and `com.example.latchkey`.
    public static let sample = ExampleConfiguration(
        issuer: URL(string: "https://auth.example.com")!, clientID: "ios-app",
        redirectURI: URL(string: "com.example.latchkey:/oauth")!, universalLinkHosts: ["auth.example.com"],
        urlScheme: "com.example.latchkey", apiURL: URL(string: "https://auth.example.com/userinfo")!,
        passkeyRelyingParty: "auth.example.com")

    /// The sample against a server on the Mac's loopback, as the iOS Simulator reaches
    /// `make run` (docs/ios.md, "Running the sample in the Simulator"): `http` is accepted for
    /// a loopback issuer only, for development; reset links open the app through its URL
    /// scheme (universal links need the https domain). Never for a release.
    public static let localDevelopment = ExampleConfiguration(
        issuer: URL(string: "http://127.0.0.1:8080")!, clientID: "ios-app",
        redirectURI: URL(string: "com.example.latchkey:/oauth")!, universalLinkHosts: [],
        urlScheme: "com.example.latchkey", apiURL: URL(string: "http://127.0.0.1:8080/userinfo")!)

    /// The Keychain options for the session, with or without the "Require Face ID"
    /// setting: Face ID (or the passcode) before the tokens can be read, on this device only.
    public func keychainOptions(requireFaceID: Bool) -> KeychainOptions {
        KeychainOptions(
            service: "com.example.latchkey.session",
            accessibility: requireFaceID ? .whenPasscodeSetThisDeviceOnly : .afterFirstUnlockThisDeviceOnly,
            userPresence: requireFaceID ? .userPresence : .none,
            authenticationPrompt: "Unlock your Latchkey Example session", wipeOnReinstall: true)
    }
}
