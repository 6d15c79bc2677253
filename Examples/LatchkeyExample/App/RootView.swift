import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// Shows the screen for the session's state, and the sheets: reset, "forgot password",
/// "Create account", the screen of a sign-up's or address change's link, and the Account screen.
struct RootView: View {
    let model: AppModel

    var body: some View {
        NavigationStack {
            switch model.sessionState {
            case nil:
                ProgressView()
            case .signedIn(let subject):
                HomeView(model: model, subject: subject)
            case .unavailable(let error) where error.code == .userAuthenticationRequired:
                // Behind Face ID: asked for only from this button (and once after the
                // background); signing out needs no Face ID.
                ContentUnavailableView {
                    Label("Locked", systemImage: "faceid")
                } description: {
                    Text(model.unlockError ?? error.message(for: model.language))
                } actions: {
                    Button("Unlock") { Task { await model.unlock() } }
                    Button("Sign out", role: .destructive) { Task { await model.signOut() } }
                }
            case .unavailable(let error) where error.code == .tokenStoreLocked:
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
        .sheet(isPresented: Binding(get: { model.signUp != nil }, set: { if !$0 { model.closeSignUp() } })) {
            SignUpView(model: model)
        }
        .sheet(isPresented: Binding(get: { model.emailLink != nil }, set: { if !$0 { model.closeEmailLink() } })) {
            EmailLinkView(model: model)
        }
        .sheet(isPresented: Binding(get: { model.account != nil }, set: { if !$0 { model.closeAccount() } })) {
            AccountView(model: model)
        }
    }
}
