/// The localized, non-technical texts of ``LatchkeyClientError``.
enum ClientErrorText {
    /// The message for `code`, or nil when the table has none (a test checks it has all).
    static func message(for code: LatchkeyClientError.Code, in language: ClientLanguage) -> String? {
        messages[code.rawValue]?[language]
    }

    /// The sentence for a password rule code (`too_short`, …), nil for other reasons.
    static func reason(_ reason: String, in language: ClientLanguage) -> String? {
        reasons[reason]?[language]
    }

    /// The message for `code` that says how long to wait ("Too many attempts. Please try
    /// again in 3 minutes."), or nil for a code whose message says no wait.
    static func message(for code: LatchkeyClientError.Code, waiting wait: RetryWait, in language: ClientLanguage) -> String? {
        guard let opening = waitOpenings[code.rawValue]?[language] else { return nil }
        return opening + " " + tryAgain(in: wait, language)
    }

    /// A generic message, used only if a code were missing from the table.
    static func fallback(in language: ClientLanguage) -> String {
        messages[LatchkeyClientError.Code.unexpectedResponse.rawValue]?[language] ?? "Something went wrong."
    }

    static let messages: [String: [ClientLanguage: String]] = [
        "passkey_refused": [
            .en: "The passkey could not be used. Please try again, or sign in another way.",
            .pt: "Não foi possível usar a chave de acesso. Tente de novo ou entre de outra forma.",
            .es: "No se pudo usar la llave de acceso. Vuelve a intentarlo o inicia sesión de otra forma.",
            .ar: "تعذّر استخدام مفتاح المرور. يُرجى المحاولة مرة أخرى أو تسجيل الدخول بطريقة أخرى.",
        ],
        "passkey_exists": [
            .en: "This passkey is already registered. You can sign in with it.",
            .pt: "Esta chave de acesso já está registrada. Você pode entrar com ela.",
            .es: "Esta llave de acceso ya está registrada. Puedes iniciar sesión con ella.",
            .ar: "مفتاح المرور هذا مسجّل بالفعل. يمكنك تسجيل الدخول به.",
        ],
        "passkey_not_found": [
            .en: "This passkey is no longer on your account.",
            .pt: "Esta chave de acesso não está mais na sua conta.",
            .es: "Esta llave de acceso ya no está en tu cuenta.",
            .ar: "لم يعد مفتاح المرور هذا مرتبطًا بحسابك.",
        ],
        "last_sign_in_method": [
            .en: "This is the only way to sign in to your account. Set a password or add another passkey before removing it.",
            .pt: "Esta é a única forma de entrar na sua conta. Defina uma senha ou adicione outra chave de acesso antes de removê-la.",
            .es: "Es la única forma de iniciar sesión en tu cuenta. Establece una contraseña o añade otra llave de acceso antes de quitarla.",
            .ar: "هذه هي الطريقة الوحيدة لتسجيل الدخول إلى حسابك. عيّن كلمة مرور أو أضف مفتاح مرور آخر قبل إزالته.",
        ],
        "passkey_cancelled": [
            .en: "The passkey request was cancelled.",
            .pt: "O pedido da chave de acesso foi cancelado.",
            .es: "Se canceló la solicitud de la llave de acceso.",
            .ar: "تم إلغاء طلب مفتاح المرور.",
        ],
        "invalid_otp": [
            .en: "Enter the 6-digit code from your authenticator app, or one of your recovery codes. A code works only once.",
            .pt: "Introduza o código de 6 dígitos da sua aplicação de autenticação ou um dos seus códigos de recuperação. Cada código só funciona uma vez.",
            .es: "Escribe el código de 6 dígitos de tu aplicación de autenticación o uno de tus códigos de recuperación. Cada código funciona una sola vez.",
            .ar: "أدخل الرمز المكوّن من 6 أرقام من تطبيق المصادقة، أو أحد رموز الاسترداد. يعمل كل رمز مرة واحدة فقط.",
        ],
        "rate_limited": [
            .en: "Too many attempts. Please wait a moment and try again.",
            .pt: "Muitas tentativas. Aguarde um momento e tente de novo.",
            .es: "Demasiados intentos. Espera un momento y vuelve a intentarlo.",
            .ar: "محاولات كثيرة جدًا. يُرجى الانتظار قليلًا ثم المحاولة مرة أخرى.",
        ],
        "server_unavailable": [
            .en: "The service is not available right now. Please try again later.",
            .pt: "O serviço não está disponível agora. Tente de novo mais tarde.",
            .es: "El servicio no está disponible ahora. Vuelve a intentarlo más tarde.",
            .ar: "الخدمة غير متاحة الآن. يُرجى المحاولة لاحقًا.",
        ],
        "network_unavailable": [
            .en: "The service could not be reached. Please check your internet connection and try again.",
            .pt: "Não foi possível acessar o serviço. Verifique a sua conexão com a internet e tente de novo.",
            .es: "No se pudo conectar con el servicio. Revisa tu conexión a internet y vuelve a intentarlo.",
            .ar: "تعذّر الوصول إلى الخدمة. يُرجى التحقق من اتصالك بالإنترنت والمحاولة مرة أخرى.",
        ],
        "token_store_locked": [
            .en: "Your saved sign-in is not available right now. Unlock your device if it is locked, then try again.",
            .pt: "O seu login salvo não está disponível agora. Desbloqueie o dispositivo, se estiver bloqueado, e tente de novo.",
            .es: "Tu sesión guardada no está disponible ahora. Desbloquea el dispositivo si está bloqueado y vuelve a intentarlo.",
            .ar: "تسجيل الدخول المحفوظ غير متاح الآن. افتح قفل جهازك إن كان مقفلًا، ثم حاول مرة أخرى.",
        ],
        "session_expired": [
            .en: "You have been signed out. Please sign in again.",
            .pt: "A sua sessão foi encerrada. Entre de novo, por favor.",
            .es: "Se cerró tu sesión. Inicia sesión de nuevo, por favor.",
            .ar: "تم تسجيل خروجك. يُرجى تسجيل الدخول مرة أخرى.",
        ],
        "authorization_failed": [
            .en: "Sign-in could not be completed. Please try again.",
            .pt: "Não foi possível concluir o login. Tente de novo, por favor.",
            .es: "No se pudo completar el inicio de sesión. Vuelve a intentarlo, por favor.",
            .ar: "تعذّر إكمال تسجيل الدخول. يُرجى المحاولة مرة أخرى.",
        ],
        "sign_in_cancelled": [
            .en: "Sign-in was cancelled.",
            .pt: "O login foi cancelado.",
            .es: "Se canceló el inicio de sesión.",
            .ar: "تم إلغاء تسجيل الدخول.",
        ],
        "user_authentication_failed": [
            .en: "We could not confirm it is you. Please try again.",
            .pt: "Não foi possível confirmar que é você. Tente de novo, por favor.",
            .es: "No pudimos confirmar que eres tú. Vuelve a intentarlo, por favor.",
            .ar: "تعذّر التأكد من هويتك. يُرجى المحاولة مرة أخرى.",
        ],
        "user_authentication_required": [
            .en: "Your saved sign-in is locked. Confirm it is you with Face ID, Touch ID or your passcode to use it.",
            .pt: "O seu login salvo está bloqueado. Confirme que é você com Face ID, Touch ID ou o seu código para usá-lo.",
            .es: "Tu sesión guardada está bloqueada. Confirma que eres tú con Face ID, Touch ID o tu código para usarla.",
            .ar: "تسجيل الدخول المحفوظ مقفل. أكّد هويتك باستخدام Face ID أو Touch ID أو رمز الدخول لاستخدامه.",
        ],
        "invalid_token": [
            .en: "This link is no longer valid. Please request a new one.",
            .pt: "Este link já não é válido. Peça um novo, por favor.",
            .es: "Este enlace ya no es válido. Solicita uno nuevo, por favor.",
            .ar: "هذا الرابط لم يعد صالحًا. يُرجى طلب رابط جديد.",
        ],
        "weak_password": [
            .en: "Please choose a different password.",
            .pt: "Escolha outra senha, por favor.",
            .es: "Elige otra contraseña, por favor.",
            .ar: "يُرجى اختيار كلمة مرور أخرى.",
        ],
        "invalid_email": [
            .en: "Please check the email address.",
            .pt: "Verifique o endereço de e-mail, por favor.",
            .es: "Revisa la dirección de correo electrónico, por favor.",
            .ar: "يُرجى التحقق من عنوان البريد الإلكتروني.",
        ],
        "invalid_credentials": [
            .en: "The email address or password is not correct.",
            .pt: "O e-mail ou a senha não estão corretos.",
            .es: "El correo electrónico o la contraseña no son correctos.",
            .ar: "البريد الإلكتروني أو كلمة المرور غير صحيحة.",
        ],
        "invalid_link": [
            .en: "This link cannot be used. Please open the latest link from your email.",
            .pt: "Este link não pode ser usado. Abra o link mais recente do seu e-mail.",
            .es: "Este enlace no se puede usar. Abre el enlace más reciente de tu correo.",
            .ar: "لا يمكن استخدام هذا الرابط. يُرجى فتح أحدث رابط في بريدك الإلكتروني.",
        ],
        "reauthentication_required": [
            .en: "To continue, please confirm it is you: enter your current password or sign in again.",
            .pt: "Para continuar, confirme que é você: digite a sua senha atual ou entre de novo.",
            .es: "Para continuar, confirma que eres tú: escribe tu contraseña actual o inicia sesión de nuevo.",
            .ar: "للمتابعة، يُرجى تأكيد هويتك: أدخل كلمة المرور الحالية أو سجّل الدخول مرة أخرى.",
        ],
        "untrusted_server": [
            .en: "A secure connection to the service could not be made. If you are on a public or work network, try another one.",
            .pt: "Não foi possível criar uma conexão segura com o serviço. Se estiver numa rede pública ou do trabalho, tente outra.",
            .es: "No se pudo establecer una conexión segura con el servicio. Si estás en una red pública o del trabajo, prueba otra.",
            .ar: "تعذّر إنشاء اتصال آمن بالخدمة. إن كنت على شبكة عامة أو شبكة عمل، فجرّب شبكة أخرى.",
        ],
        "token_store_corrupted": [
            .en: "Your saved sign-in could not be read. Please sign in again.",
            .pt: "Não foi possível ler o seu login salvo. Entre de novo, por favor.",
            .es: "No se pudo leer tu sesión guardada. Inicia sesión de nuevo, por favor.",
            .ar: "تعذّرت قراءة تسجيل الدخول المحفوظ. يُرجى تسجيل الدخول مرة أخرى.",
        ],
        "request_rejected": [
            .en: "Something went wrong. Please update the app or contact support.",
            .pt: "Algo deu errado. Atualize o aplicativo ou fale com o suporte.",
            .es: "Algo salió mal. Actualiza la aplicación o contacta con soporte.",
            .ar: "حدث خطأ ما. يُرجى تحديث التطبيق أو التواصل مع الدعم.",
        ],
        "unexpected_response": [
            .en: "Something went wrong. Please try again later or contact support.",
            .pt: "Algo deu errado. Tente de novo mais tarde ou fale com o suporte.",
            .es: "Algo salió mal. Vuelve a intentarlo más tarde o contacta con soporte.",
            .ar: "حدث خطأ ما. يُرجى المحاولة لاحقًا أو التواصل مع الدعم.",
        ],
        "registration_closed": [
            .en: "New accounts cannot be created here right now. Please contact support.",
            .pt: "Não é possível criar contas novas aqui agora. Fale com o suporte.",
            .es: "Ahora no se pueden crear cuentas nuevas aquí. Contacta con soporte.",
            .ar: "لا يمكن إنشاء حسابات جديدة هنا الآن. يُرجى التواصل مع الدعم.",
        ],
        "invalid_configuration": [
            .en: "The app is not set up correctly. Please contact support.",
            .pt: "O aplicativo não está configurado corretamente. Fale com o suporte.",
            .es: "La aplicación no está bien configurada. Contacta con soporte.",
            .ar: "التطبيق غير مُعدّ بشكل صحيح. يُرجى التواصل مع الدعم.",
        ],
        "token_store_failed": [
            .en: "Your sign-in could not be saved on this device. Please check the free space and try again.",
            .pt: "Não foi possível salvar o seu login neste dispositivo. Verifique o espaço livre e tente de novo.",
            .es: "No se pudo guardar tu sesión en este dispositivo. Revisa el espacio libre y vuelve a intentarlo.",
            .ar: "تعذّر حفظ تسجيل الدخول على هذا الجهاز. يُرجى التحقق من المساحة المتاحة والمحاولة مرة أخرى.",
        ],
    ]

