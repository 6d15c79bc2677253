#if os(iOS) || os(macOS)
    public import AuthenticationServices
    import Foundation

    /// Shows the system's passkey requests over
    /// `ASAuthorizationPlatformPublicKeyCredentialProvider` and `ASAuthorizationController`: make a
    /// passkey (``register(_:)``), upgrade a password account to one without a sheet
    /// (``upgrade(_:)``, iOS 18), sign in with one from a sheet (``signIn(_:)``) or from the
    /// keyboard's suggestion (``autoFill(_:)``, iOS). The requests come from ``PasskeyClient`` and
    /// ``PasskeySignIn``, which checked them; the results go back to them.
    ///
    /// The rules — one sheet at a time, AutoFill yielding to a sheet, the caller resumed exactly
    /// once, task cancellation withdrawing the request — are ``PasskeyAuthorizationFlow``'s; the
    /// errors are its ``PasskeyAuthorizationFlow/error(authorizationErrorCode:)``'s
    /// (`ASAuthorizationError.canceled` is `passkey_cancelled`). This type only converts.
    ///
    /// The app needs the associated domain `webcredentials:<relying party>` and the server's
    /// `apple-app-site-association` listing the app (docs/passkeys.md, "In an app").
    @MainActor
    public final class PasskeyAuthorization: NSObject, ASAuthorizationControllerPresentationContextProviding {
        private let anchor: ASPresentationAnchor
        private let flow: PasskeyAuthorizationFlow

        /// A presenter over `anchor` (the app's key window), sharing `flow` (one passkey request
        /// at a time in the process unless given another).
        public init(anchor: ASPresentationAnchor, flow: PasskeyAuthorizationFlow = .shared) {
            self.anchor = anchor
            self.flow = flow
        }

        /// Shows the sheet that makes a passkey for `request`.
        ///
        /// - Throws: `passkey_cancelled`, `passkey_exists` (the device holds one of the
        ///   account's passkeys already), `passkey_refused` (with the platform's reason),
        ///   `CancellationError`.
        public func register(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistration {
            try await perform(Self.registrationRequest(request), style: .modal, present: { $0.performRequests() }, convert: Self.registration)
        }

        /// The automatic passkey upgrade: asks the credential manager, with no sheet, to add a
        /// passkey to the account the person just signed in to with a password
        /// (`requestStyle = .conditional`). Call it right after a password sign-in; the manager
        /// decides, and most calls end in `passkey_refused` (`platform_failed`) or
        /// `passkey_cancelled`: ignore those, and try again at the next password sign-in.
        @available(iOS 18.0, macOS 15.0, *)
        public func upgrade(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistration {
            let conditional = Self.registrationRequest(request)
            conditional.requestStyle = .conditional
            return try await perform(conditional, style: .modal, present: { $0.performRequests() }, convert: Self.registration)
        }

        /// Shows the sheet that signs in with one of the relying party's passkeys.
        ///
        /// - Throws: `passkey_cancelled`, `passkey_refused` (with the platform's reason),
        ///   `CancellationError`.
        public func signIn(_ request: PasskeyAssertionRequest) async throws -> PasskeyAssertion {
            try await perform(Self.assertionRequest(request), style: .modal, present: { $0.performRequests() }, convert: Self.assertion)
        }

        #if os(iOS)
            /// Offers the relying party's passkeys above the keyboard of the sign-in form's field
            /// with the `.username` text content type, and waits until the person picks one.
            /// Start it when the form appears; cancel the task when it goes. A sheet
            /// (``signIn(_:)``) withdraws it (`passkey_cancelled`): start it again after.
            ///
            /// - Throws: `passkey_cancelled`, `passkey_refused`, `CancellationError`.
            public func autoFill(_ request: PasskeyAssertionRequest) async throws -> PasskeyAssertion {
                try await perform(
                    Self.assertionRequest(request), style: .autoFill, present: { $0.performAutoFillAssistedRequests() },
                    convert: Self.assertion)
            }
        #endif

        /// The window the sheet is shown over.
        public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor }
        }

        private func perform<Value: Sendable>(
            _ request: ASAuthorizationRequest, style: PasskeyAuthorizationFlow.Style,
            present: (ASAuthorizationController) -> Void, convert: @escaping @MainActor (ASAuthorization) throws -> Value
        ) async throws -> Value {
            // Holds this request's controller and delegate while it runs (the controller keeps
            // its delegate weakly, and nothing else keeps the controller), and for a
            // cancellation that arrives after the wait ended: it cancels this one, never a later one.
            let presented = PresentedController()
            return try await flow.perform(
                style: style,
                start: { finish in
                    let delegate = ControllerDelegate { answer in finish(answer.flatMap { authorization in Result { try convert(authorization) } }) }
                    let controller = ASAuthorizationController(authorizationRequests: [request])
                    controller.delegate = delegate
                    controller.presentationContextProvider = self
                    presented.controller = controller
                    presented.delegate = delegate
                    present(controller)
                },
                cancel: {
                    Task { @MainActor in presented.controller?.cancel() }
                })
        }

        private static func registrationRequest(_ request: PasskeyRegistrationRequest)
            -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
        {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingParty.identifier)
            let registration = provider.createCredentialRegistrationRequest(
                challenge: request.challenge, name: request.userName, userID: request.userID)
            registration.displayName = request.displayName
            registration.userVerificationPreference = preference(request.userVerification)
            if #available(iOS 17.4, macOS 14.4, *) {
                registration.excludedCredentials = request.excludedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
            }
            return registration
        }

        private static func assertionRequest(_ request: PasskeyAssertionRequest) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingParty.identifier)
            let assertion = provider.createCredentialAssertionRequest(challenge: request.challenge)
            assertion.allowedCredentials = request.allowedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
            assertion.userVerificationPreference = preference(request.userVerification)
            return assertion
        }

        private static func preference(_ verification: PasskeyUserVerification)
            -> ASAuthorizationPublicKeyCredentialUserVerificationPreference
        {
            switch verification {
            case .required: .required
            case .preferred: .preferred
            case .discouraged: .discouraged
            }
        }

        private static func registration(_ authorization: ASAuthorization) throws -> PasskeyRegistration {
            guard let credential = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
                let attestationObject = credential.rawAttestationObject
            else { throw LatchkeyClientError(.passkeyRefused, reasons: ["invalid_response"]) }
            return PasskeyRegistration(
                credentialID: credential.credentialID, clientDataJSON: credential.rawClientDataJSON,
                attestationObject: attestationObject, attachment: PasskeyAttachment(platformRawValue: credential.attachment.rawValue))
        }

        private static func assertion(_ authorization: ASAuthorization) throws -> PasskeyAssertion {
            guard let credential = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion,
                let authenticatorData = credential.rawAuthenticatorData, let signature = credential.signature
            else { throw LatchkeyClientError(.passkeyRefused, reasons: ["invalid_response"]) }
            return PasskeyAssertion(
                credentialID: credential.credentialID, clientDataJSON: credential.rawClientDataJSON,
                authenticatorData: authenticatorData, signature: signature, userHandle: credential.userID ?? Data(),
                attachment: PasskeyAttachment(platformRawValue: credential.attachment.rawValue))
        }
    }

    /// The controller and delegate of one request.
    @MainActor
    private final class PresentedController {
        var controller: ASAuthorizationController?
        var delegate: ControllerDelegate?
    }

    /// Hands the controller's answer to its request, on the main actor where the controller
    /// calls it.
    @MainActor
    private final class ControllerDelegate: NSObject, ASAuthorizationControllerDelegate {
        private let answer: @MainActor (Result<ASAuthorization, any Error>) -> Void

        init(answer: @escaping @MainActor (Result<ASAuthorization, any Error>) -> Void) {
            self.answer = answer
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
            answer(.success(authorization))
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            let code = (error as? ASAuthorizationError)?.code.rawValue ?? 1000
            answer(.failure(PasskeyAuthorizationFlow.error(authorizationErrorCode: code)))
        }
    }
#endif
