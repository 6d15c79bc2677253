import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// "Create account": an address and a password with live rule feedback; then "check your mail".
struct SignUpView: View {
    @Bindable var model: AppModel

    var body: some View {
        NavigationStack {
            Form {
                if let form = model.signUp { content(form) }
            }
            .navigationTitle("Create account")
            .toolbar { Button("Close") { model.closeSignUp() } }
        }
    }

    @ViewBuilder
    private func content(_ form: SignUpForm) -> some View {
        switch form.step {
        case .sent(let email):
            // The same words for every address: the server does not say whether it had an account.
            Text("If \(email) has no account yet, we have sent it a link. Open it on this device to finish.")
            Button("Done") { model.closeSignUp() }
        case .editing, .sending, .failed:
            TextField("Email", text: Binding(get: { model.signUp?.email ?? "" }, set: { model.signUp?.email = $0 }))
                .textContentType(.username)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
            SecureField("Password", text: Binding(get: { model.signUp?.password.exposed ?? "" }, set: { model.signUp?.setPassword($0) }))
                .textContentType(.newPassword)
            ForEach(form.feedback.items) { item in
                Label(item.rule.message(for: model.language), systemImage: item.isMet ? "checkmark.circle.fill" : "circle")
                    .foregroundStyle(item.isMet ? .green : .secondary)
            }
            Button("Create account") { Task { await model.createAccount() } }
                .disabled(!form.canSubmit)
            if case .failed(let message) = form.step { Text(message).foregroundStyle(.red) }
            if form.step == .sending { ProgressView() }
        }
    }
}
