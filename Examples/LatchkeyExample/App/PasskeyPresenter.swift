import LatchkeyClient
import UIKit

/// The SDK's passkey adapter over the app's key window: the sheet, AutoFill and the automatic
/// upgrade all go through ``PasskeyAuthorization`` with the shared flow.
@MainActor
enum PasskeyPresenter {
    /// The adapter over the foreground scene's key window.
    static func authorization() throws -> PasskeyAuthorization {
        let window = UIApplication.shared.connectedScenes.compactMap { ($0 as? UIWindowScene)?.keyWindow }.first
        guard let window else { throw LatchkeyClientError(.passkeyRefused, reasons: ["no_window"]) }
        return PasskeyAuthorization(anchor: window)
    }
}
