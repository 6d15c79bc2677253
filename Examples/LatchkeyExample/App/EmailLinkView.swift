import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// The screen a sign-up's confirmation link, or an address change's link, opens.
struct EmailLinkView: View {
    let model: AppModel

    var body: some View {
        NavigationStack {
            Form {
                if let flow = model.emailLink { content(flow) }
            }
            .navigationTitle("Your email address")
            .toolbar { Button("Close") { model.closeEmailLink() } }
        }
    }

    @ViewBuilder
    private func content(_ flow: EmailLinkFlow) -> some View {
        switch flow.step {
        case .working:
            ProgressView()
        case .done where flow.kind == .verifyEmail:
            Text("Your address is confirmed and your account is ready. Sign in with your email and password.")
            Button("Sign in") { model.closeEmailLink() }
        case .done where flow.kind == .undoEmailChange:
            Text("Your previous address is back, and every device has been signed out. Choose a new password to keep your account safe.")
            Button("Choose a new password") {
                model.closeEmailLink()
                model.showForgotPassword()
            }
        case .done:
            Text("Your new address is confirmed.")
            Button("Done") { model.closeEmailLink() }
        case .unusable(let message):
            Text(message)
            Button("Close") { model.closeEmailLink() }
        case .failed(let message):
            Text(message).foregroundStyle(.red)
            Button("Try again") { Task { await model.retryEmailLink() } }
        }
    }
}
