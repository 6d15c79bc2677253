extension TextCatalogue {
    /// Every text in Arabic, written right to left.
    static let arabic = TextCatalogue(
        direction: .rightToLeft,
        passwordResetMail: PasswordResetMailText(
            subject: { product in "إعادة تعيين كلمة المرور لحسابك في \(product)" },
            greeting: "مرحبًا،",
            requested: { product in "طلب أحدهم إعادة تعيين كلمة المرور لحساب \(product) المرتبط بعنوان البريد الإلكتروني هذا." },
            instruction: "لاختيار كلمة مرور جديدة، افتح هذا الرابط:",
            button: "اختيار كلمة مرور جديدة",
            validity: { minutes in "يبقى الرابط صالحًا لمدة \(arabicMinutes(minutes))." },
            ignore: "إذا لم تكن أنت من طلب ذلك، فتجاهل هذه الرسالة. ستبقى كلمة المرور كما هي.",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"),
        passwordChangedMail: PasswordChangedMailText(
            subject: { product in "تم تغيير كلمة المرور لحسابك في \(product)" },
            greeting: "مرحبًا،",
            changed: { product, date, time in
                "تم تغيير كلمة المرور لحسابك في \(product) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي المنسَّق (UTC)."
            },
            ifYou: "إذا كنت أنت من قام بذلك، فلا داعي لفعل أي شيء آخر.",
            ifNotYou: "إذا لم تكن أنت، فقد يعرف شخص آخر كلمة المرور. أعد تعيينها الآن، وغيّرها أيضًا في أي مكان آخر تستخدم فيه كلمة المرور نفسها:",
            button: "إعادة تعيين كلمة المرور",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"),
        addressChangedMail: AddressChangedMailText(
            subject: { product in "تم تغيير عنوان البريد الإلكتروني لحسابك في \(product)" },
            greeting: "مرحبًا،",
            changed: { product, address, date, time in
                "تم تغيير عنوان البريد الإلكتروني لحسابك في \(product) إلى \(address) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي المنسَّق (UTC). ستصل الرسائل المتعلقة بالحساب إلى هذا العنوان من الآن."
            },
            signedOut: "تم تسجيل الخروج من جميع الأجهزة التي كانت مسجّلة الدخول إلى الحساب؛ سجّل الدخول مرة أخرى بالعنوان الجديد.",
            ifNotYou: { product in "إذا لم تطلب هذا التغيير، فتواصل مع دعم \(product) فورًا." }),
        resetPage: ResetPageText(
            title: "إعادة تعيين كلمة المرور",
            requestIntro: "أدخل البريد الإلكتروني لحسابك وسنرسل إليك رابطًا لاختيار كلمة مرور جديدة.",
            emailLabel: "البريد الإلكتروني",
            sendLink: "أرسل لي رابطًا",
            requestSent: "إذا كان هناك حساب بهذا العنوان، فقد أرسلنا رابطًا لإعادة تعيين كلمة المرور. تحقق من بريدك الوارد.",
            invalidEmail: "أدخل عنوان بريد إلكتروني صحيحًا مثل \u{2068}name@example.com\u{2069}.",
            checking: "جارٍ التحقق من الرابط…",
            chooseFor: "اختر كلمة مرور جديدة للحساب",
            newPassword: "كلمة المرور الجديدة",
            passwordRules: "استخدم من 8 إلى 128 حرفًا. العبارة المكوّنة من عدة كلمات غير مترابطة قوية وسهلة التذكّر. لا تستخدم عنوان بريدك الإلكتروني.",
            repeatPassword: "أعد كتابة كلمة المرور الجديدة",
            save: "حفظ كلمة المرور الجديدة",
            saved: "تم تغيير كلمة المرور.",
            signInNow: { product in "يمكنك الآن تسجيل الدخول إلى \(product) بكلمة المرور الجديدة." },
            continueTo: { product in "المتابعة إلى \(product)" },
            mismatch: "كلمتا المرور غير متطابقتين.",
            invalidLink: "لم يعد هذا الرابط صالحًا. يرجى طلب رابط جديد.",
            tooShort: "استخدم 8 أحرف على الأقل.",
            tooLong: "استخدم 128 حرفًا على الأكثر.",
            tooWeak: "كلمة المرور هذه سهلة التخمين. جرّب عبارة أطول من كلمات غير مترابطة.",
            containsEmail: "لا تستخدم عنوان بريدك الإلكتروني في كلمة المرور.",
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
            consentTitle: "السماح بالوصول؟",
            consentIntro: { product in "يريد الوصول إلى حسابك في \(product)." },
            signedInAs: "تم تسجيل الدخول باسم",
            scopesIntro: "يطلب:",
            openidScope: "معرفة هويتك (معرّف حسابك)",
            emailScope: "رؤية عنوان بريدك الإلكتروني",
            allow: "سماح",
            deny: "رفض",
            notYou: "لست أنت؟",
            useAnotherAccount: "تسجيل الدخول بحساب آخر",
            errorTitle: "رابط تسجيل الدخول هذا لا يعمل",
            invalidRequest: "أرسل التطبيق طلب تسجيل دخول غير صالح. ارجع إلى التطبيق وحاول مرة أخرى.",
            expiredForm: "انتهت صلاحية هذه الصفحة. ارجع إلى التطبيق وابدأ تسجيل الدخول من جديد.",
            tryAgainLater: "تسجيل الدخول غير متاح الآن بسبب مشكلة من جهتنا. يُرجى المحاولة مرة أخرى بعد بضع دقائق."),
        rateLimit: RateLimitText(
            tooMany: "محاولات كثيرة جدًا.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "يرجى المحاولة مرة أخرى بعد \(arabicMinutes(count))."
                case .hours(let count): "يرجى المحاولة مرة أخرى بعد \(arabicHours(count))."
                }
            }))
}

/// "N minutes" with Arabic's plural forms (one, two, few: 3–10, many: 11–99, other).
private func arabicMinutes(_ count: Int) -> String {
    if count == 1 { return "دقيقة واحدة" }
    if count == 2 { return "دقيقتين" }
    return (3...10).contains(count % 100) ? "\(count) دقائق" : "\(count) دقيقة"
}

/// "N hours" with Arabic's plural forms (one, two, few: 3–10, many: 11–99, other).
private func arabicHours(_ count: Int) -> String {
    if count == 1 { return "ساعة واحدة" }
    if count == 2 { return "ساعتين" }
    return (3...10).contains(count % 100) ? "\(count) ساعات" : "\(count) ساعة"
}