    /// The first sentence of the messages that say how long to wait (``message(for:waiting:in:)``),
    /// for the codes a server's `Retry-After` comes with.
    static let waitOpenings: [String: [ClientLanguage: String]] = [
        "rate_limited": [
            .en: "Too many attempts.",
            .pt: "Muitas tentativas.",
            .es: "Demasiados intentos.",
            .ar: "محاولات كثيرة جدًا.",
        ],
        "server_unavailable": [
            .en: "The service is not available right now.",
            .pt: "O serviço não está disponível agora.",
            .es: "El servicio no está disponible ahora.",
            .ar: "الخدمة غير متاحة الآن.",
        ],
    ]

    /// "Please try again in 3 minutes.", in `language`.
    static func tryAgain(in wait: RetryWait, _ language: ClientLanguage) -> String {
        switch language {
        case .en: "Please try again in \(amount(wait, language))."
        case .pt: "Tente de novo em \(amount(wait, language))."
        case .es: "Vuelve a intentarlo dentro de \(amount(wait, language))."
        case .ar: "يُرجى المحاولة مرة أخرى بعد \(amount(wait, language))."
        }
    }

    /// "3 minutes", in `language`, with its plural forms.
    static func amount(_ wait: RetryWait, _ language: ClientLanguage) -> String {
        let count = wait.count
        switch (language, wait.unit) {
        case (.en, .seconds): return count == 1 ? "1 second" : "\(count) seconds"
        case (.en, .minutes): return count == 1 ? "1 minute" : "\(count) minutes"
        case (.en, .hours): return count == 1 ? "1 hour" : "\(count) hours"
        case (.pt, .seconds), (.es, .seconds): return count == 1 ? "1 segundo" : "\(count) segundos"
        case (.pt, .minutes), (.es, .minutes): return count == 1 ? "1 minuto" : "\(count) minutos"
        case (.pt, .hours), (.es, .hours): return count == 1 ? "1 hora" : "\(count) horas"
        case (.ar, .seconds): return arabic(count, one: "ثانية واحدة", two: "ثانيتين", few: "ثوانٍ", many: "ثانية")
        case (.ar, .minutes): return arabic(count, one: "دقيقة واحدة", two: "دقيقتين", few: "دقائق", many: "دقيقة")
        case (.ar, .hours): return arabic(count, one: "ساعة واحدة", two: "ساعتين", few: "ساعات", many: "ساعة")
        }
    }

