import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// Shows the screen for the session's state, and the reset and "forgot password" sheets.
struct RootView: View {
    let model: AppModel
    @Binding var requireFaceID: Bool

    var body: some View {
        NavigationStack {
            switch model.sessionState {
            case nil:
                ProgressView()
            case .signedIn(let subject):
                HomeView(model: model, subject: subject, requireFaceID: $requireFaceID)
            case .unavailable(let error) where error.code == .tokenStoreLocked || error.code == .userAuthenticationFailed:
                ContentUnavailableView {
                    Label("Locked", systemImage: "lock")
                } description: {
                    Text(error.message(for: model.language))
                } actions: {
                    Button("Try again") { Task { await model.deviceUnlocked() } }
                }
            case .signedOut, .unavailable:
                SignInView(model: model)
            }
        }
        .sheet(isPresented: Binding(get: { model.reset != nil }, set: { if !$0 { model.closeReset() } })) {
            ResetPasswordView(model: model)
        }
        .sheet(isPresented: Binding(get: { model.forgotPassword != nil }, set: { if !$0 { model.closeForgotPassword() } })) {
            ForgotPasswordView(model: model)
        }
    }
}
