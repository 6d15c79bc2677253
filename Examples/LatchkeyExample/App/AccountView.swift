import LatchkeyClient
import LatchkeyExampleModel
import SwiftUI

/// The Account screen: the address, "Change password", "Change address", the passkeys with
/// "Add a passkey" and "Remove", the signed-in devices with "Sign out", and "Delete account"
/// (App Store Review Guideline 5.1.1(v)).
struct AccountView: View {
    @Bindable var model: AppModel

    var body: some View {
        NavigationStack {
            Form {
                if let screen = model.account { content(screen) }
            }
            .navigationTitle("Account")
            .toolbar { Button("Close") { model.closeAccount() } }
        }
    }

    @ViewBuilder
    private func content(_ screen: AccountScreen) -> some View {
        if case .failed(let message) = screen.step {
            Section {
                Text(message).foregroundStyle(.red)
                Button("Try again") { Task { await model.reloadAccount() } }
            }
        }
        if screen.step == .loading { ProgressView() }
        if let account = screen.account {
            Section("Email address") {
                Text(account.email)
                if let form = model.changeEmail {
                    ChangeEmailSection(model: model, form: form)
                } else {
                    Button("Change address") { model.showChangeEmail() }
                }
            }
            Section("Password") {
                if let form = model.changePassword {
                    ChangePasswordSection(model: model, form: form)
                } else {
                    Button("Change password") { model.showChangePassword() }
                }
            }
        }
        Section("Two-step sign-in") {
            if let setup = model.twoStepSetup {
                TwoStepSetupSection(model: model, setup: setup)
            } else {
                Button("Two-step sign-in") { model.showTwoStepSetup() }
            }
        }
        if model.offersPasskeys {
            Section("Passkeys") {
                ForEach(screen.passkeys) { passkey in
                    Text(screen.summary(of: passkey))
                    Button("Remove", role: .destructive) { Task { await model.deletePasskey(passkey) } }
                }
                Button("Add a passkey") {
                    Task { await model.addPasskey { try await PasskeyPresenter.authorization().register($0) } }
                }
                .disabled(screen.isAddingPasskey)
                if let message = screen.passkeyError { Text(message).foregroundStyle(.red) }
            }
        }
        Section("Signed-in devices") {
            ForEach(screen.devices) { device in
                Text(screen.summary(of: device))
                Button(device.isCurrent ? "Sign out this device" : "Sign out", role: .destructive) {
                    Task { await model.signOut(device: device) }
                }
            }
            if let message = screen.deviceError { Text(message).foregroundStyle(.red) }
        }
        Section {
            if let flow = model.deleteAccount {
                DeleteAccountSection(model: model, flow: flow)
            } else {
                Button("Delete account", role: .destructive) { model.showDeleteAccount() }
            }
        } footer: {
            Text("Deleting your account removes it and everything in it from the service, for good.")
        }
    }
}

/// The current-password field, once the server asked for it.
private struct CurrentPasswordField: View {
    let change: AccountChange
    let set: (String) -> Void

    var body: some View {
        if case .needsCurrentPassword(let message) = change.step {
            Text(message)
            SecureField("Current password", text: Binding(get: { change.currentPassword.exposed }, set: { set($0) }))
                .textContentType(.password)
        }
    }
}

/// What a change shows while it is sent, once done, or when it failed.
private struct ChangeStatus: View {
    let change: AccountChange
    let done: String

    var body: some View {
        switch change.step {
        case .sending: ProgressView()
        case .done: Text(done)
        case .failed(let message): Text(message).foregroundStyle(.red)
        case .editing, .needsCurrentPassword: EmptyView()
        }
    }
}

private struct ChangePasswordSection: View {
    let model: AppModel
    let form: ChangePasswordForm

    var body: some View {
        if form.change.step != .done {
            SecureField("New password", text: Binding(get: { form.newPassword.exposed }, set: { model.setNewPassword(forChange: $0) }))
                .textContentType(.newPassword)
            ForEach(form.feedback.items) { item in
                Label(item.rule.message(for: model.language), systemImage: item.isMet ? "checkmark.circle.fill" : "circle")
                    .foregroundStyle(item.isMet ? .green : .secondary)
            }
            CurrentPasswordField(change: form.change) { model.setCurrentPassword(forPasswordChange: $0) }
            Button("Set password") { Task { await model.submitPasswordChange() } }
                .disabled(!form.canSubmit)
        }
        ChangeStatus(change: form.change, done: "Your password has been changed. Your other devices have been signed out.")
        Button(form.change.step == .done ? "Done" : "Cancel") { model.closeChangePassword() }
    }
}

private struct ChangeEmailSection: View {
    @Bindable var model: AppModel
    let form: ChangeEmailForm

    var body: some View {
        if form.change.step != .done {
            TextField("New address", text: Binding(get: { model.changeEmail?.newEmail ?? "" }, set: { model.changeEmail?.newEmail = $0 }))
                .textContentType(.username)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
            CurrentPasswordField(change: form.change) { model.changeEmail?.setCurrentPassword($0) }
            Button("Send confirmation link") { Task { await model.submitEmailChange() } }
                .disabled(!form.canSubmit)
        }
        ChangeStatus(change: form.change, done: "We have sent a link to \(form.newEmail). Your address changes once you open it.")
        Button(form.change.step == .done ? "Done" : "Cancel") { model.closeChangeEmail() }
    }
}

/// "Delete account": a confirmation first, the current password when the server asks.
private struct DeleteAccountSection: View {
    let model: AppModel
    let flow: DeleteAccountFlow

    var body: some View {
        Text("Delete your account? Your sign-in, your devices and everything the service keeps for you are removed. This cannot be undone.")
        CurrentPasswordField(change: flow.change) { model.setCurrentPassword(forDeletion: $0) }
        ChangeStatus(change: flow.change, done: "Your account has been deleted.")
        Button("Delete account", role: .destructive) { Task { await model.confirmDeleteAccount() } }
            .disabled(!flow.canSubmit)
        Button("Cancel") { model.closeDeleteAccount() }
    }
}
