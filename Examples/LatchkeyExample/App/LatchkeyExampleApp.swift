import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI
import UIKit

/// The sample app: wiring only. Every decision is in `AppModel` and the SDK. The model is
/// made in `init`: making it reads nothing (no Keychain, no file), so it is safe while iOS
/// prewarms the app before the first unlock, and a reset link that opens the app from cold
/// is handed to it, never dropped.
@main
struct LatchkeyExampleApp: App {
    @State private var setup = Self.setUp()
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            if let model = setup.model {
                RootView(model: model)
                    .task { model.start() }
                    .onOpenURL { url in Task { await model.open(url) } }
                    .onContinueUserActivity(NSUserActivityTypeBrowsingWeb) { activity in
                        guard let url = activity.webpageURL else { return }
                        Task { await model.open(url) }
                    }
                    .onReceive(NotificationCenter.default.publisher(for: UIApplication.protectedDataDidBecomeAvailableNotification)) { _ in
                        Task { await model.deviceUnlocked() }
                    }
                    .onChange(of: scenePhase, initial: true) { _, phase in
                        switch phase {
                        // Asks for Face ID at most once per return from the background: the
                        // Face ID sheet itself makes the scene inactive and active again.
                        case .active: Task { await model.sceneBecameActive() }
                        case .background: model.sceneEnteredBackground()
                        default: break
                        }
                    }
            } else {
                ContentUnavailableView("Setup failed", systemImage: "exclamationmark.triangle", description: Text(setup.error ?? ""))
            }
        }
    }

    private static func setUp() -> (model: AppModel?, error: String?) {
        let configuration = ExampleConfiguration.sample
        do {
            var urlSession = URLSession.shared
            if !configuration.pins.isEmpty, let host = configuration.issuer.host {
                urlSession = PinnedSessionDelegate.session(pins: try PublicKeyPins(host: host, pins: configuration.pins))
            }
            let model = try AppModel(
                configuration: configuration, urlSession: urlSession,
                makeStore: { requireFaceID in
                    try KeychainTokenStore(options: configuration.keychainOptions(requireFaceID: requireFaceID))
                },
                backgroundActivity: ApplicationBackgroundTask(),
                confirmIdentity: {
                    // A device without a passcode has nothing to check: the gate guards this
                    // screen, not the account (the link also works in Safari).
                    let gate = BiometricGate(reason: "Confirm it is you before changing your password.")
                    if case .unavailable = gate.availability() { return }
                    try await gate.authenticate()
                })
            return (model, nil)
        } catch {
            return (nil, (error as? LatchkeyClientError)?.description ?? "\(error)")
        }
    }
}
