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
        emailVerificationMail: EmailVerificationMailText(
            subject: { product in "أكِّد عنوان بريدك الإلكتروني في \(product)" },
            greeting: "مرحبًا،",
            requested: { product in "أنشأ شخصٌ ما حسابًا في \(product) بعنوان البريد الإلكتروني هذا." },
            instruction: "لتأكيد أن هذا العنوان لك وإكمال إنشاء حسابك، افتح هذا الرابط:",
            button: "تأكيد بريدي الإلكتروني",
            validity: { hours in "يعمل الرابط لمدة \(arabicHours(hours))." },
            ignore: "إن لم تكن أنت من فعل ذلك، فيمكنك تجاهل هذه الرسالة. لن يُنشأ أي حساب.",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان إلى متصفحك:"),
        accountExistsMail: AccountExistsMailText(
            subject: { product in "لديك حساب في \(product) بالفعل" },
            greeting: "مرحبًا،",
            attempted: { product in "حاول شخصٌ ما إنشاء حساب في \(product) بعنوان البريد الإلكتروني هذا، لكن لديه حسابًا بالفعل." },
            instruction: "إن كنت أنت، فسجِّل الدخول كالمعتاد. وإن نسيت كلمة المرور، فيمكنك اختيار كلمة مرور جديدة:",
            button: "إعادة تعيين كلمة المرور",
            ignore: "إن لم تكن أنت من فعل ذلك، فيمكنك تجاهل هذه الرسالة. لم يتغير شيء.",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان إلى متصفحك:"),
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
            tryAgainLater: "تسجيل الدخول غير متاح الآن بسبب مشكلة من جهتنا. يُرجى المحاولة مرة أخرى بعد بضع دقائق.",
            unavailableTitle: "تسجيل الدخول غير متاح مؤقتًا",
            tryAgainInAMoment: "الخدمة مشغولة الآن. يُرجى المحاولة مرة أخرى بعد لحظات."),
        passkeySignIn: PasskeySignInText(
            or: "أو",
            signInWithPasskey: "تسجيل الدخول باستخدام مفتاح مرور",
            waiting: "استخدم مفتاح المرور في النافذة التي يعرضها متصفحك.",
            notFinished: "لم يكتمل تسجيل الدخول باستخدام مفتاح المرور. حاول مرة أخرى، أو سجّل الدخول باستخدام بريدك الإلكتروني وكلمة المرور.",
            notAccepted: "تعذّر تسجيل الدخول باستخدام مفتاح المرور هذا. حاول مرة أخرى، أو سجّل الدخول باستخدام بريدك الإلكتروني وكلمة المرور."),
        signOutPage: SignOutPageText(
            confirmTitle: "تسجيل الخروج؟",
            confirmIntro: { product in "سيتم تسجيل خروجك من \(product) في هذا المتصفح، وسيطلب منك تسجيل الدخول التالي هنا كلمة المرور." },
            signOut: "تسجيل الخروج",
            signedOutTitle: "تم تسجيل خروجك",
            signedOutBody: { product in "تم تسجيل خروجك من \(product) في هذا المتصفح. يمكنك إغلاق هذه الصفحة." },
            errorTitle: "رابط تسجيل الخروج هذا لا يعمل",
            invalidRequest: "أرسل التطبيق طلب تسجيل خروج غير صالح. ارجع إلى التطبيق وحاول مرة أخرى.",
            expiredForm: "انتهت صلاحية هذه الصفحة. ارجع إلى التطبيق وسجّل الخروج من جديد.",
            tryAgainLater: "تسجيل الخروج غير ممكن الآن بسبب مشكلة من جهتنا. يُرجى المحاولة مرة أخرى بعد بضع دقائق.",
            unavailableTitle: "تسجيل الخروج غير متاح مؤقتًا",
            tryAgainInAMoment: "الخدمة مشغولة الآن. يُرجى المحاولة مرة أخرى بعد لحظات."),
        rateLimit: RateLimitText(
            tooMany: "محاولات كثيرة جدًا.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "يرجى المحاولة مرة أخرى بعد \(arabicMinutes(count))."
                case .hours(let count): "يرجى المحاولة مرة أخرى بعد \(arabicHours(count))."
                }
            }),
        emailConfirmationMail: EmailConfirmationMailText(
            subject: { product in "أكّد عنوان بريدك الإلكتروني الجديد في \(product)" },
            greeting: "مرحبًا،",
            requested: { product in "طلب أحدهم استخدام عنوان البريد الإلكتروني هذا لحسابه في \(product)." },
            instruction: "لتأكيده، افتح هذا الرابط. سيستخدم الحساب بعد ذلك هذا العنوان لتسجيل الدخول ولتلقي رسائله:",
            button: "تأكيد هذا العنوان",
            validity: { hours in "يبقى الرابط صالحًا لمدة \(arabicHours(hours))." },
            ignore: "إذا لم تكن أنت من طلب ذلك، فتجاهل هذه الرسالة. لن يتغير شيء.",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"),
        emailTakenMail: EmailTakenMailText(
            subject: { product in "حاول أحدهم نقل حساب في \(product) إلى عنوانك" },
            greeting: "مرحبًا،",
            attempted: { product in "طلب أحدهم نقل حساب في \(product) إلى عنوان البريد الإلكتروني هذا." },
            nothingChanged: "لهذا العنوان حساب بالفعل، لذلك لم يتغير شيء.",
            ifYou: "إذا كنت أنت، فسجّل الدخول بهذا العنوان بدلًا من ذلك، أو اختر عنوانًا آخر للحساب الآخر.",
            ifNotYou: "إذا لم تكن أنت، فتجاهل هذه الرسالة. يبقى حسابك كما هو."),
        emailChangedMail: EmailChangedMailText(
            subject: { product in "تم تغيير البريد الإلكتروني لحسابك في \(product)" },
            greeting: "مرحبًا،",
            changed: { product, address, date, time in
                "تم تغيير البريد الإلكتروني لحسابك في \(product) إلى \(address) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي المنسَّق (UTC)."
            },
            ifYou: "إذا كنت أنت من قام بذلك، فلا داعي لفعل أي شيء آخر.",
            ifNotYou: "إذا لم تكن أنت، فتراجع عن التغيير الآن: يستعيد حسابك هذا العنوان ويُسجَّل الخروج من جميع الأجهزة. ثم اختر كلمة مرور جديدة.",
            button: "التراجع عن التغيير",
            validity: { days in "يبقى الرابط صالحًا لمدة \(arabicDays(days))." },
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"),
        accountDeletedMail: AccountDeletedMailText(
            subject: { product in "تم حذف حسابك في \(product)" },
            greeting: "مرحبًا،",
            deleted: { product, date, time in
                "تم حذف حسابك في \(product) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي المنسَّق (UTC)."
            },
            everythingRemoved: "حُذف كل ما كان يحتويه، وسُجِّل الخروج من جميع الأجهزة.",
            registerAgain: { product in "يمكنك إنشاء حساب جديد في \(product) بهذا العنوان في أي وقت." },
            ifNotYou: "إذا لم تحذفه أنت، فقد كان شخص آخر يعرف كلمة المرور. غيّرها في أي مكان آخر تستخدم فيه كلمة المرور نفسها."),
        operatorEmailChangeMail: OperatorEmailChangeMailText(
            subject: { product in "تم تغيير عنوان البريد الإلكتروني لحسابك في \(product)" },
            greeting: "مرحبًا،",
            changed: { product, address, date, time in
                "تم تغيير عنوان البريد الإلكتروني لحسابك في \(product) إلى \(address) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي المنسَّق (UTC). ستصل الرسائل المتعلقة بالحساب إلى هذا العنوان من الآن."
            },
            signedOut: "تم تسجيل الخروج من جميع الأجهزة التي كانت مسجّلة الدخول إلى الحساب؛ سجّل الدخول مرة أخرى بالعنوان الجديد.",
            ifNotYou: { product in "إذا لم تطلب هذا التغيير، فتواصل مع دعم \(product) فورًا." }),
        emailLinkPages: EmailLinkPageText(
            verifyTitle: "تأكيد عنوان بريدك الإلكتروني",
            verifyIntro: "سيُنشأ حسابك بعنوان البريد الإلكتروني هذا.",
            verifyButton: "تأكيد بريدي الإلكتروني",
            verified: { product in "تم تأكيد عنوان بريدك الإلكتروني وأصبح حسابك في \(product) جاهزًا. يمكنك الآن تسجيل الدخول." },
            continueTo: { product in "المتابعة إلى \(product)" },
            confirmTitle: "تأكيد عنوان بريدك الإلكتروني الجديد",
            confirmIntro: "سيستخدم حسابك عنوان البريد الإلكتروني هذا لتسجيل الدخول ولتلقي رسائله.",
            confirmButton: "تأكيد هذا العنوان",
            confirmed: "تم تغيير بريدك الإلكتروني. استخدمه لتسجيل الدخول من الآن فصاعدًا.",
            undoTitle: "التراجع عن تغيير البريد الإلكتروني",
            undoIntro: "يستعيد حسابك بريده الإلكتروني السابق، ويُسجَّل الخروج من جميع الأجهزة.",
            undoButton: "التراجع عن التغيير",
            undone: "استعاد حسابك بريده الإلكتروني السابق، وسُجِّل الخروج من جميع الأجهزة.",
            chooseNewPassword: "قد يعرف من غيّر العنوان كلمة المرور. اختر كلمة مرور جديدة الآن.",
            chooseNewPasswordLink: "اختيار كلمة مرور جديدة",
            working: "لحظة من فضلك…",
            invalidLink: "لم يعد هذا الرابط صالحًا.",
            failed: "حدث خطأ ما. يرجى المحاولة مرة أخرى."),
        secondFactorMail: SecondFactorMailText(
            greeting: "مرحبًا،",
            enabledSubject: { product in "تم تفعيل التحقق بخطوتين في حسابك على \(product)" },
            enabled: { product, date, time in
                "تم تفعيل التحقق بخطوتين في حسابك على \(product) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي. من الآن فصاعدًا، يتطلب تسجيل الدخول كلمة المرور ورمزًا من تطبيق المصادقة."
            },
            disabledSubject: { product in "تم إيقاف التحقق بخطوتين في حسابك على \(product)" },
            disabled: { product, date, time in
                "تم إيقاف التحقق بخطوتين في حسابك على \(product) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي. أصبح تسجيل الدخول يتطلب كلمة المرور فقط."
            },
            removedByOperator: { product, date, time in
                "أوقف فريق دعم \(product) التحقق بخطوتين في حسابك بتاريخ \(date) الساعة \(time) بالتوقيت العالمي، بناءً على طلب شخص فقد تطبيق المصادقة. لم تعد رموز الاسترداد تعمل."
            },
            enrolAgain: "يمكنك تفعيل التحقق بخطوتين مرة أخرى من إعدادات حسابك.",
            recoveryCodeSubject: { product in "تم استخدام رمز استرداد لحسابك على \(product)" },
            recoveryCodeUsed: { product, date, time in
                "تم استخدام أحد رموز الاسترداد لحسابك على \(product) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي بدلًا من رمز تطبيق المصادقة. لا يمكن استخدام هذا الرمز مرة أخرى."
            },
            remaining: { count in
                switch count {
                case 0: "لم يتبقَّ لديك أي رمز استرداد: أنشئ رموزًا جديدة من إعدادات حسابك الآن."
                case 1: "تبقّى لديك رمز استرداد واحد: أنشئ رموزًا جديدة من إعدادات حسابك."
                case 2: "تبقّى لديك رمزا استرداد: أنشئ رموزًا جديدة من إعدادات حسابك."
                case 3: "تبقّت لديك 3 رموز استرداد: أنشئ رموزًا جديدة من إعدادات حسابك."
                default: "تبقّت لديك \(count) رموز استرداد."
                }
            },
            ifNotYou: "إذا لم تكن أنت، فهناك من يعرف كلمة مرورك: أعد تعيينها الآن وغيّرها في كل مكان تستخدمها فيه.",
            ifNotYouOperator: { product in "إذا لم تطلب ذلك، فتواصل فورًا مع فريق دعم \(product) وأعد تعيين كلمة مرورك." }),
        secondFactorPage: SecondFactorPageText(
            codeTitle: "التحقق بخطوتين",
            codeIntro: { product in "أدخل الرمز المكوّن من 6 أرقام الذي يعرضه تطبيق المصادقة لـ \(product)." },
            codeLabel: "الرمز",
            recoveryHint: "هل فقدت هاتفك؟ أدخل أحد رموز الاسترداد بدلًا من ذلك.",
            verify: "تحقّق",
            invalidCode: "هذا الرمز غير صحيح أو تم استخدامه من قبل. انتظر الرمز التالي وحاول مرة أخرى.",
            expired: "استغرق تسجيل الدخول وقتًا طويلًا. يُرجى تسجيل الدخول مرة أخرى.",
            enrolTitle: "إعداد التحقق بخطوتين",
            enrolStart: "أدخل بريدك الإلكتروني وكلمة المرور لإعداد التحقق بخطوتين باستخدام تطبيق مصادقة.",
            continueButton: "متابعة",
            scanIntro: "امسح رمز QR هذا بتطبيق المصادقة، أو افتح الرابط أدناه على هذا الجهاز.",
            openInApp: "إضافة إلى تطبيق المصادقة",
            typeKey: "أو اكتب هذا المفتاح في التطبيق:",
            confirmIntro: "ثم أدخل الرمز المكوّن من 6 أرقام الذي يعرضه التطبيق للتأكد من أنه يعمل.",
            turnOn: "تفعيل التحقق بخطوتين",
            enabledTitle: "تم تفعيل التحقق بخطوتين",
            recoveryCodesIntro: "احفظ رموز الاسترداد هذه في مكان آمن بعيدًا عن هاتفك. إذا فقدت هاتفك، فكل رمز منها يتيح لك تسجيل الدخول مرة واحدة بدلًا من رمز التطبيق. لن تُعرض إلا الآن.",
            alreadyOn: "التحقق بخطوتين مفعّل بالفعل لهذا الحساب."),
        newDeviceMail: NewDeviceMailText(
            subject: { product in "تسجيل دخول جديد إلى حسابك في \(product)" },
            greeting: "مرحبًا،",
            signedIn: { product, date, time in
                "تم تسجيل الدخول إلى حسابك في \(product) من جهاز جديد بتاريخ \(date) الساعة \(time) بالتوقيت العالمي المنسَّق (UTC)."
            },
            device: { name in "الجهاز: \(name)" },
            unknownDevice: "الجهاز: تطبيق أو متصفح غير معروف",
            network: { address in "الشبكة: \(address) (الجزء الأخير من العنوان مخفي)" },
            ifYou: "إذا كنت أنت من قام بذلك، فلا داعي لفعل أي شيء آخر.",
            ifNotYou: "إذا لم تكن أنت، فهناك شخص آخر يعرف كلمة المرور. أعد تعيينها الآن، وغيّرها أيضًا في أي مكان آخر تستخدم فيه كلمة المرور نفسها:",
            button: "إعادة تعيين كلمة المرور",
            linkFallback: "إذا لم يعمل الزر، فانسخ هذا العنوان والصقه في المتصفح:"),
        passkeyMail: PasskeyMailText(
            greeting: "مرحبًا،",
            addedSubject: { product in "تمت إضافة مفتاح مرور إلى حسابك على \(product)" },
            added: { product, name, date, time in
                "تمت إضافة مفتاح مرور باسم «\(name)» إلى حسابك على \(product) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي. يمكن استخدامه لتسجيل الدخول إلى حسابك دون كلمة المرور."
            },
            ifNotYouAdded: "إذا لم تكن أنت من أضافه، فبإمكان شخص آخر تسجيل الدخول إلى حسابك به. يظل يعمل إلى أن تتم إزالته، حتى بعد إعادة تعيين كلمة المرور: أزِله الآن من إعدادات حسابك، ثم أعد تعيين كلمة مرورك.",
            removedSubject: { product in "تمت إزالة مفتاح مرور من حسابك على \(product)" },
            removed: { product, name, date, time in
                "تمت إزالة مفتاح المرور «\(name)» من حسابك على \(product) بتاريخ \(date) الساعة \(time) بالتوقيت العالمي. لم يعد بالإمكان استخدامه لتسجيل الدخول إلى حسابك."
            },
            ifNotYouRemoved: "إذا لم تكن أنت من أزاله، فلدى شخص آخر إمكانية الوصول إلى حسابك: أعد تعيين كلمة مرورك الآن، وراجع مفاتيح المرور المدرجة في إعدادات حسابك."))
}

/// "N minutes" with Arabic's plural forms (one, two, few: 3–10, many: 11–99, other).
private func arabicMinutes(_ count: Int) -> String {
    if count == 1 { return "دقيقة واحدة" }
    if count == 2 { return "دقيقتين" }
    return (3...10).contains(count % 100) ? "\(count) دقائق" : "\(count) دقيقة"
}

/// "N days" with Arabic's plural forms (one, two, few: 3–10, many: 11–99, other).
private func arabicDays(_ count: Int) -> String {
    if count == 1 { return "يوم واحد" }
    if count == 2 { return "يومين" }
    return (3...10).contains(count % 100) ? "\(count) أيام" : "\(count) يومًا"
}

/// "N hours" with Arabic's plural forms (one, two, few: 3–10, many: 11–99, other).
private func arabicHours(_ count: Int) -> String {
    if count == 1 { return "ساعة واحدة" }
    if count == 2 { return "ساعتين" }
    return (3...10).contains(count % 100) ? "\(count) ساعات" : "\(count) ساعة"
}
