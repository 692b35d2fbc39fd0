// Sprout web: the sign-up, log-in and change-password forms. Each posts JSON and shows the server's error
// (Strapi's message, see site.js) as text; the submit buttons wait for every field (site.js).
"use strict";

(() => {
  const { api, flashNext, onSubmit } = window.Sprout;
  const $ = (id) => document.getElementById(id);
  const error = $("form-error");

  // `data-next` was checked by the server to be a path on this site.
  const nextPage = (form) => form.dataset.next || "/community";

  const handle = (form, send) => onSubmit(form, error, send);

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

  const signup = $("signup-form");
  if (signup) {
    handle(signup, async () => {
      const password = $("signup-password").value;
      if (password !== $("signup-confirm").value) {
        $("signup-confirm").setAttribute("aria-invalid", "true");
        throw new Error("비밀번호가 일치하지 않습니다.");
      }
      $("signup-confirm").removeAttribute("aria-invalid");
      const { user } = await api("POST", "/web/account", {
        username: $("signup-username").value.trim(),
        email: $("signup-email").value.trim(),
        password,
      });
      flashNext(`가입을 환영해요, ${user.username} 님.`);
      location.assign(nextPage(signup));
    });
  }

  const change = $("password-form");
  if (change) {
    handle(change, async () => {
      const newPassword = $("password-new").value;
      const confirmNewPassword = $("password-confirm").value;
      if (newPassword !== confirmNewPassword) {
        $("password-confirm").setAttribute("aria-invalid", "true");
        throw new Error("비밀번호가 일치하지 않습니다.");
      }
      $("password-confirm").removeAttribute("aria-invalid");
      // The API's own route, as the app calls it; the session cookie stands in for the Bearer token.
      await api("POST", "/custom/change-password", {
        currentPassword: $("password-current").value,
        newPassword,
        confirmNewPassword,
      });
      flashNext("비밀번호를 바꿨어요.");
      location.assign(nextPage(change));
    });
  }
})();
