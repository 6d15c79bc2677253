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
        emailVerificationMail: EmailVerificationMailText(
            subject: { product in "Confirme o seu e-mail no \(product)" },
            greeting: "Olá,",
            requested: { product in "Alguém criou uma conta no \(product) com este endereço de e-mail." },
            instruction: "Para confirmar que este endereço é seu e terminar de criar a sua conta, abra este link:",
            button: "Confirmar o meu e-mail",
            validity: { hours in "O link funciona durante \(hours == 1 ? "1 hora" : "\(hours) horas")." },
            ignore: "Se não foi você, pode ignorar este e-mail. Nenhuma conta será criada.",
            linkFallback: "Se o botão não funcionar, copie este endereço no seu navegador:"),
        accountExistsMail: AccountExistsMailText(
            subject: { product in "Você já tem uma conta no \(product)" },
            greeting: "Olá,",
            attempted: { product in "Alguém tentou criar uma conta no \(product) com este endereço de e-mail, mas ele já tem uma conta." },
            instruction: "Se foi você, entre como de costume. Se esqueceu a sua senha, pode escolher uma nova:",
            button: "Redefinir a minha senha",
            ignore: "Se não foi você, pode ignorar este e-mail. Nada foi alterado.",
            linkFallback: "Se o botão não funcionar, copie este endereço no seu navegador:"),
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
            tryAgainLater: "O acesso não está disponível agora por um problema do nosso lado. Tente novamente em alguns minutos.",
            unavailableTitle: "O acesso está indisponível por instantes",
            tryAgainInAMoment: "O serviço está ocupado neste momento. Tente novamente daqui a pouco."),
        passkeySignIn: PasskeySignInText(
            or: "ou",
            signInWithPasskey: "Entrar com uma chave de acesso",
            waiting: "Use a sua chave de acesso na janela que o navegador mostra.",
            notFinished: "A entrada com a chave de acesso não foi concluída. Tente novamente ou entre com o seu endereço de email e a sua senha.",
            notAccepted: "Não foi possível entrar com esta chave de acesso. Tente novamente ou entre com o seu endereço de email e a sua senha."),
        signOutPage: SignOutPageText(
            confirmTitle: "Sair?",
            confirmIntro: { product in "Você vai sair do \(product) neste navegador, e o próximo acesso aqui vai pedir a sua senha." },
            signOut: "Sair",
            signedOutTitle: "Você saiu",
            signedOutBody: { product in "Você saiu do \(product) neste navegador. Pode fechar esta página." },
            errorTitle: "Este link de saída não funciona",
            invalidRequest: "O aplicativo enviou um pedido de saída inválido. Volte ao aplicativo e tente novamente.",
            expiredForm: "Esta página expirou. Volte ao aplicativo e saia novamente.",
            tryAgainLater: "Não é possível sair agora por um problema do nosso lado. Tente novamente em alguns minutos.",
            unavailableTitle: "Não é possível sair por instantes",
            tryAgainInAMoment: "O serviço está ocupado neste momento. Tente novamente daqui a pouco."),
        rateLimit: RateLimitText(
            tooMany: "Muitas tentativas.",
            tryAgainIn: { wait in
                switch wait {
                case .minutes(let count): "Tente novamente em \(count == 1 ? "1 minuto" : "\(count) minutos")."
                case .hours(let count): "Tente novamente em \(count == 1 ? "1 hora" : "\(count) horas")."
                }
            }),
        emailConfirmationMail: EmailConfirmationMailText(
            subject: { product in "Confirme o seu novo e-mail do \(product)" },
            greeting: "Olá,",
            requested: { product in "Alguém pediu para usar este endereço de e-mail na sua conta do \(product)." },
            instruction: "Para confirmar, abra este link. A conta passará a usar este endereço para entrar e para receber e-mails:",
            button: "Confirmar este endereço",
            validity: { hours in "O link vale por \(hours == 1 ? "1 hora" : "\(hours) horas")." },
            ignore: "Se não foi você, pode ignorar este e-mail. Nada muda.",
            linkFallback: "Se o botão não funcionar, copie este endereço no seu navegador:"),
        emailTakenMail: EmailTakenMailText(
            subject: { product in "Alguém tentou mover uma conta do \(product) para o seu endereço" },
            greeting: "Olá,",
            attempted: { product in "Alguém pediu para mover uma conta do \(product) para este endereço de e-mail." },
            nothingChanged: "Este endereço já tem uma conta, por isso nada foi alterado.",
            ifYou: "Se foi você, entre com este endereço ou escolha outro endereço para a outra conta.",
            ifNotYou: "Se não foi você, pode ignorar este e-mail. A sua conta continua como está."),
        emailChangedMail: EmailChangedMailText(
            subject: { product in "O e-mail da sua conta do \(product) foi alterado" },
            greeting: "Olá,",
            changed: { product, address, date, time in
                "O e-mail da sua conta do \(product) foi alterado para \(address) em \(date) às \(time) (UTC)."
            },
            ifYou: "Se foi você, não precisa fazer mais nada.",
            ifNotYou: "Se não foi você, desfaça a alteração agora: a sua conta volta a ter este endereço e todos os dispositivos são desconectados. Depois escolha uma nova senha.",
            button: "Desfazer a alteração",
            validity: { days in "O link vale por \(days == 1 ? "1 dia" : "\(days) dias")." },
            linkFallback: "Se o botão não funcionar, copie este endereço no seu navegador:"),
        accountDeletedMail: AccountDeletedMailText(
            subject: { product in "A sua conta do \(product) foi excluída" },
            greeting: "Olá,",
            deleted: { product, date, time in "A sua conta do \(product) foi excluída em \(date) às \(time) (UTC)." },
            everythingRemoved: "Tudo o que ela guardava foi apagado, e todos os dispositivos foram desconectados.",
            registerAgain: { product in "Você pode criar uma nova conta do \(product) com este endereço quando quiser." },
            ifNotYou: "Se não foi você quem a excluiu, outra pessoa sabia a sua senha. Altere-a onde mais usar a mesma senha."),
        operatorEmailChangeMail: OperatorEmailChangeMailText(
            subject: { product in "O endereço de e-mail da sua conta do \(product) foi alterado" },
            greeting: "Olá,",
            changed: { product, address, date, time in
                "O endereço de e-mail da sua conta do \(product) foi alterado para \(address) em \(date) às \(time) (UTC). As mensagens sobre a conta passam a ir para lá."
            },
            signedOut: "Todos os dispositivos com sessão iniciada na conta foram desconectados; entre novamente com o novo endereço.",
            ifNotYou: { product in "Se não pediu esta alteração, contacte o suporte do \(product) imediatamente." }),
        emailLinkPages: EmailLinkPageText(
            verifyTitle: "Confirme o seu e-mail",
            verifyIntro: "A sua conta será criada com este endereço de e-mail.",
            verifyButton: "Confirmar o meu e-mail",
            verified: { product in "O seu e-mail foi confirmado e a sua conta do \(product) está pronta. Já pode entrar." },
            continueTo: { product in "Continuar para o \(product)" },
            confirmTitle: "Confirme o seu novo e-mail",
            confirmIntro: "A sua conta passará a usar este endereço de e-mail para entrar e para receber e-mails.",
            confirmButton: "Confirmar este endereço",
            confirmed: "O seu e-mail foi alterado. Use-o para entrar a partir de agora.",
            undoTitle: "Desfazer a alteração de e-mail",
            undoIntro: "A sua conta volta a ter o e-mail anterior, e todos os dispositivos são desconectados.",
            undoButton: "Desfazer a alteração",
            undone: "A sua conta voltou a ter o e-mail anterior, e todos os dispositivos foram desconectados.",
            chooseNewPassword: "Quem alterou o endereço pode saber a sua senha. Escolha uma nova agora.",
            chooseNewPasswordLink: "Escolher uma nova senha",
            working: "Um momento…",
            invalidLink: "Este link já não é válido.",
            failed: "Algo deu errado. Tente novamente."),
        secondFactorMail: SecondFactorMailText(
            greeting: "Olá,",
            enabledSubject: { product in "A verificação em duas etapas está ativada na sua conta \(product)" },
            enabled: { product, date, time in
                "A verificação em duas etapas foi ativada na sua conta \(product) em \(date) às \(time) UTC. A partir de agora, para entrar são precisos a sua senha e um código da sua aplicação de autenticação."
            },
            disabledSubject: { product in "A verificação em duas etapas está desativada na sua conta \(product)" },
            disabled: { product, date, time in
                "A verificação em duas etapas foi desativada na sua conta \(product) em \(date) às \(time) UTC. Para entrar, basta agora a sua senha."
            },
            removedByOperator: { product, date, time in
                "O suporte de \(product) desativou a verificação em duas etapas da sua conta em \(date) às \(time) UTC, a pedido de alguém que perdeu a aplicação de autenticação. Os seus códigos de recuperação deixaram de funcionar."
            },
            enrolAgain: "Pode voltar a ativar a verificação em duas etapas nas definições da sua conta.",
            recoveryCodeSubject: { product in "Foi usado um código de recuperação da sua conta \(product)" },
            recoveryCodeUsed: { product, date, time in
                "Um dos códigos de recuperação da sua conta \(product) foi usado em \(date) às \(time) UTC, em vez de um código da aplicação de autenticação. Esse código não pode ser usado de novo."
            },
            remaining: { count in
                switch count {
                case 0: "Não lhe resta nenhum código de recuperação: crie novos nas definições da sua conta agora."
                case 1: "Resta-lhe 1 código de recuperação: crie novos nas definições da sua conta."
                case 2, 3: "Restam-lhe \(count) códigos de recuperação: crie novos nas definições da sua conta."
                default: "Restam-lhe \(count) códigos de recuperação."
                }
            },
            ifNotYou: "Se não foi você, alguém conhece a sua senha: redefina-a agora e altere-a em todos os sítios onde a usa.",
            ifNotYouOperator: { product in "Se não pediu isto, contacte imediatamente o suporte de \(product) e redefina a sua senha." }),
        secondFactorPage: SecondFactorPageText(
            codeTitle: "Verificação em duas etapas",
            codeIntro: { product in "Introduza o código de 6 dígitos que a sua aplicação de autenticação mostra para \(product)." },
            codeLabel: "Código",
            recoveryHint: "Perdeu o telemóvel? Introduza antes um dos seus códigos de recuperação.",
            verify: "Verificar",
            invalidCode: "Este código não está correto ou já foi usado. Aguarde pelo código seguinte e tente de novo.",
            expired: "Este início de sessão demorou demasiado. Inicie sessão de novo.",
            enrolTitle: "Configurar a verificação em duas etapas",
            enrolStart: "Introduza o seu endereço de email e a sua senha para configurar a verificação em duas etapas com uma aplicação de autenticação.",
            continueButton: "Continuar",
            scanIntro: "Leia este código QR com a sua aplicação de autenticação ou, neste dispositivo, abra a ligação abaixo.",
            openInApp: "Adicionar à minha aplicação de autenticação",
            typeKey: "Ou escreva esta chave na aplicação:",
            confirmIntro: "Depois introduza o código de 6 dígitos que a aplicação mostra, para confirmar que funciona.",
            turnOn: "Ativar a verificação em duas etapas",
            enabledTitle: "A verificação em duas etapas está ativada",
            recoveryCodesIntro: "Guarde estes códigos de recuperação num lugar seguro, longe do telemóvel. Se perder o telemóvel, cada um permite entrar uma vez em vez de um código. Só são mostrados agora.",
            alreadyOn: "A verificação em duas etapas já está ativada nesta conta."),
        newDeviceMail: NewDeviceMailText(
            subject: { product in "Novo acesso à sua conta do \(product)" },
            greeting: "Olá,",
            signedIn: { product, date, time in "Alguém entrou na sua conta do \(product) a partir de um novo dispositivo em \(date) às \(time) (UTC)." },
            device: { name in "Dispositivo: \(name)" },
            unknownDevice: "Dispositivo: aplicativo ou navegador desconhecido",
            network: { address in "Rede: \(address) (a última parte do endereço está oculta)" },
            ifYou: "Se foi você, não precisa fazer mais nada.",
            ifNotYou: "Se não foi você, outra pessoa sabe a sua senha. Redefina-a agora e altere-a também onde mais usar a mesma senha:",
            button: "Redefinir a minha senha",
            linkFallback: "Se o botão não funcionar, copie este endereço no seu navegador:"),
        passkeyMail: PasskeyMailText(
            greeting: "Olá,",
            addedSubject: { product in "Foi adicionada uma chave de acesso à sua conta \(product)" },
            added: { product, name, date, time in
                "Uma chave de acesso chamada “\(name)” foi adicionada à sua conta \(product) em \(date) às \(time) UTC. Com ela é possível entrar na sua conta sem a senha."
            },
            ifNotYouAdded: "Se não foi você que a adicionou, outra pessoa pode entrar na sua conta com ela. Ela continua a funcionar até ser removida, mesmo depois de a senha ser redefinida: remova-a agora nas definições da sua conta e depois redefina a sua senha.",
            removedSubject: { product in "Foi removida uma chave de acesso da sua conta \(product)" },
            removed: { product, name, date, time in
                "A chave de acesso “\(name)” foi removida da sua conta \(product) em \(date) às \(time) UTC. Já não é possível entrar na sua conta com ela."
            },
            ifNotYouRemoved: "Se não foi você que a removeu, outra pessoa tem acesso à sua conta: redefina a sua senha agora e verifique as chaves de acesso listadas nas definições da sua conta."))
}
