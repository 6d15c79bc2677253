import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// Sign in with a passkey, with the browser (OAuth + PKCE) or with email and password; or
/// create an account. While the password form shows, the keyboard offers the app's passkeys
/// (AutoFill); after a password sign-in, iOS 18 may add a passkey by itself (the automatic upgrade).
struct SignInView: View {
    @Bindable var model: AppModel
    @Environment(\.webAuthenticationSession) private var webAuthenticationSession

    var body: some View {
        Form {
            if let notice = model.signedOutNotice {
                Section { Text(notice) }
            }
            if model.accountDeleted {
                Section { Text("Your account has been deleted.") }
            }
            if model.offersPasskeys {
                Section {
                    Button("Sign in with a passkey") {
                        Task { await model.signInWithPasskey { try await PasskeyPresenter.authorization().signIn($0) } }
                    }
                    if let message = model.passkeySignInError { Text(message).foregroundStyle(.red) }
                }
            }
            Section {
                Button("Sign in with browser") {
                    Task {
                        await model.signInWithBrowser { request in
                            try await webAuthenticationSession.callbackURL(for: request)
                        }
                    }
                }
                .disabled(model.isSigningInWithBrowser)
                if let message = model.browserSignInError { Text(message).foregroundStyle(.red) }
            }
            switch model.signIn.step {
            case .needsCode(let message):
                SignInCodeSection(model: model, message: message, verifying: false)
            case .verifyingCode:
                SignInCodeSection(model: model, message: nil, verifying: true)
            default:
                passwordSection
            }
            Section {
                Button("Create account") { model.showSignUp() }
            }
        }
        .navigationTitle("Sign in")
    }

    private var passwordSection: some View {
        Section("Email and password") {
            TextField("Email", text: $model.signIn.email)
                .textContentType(.username)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
            SecureField("Password", text: Binding(get: { model.signIn.password.exposed }, set: { model.signIn.setPassword($0) }))
                .textContentType(.password)
            Button("Sign in") {
                Task {
                    await model.signInWithPassword()
                    guard case .signedIn = model.sessionState, model.offersPasskeys, #available(iOS 18.0, *) else { return }
                    await model.upgradeToPasskey { try await PasskeyPresenter.authorization().upgrade($0) }
                }
            }
            .disabled(!model.signIn.canSubmit)
            switch model.signIn.step {
            case .signingIn: ProgressView()
            case .failed(let message): Text(message).foregroundStyle(.red)
            case .editing, .needsCode, .verifyingCode: EmptyView()
            }
            Button("Forgot password?") { model.showForgotPassword() }
        }
        .task {
            // The keyboard's passkey suggestion while the form shows; leaving it cancels the task.
            guard model.offersPasskeys else { return }
            await model.signInWithPasskey { try await PasskeyPresenter.authorization().autoFill($0) }
        }
    }
}

/// The sign-in's second step: the code from the authenticator app, or a recovery code.
private struct SignInCodeSection: View {
    @Bindable var model: AppModel
    let message: String?
    let verifying: Bool

    var body: some View {
        Section("Two-step sign-in") {
            Text("Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your recovery codes.")
            TextField("Code", text: Binding(get: { model.signIn.code.exposed }, set: { model.signIn.setCode($0) }))
                .textContentType(.oneTimeCode)
                .textInputAutocapitalization(.never)
            Button("Verify") { Task { await model.submitSignInCode() } }
                .disabled(!model.signIn.canSubmitCode)
            if verifying { ProgressView() }
            if let message { Text(message).foregroundStyle(.red) }
            Button("Cancel", role: .cancel) { model.cancelSignInCode() }
        }
    }
}
