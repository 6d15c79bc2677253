import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// Sign in with the browser (OAuth + PKCE) or with email and password; or create an account.
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
            Section("Email and password") {
                TextField("Email", text: $model.signIn.email)
                    .textContentType(.username)
                    .keyboardType(.emailAddress)
                    .textInputAutocapitalization(.never)
                SecureField("Password", text: Binding(get: { model.signIn.password.exposed }, set: { model.signIn.setPassword($0) }))
                    .textContentType(.password)
                Button("Sign in") { Task { await model.signInWithPassword() } }
                    .disabled(!model.signIn.canSubmit)
                switch model.signIn.step {
                case .signingIn: ProgressView()
                case .failed(let message): Text(message).foregroundStyle(.red)
                case .editing: EmptyView()
                }
                Button("Forgot password?") { model.showForgotPassword() }
            }
            Section {
                Button("Create account") { model.showSignUp() }
            }
        }
        .navigationTitle("Sign in")
    }
}
