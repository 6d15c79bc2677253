extension TextCatalogue {
    /// Every text in English.
    static let english = TextCatalogue(
        direction: .leftToRight,
        passwordResetMail: PasswordResetMailText(
            subject: { product in "Reset your \(product) password" },
            greeting: "Hello,",
            requested: { product in "Someone asked to reset the password of the \(product) account for this email address." },
            instruction: "To choose a new password, open this link:",
            button: "Choose a new password",
            validity: { minutes in "The link works for \(minutes == 1 ? "1 minute" : "\(minutes) minutes")." },
            ignore: "If this wasn’t you, you can ignore this email. Your password stays the same.",
            linkFallback: "If the button doesn’t work, copy this address into your browser:"),
        passwordChangedMail: PasswordChangedMailText(
            subject: { product in "Your \(product) password was changed" },
            greeting: "Hello,",
            changed: { product, date, time in "The password of your \(product) account was changed on \(date) at \(time) UTC." },
            ifYou: "If this was you, there is nothing else to do.",
            ifNotYou: "If it wasn’t you, someone else may know your password. Reset it now, and change it wherever else you use the same password:",
            button: "Reset my password",
            linkFallback: "If the button doesn’t work, copy this address into your browser:"),
        emailVerificationMail: EmailVerificationMailText(
            subject: { product in "Confirm your email address for \(product)" },
            greeting: "Hello,",
            requested: { product in "Someone signed up for \(product) with this email address." },
            instruction: "To confirm that this address is yours and finish creating your account, open this link:",
            button: "Confirm my email address",
            validity: { hours in "The link works for \(hours == 1 ? "1 hour" : "\(hours) hours")." },
            ignore: "If this wasn’t you, you can ignore this email. No account will be created.",
            linkFallback: "If the button doesn’t work, copy this address into your browser:"),
        accountExistsMail: AccountExistsMailText(
            subject: { product in "You already have a \(product) account" },
            greeting: "Hello,",
            attempted: { product in "Someone tried to sign up for \(product) with this email address, but it already has an account." },
            instruction: "If it was you, sign in as usual. If you have forgotten your password, you can choose a new one:",
            button: "Reset my password",
            ignore: "If this wasn’t you, you can ignore this email. Nothing has changed.",
            linkFallback: "If the button doesn’t work, copy this address into your browser:"),
        resetPage: ResetPageText(
            title: "Reset your password",
            requestIntro: "Enter the email address of your account and we will send you a link to choose a new password.",
            emailLabel: "Email address",
            sendLink: "Send me a link",
            requestSent: "If an account exists for this address, we have sent a link to reset its password. Check your inbox.",
            invalidEmail: "Enter an email address such as name@example.com.",
            checking: "Checking your link…",
            chooseFor: "Choose a new password for",
            newPassword: "New password",
            passwordRules: "Use 8 to 128 characters. A phrase of several unrelated words is strong and easy to remember. Do not use your email address.",
            repeatPassword: "Repeat the new password",
            save: "Save new password",
            saved: "Your password has been changed.",
            signInNow: { product in "You can now sign in to \(product) with your new password." },
            continueTo: { product in "Continue to \(product)" },
            mismatch: "The two passwords are not the same.",
            invalidLink: "The link is no longer valid. Please request a new one.",
            tooShort: "Use at least 8 characters.",
            tooLong: "Use at most 128 characters.",
            tooWeak: "This password is too easy to guess. Try a longer phrase of unrelated words.",
            containsEmail: "Do not use your email address in your password.",
            failed: "Something went wrong. Please try again.",
            requestNew: "Request a new link"),
        signInPage: SignInPageText(
            signInTitle: "Sign in",
            signInTo: "Sign in to continue to",
            emailLabel: "Email address",
            passwordLabel: "Password",
            signIn: "Sign in",
            forgotPassword: "Forgot your password?",
            invalidCredentials: "The email address or password is not correct.",
            consentTitle: "Allow access?",
            consentIntro: { product in "wants to access your \(product) account." },
            signedInAs: "Signed in as",
            scopesIntro: "It asks to:",
            openidScope: "Know who you are (your account’s identifier)",
            emailScope: "See your email address",
            allow: "Allow",
            deny: "Deny",
            notYou: "Not you?",
            useAnotherAccount: "Sign in with another account",
            errorTitle: "This sign-in link does not work",
            invalidRequest: "The app sent an invalid sign-in request. Go back to the app and try again.",
            expiredForm: "This page has expired. Go back to the app and start signing in again.",
            tryAgainLater: "Sign-in is not available right now because of a problem on our side. Please try again in a few minutes.",
            unavailableTitle: "Sign-in is briefly unavailable",
            tryAgainInAMoment: "The service is busy right now. Please try again in a moment."),
        passkeySignIn: PasskeySignInText(
            or: "or",
            signInWithPasskey: "Sign in with a passkey",
            waiting: "Use your passkey in the window your browser shows.",
            notFinished: "The passkey sign-in did not finish. Try again, or sign in with your email address and password.",
            notAccepted: "This passkey could not sign you in. Try again, or sign in with your email address and password."),
        signOutPage: SignOutPageText(
            confirmTitle: "Sign out?",
            confirmIntro: { product in "You will be signed out of \(product) in this browser, and the next sign-in here will ask for your password." },
            signOut: "Sign out",
            signedOutTitle: "You are signed out",
            signedOutBody: { product in "You are signed out of \(product) in this browser. You can close this page." },
            errorTitle: "This sign-out link does not work",
            invalidRequest: "The app sent an invalid sign-out request. Go back to the app and try again.",
            expiredForm: "This page has expired. Go back to the app and sign out again.",
            tryAgainLater: "Signing out is not possible right now because of a problem on our side. Please try again in a few minutes.",
            unavailableTitle: "Signing out is briefly unavailable",
            tryAgainInAMoment: "The service is busy right now. Please try again in a moment."),
        rateLimit: RateLimitText(
            tooMany: "Too many attempts.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "Please try again in \(count == 1 ? "1 minute" : "\(count) minutes")."
                case .hours(let count): "Please try again in \(count == 1 ? "1 hour" : "\(count) hours")."
                }
            }),
        emailConfirmationMail: EmailConfirmationMailText(
            subject: { product in "Confirm your new \(product) email address" },
            greeting: "Hello,",
            requested: { product in "Someone asked to use this email address for their \(product) account." },
            instruction: "To confirm it, open this link. The account will then use this address to sign in and to get its mail:",
            button: "Confirm this address",
            validity: { hours in "The link works for \(hours == 1 ? "1 hour" : "\(hours) hours")." },
            ignore: "If this wasn’t you, you can ignore this email. Nothing changes.",
            linkFallback: "If the button doesn’t work, copy this address into your browser:"),
        emailTakenMail: EmailTakenMailText(
            subject: { product in "Someone tried to move a \(product) account to your address" },
            greeting: "Hello,",
            attempted: { product in "Someone asked to move a \(product) account to this email address." },
            nothingChanged: "This address already has an account, so nothing was changed.",
            ifYou: "If it was you, sign in with this address instead, or choose another address for the other account.",
            ifNotYou: "If it wasn’t you, you can ignore this email. Your account stays as it is."),
        emailChangedMail: EmailChangedMailText(
            subject: { product in "The email address of your \(product) account was changed" },
            greeting: "Hello,",
            changed: { product, address, date, time in
                "The email address of your \(product) account was changed to \(address) on \(date) at \(time) UTC."
            },
            ifYou: "If this was you, there is nothing else to do.",
            ifNotYou: "If it wasn’t you, undo the change now: your account gets this address back and every device is signed out. Then choose a new password.",
            button: "Undo the change",
            validity: { days in "The link works for \(days == 1 ? "1 day" : "\(days) days")." },
            linkFallback: "If the button doesn’t work, copy this address into your browser:"),
        accountDeletedMail: AccountDeletedMailText(
            subject: { product in "Your \(product) account was deleted" },
            greeting: "Hello,",
            deleted: { product, date, time in "Your \(product) account was deleted on \(date) at \(time) UTC." },
            everythingRemoved: "Everything it held was removed, and every device was signed out.",
            registerAgain: { product in "You can create a new \(product) account with this address at any time." },
            ifNotYou: "If you didn’t delete it, someone else knew your password. Change it wherever else you use the same password."),
        operatorEmailChangeMail: OperatorEmailChangeMailText(
            subject: { product in "The email address of your \(product) account was changed" },
            greeting: "Hello,",
            changed: { product, address, date, time in
                "The email address of your \(product) account was changed to \(address) on \(date) at \(time) UTC. Mail about the account now goes there."
            },
            signedOut: "Every device that was signed in to the account has been signed out; sign in again with the new address.",
            ifNotYou: { product in "If you did not ask for this, contact \(product)’s support at once." }),
        emailLinkPages: EmailLinkPageText(
            verifyTitle: "Confirm your email address",
            verifyIntro: "Your account will be created with this email address.",
            verifyButton: "Confirm my email address",
            verified: { product in "Your email address is confirmed and your \(product) account is ready. You can now sign in." },
            continueTo: { product in "Continue to \(product)" },
            confirmTitle: "Confirm your new email address",
            confirmIntro: "Your account will use this email address to sign in and to get its mail.",
            confirmButton: "Confirm this address",
            confirmed: "Your email address has been changed. Use it to sign in from now on.",
            undoTitle: "Undo the email address change",
            undoIntro: "Your account gets its previous email address back, and every device is signed out.",
            undoButton: "Undo the change",
            undone: "Your account has its previous email address again, and every device was signed out.",
            chooseNewPassword: "Whoever changed the address may know your password. Choose a new one now.",
            chooseNewPasswordLink: "Choose a new password",
            working: "One moment…",
            invalidLink: "This link is no longer valid.",
            failed: "Something went wrong. Please try again."),
        secondFactorMail: SecondFactorMailText(
            greeting: "Hello,",
            enabledSubject: { product in "Two-step sign-in is on for your \(product) account" },
            enabled: { product, date, time in
                "Two-step sign-in was turned on for your \(product) account on \(date) at \(time) UTC. From now on, signing in needs your password and a code from your authenticator app."
            },
            disabledSubject: { product in "Two-step sign-in is off for your \(product) account" },
            disabled: { product, date, time in
                "Two-step sign-in was turned off for your \(product) account on \(date) at \(time) UTC. Signing in now needs only your password."
            },
            removedByOperator: { product, date, time in
                "\(product)’s support turned off two-step sign-in for your account on \(date) at \(time) UTC, as asked by someone who lost their authenticator app. Your recovery codes no longer work."
            },
            enrolAgain: "You can turn two-step sign-in on again in your account’s settings.",
            recoveryCodeSubject: { product in "A recovery code of your \(product) account was used" },
            recoveryCodeUsed: { product, date, time in
                "One of the recovery codes of your \(product) account was used on \(date) at \(time) UTC, instead of a code from your authenticator app. It cannot be used again."
            },
            remaining: { count in
                switch count {
                case 0: "You have no recovery codes left: make new ones in your account’s settings now."
                case 1: "You have 1 recovery code left: make new ones in your account’s settings."
                case 2, 3: "You have \(count) recovery codes left: make new ones in your account’s settings."
                default: "You have \(count) recovery codes left."
                }
            },
            ifNotYou: "If this was not you, someone knows your password: reset it now, and change it wherever else you use it.",
            ifNotYouOperator: { product in "If you did not ask for this, contact \(product)’s support at once and reset your password." }),
        secondFactorPage: SecondFactorPageText(
            codeTitle: "Two-step sign-in",
            codeIntro: { product in "Enter the 6-digit code your authenticator app shows for \(product)." },
            codeLabel: "Code",
            recoveryHint: "Lost your phone? Enter one of your recovery codes instead.",
            verify: "Verify",
            invalidCode: "This code is not correct, or it was used already. Wait for the next code and try again.",
            expired: "This sign-in took too long. Please sign in again.",
            enrolTitle: "Set up two-step sign-in",
            enrolStart: "Enter your email address and password to set up two-step sign-in with an authenticator app.",
            continueButton: "Continue",
            scanIntro: "Scan this QR code with your authenticator app, or on this device open the link below.",
            openInApp: "Add to my authenticator app",
            typeKey: "Or type this key into the app:",
            confirmIntro: "Then enter the 6-digit code the app shows, to check it works.",
            turnOn: "Turn on two-step sign-in",
            enabledTitle: "Two-step sign-in is on",
            recoveryCodesIntro: "Keep these recovery codes somewhere safe, apart from your phone. If you lose your phone, each one signs you in once instead of a code. They are shown only now.",
            alreadyOn: "Two-step sign-in is already on for this account."),
        newDeviceMail: NewDeviceMailText(
            subject: { product in "New sign-in to your \(product) account" },
            greeting: "Hello,",
            signedIn: { product, date, time in "Your \(product) account was signed in to from a new device on \(date) at \(time) UTC." },
            device: { name in "Device: \(name)" },
            unknownDevice: "Device: unknown app or browser",
            network: { address in "Network: \(address) (the last part of the address is hidden)" },
            ifYou: "If this was you, there is nothing else to do.",
            ifNotYou: "If it wasn’t you, someone knows your password. Reset it now, and change it wherever else you use the same password:",
            button: "Reset my password",
            linkFallback: "If the button doesn’t work, copy this address into your browser:"),
        passkeyMail: PasskeyMailText(
            greeting: "Hello,",
            addedSubject: { product in "A passkey was added to your \(product) account" },
            added: { product, name, date, time in
                "A passkey named “\(name)” was added to your \(product) account on \(date) at \(time) UTC. It can sign in to your account without your password."
            },
            ifNotYouAdded: "If you did not add it, someone else can sign in to your account with it. It keeps working until it is removed, even after a password reset: remove it in your account’s settings now, then reset your password.",
            removedSubject: { product in "A passkey was removed from your \(product) account" },
            removed: { product, name, date, time in
                "The passkey “\(name)” was removed from your \(product) account on \(date) at \(time) UTC. It can no longer sign in to your account."
            },
            ifNotYouRemoved: "If you did not remove it, someone else has access to your account: reset your password now, and check the passkeys listed in your account’s settings."))
}
