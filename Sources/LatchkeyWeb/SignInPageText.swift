package import LatchkeyCore
/// The words of the `/oauth/authorize` pages (sign-in, consent, errors) in each supported language.
package struct SignInPageText: Sendable {
    package let signInTitle: String
    package let signInTo: String
    package let emailLabel: String
    package let passwordLabel: String
    package let signIn: String
    package let forgotPassword: String
    package let invalidCredentials: String
    package let tooMany: String
    package let consentTitle: String
    package let consentIntro: String
    package let signedInAs: String
    package let scopesIntro: String
    package let allow: String
    package let deny: String
    package let errorTitle: String
    package let invalidRequest: String
    package let expiredForm: String

    package static func forLanguage(_ language: SupportedLanguage) -> SignInPageText {
        switch language {
        case .en: english
        case .pt: portuguese
        case .es: spanish
        case .ar: arabic
        }
    }

    package static let english = SignInPageText(
        signInTitle: "Sign in",
        signInTo: "Sign in to continue to",
        emailLabel: "Email address",
        passwordLabel: "Password",
        signIn: "Sign in",
        forgotPassword: "Forgot your password?",
        invalidCredentials: "The email address or password is not correct.",
        tooMany: "Too many attempts. Please wait a moment and try again.",
        consentTitle: "Allow access?",
        consentIntro: "wants to access your account.",
        signedInAs: "Signed in as",
        scopesIntro: "It asks for:",
        allow: "Allow",
        deny: "Deny",
        errorTitle: "This sign-in link does not work",
        invalidRequest: "The app sent an invalid sign-in request. Go back to the app and try again.",
        expiredForm: "This page has expired. Go back to the app and start signing in again.")

    package static let portuguese = SignInPageText(
        signInTitle: "Entrar",
        signInTo: "Entre para continuar em",
        emailLabel: "Endereço de email",
        passwordLabel: "Senha",
        signIn: "Entrar",
        forgotPassword: "Esqueceu sua senha?",
        invalidCredentials: "O endereço de email ou a senha não estão corretos.",
        tooMany: "Muitas tentativas. Aguarde um momento e tente novamente.",
        consentTitle: "Permitir acesso?",
        consentIntro: "quer acessar sua conta.",
        signedInAs: "Conectado como",
        scopesIntro: "Pede acesso a:",
        allow: "Permitir",
        deny: "Recusar",
        errorTitle: "Este link de acesso não funciona",
        invalidRequest: "O aplicativo enviou um pedido de acesso inválido. Volte ao aplicativo e tente novamente.",
        expiredForm: "Esta página expirou. Volte ao aplicativo e comece a entrar novamente.")

    package static let spanish = SignInPageText(
        signInTitle: "Iniciar sesión",
        signInTo: "Inicia sesión para continuar en",
        emailLabel: "Correo electrónico",
        passwordLabel: "Contraseña",
        signIn: "Iniciar sesión",
        forgotPassword: "¿Olvidaste tu contraseña?",
        invalidCredentials: "El correo electrónico o la contraseña no son correctos.",
        tooMany: "Demasiados intentos. Espera un momento y vuelve a intentarlo.",
        consentTitle: "¿Permitir el acceso?",
        consentIntro: "quiere acceder a tu cuenta.",
        signedInAs: "Sesión iniciada como",
        scopesIntro: "Solicita:",
        allow: "Permitir",
        deny: "Denegar",
        errorTitle: "Este enlace de inicio de sesión no funciona",
        invalidRequest: "La aplicación envió una solicitud de inicio de sesión no válida. Vuelve a la aplicación e inténtalo de nuevo.",
        expiredForm: "Esta página ha caducado. Vuelve a la aplicación y empieza de nuevo.")

    package static let arabic = SignInPageText(
        signInTitle: "تسجيل الدخول",
        signInTo: "سجّل الدخول للمتابعة إلى",
        emailLabel: "البريد الإلكتروني",
        passwordLabel: "كلمة المرور",
        signIn: "تسجيل الدخول",
        forgotPassword: "هل نسيت كلمة المرور؟",
        invalidCredentials: "البريد الإلكتروني أو كلمة المرور غير صحيحين.",
        tooMany: "محاولات كثيرة جدًا. يُرجى الانتظار قليلًا ثم المحاولة مرة أخرى.",
        consentTitle: "السماح بالوصول؟",
        consentIntro: "يريد الوصول إلى حسابك.",
        signedInAs: "تم تسجيل الدخول باسم",
        scopesIntro: "يطلب:",
        allow: "سماح",
        deny: "رفض",
        errorTitle: "رابط تسجيل الدخول هذا لا يعمل",
        invalidRequest: "أرسل التطبيق طلب تسجيل دخول غير صالح. ارجع إلى التطبيق وحاول مرة أخرى.",
        expiredForm: "انتهت صلاحية هذه الصفحة. ارجع إلى التطبيق وابدأ تسجيل الدخول من جديد.")
}
