import Foundation
import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// "Two-step sign-in" on the Account screen: turn it on (password, then the secret added to an
/// authenticator app — on this iPhone the link opens the Passwords app with it — and its first
/// code, then the recovery codes once), or off with a code.
struct TwoStepSetupSection: View {
    @Bindable var model: AppModel
    let setup: TwoStepSetup

    var body: some View {
        switch setup.step {
        case .editing:
            Text("To turn it on, enter your password. To turn it off, enter a code from your authenticator app or a recovery code.")
            SecureField("Password", text: Binding(get: { setup.password.exposed }, set: { model.setTwoStepPassword($0) }))
                .textContentType(.password)
            Button("Turn on") { Task { await model.generateTwoStepSecret() } }
                .disabled(setup.password.exposed.isEmpty)
            codeField
            Button("Turn off", role: .destructive) { Task { await model.disableTwoStep() } }
                .disabled(setup.code.exposed.isEmpty)
        case .working:
            ProgressView()
        case .confirming(let secret):
            Text("Add this account to your authenticator app, then enter the code it shows.")
            if let url = URL(string: secret.provisioningURL.exposed) {
                Link("Add to Passwords or another authenticator app", destination: url)
            }
            Text(secret.secret.exposed).font(.footnote)
            codeField
            Button("Turn on") { Task { await model.enableTwoStep() } }
                .disabled(setup.code.exposed.isEmpty)
        case .enabled(let recoveryCodes):
            Text("Two-step sign-in is on. Keep these recovery codes somewhere safe, apart from your phone: each signs you in once. They are shown only now.")
            ForEach(recoveryCodes.map(RecoveryCodeRow.init)) { row in Text(row.id).font(.footnote) }
            Button("Done") { model.closeTwoStepSetup() }
        case .disabled:
            Text("Two-step sign-in is off.")
            Button("Done") { model.closeTwoStepSetup() }
        case .failed(let message):
            Text(message).foregroundStyle(.red)
            Button("Try again") { model.retryTwoStep() }
            Button("Cancel", role: .cancel) { model.closeTwoStepSetup() }
        }
    }

    private var codeField: some View {
        TextField("Code", text: Binding(get: { setup.code.exposed }, set: { model.setTwoStepCode($0) }))
            .textContentType(.oneTimeCode)
            .textInputAutocapitalization(.never)
    }
}

/// A recovery code as a list row.
private struct RecoveryCodeRow: Identifiable {
    let id: String
}
