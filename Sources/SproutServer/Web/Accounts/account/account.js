// Sprout web: the sign-up, log-in, change-password, forgotten-password and reset forms. Each posts JSON; the
// submit buttons wait for every field (site.js). Sign-up, the password change, the reset and the reset mail check
// every field the way the server will (account-forms.js's checkedForm), and the server's refusals go to the field
// they are about.

import { api } from "./site-api.js";
import { errorId } from "./site-errors.js";
import { fieldError, onSubmit, setBusy } from "./site-forms.js";
import { flashNext } from "./site-toast.js";
import { checkedForm, FieldRefusal, refuse } from "./account-forms.js";
import { rules, trimmed } from "./account-rules.js";

const $ = (id) => document.getElementById(id);
const error = $("form-error");

// `data-next` was checked by the server to be a path on this site.
const nextPage = (form) => form.dataset.next || "/community";

// A refusal with an empty message leaves the form's own error line hidden (site.js's onSubmit).
const handle = (form, send) => onSubmit(form, error, send);

// ---- Log in ------------------------------------------------------------------------------------------

const login = $("login-form");
if (login) {
  handle(login, async () => {
    let user;
    try {
      ({ user } = await api("POST", "/web/session", {
        identifier: $("login-identifier").value.trim(),
        password: $("login-password").value,
      }));
    } catch (failure) {
      // A blocked account hears why, when the administrator gave a reason (only /web/session carries it).
      const reason = failure.status === 400 && errorId(failure.body) === "Auth.form.error.blocked" ? failure.body?.reason : null;
      if (typeof reason === "string" && reason) throw new Error(`관리자가 막아 둔 계정이에요. 사유: ${reason}`);
      throw failure;
    }
    flashNext(`${user.username} 님, 어서 오세요.`);
    location.assign(nextPage(login));
  });
}

// ---- Sign up -----------------------------------------------------------------------------------------

const signup = $("signup-form");
if (signup) {
  const [username, email, password, confirm] = ["signup-username", "signup-email", "signup-password", "signup-confirm"].map($);
  confirm.dataset.confirms = password.id;
  const validate = checkedForm(signup, new Map([
    [username, rules.username], [email, rules.email], [password, rules.newPassword], [confirm, rules.confirmation(password)],
  ]));
  handle(signup, async () => {
    if (!validate()) throw new Error("");
    let user;
    try {
      ({ user } = await api("POST", "/web/account", { username: trimmed(username), email: trimmed(email), password: password.value }));
    } catch (failure) {
      refuse(failure, {
        "Auth.form.error.username.taken": username, "Auth.form.error.username.format": username,
        "Auth.form.error.username.provide": username, "Auth.form.error.email.taken": email,
        "Auth.form.error.email.format": email, "Auth.form.error.email.provide": email,
        "Auth.form.error.password.format": password, "Auth.form.error.password.provide": password,
      });
    }
    flashNext(`가입을 환영해요, ${user.username} 님.`);
    location.assign(nextPage(signup));
  });
}

// ---- Change password -----------------------------------------------------------------------------------

const change = $("password-form");
if (change) {
  const [current, fresh, confirm] = ["password-current", "password-new", "password-confirm"].map($);
  confirm.dataset.confirms = fresh.id;
  const validate = checkedForm(change, new Map([
    [current, rules.currentPassword], [fresh, rules.newPassword], [confirm, rules.confirmation(fresh)],
  ]));
  handle(change, async () => {
    if (!validate()) throw new Error("");
    // The API's own route, as the app calls it; the session cookie stands in for the Bearer token.
    try {
      await api("POST", "/custom/change-password", {
        currentPassword: current.value, newPassword: fresh.value, confirmNewPassword: confirm.value,
      });
    } catch (failure) {
      // Here "identifier or password invalid" can only mean the current password.
      if (errorId(failure.body) === "Auth.form.error.invalid") {
        fieldError(current, "현재 비밀번호가 맞지 않아요.");
        current.focus();
        throw new FieldRefusal();
      }
      refuse(failure, { "Auth.form.error.password.format": fresh, "Auth.form.error.password.matching": confirm });
    }
    flashNext("비밀번호를 바꿨어요.");
    location.assign(nextPage(change));
  });
}

// ---- A forgotten password: the reset mail ----------------------------------------------------------------

// The server answers the same whether or not the address has an account, and so does the page.
const forgot = $("forgot-form");
if (forgot) {
  const email = $("forgot-email");
  const validate = checkedForm(forgot, new Map([[email, rules.email]]));
  handle(forgot, async () => {
    if (!validate()) throw new Error("");
    const address = trimmed(email);
    try {
      await api("POST", "/auth/forgot-password", { email: address });
    } catch (failure) {
      refuse(failure, { "Auth.form.error.email.format": email, "Auth.form.error.email.provide": email });
    }
    $("forgot-sent-text").textContent =
      `“${address}” 주소로 가입한 계정이 있다면 비밀번호를 새로 정하는 링크가 곧 도착해요. 링크는 한 시간 동안 쓸 수 있어요.`;
    $("forgot-ask").hidden = true;
    $("forgot-sent").hidden = false;
    $("forgot-sent-title").focus();
    setBusy(forgot, false);
  });
  $("forgot-again").addEventListener("click", () => {
    $("forgot-sent").hidden = true;
    $("forgot-ask").hidden = false;
    email.focus();
    email.select();
  });
}

// ---- A forgotten password: the new one, from the mail's link -------------------------------------------

const reset = $("reset-form");
if (reset) {
  const [password, confirm] = ["reset-password", "reset-confirm"].map($);
  confirm.dataset.confirms = password.id;
  const validate = checkedForm(reset, new Map([[password, rules.newPassword], [confirm, rules.confirmation(password)]]));
  handle(reset, async () => {
    if (!validate()) throw new Error("");
    try {
      await api("POST", "/auth/reset-password", {
        code: reset.dataset.code, password: password.value, passwordConfirmation: confirm.value,
      });
    } catch (failure) {
      // An unknown, used or expired code: the form is of no use any more; the page offers a new mail instead.
      if (errorId(failure.body) === "Auth.form.error.code.provide") {
        $("reset-ask").hidden = true;
        $("reset-expired").hidden = false;
        $("reset-expired-title").focus();
        throw new FieldRefusal();
      }
      refuse(failure, {
        "Auth.form.error.password.format": password, "Auth.form.error.password.provide": password,
        "Auth.form.error.password.matching": confirm,
      });
    }
    // The answer carries a token, which is for the apps: the browser signs in with its cookie, by logging in. The
    // reset ended every session of the account, this browser's too if it had one.
    flashNext("비밀번호를 새로 정했어요. 새 비밀번호로 로그인해 주세요.");
    location.assign("/account/login");
  });
}
