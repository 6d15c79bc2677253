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
        emailVerificationMail: EmailVerificationMailText(
            subject: { product in "Confirma tu correo electrónico en \(product)" },
            greeting: "Hola:",
            requested: { product in "Alguien se registró en \(product) con esta dirección de correo electrónico." },
            instruction: "Para confirmar que esta dirección es tuya y terminar de crear tu cuenta, abre este enlace:",
            button: "Confirmar mi correo electrónico",
            validity: { hours in "El enlace funciona durante \(hours == 1 ? "1 hora" : "\(hours) horas")." },
            ignore: "Si no fuiste tú, puedes ignorar este correo. No se creará ninguna cuenta.",
            linkFallback: "Si el botón no funciona, copia esta dirección en tu navegador:"),
        accountExistsMail: AccountExistsMailText(
            subject: { product in "Ya tienes una cuenta de \(product)" },
            greeting: "Hola:",
            attempted: { product in "Alguien intentó registrarse en \(product) con esta dirección de correo electrónico, pero ya tiene una cuenta." },
            instruction: "Si fuiste tú, inicia sesión como siempre. Si olvidaste tu contraseña, puedes elegir una nueva:",
            button: "Restablecer mi contraseña",
            ignore: "Si no fuiste tú, puedes ignorar este correo. No ha cambiado nada.",
            linkFallback: "Si el botón no funciona, copia esta dirección en tu navegador:"),
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
            tryAgainLater: "El inicio de sesión no está disponible ahora por un problema de nuestra parte. Inténtalo de nuevo en unos minutos.",
            unavailableTitle: "El inicio de sesión no está disponible por un momento",
            tryAgainInAMoment: "El servicio está ocupado ahora mismo. Inténtalo de nuevo en un momento."),
        passkeySignIn: PasskeySignInText(
            or: "o",
            signInWithPasskey: "Iniciar sesión con una llave de acceso",
            waiting: "Usa tu llave de acceso en la ventana que muestra tu navegador.",
            notFinished: "El inicio de sesión con la llave de acceso no terminó. Vuelve a intentarlo o inicia sesión con tu correo electrónico y tu contraseña.",
            notAccepted: "No se pudo iniciar sesión con esta llave de acceso. Vuelve a intentarlo o inicia sesión con tu correo electrónico y tu contraseña."),
        signOutPage: SignOutPageText(
            confirmTitle: "¿Cerrar sesión?",
            confirmIntro: { product in "Se cerrará tu sesión de \(product) en este navegador, y el próximo inicio de sesión aquí te pedirá la contraseña." },
            signOut: "Cerrar sesión",
            signedOutTitle: "Has cerrado sesión",
            signedOutBody: { product in "Has cerrado tu sesión de \(product) en este navegador. Puedes cerrar esta página." },
            errorTitle: "Este enlace de cierre de sesión no funciona",
            invalidRequest: "La aplicación envió una solicitud de cierre de sesión no válida. Vuelve a la aplicación e inténtalo de nuevo.",
            expiredForm: "Esta página ha caducado. Vuelve a la aplicación y cierra sesión de nuevo.",
            tryAgainLater: "No es posible cerrar sesión ahora por un problema de nuestra parte. Inténtalo de nuevo en unos minutos.",
            unavailableTitle: "No es posible cerrar sesión por un momento",
            tryAgainInAMoment: "El servicio está ocupado ahora mismo. Inténtalo de nuevo en un momento."),
        rateLimit: RateLimitText(
            tooMany: "Demasiados intentos.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "Vuelve a intentarlo dentro de \(count == 1 ? "1 minuto" : "\(count) minutos")."
                case .hours(let count): "Vuelve a intentarlo dentro de \(count == 1 ? "1 hora" : "\(count) horas")."
                }
            }),
        emailConfirmationMail: EmailConfirmationMailText(
            subject: { product in "Confirma tu nuevo correo de \(product)" },
            greeting: "Hola:",
            requested: { product in "Alguien pidió usar esta dirección de correo electrónico en su cuenta de \(product)." },
            instruction: "Para confirmarla, abre este enlace. La cuenta usará entonces esta dirección para iniciar sesión y recibir correos:",
            button: "Confirmar esta dirección",
            validity: { hours in "El enlace es válido durante \(hours == 1 ? "1 hora" : "\(hours) horas")." },
            ignore: "Si no fuiste tú, puedes ignorar este correo. No cambiará nada.",
            linkFallback: "Si el botón no funciona, copia esta dirección en tu navegador:"),
        emailTakenMail: EmailTakenMailText(
            subject: { product in "Alguien intentó mover una cuenta de \(product) a tu dirección" },
            greeting: "Hola:",
            attempted: { product in "Alguien pidió mover una cuenta de \(product) a esta dirección de correo electrónico." },
            nothingChanged: "Esta dirección ya tiene una cuenta, así que no se cambió nada.",
            ifYou: "Si fuiste tú, inicia sesión con esta dirección o elige otra dirección para la otra cuenta.",
            ifNotYou: "Si no fuiste tú, puedes ignorar este correo. Tu cuenta sigue igual."),
        emailChangedMail: EmailChangedMailText(
            subject: { product in "Se cambió el correo de tu cuenta de \(product)" },
            greeting: "Hola:",
            changed: { product, address, date, time in
                "El correo de tu cuenta de \(product) se cambió a \(address) el \(date) a las \(time) (UTC)."
            },
            ifYou: "Si fuiste tú, no tienes que hacer nada más.",
            ifNotYou: "Si no fuiste tú, deshaz el cambio ahora: tu cuenta recupera esta dirección y se cierra la sesión en todos los dispositivos. Después elige una contraseña nueva.",
            button: "Deshacer el cambio",
            validity: { days in "El enlace es válido durante \(days == 1 ? "1 día" : "\(days) días")." },
            linkFallback: "Si el botón no funciona, copia esta dirección en tu navegador:"),
        accountDeletedMail: AccountDeletedMailText(
            subject: { product in "Se eliminó tu cuenta de \(product)" },
            greeting: "Hola:",
            deleted: { product, date, time in "Tu cuenta de \(product) se eliminó el \(date) a las \(time) (UTC)." },
            everythingRemoved: "Se borró todo lo que contenía y se cerró la sesión en todos los dispositivos.",
            registerAgain: { product in "Puedes crear una cuenta nueva de \(product) con esta dirección cuando quieras." },
            ifNotYou: "Si no la eliminaste tú, otra persona conocía tu contraseña. Cámbiala donde uses la misma contraseña."),
        operatorEmailChangeMail: OperatorEmailChangeMailText(
            subject: { product in "La dirección de correo de tu cuenta de \(product) ha cambiado" },
            greeting: "Hola:",
            changed: { product, address, date, time in
                "La dirección de correo de tu cuenta de \(product) se cambió a \(address) el \(date) a las \(time) (UTC). Los mensajes sobre la cuenta llegarán ahora allí."
            },
            signedOut: "Se ha cerrado la sesión en todos los dispositivos conectados a la cuenta; vuelve a iniciar sesión con la nueva dirección.",
            ifNotYou: { product in "Si no pediste este cambio, contacta con el soporte de \(product) de inmediato." }),
        emailLinkPages: EmailLinkPageText(
            verifyTitle: "Confirma tu correo electrónico",
            verifyIntro: "Tu cuenta se creará con esta dirección de correo electrónico.",
            verifyButton: "Confirmar mi correo electrónico",
            verified: { product in "Tu correo electrónico está confirmado y tu cuenta de \(product) está lista. Ya puedes iniciar sesión." },
            continueTo: { product in "Continuar a \(product)" },
            confirmTitle: "Confirma tu nuevo correo",
            confirmIntro: "Tu cuenta usará esta dirección de correo para iniciar sesión y recibir correos.",
            confirmButton: "Confirmar esta dirección",
            confirmed: "Se cambió tu correo. Úsalo para iniciar sesión a partir de ahora.",
            undoTitle: "Deshacer el cambio de correo",
            undoIntro: "Tu cuenta recupera su correo anterior y se cierra la sesión en todos los dispositivos.",
            undoButton: "Deshacer el cambio",
            undone: "Tu cuenta tiene de nuevo su correo anterior y se cerró la sesión en todos los dispositivos.",
            chooseNewPassword: "Quien cambió la dirección puede conocer tu contraseña. Elige una nueva ahora.",
            chooseNewPasswordLink: "Elegir una contraseña nueva",
            working: "Un momento…",
            invalidLink: "Este enlace ya no es válido.",
            failed: "Algo salió mal. Vuelve a intentarlo."),
        secondFactorMail: SecondFactorMailText(
            greeting: "Hola:",
            enabledSubject: { product in "La verificación en dos pasos está activada en tu cuenta de \(product)" },
            enabled: { product, date, time in
                "La verificación en dos pasos se activó en tu cuenta de \(product) el \(date) a las \(time) UTC. A partir de ahora, para iniciar sesión necesitas tu contraseña y un código de tu aplicación de autenticación."
            },
            disabledSubject: { product in "La verificación en dos pasos está desactivada en tu cuenta de \(product)" },
            disabled: { product, date, time in
                "La verificación en dos pasos se desactivó en tu cuenta de \(product) el \(date) a las \(time) UTC. Ahora basta tu contraseña para iniciar sesión."
            },
            removedByOperator: { product, date, time in
                "El soporte de \(product) desactivó la verificación en dos pasos de tu cuenta el \(date) a las \(time) UTC, a petición de alguien que perdió su aplicación de autenticación. Tus códigos de recuperación ya no funcionan."
            },
            enrolAgain: "Puedes volver a activar la verificación en dos pasos en la configuración de tu cuenta.",
            recoveryCodeSubject: { product in "Se usó un código de recuperación de tu cuenta de \(product)" },
            recoveryCodeUsed: { product, date, time in
                "Uno de los códigos de recuperación de tu cuenta de \(product) se usó el \(date) a las \(time) UTC, en lugar de un código de tu aplicación de autenticación. Ese código no se puede volver a usar."
            },
            remaining: { count in
                switch count {
                case 0: "No te queda ningún código de recuperación: crea nuevos en la configuración de tu cuenta ahora."
                case 1: "Te queda 1 código de recuperación: crea nuevos en la configuración de tu cuenta."
                case 2, 3: "Te quedan \(count) códigos de recuperación: crea nuevos en la configuración de tu cuenta."
                default: "Te quedan \(count) códigos de recuperación."
                }
            },
            ifNotYou: "Si no fuiste tú, alguien conoce tu contraseña: restablécela ahora y cámbiala en todos los sitios donde la uses.",
            ifNotYouOperator: { product in "Si no lo pediste, contacta de inmediato con el soporte de \(product) y restablece tu contraseña." }),
        secondFactorPage: SecondFactorPageText(
            codeTitle: "Verificación en dos pasos",
            codeIntro: { product in "Escribe el código de 6 dígitos que tu aplicación de autenticación muestra para \(product)." },
            codeLabel: "Código",
            recoveryHint: "¿Perdiste el teléfono? Escribe en su lugar uno de tus códigos de recuperación.",
            verify: "Verificar",
            invalidCode: "Este código no es correcto o ya se usó. Espera al siguiente código y vuelve a intentarlo.",
            expired: "Este inicio de sesión tardó demasiado. Vuelve a iniciar sesión.",
            enrolTitle: "Configurar la verificación en dos pasos",
            enrolStart: "Escribe tu correo electrónico y tu contraseña para configurar la verificación en dos pasos con una aplicación de autenticación.",
            continueButton: "Continuar",
            scanIntro: "Escanea este código QR con tu aplicación de autenticación o, en este dispositivo, abre el enlace de abajo.",
            openInApp: "Añadir a mi aplicación de autenticación",
            typeKey: "O escribe esta clave en la aplicación:",
            confirmIntro: "Luego escribe el código de 6 dígitos que muestra la aplicación, para comprobar que funciona.",
            turnOn: "Activar la verificación en dos pasos",
            enabledTitle: "La verificación en dos pasos está activada",
            recoveryCodesIntro: "Guarda estos códigos de recuperación en un lugar seguro, lejos de tu teléfono. Si pierdes el teléfono, cada uno te permite iniciar sesión una vez en lugar de un código. Solo se muestran ahora.",
            alreadyOn: "La verificación en dos pasos ya está activada en esta cuenta."),
        newDeviceMail: NewDeviceMailText(
            subject: { product in "Nuevo inicio de sesión en tu cuenta de \(product)" },
            greeting: "Hola:",
            signedIn: { product, date, time in "Se inició sesión en tu cuenta de \(product) desde un dispositivo nuevo el \(date) a las \(time) (UTC)." },
            device: { name in "Dispositivo: \(name)" },
            unknownDevice: "Dispositivo: aplicación o navegador desconocido",
            network: { address in "Red: \(address) (la última parte de la dirección está oculta)" },
            ifYou: "Si fuiste tú, no tienes que hacer nada más.",
            ifNotYou: "Si no fuiste tú, otra persona conoce tu contraseña. Restablécela ahora y cámbiala también donde uses la misma contraseña:",
            button: "Restablecer mi contraseña",
            linkFallback: "Si el botón no funciona, copia esta dirección en tu navegador:"),
        passkeyMail: PasskeyMailText(
            greeting: "Hola:",
            addedSubject: { product in "Se añadió una llave de acceso a tu cuenta de \(product)" },
            added: { product, name, date, time in
                "Se añadió una llave de acceso llamada «\(name)» a tu cuenta de \(product) el \(date) a las \(time) UTC. Con ella se puede iniciar sesión en tu cuenta sin tu contraseña."
            },
            ifNotYouAdded: "Si no la añadiste tú, otra persona puede iniciar sesión en tu cuenta con ella. Sigue funcionando hasta que se elimine, incluso después de restablecer la contraseña: elimínala ahora en la configuración de tu cuenta y luego restablece tu contraseña.",
            removedSubject: { product in "Se eliminó una llave de acceso de tu cuenta de \(product)" },
            removed: { product, name, date, time in
                "Se eliminó la llave de acceso «\(name)» de tu cuenta de \(product) el \(date) a las \(time) UTC. Ya no se puede iniciar sesión en tu cuenta con ella."
            },
            ifNotYouRemoved: "Si no la eliminaste tú, otra persona tiene acceso a tu cuenta: restablece tu contraseña ahora y revisa las llaves de acceso que aparecen en la configuración de tu cuenta."))
}
