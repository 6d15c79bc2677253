package import LatchkeyCore
/// The words of the web reset page in each supported language.
package struct ResetPageText: Sendable {
    package let title: String
    package let requestIntro: String
    package let emailLabel: String
    package let sendLink: String
    package let requestSent: String
    package let checking: String
    package let chooseFor: String
    package let newPassword: String
    package let repeatPassword: String
    package let save: String
    package let saved: String
    package let mismatch: String
    package let invalidLink: String
    package let tooShort: String
    package let tooLong: String
    package let tooWeak: String
    package let containsEmail: String
    package let tooMany: String
    package let failed: String
    package let requestNew: String

    package static func forLanguage(_ language: SupportedLanguage) -> ResetPageText {
        switch language {
        case .en: english
        case .pt: portuguese
        case .es: spanish
        case .ar: arabic
        }
    }

    package static let english = ResetPageText(
        title: "Reset your password",
        requestIntro: "Enter the email address of your account and we will send you a link to choose a new password.",
        emailLabel: "Email address",
        sendLink: "Send me a link",
        requestSent: "If an account exists for this address, we have sent a link to reset its password. Check your inbox.",
        checking: "Checking your link…",
        chooseFor: "Choose a new password for",
        newPassword: "New password",
        repeatPassword: "Repeat the new password",
        save: "Save new password",
        saved: "Your password has been changed. You can now sign in with it.",
        mismatch: "The two passwords are not the same.",
        invalidLink: "The link is no longer valid. Please request a new one.",
        tooShort: "Use at least 8 characters.",
        tooLong: "Use at most 128 characters.",
        tooWeak: "This password is too easy to guess. Try a longer phrase of unrelated words.",
        containsEmail: "Do not use your email address in your password.",
        tooMany: "Too many attempts. Please wait a moment and try again.",
        failed: "Something went wrong. Please try again.",
        requestNew: "Request a new link")

    package static let portuguese = ResetPageText(
        title: "Redefinir a sua senha",
        requestIntro: "Digite o e-mail da sua conta e enviaremos um link para escolher uma nova senha.",
        emailLabel: "Endereço de e-mail",
        sendLink: "Enviar o link",
        requestSent: "Se existir uma conta com este endereço, enviamos um link para redefinir a senha. Verifique a sua caixa de entrada.",
        checking: "A verificar o seu link…",
        chooseFor: "Escolha uma nova senha para",
        newPassword: "Nova senha",
        repeatPassword: "Repita a nova senha",
        save: "Guardar a nova senha",
        saved: "A sua senha foi alterada. Já pode entrar com ela.",
        mismatch: "As duas senhas não são iguais.",
        invalidLink: "Este link já não é válido. Peça um novo, por favor.",
        tooShort: "Use pelo menos 8 caracteres.",
        tooLong: "Use no máximo 128 caracteres.",
        tooWeak: "Esta senha é fácil de adivinhar. Experimente uma frase mais longa com palavras sem relação.",
        containsEmail: "Não use o seu endereço de e-mail na senha.",
        tooMany: "Demasiadas tentativas. Aguarde um momento e tente de novo.",
        failed: "Algo correu mal. Tente de novo, por favor.",
        requestNew: "Pedir um novo link")

    package static let spanish = ResetPageText(
        title: "Restablecer tu contraseña",
        requestIntro: "Escribe el correo de tu cuenta y te enviaremos un enlace para elegir una contraseña nueva.",
        emailLabel: "Correo electrónico",
        sendLink: "Enviarme un enlace",
        requestSent: "Si existe una cuenta con esta dirección, te hemos enviado un enlace para restablecer la contraseña. Revisa tu bandeja de entrada.",
        checking: "Comprobando tu enlace…",
        chooseFor: "Elige una contraseña nueva para",
        newPassword: "Contraseña nueva",
        repeatPassword: "Repite la contraseña nueva",
        save: "Guardar la contraseña nueva",
        saved: "Tu contraseña ha cambiado. Ya puedes iniciar sesión con ella.",
        mismatch: "Las dos contraseñas no coinciden.",
        invalidLink: "El enlace ya no es válido. Solicita uno nuevo, por favor.",
        tooShort: "Usa al menos 8 caracteres.",
        tooLong: "Usa como máximo 128 caracteres.",
        tooWeak: "Esta contraseña es fácil de adivinar. Prueba una frase más larga con palabras sin relación.",
        containsEmail: "No uses tu correo electrónico en la contraseña.",
        tooMany: "Demasiados intentos. Espera un momento y vuelve a intentarlo.",
        failed: "Algo salió mal. Inténtalo de nuevo, por favor.",
        requestNew: "Solicitar un enlace nuevo")

    package static let arabic = ResetPageText(
        title: "إعادة تعيين كلمة المرور",
        requestIntro: "أدخل البريد الإلكتروني لحسابك وسنرسل إليك رابطًا لاختيار كلمة مرور جديدة.",
        emailLabel: "البريد الإلكتروني",
        sendLink: "أرسل لي رابطًا",
        requestSent: "إذا كان هناك حساب بهذا العنوان، فقد أرسلنا رابطًا لإعادة تعيين كلمة المرور. تحقق من بريدك الوارد.",
        checking: "جارٍ التحقق من الرابط…",
        chooseFor: "اختر كلمة مرور جديدة للحساب",
        newPassword: "كلمة المرور الجديدة",
        repeatPassword: "أعد كتابة كلمة المرور الجديدة",
        save: "حفظ كلمة المرور الجديدة",
        saved: "تم تغيير كلمة المرور. يمكنك الآن تسجيل الدخول بها.",
        mismatch: "كلمتا المرور غير متطابقتين.",
        invalidLink: "لم يعد هذا الرابط صالحًا. يرجى طلب رابط جديد.",
        tooShort: "استخدم 8 أحرف على الأقل.",
        tooLong: "استخدم 128 حرفًا على الأكثر.",
        tooWeak: "كلمة المرور هذه سهلة التخمين. جرّب عبارة أطول من كلمات غير مترابطة.",
        containsEmail: "لا تستخدم عنوان بريدك الإلكتروني في كلمة المرور.",
        tooMany: "محاولات كثيرة جدًا. يرجى الانتظار قليلًا ثم المحاولة مرة أخرى.",
        failed: "حدث خطأ ما. يرجى المحاولة مرة أخرى.",
        requestNew: "اطلب رابطًا جديدًا")
}
