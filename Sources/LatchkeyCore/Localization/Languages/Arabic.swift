extension TextCatalogue {
    /// Every text in Arabic, written right to left.
    static let arabic = TextCatalogue(
        direction: .rightToLeft,
        passwordResetMail: PasswordResetMailText(
            subject: "إعادة تعيين كلمة المرور",
            greeting: "مرحبًا،",
            requested: "طلب أحدهم إعادة تعيين كلمة المرور الخاصة بعنوان البريد الإلكتروني هذا.",
            instruction: "لاختيار كلمة مرور جديدة، افتح هذا الرابط:",
            button: "اختيار كلمة مرور جديدة",
            validity: { minutes in "يبقى الرابط صالحًا لمدة \(arabicMinutes(minutes))." },
            ignore: "إذا لم تكن أنت من طلب ذلك، فتجاهل هذه الرسالة. ستبقى كلمة المرور كما هي.",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"),
        passwordChangedMail: PasswordChangedMailText(
            subject: "تم تغيير كلمة المرور",
            greeting: "مرحبًا،",
            changed: "تم تغيير كلمة المرور الخاصة بحسابك للتو.",
            ifYou: "إذا كنت أنت من قام بذلك، فلا داعي لفعل أي شيء آخر.",
            ifNotYou: "إذا لم تكن أنت، فأعد تعيين كلمة المرور الآن:",
            button: "إعادة تعيين كلمة المرور",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"),
        resetPage: ResetPageText(
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
            requestNew: "اطلب رابطًا جديدًا"),
        signInPage: SignInPageText(
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
            expiredForm: "انتهت صلاحية هذه الصفحة. ارجع إلى التطبيق وابدأ تسجيل الدخول من جديد."))
}

/// "N minutes" with Arabic's plural forms (one, two, few: 3–10, many: 11–99, other).
private func arabicMinutes(_ count: Int) -> String {
    if count == 1 { return "دقيقة واحدة" }
    if count == 2 { return "دقيقتين" }
    return (3...10).contains(count % 100) ? "\(count) دقائق" : "\(count) دقيقة"
}
