import LatchkeyExampleModel
import SwiftUI

/// Signed in: the Account screen, an authorised API call, the "Require Face ID" setting, sign-out.
struct HomeView: View {
    let model: AppModel
    let subject: String?

    var body: some View {
        Form {
            Section("Account") {
                Text(subject.map { "Signed in as \($0)" } ?? "Signed in")
                Button("Account") { Task { await model.showAccount() } }
            }
            Section("API") {
                Button("Call the API") { Task { await model.callAPI() } }
                switch model.apiCall {
                case .idle: EmptyView()
                case .loading: ProgressView()
                case .answered(let status, let body): Text("\(status)\n\(body)").font(.footnote.monospaced())
                case .failed(let message): Text(message).foregroundStyle(.red)
                }
            }
            Section {
                // The stored session's protection, as the Keychain reports it.
                Toggle("Require Face ID", isOn: Binding(get: { model.requireFaceID }, set: { on in
                    Task { await model.setRequireFaceID(on) }
                }))
                if let message = model.faceIDSettingError { Text(message).foregroundStyle(.red) }
            } footer: {
                Text("Face ID (or the passcode) is then needed to use the saved sign-in.")
            }
            Button("Sign out", role: .destructive) { Task { await model.signOut() } }
        }
        .navigationTitle("Latchkey Example")
    }
}
