extension TextCatalogue {
    /// Every text in Portuguese.
    static let portuguese = TextCatalogue(
        direction: .leftToRight,
        passwordResetMail: PasswordResetMailText(
            subject: { product in "Redefina a sua senha do \(product)" },
            greeting: "Olá,",
            requested: { product in "Alguém pediu para redefinir a senha da conta do \(product) deste endereço de e-mail." },
            instruction: "Para escolher uma nova senha, abra este link:",
            button: "Escolher uma nova senha",
            validity: { minutes in "O link vale por \(minutes == 1 ? "1 minuto" : "\(minutes) minutos")." },
            ignore: "Se não foi você, pode ignorar este e-mail. A sua senha continua a mesma.",
            linkFallback: "Se o botão não funcionar, copie este endereço no seu navegador:"),
        passwordChangedMail: PasswordChangedMailText(
            subject: { product in "A sua senha do \(product) foi alterada" },
            greeting: "Olá,",
            changed: { product, date, time in "A senha da sua conta do \(product) foi alterada em \(date) às \(time) (UTC)." },
            ifYou: "Se foi você, não precisa fazer mais nada.",
            ifNotYou: "Se não foi você, outra pessoa pode saber a sua senha. Redefina-a agora e altere-a também onde mais usar a mesma senha:",
            button: "Redefinir a minha senha",
            linkFallback: "Se o botão não funcionar, copie este endereço no seu navegador:"),
        addressChangedMail: AddressChangedMailText(
            subject: { product in "O endereço de e-mail da sua conta do \(product) foi alterado" },
            greeting: "Olá,",
            changed: { product, address, date, time in
                "O endereço de e-mail da sua conta do \(product) foi alterado para \(address) em \(date) às \(time) (UTC). As mensagens sobre a conta passam a ir para lá."
            },
            signedOut: "Todos os dispositivos com sessão iniciada na conta foram desconectados; entre novamente com o novo endereço.",
            ifNotYou: { product in "Se não pediu esta alteração, contacte o suporte do \(product) imediatamente." }),
        resetPage: ResetPageText(
            title: "Redefinir a sua senha",
            requestIntro: "Digite o e-mail da sua conta e enviaremos um link para escolher uma nova senha.",
            emailLabel: "Endereço de e-mail",
            sendLink: "Enviar o link",
            requestSent: "Se existir uma conta com este endereço, enviamos um link para redefinir a senha. Verifique a sua caixa de entrada.",
            invalidEmail: "Digite um endereço de e-mail como nome@exemplo.com.",
            checking: "Verificando o seu link…",
            chooseFor: "Escolha uma nova senha para",
            newPassword: "Nova senha",
            passwordRules: "Use de 8 a 128 caracteres. Uma frase com várias palavras sem relação é forte e fácil de lembrar. Não use o seu endereço de e-mail.",
            repeatPassword: "Repita a nova senha",
            save: "Salvar a nova senha",
            saved: "A sua senha foi alterada.",
            signInNow: { product in "Já pode entrar no \(product) com a nova senha." },
            continueTo: { product in "Continuar para o \(product)" },
            mismatch: "As duas senhas não são iguais.",
            invalidLink: "Este link já não é válido. Peça um novo, por favor.",
            tooShort: "Use pelo menos 8 caracteres.",
            tooLong: "Use no máximo 128 caracteres.",
            tooWeak: "Esta senha é fácil de adivinhar. Experimente uma frase mais longa com palavras sem relação.",
            containsEmail: "Não use o seu endereço de e-mail na senha.",
            failed: "Algo deu errado. Tente de novo, por favor.",
            requestNew: "Pedir um novo link"),
        signInPage: SignInPageText(
            signInTitle: "Entrar",
            signInTo: "Entre para continuar em",
            emailLabel: "Endereço de email",
            passwordLabel: "Senha",
            signIn: "Entrar",
            forgotPassword: "Esqueceu sua senha?",
            invalidCredentials: "O endereço de email ou a senha não estão corretos.",
            consentTitle: "Permitir acesso?",
            consentIntro: { product in "quer acessar sua conta do \(product)." },
            signedInAs: "Conectado como",
            scopesIntro: "Pede para:",
            openidScope: "Saber quem você é (o identificador da sua conta)",
            emailScope: "Ver o seu endereço de email",
            allow: "Permitir",
            deny: "Recusar",
            notYou: "Não é você?",
            useAnotherAccount: "Entrar com outra conta",
            errorTitle: "Este link de acesso não funciona",
            invalidRequest: "O aplicativo enviou um pedido de acesso inválido. Volte ao aplicativo e tente novamente.",
            expiredForm: "Esta página expirou. Volte ao aplicativo e comece a entrar novamente.",
            tryAgainLater: "O acesso não está disponível agora por um problema do nosso lado. Tente novamente em alguns minutos."),
        rateLimit: RateLimitText(
            tooMany: "Muitas tentativas.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "Tente novamente em \(count == 1 ? "1 minuto" : "\(count) minutos")."
                case .hours(let count): "Tente novamente em \(count == 1 ? "1 hora" : "\(count) horas")."
                }
            }))
}
