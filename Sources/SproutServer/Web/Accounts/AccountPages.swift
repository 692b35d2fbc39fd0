import Hummingbird

/// The account pages: `/account/signup`, `/account/login`, `/account/password`, `/account/forgot-password`,
/// `/account/reset-password` and `/account` (the account's own settings). Their forms post to `/web/account`,
/// `/web/session` and the API's routes (`/custom/change-password`, `/auth/forgot-password`,
/// `/auth/reset-password`, `/users/me…`) (`account.js`, `account-settings.js`); logging out is the header's
/// button on every page (`site.js`).
struct AccountPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("account") { request, context in try self.settingsPage(request, context: context) }
        routes.get("account/signup") { request, context in try self.signedOutPage("account-signup", title: "회원가입", request: request, context: context) }
        routes.get("account/login") { request, context in try self.signedOutPage("account-login", title: "로그인", request: request, context: context) }
        routes.get("account/password") { request, context in try self.passwordPage(request, context: context) }
        routes.get("account/forgot-password") { request, context in try self.forgotPasswordPage(request, context: context) }
        routes.get("account/reset-password") { request, context in try self.resetPasswordPage(request, context: context) }
        return routes
    }

    private struct FormContext {
        /// Where to go after signing in: a path on this site (`/community`, the feed, unless the link said).
        let next: String
        let nextQuery: String
        let visitor: WebVisitor?
    }

    /// Sign-up and log-in are for visitors who are not signed in; one who is goes straight on to `next`.
    private func signedOutPage(_ template: String, title: String, request: Request, context: Context) throws -> Response {
        let next = LocalAddress.validated(request.uri.queryParameters.get("next"), default: "/community")
        if renderer.visitor(of: context) != nil { return .seeOther(next) }
        let page = FormContext(next: next, nextQuery: LocalAddress.encoded(next), visitor: nil)
        return try renderer.render(template, context: page, title: title, current: nil, scripts: ["account.js"], visitor: nil, request: request)
    }

    private func passwordPage(_ request: Request, context: Context) throws -> Response {
        guard let visitor = renderer.visitor(of: context) else {
            return .seeOther("/account/login?next=" + LocalAddress.encoded("/account/password"))
        }
        let page = FormContext(next: "/account", nextQuery: LocalAddress.encoded("/account"), visitor: visitor)
        return try renderer.render("account-password", context: page, title: "비밀번호 변경", current: nil, scripts: ["account.js"], visitor: visitor, request: request)
    }

    // MARK: A forgotten password

    /// Anyone may ask for a reset mail (a signed-in visitor who forgot the password too): the answer never says
    /// whether the address has an account.
    private func forgotPasswordPage(_ request: Request, context: Context) throws -> Response {
        let visitor = renderer.visitor(of: context)
        return try renderer.render("account-forgot", context: FormContext(next: "/community", nextQuery: "/community", visitor: visitor),
                                   title: "비밀번호 찾기", current: nil, scripts: ["account.js"], visitor: visitor, request: request)
    }

    private struct ResetContext {
        /// The code from the mail's link (`?code=`), passed on to `POST /auth/reset-password` as it is.
        let code: String
        /// False for a link cut short (no code): the page says so instead of showing the form.
        let hasCode: Bool
    }

    /// The page the reset mail links to. It does not check the code (only the reset itself uses it up, and a code
    /// checked here could be used or expire before the form is sent); a bad one is told when the form is sent.
    private func resetPasswordPage(_ request: Request, context: Context) throws -> Response {
        let code = (request.uri.queryParameters.get("code") ?? "").trimmingWhitespace
        return try renderer.render("account-reset", context: ResetContext(code: code, hasCode: !code.isEmpty),
                                   title: "비밀번호 재설정", current: nil, scripts: ["account.js"],
                                   visitor: renderer.visitor(of: context), request: request)
    }

    // MARK: The account's own settings

    private struct SettingsContext {
        let username: String
        let email: String
    }

    /// Username and email, sessions, the data export and deletion. Signed-out visitors log in first and come back;
    /// `?confirmed=1` (where an email confirmation link lands) comes back with them.
    private func settingsPage(_ request: Request, context: Context) throws -> Response {
        guard let account = context.caller.account else {
            return .seeOther("/account/login?next=" + LocalAddress.encoded(LocalAddress.validated(request.pageAddress, default: "/account")))
        }
        let page = SettingsContext(username: account.username, email: account.email)
        return try renderer.render("account-settings", context: page, title: "내 계정", current: nil, scripts: ["account-settings.js"],
                                   visitor: WebVisitor(account), request: request)
    }
}
