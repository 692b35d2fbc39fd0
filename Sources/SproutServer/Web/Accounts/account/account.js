// Sprout web: the sign-up, log-in and change-password forms. Each posts JSON; the submit buttons wait for every
// field (site.js). Sign-up and the password change check every field the way the server will (Accounts/
// AccountInput.swift): when a field is left, as it is corrected, and all at once on submit, each with its own
// message (aria-invalid, described by the message; account-forms.js); the server's refusals go to the field they
// are about.

import { api } from "./site-api.js";
import { errorId } from "./site-errors.js";
import { fieldError, onSubmit } from "./site-forms.js";
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
    const { user } = await api("POST", "/web/session", {
      identifier: $("login-identifier").value.trim(),
      password: $("login-password").value,
    });
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