    /// A count of things with Arabic's plural forms: one and two are words of their own,
    /// 3–10 take the plural (`few`), 11 and more the singular (`many`).
    private static func arabic(_ count: Int, one: String, two: String, few: String, many: String) -> String {
        if count == 1 { return one }
        if count == 2 { return two }
        return "\(count) " + ((3...10).contains(count % 100) ? few : many)
    }

    /// The server's password rule codes (see ``PasswordRules``), plus `too_weak`, which
    /// only the server checks.
    static let reasons: [String: [ClientLanguage: String]] = [
        "biometry_changed": [
            .en: "Face ID or Touch ID changed on this device since you signed in.",
            .pt: "O Face ID ou o Touch ID mudou neste dispositivo desde que você entrou.",
            .es: "Face ID o Touch ID cambió en este dispositivo desde que iniciaste sesión.",
            .ar: "تغيّر Face ID أو Touch ID على هذا الجهاز منذ تسجيل دخولك.",
        ],
        "too_short": [
            .en: "Use at least 8 characters.",
            .pt: "Use pelo menos 8 caracteres.",
            .es: "Usa al menos 8 caracteres.",
            .ar: "استخدم 8 أحرف على الأقل.",
        ],
        "too_long": [
            .en: "Use at most 128 characters.",
            .pt: "Use no máximo 128 caracteres.",
            .es: "Usa como máximo 128 caracteres.",
            .ar: "استخدم 128 حرفًا على الأكثر.",
        ],
        "too_weak": [
            .en: "This password is too easy to guess. Try a longer phrase of unrelated words.",
            .pt: "Esta senha é fácil de adivinhar. Experimente uma frase mais longa com palavras sem relação.",
            .es: "Esta contraseña es fácil de adivinar. Prueba una frase más larga con palabras sin relación.",
            .ar: "كلمة المرور هذه سهلة التخمين. جرّب عبارة أطول من كلمات لا رابط بينها.",
        ],
        "contains_email": [
            .en: "Do not use your email address in your password.",
            .pt: "Não use o seu endereço de e-mail na senha.",
            .es: "No uses tu correo electrónico en la contraseña.",
            .ar: "لا تستخدم عنوان بريدك الإلكتروني في كلمة المرور.",
        ],
    ]
}
