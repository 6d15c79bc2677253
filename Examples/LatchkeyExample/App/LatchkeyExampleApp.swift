import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI
import UIKit

/// The sample app: wiring only. Every decision is in `AppModel` and the SDK; the model is
/// made once the first scene appears — not in `init`, which iOS may run while prewarming
/// the app before the first unlock, when stored settings read as defaults.
@main
struct LatchkeyExampleApp: App {
    @State private var model: AppModel?
    @State private var setupError: String?
    @State private var keychain = CurrentKeychain()
    @AppStorage("requireFaceID") private var requireFaceID = false
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            Group {
                if let model {
                    RootView(model: model, requireFaceID: $requireFaceID)
                } else if let setupError {
                    ContentUnavailableView("Setup failed", systemImage: "exclamationmark.triangle", description: Text(setupError))
                } else {
                    ProgressView()
                }
            }
            .task { makeModel() }
            .onOpenURL { url in Task { await model?.open(url) } }
            .onContinueUserActivity(NSUserActivityTypeBrowsingWeb) { activity in
                guard let url = activity.webpageURL else { return }
                Task { await model?.open(url) }
            }
            .onReceive(NotificationCenter.default.publisher(for: UIApplication.protectedDataDidBecomeAvailableNotification)) { _ in
                Task { await model?.deviceUnlocked() }
            }
            .onChange(of: scenePhase) { _, phase in
                switch phase {
                case .active: Task { await model?.deviceUnlocked() }
                // With "Require Face ID", coming back from the background asks again.
                case .background: keychain.store?.requireAuthentication()
                default: break
                }
            }
        }
    }

    private func makeModel() {
        guard model == nil else { return }
        let configuration = ExampleConfiguration.sample
        do {
            var urlSession = URLSession.shared
            if !configuration.pins.isEmpty, let host = configuration.issuer.host {
                urlSession = PinnedSessionDelegate.session(pins: try PublicKeyPins(host: host, pins: configuration.pins))
            }
            let keychain = self.keychain
            model = try AppModel(
                configuration: configuration, urlSession: urlSession, requireFaceID: requireFaceID,
                makeStore: { requireFaceID in
                    let store = try KeychainTokenStore(options: configuration.keychainOptions(requireFaceID: requireFaceID))
                    keychain.store = store
                    return store
                },
                backgroundActivity: ApplicationBackgroundTask(),
                confirmIdentity: {
                    // A device without a passcode has nothing to check: the gate guards this
                    // screen, not the account (the link also works in Safari).
                    let gate = BiometricGate(reason: "Confirm it is you before changing your password.")
                    if case .unavailable = gate.availability() { return }
                    try await gate.authenticate()
                })
            model?.start()
        } catch {
            setupError = (error as? LatchkeyClientError)?.description ?? "\(error)"
        }
    }
}

/// The Keychain store in use, so the app can ask for Face ID again after the background.
@MainActor
final class CurrentKeychain {
    var store: KeychainTokenStore?
}
