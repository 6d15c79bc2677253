extension TextCatalogue {
    /// Every text in Spanish.
    static let spanish = TextCatalogue(
        direction: .leftToRight,
        passwordResetMail: PasswordResetMailText(
            subject: { product in "Restablece tu contraseña de \(product)" },
            greeting: "Hola:",
            requested: { product in "Alguien pidió restablecer la contraseña de la cuenta de \(product) de esta dirección de correo electrónico." },
            instruction: "Para elegir una contraseña nueva, abre este enlace:",
            button: "Elegir una contraseña nueva",
            validity: { minutes in "El enlace es válido durante \(minutes == 1 ? "1 minuto" : "\(minutes) minutos")." },
            ignore: "Si no fuiste tú, puedes ignorar este correo. Tu contraseña seguirá siendo la misma.",
            linkFallback: "Si el botón no funciona, copia esta dirección en tu navegador:"),
        passwordChangedMail: PasswordChangedMailText(
            subject: { product in "Tu contraseña de \(product) ha cambiado" },
            greeting: "Hola:",
            changed: { product, date, time in "La contraseña de tu cuenta de \(product) se cambió el \(date) a las \(time) (UTC)." },
            ifYou: "Si fuiste tú, no tienes que hacer nada más.",
            ifNotYou: "Si no fuiste tú, otra persona puede conocer tu contraseña. Restablécela ahora y cámbiala también donde uses la misma contraseña:",
            button: "Restablecer mi contraseña",
            linkFallback: "Si el botón no funciona, copia esta dirección en tu navegador:"),
        addressChangedMail: AddressChangedMailText(
            subject: { product in "La dirección de correo de tu cuenta de \(product) ha cambiado" },
            greeting: "Hola:",
            changed: { product, address, date, time in
                "La dirección de correo de tu cuenta de \(product) se cambió a \(address) el \(date) a las \(time) (UTC). Los mensajes sobre la cuenta llegarán ahora allí."
            },
            signedOut: "Se ha cerrado la sesión en todos los dispositivos conectados a la cuenta; vuelve a iniciar sesión con la nueva dirección.",
            ifNotYou: { product in "Si no pediste este cambio, contacta con el soporte de \(product) de inmediato." }),
        resetPage: ResetPageText(
            title: "Restablecer tu contraseña",
            requestIntro: "Escribe el correo de tu cuenta y te enviaremos un enlace para elegir una contraseña nueva.",
            emailLabel: "Correo electrónico",
            sendLink: "Enviarme un enlace",
            requestSent: "Si existe una cuenta con esta dirección, te hemos enviado un enlace para restablecer la contraseña. Revisa tu bandeja de entrada.",
            invalidEmail: "Escribe una dirección de correo como nombre@ejemplo.com.",
            checking: "Comprobando tu enlace…",
            chooseFor: "Elige una contraseña nueva para",
            newPassword: "Contraseña nueva",
            passwordRules: "Usa entre 8 y 128 caracteres. Una frase de varias palabras sin relación es segura y fácil de recordar. No uses tu correo electrónico.",
            repeatPassword: "Repite la contraseña nueva",
            save: "Guardar la contraseña nueva",
            saved: "Tu contraseña ha cambiado.",
            signInNow: { product in "Ya puedes iniciar sesión en \(product) con tu contraseña nueva." },
            continueTo: { product in "Continuar a \(product)" },
            mismatch: "Las dos contraseñas no coinciden.",
            invalidLink: "El enlace ya no es válido. Solicita uno nuevo, por favor.",
            tooShort: "Usa al menos 8 caracteres.",
            tooLong: "Usa como máximo 128 caracteres.",
            tooWeak: "Esta contraseña es fácil de adivinar. Prueba una frase más larga con palabras sin relación.",
            containsEmail: "No uses tu correo electrónico en la contraseña.",
            failed: "Algo salió mal. Inténtalo de nuevo, por favor.",
            requestNew: "Solicitar un enlace nuevo"),
        signInPage: SignInPageText(
            signInTitle: "Iniciar sesión",
            signInTo: "Inicia sesión para continuar en",
            emailLabel: "Correo electrónico",
            passwordLabel: "Contraseña",
            signIn: "Iniciar sesión",
            forgotPassword: "¿Olvidaste tu contraseña?",
            invalidCredentials: "El correo electrónico o la contraseña no son correctos.",
            consentTitle: "¿Permitir el acceso?",
            consentIntro: { product in "quiere acceder a tu cuenta de \(product)." },
            signedInAs: "Sesión iniciada como",
            scopesIntro: "Solicita:",
            openidScope: "Saber quién eres (el identificador de tu cuenta)",
            emailScope: "Ver tu dirección de correo electrónico",
            allow: "Permitir",
            deny: "Denegar",
            notYou: "¿No eres tú?",
            useAnotherAccount: "Iniciar sesión con otra cuenta",
            errorTitle: "Este enlace de inicio de sesión no funciona",
            invalidRequest: "La aplicación envió una solicitud de inicio de sesión no válida. Vuelve a la aplicación e inténtalo de nuevo.",
            expiredForm: "Esta página ha caducado. Vuelve a la aplicación y empieza de nuevo.",
            tryAgainLater: "El inicio de sesión no está disponible ahora por un problema de nuestra parte. Inténtalo de nuevo en unos minutos."),
        rateLimit: RateLimitText(
            tooMany: "Demasiados intentos.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "Vuelve a intentarlo dentro de \(count == 1 ? "1 minuto" : "\(count) minutos")."
                case .hours(let count): "Vuelve a intentarlo dentro de \(count == 1 ? "1 hora" : "\(count) horas")."
                }
            }))
}
