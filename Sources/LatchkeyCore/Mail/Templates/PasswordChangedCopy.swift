/// The words of the "your password was changed" mail in one language: what happened, and
/// what to do at once if it was not the reader.
struct PasswordChangedCopy {
    let subject: String
    let greeting: String
    let changed: String
    let ifYou: String
    let ifNotYou: String
    let button: String
    let linkFallback: String

    /// The copy for `language`.
    init(language: SupportedLanguage) {
        switch language {
        case .en:
            subject = "Your password was changed"
            greeting = "Hello,"
            changed = "The password for your account was just changed."
            ifYou = "If this was you, there is nothing else to do."
            ifNotYou = "If it wasn’t you, reset your password now:"
            button = "Reset my password"
            linkFallback = "If the button doesn’t work, copy this address into your browser:"
        case .pt:
            subject = "A sua senha foi alterada"
            greeting = "Olá,"
            changed = "A senha da sua conta acabou de ser alterada."
            ifYou = "Se foi você, não precisa fazer mais nada."
            ifNotYou = "Se não foi você, redefina a sua senha agora:"
            button = "Redefinir a minha senha"
            linkFallback = "Se o botão não funcionar, copie este endereço no seu navegador:"
        case .es:
            subject = "Tu contraseña ha cambiado"
            greeting = "Hola:"
            changed = "La contraseña de tu cuenta se acaba de cambiar."
            ifYou = "Si fuiste tú, no tienes que hacer nada más."
            ifNotYou = "Si no fuiste tú, restablece tu contraseña ahora:"
            button = "Restablecer mi contraseña"
            linkFallback = "Si el botón no funciona, copia esta dirección en tu navegador:"
        case .ar:
            subject = "تم تغيير كلمة المرور"
            greeting = "مرحبًا،"
            changed = "تم تغيير كلمة المرور الخاصة بحسابك للتو."
            ifYou = "إذا كنت أنت من قام بذلك، فلا داعي لفعل أي شيء آخر."
            ifNotYou = "إذا لم تكن أنت، فأعد تعيين كلمة المرور الآن:"
            button = "إعادة تعيين كلمة المرور"
            linkFallback = "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"
        }
    }
}
