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
        addressChangedMail: AddressChangedMailText(
            subject: { product in "The email address of your \(product) account was changed" },
            greeting: "Hello,",
            changed: { product, address, date, time in
                "The email address of your \(product) account was changed to \(address) on \(date) at \(time) UTC. Mail about the account now goes there."
            },
            signedOut: "Every device that was signed in to the account has been signed out; sign in again with the new address.",
            ifNotYou: { product in "If you did not ask for this, contact \(product)’s support at once." }),
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
            tryAgainLater: "Sign-in is not available right now because of a problem on our side. Please try again in a few minutes."),
        rateLimit: RateLimitText(
            tooMany: "Too many attempts.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "Please try again in \(count == 1 ? "1 minute" : "\(count) minutes")."
                case .hours(let count): "Please try again in \(count == 1 ? "1 hour" : "\(count) hours")."
                }
            }))
}
