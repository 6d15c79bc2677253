import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// The screen a reset link opens: the account, a new password with live rule feedback,
/// Face ID, done.
struct ResetPasswordView: View {
    let model: AppModel

    var body: some View {
        NavigationStack {
            Form {
                if let flow = model.reset { content(flow) }
            }
            .navigationTitle("New password")
            .toolbar { Button("Close") { model.closeReset() } }
        }
    }

    @ViewBuilder
    private func content(_ flow: ResetFlow) -> some View {
        switch flow.step {
        case .checkingLink, .confirmingIdentity, .saving:
            ProgressView()
        case .linkUnusable(let message):
            Text(message)
            Button("Request a new link") {
                model.closeReset()
                model.showForgotPassword()
            }
        case .choosingPassword:
            if let hint = flow.emailHint { Text("New password for \(hint)") }
            SecureField("New password", text: Binding(get: { model.reset?.password.exposed ?? "" }, set: { model.setNewPassword($0) }))
                .textContentType(.newPassword)
            ForEach(flow.feedback.items) { item in
                Label(item.rule.message(for: model.language), systemImage: item.isMet ? "checkmark.circle.fill" : "circle")
                    .foregroundStyle(item.isMet ? .green : .secondary)
            }
            Button("Set password") { Task { await model.submitNewPassword() } }
                .disabled(!flow.canSubmit)
        case .done:
            Text("Your password has been changed. Sign in with the new password.")
            Button("Done") { model.closeReset() }
        case .failed(let message, let retry):
            Text(message).foregroundStyle(.red)
            if retry != nil { Button("Try again") { Task { await model.retryReset() } } }
        }
    }
}
