import LatchkeyExampleModel
import SwiftUI

/// Asks for a reset link.
struct ForgotPasswordView: View {
    @Bindable var model: AppModel

    var body: some View {
        NavigationStack {
            Form {
                if let form = model.forgotPassword {
                    switch form.step {
                    case .sent(let email):
                        Text("If an account exists for \(email), we have sent a link. Open it on this device.")
                    case .editing, .sending, .failed:
                        TextField("Email", text: Binding(
                            get: { model.forgotPassword?.email ?? "" }, set: { model.forgotPassword?.email = $0 }))
                            .textContentType(.username)
                            .keyboardType(.emailAddress)
                            .textInputAutocapitalization(.never)
                        Button("Send link") { Task { await model.sendResetLink() } }
                            .disabled(!form.canSubmit)
                        if case .failed(let message) = form.step { Text(message).foregroundStyle(.red) }
                        if form.step == .sending { ProgressView() }
                    }
                }
            }
            .navigationTitle("Forgot password")
            .toolbar { Button("Close") { model.closeForgotPassword() } }
        }
    }
}
