/// The words of the password-reset mail in one language. Plain wording for people who
/// are not technical: what happened, what to do, how long they have, and that ignoring
/// the mail is safe.
struct PasswordResetCopy {
    let subject: String
    let greeting: String
    let requested: String
    let instruction: String
    let button: String
    let validity: String
    let ignore: String
    let linkFallback: String

    /// The copy for `language`, saying the link works for `validMinutes` minutes.
    init(language: SupportedLanguage, validMinutes: Int) {
        switch language {
        case .en:
            subject = "Reset your password"
            greeting = "Hello,"
            requested = "Someone asked to reset the password for this email address."
            instruction = "To choose a new password, open this link:"
            button = "Choose a new password"
            validity = "The link works for \(validMinutes == 1 ? "1 minute" : "\(validMinutes) minutes")."
            ignore = "If this wasn’t you, you can ignore this email. Your password stays the same."
            linkFallback = "If the button doesn’t work, copy this address into your browser:"
        case .pt:
            subject = "Redefina a sua senha"
            greeting = "Olá,"
            requested = "Alguém pediu para redefinir a senha deste endereço de e-mail."
            instruction = "Para escolher uma nova senha, abra este link:"
            button = "Escolher uma nova senha"
            validity = "O link vale por \(validMinutes == 1 ? "1 minuto" : "\(validMinutes) minutos")."
            ignore = "Se não foi você, pode ignorar este e-mail. A sua senha continua a mesma."
            linkFallback = "Se o botão não funcionar, copie este endereço no seu navegador:"
        case .es:
            subject = "Restablece tu contraseña"
            greeting = "Hola:"
            requested = "Alguien pidió restablecer la contraseña de esta dirección de correo electrónico."
            instruction = "Para elegir una contraseña nueva, abre este enlace:"
            button = "Elegir una contraseña nueva"
            validity = "El enlace es válido durante \(validMinutes == 1 ? "1 minuto" : "\(validMinutes) minutos")."
            ignore = "Si no fuiste tú, puedes ignorar este correo. Tu contraseña seguirá siendo la misma."
            linkFallback = "Si el botón no funciona, copia esta dirección en tu navegador:"
        case .ar:
            subject = "إعادة تعيين كلمة المرور"
            greeting = "مرحبًا،"
            requested = "طلب أحدهم إعادة تعيين كلمة المرور الخاصة بعنوان البريد الإلكتروني هذا."
            instruction = "لاختيار كلمة مرور جديدة، افتح هذا الرابط:"
            button = "اختيار كلمة مرور جديدة"
            validity = "يبقى الرابط صالحًا لمدة \(Self.arabicMinutes(validMinutes))."
            ignore = "إذا لم تكن أنت من طلب ذلك، فتجاهل هذه الرسالة. ستبقى كلمة المرور كما هي."
            linkFallback = "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"
        }
    }

    /// "N minutes" with Arabic's plural forms (one, two, few: 3–10, many: 11–99, other).
    static func arabicMinutes(_ count: Int) -> String {
        if count == 1 { return "دقيقة واحدة" }
        if count == 2 { return "دقيقتين" }
        return (3...10).contains(count % 100) ? "\(count) دقائق" : "\(count) دقيقة"
    }
}
