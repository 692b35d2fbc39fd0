// Sprout web, Accounts: the account's own page (/account). The profile form (`PUT /users/me`: a new username at
// once, a new email address once the confirmation mailed to it is used), the browsers signed in to the account
// (`/users/me/sessions`: end one, or every other one and every app's token), the data export (a plain link to
// `/users/me/export`) and deletion (`DELETE /users/me`, after the password and a confirmation). `?confirmed=1` is
// where an email confirmation link lands.

import { api } from "./site-api.js";
import { formatDate } from "./site-dates.js";
import { errorId } from "./site-errors.js";
import { fieldError, onSubmit, setBusy, showError } from "./site-forms.js";
import { particle, sentences } from "./site-korean.js";
import { flashNext, notify } from "./site-toast.js";
import { accountKey, forgetAccountData, me } from "./site-visitor.js";
import { deviceName, lastSeen, lastUse, sessionOrder } from "./account-devices.js";
import { checkedForm, FieldRefusal, refuse } from "./account-forms.js";
import { rules, trimmed } from "./account-rules.js";

const $ = (id) => document.getElementById(id);

// ---- An email change waiting for its confirmation -------------------------------------------------------

// The server keeps the old address until the link mailed to the new one is used (within an hour). The page notes
// where the mail went, per account in this browser, so the note is still there after a reload.
const PENDING_KEY = "sprout.account.pending-email";
const CONFIRMATION_LIFETIME = 60 * 60 * 1000;
const emailNote = $("profile-email-pending");

function readPending() {
  try {
    const pending = JSON.parse(localStorage.getItem(accountKey(PENDING_KEY)) || "null");
    return pending && typeof pending.email === "string" && pending.until > Date.now() ? pending : null;
  } catch { return null; }
}

function writePending(email) {
  try {
    if (email) localStorage.setItem(accountKey(PENDING_KEY), JSON.stringify({ email, until: Date.now() + CONFIRMATION_LIFETIME }));
    else localStorage.removeItem(accountKey(PENDING_KEY));
  } catch { /* storage refused: the note lasts as long as the page */ }
}

function showPending(email) {
  emailNote.textContent = email
    ? `“${email}” 주소로 확인 메일을 보냈어요. 메일의 링크를 열면 이메일이 바뀌어요. 그때까지는 지금 주소를 그대로 써요.`
    : "";
  emailNote.hidden = !email;
}

// ---- Profile: username and email ---------------------------------------------------------------------------

const profile = $("profile-form");
const username = $("profile-username");
const email = $("profile-email");
const saved = { username: profile.dataset.username, email: profile.dataset.email };
const validateProfile = checkedForm(profile, new Map([[username, rules.username], [email, rules.email]]));

onSubmit(profile, $("profile-error"), async () => {
  if (!validateProfile()) throw new Error("");
  const change = {};
  if (trimmed(username) !== saved.username) change.username = trimmed(username);
  // The server keeps addresses lowercased.
  if (trimmed(email).toLowerCase() !== saved.email) change.email = trimmed(email);
  if (!Object.keys(change).length) throw new Error("바꾼 내용이 없어요.");
  let answer;
  try {
    answer = await api("PUT", "/users/me", change);
  } catch (failure) {
    refuse(failure, {
      "Auth.form.error.username.taken": username, "Auth.form.error.username.format": username,
      "Auth.form.error.username.provide": username, "Auth.form.error.email.taken": email,
      "Auth.form.error.email.format": email, "Auth.form.error.email.provide": email,
    });
  }
  const said = [];
  if (answer.emailConfirmationSentTo) {
    writePending(answer.emailConfirmationSentTo);
    said.push(`“${answer.emailConfirmationSentTo}” 주소로 확인 메일을 보냈어요`);
  }
  if (answer.user.username !== saved.username) {
    // The name is on the header, in the log-out dialog and on <body>: the page is drawn again with it.
    flashNext(sentences(`아이디를 ${particle(`“${answer.user.username}”`, "으로/로")} 바꿨어요`, ...said));
    location.reload();
    return;
  }
  email.value = saved.email;
  showPending(answer.emailConfirmationSentTo);
  setBusy(profile, false);
  notify(sentences(...said) || "저장했어요.");
});

// ---- Signed-in browsers ------------------------------------------------------------------------------------

const sessionList = $("session-list");
const sessionRow = $("session-row");
const sessionsError = $("sessions-error");
const sessionsLoading = $("sessions-loading");
const sessionsRetry = $("sessions-retry");

function drawSession(session) {
  const item = sessionRow.content.firstElementChild.cloneNode(true);
  const name = deviceName(session.device);
  item.dataset.id = session.id;
  const nameElement = item.querySelector(".session-name");
  nameElement.textContent = name;
  if (session.device) nameElement.title = session.device;
  item.querySelector(".session-address").textContent = session.ipAddress ? `IP ${session.ipAddress}` : "";
  const seen = item.querySelector(".session-seen");
  const when = lastUse(session);
  seen.dateTime = when.toISOString();
  seen.title = formatDate(when);
  const end = item.querySelector(".session-end");
  if (session.current) {
    item.classList.add("is-current");
    item.querySelector(".session-current").hidden = false;
    seen.textContent = "지금 사용 중";
    end.remove();
  } else {
    seen.textContent = `마지막 사용 ${lastSeen(when)}`;
    end.setAttribute("aria-label", `${name} 로그아웃`);
    end.addEventListener("click", () => endSession(session, item, end, name));
  }
  return item;
}

async function loadSessions() {
  showError(sessionsError, "");
  sessionsRetry.hidden = true;
  sessionsLoading.hidden = false;
  sessionList.setAttribute("aria-busy", "true");
  try {
    const sessions = await api("GET", "/users/me/sessions");
    sessionList.replaceChildren(...sessionOrder(sessions).map(drawSession));
  } catch (failure) {
    showError(sessionsError, sentences("로그인한 기기를 불러오지 못했어요", failure.message));
    sessionsRetry.hidden = false;
  } finally {
    sessionsLoading.hidden = true;
    sessionList.setAttribute("aria-busy", "false");
  }
}

async function endSession(session, item, button, name) {
  button.disabled = true;
  try {
    await api("DELETE", `/users/me/sessions/${encodeURIComponent(session.id)}`);
  } catch (failure) {
    // 404: it ended meanwhile (logged out, expired, or ended from another page): it is gone either way.
    if (failure.status !== 404) {
      button.disabled = false;
      notify(sentences("로그아웃시키지 못했어요", failure.message), { kind: "error" });
      return;
    }
  }
  // The focus goes to the next row's button (or the one before), not to the page's top with the removed row.
  const neighbour = [item.nextElementSibling, item.previousElementSibling]
    .map((row) => row && row.querySelector(".session-end")).find(Boolean);
  item.remove();
  (neighbour || $("sessions-end-all")).focus();
  notify(`${name}에서 로그아웃시켰어요.`);
}

const sessionsDialog = $("sessions-dialog");
$("sessions-end-all").addEventListener("click", () => sessionsDialog.showModal());
sessionsDialog.addEventListener("close", async () => {
  if (sessionsDialog.returnValue !== "end") return;
  sessionsDialog.returnValue = "";
  try {
    await api("DELETE", "/users/me/sessions");
  } catch (failure) {
    notify(sentences("로그아웃시키지 못했어요", failure.message), { kind: "error" });
    return;
  }
  notify("다른 모든 기기와 앱에서 로그아웃시켰어요. 이 브라우저는 그대로예요.");
  await loadSessions();
});
sessionsRetry.addEventListener("click", loadSessions);

// ---- Deleting the account ---------------------------------------------------------------------------------

const deletion = $("delete-form");
const deletionPassword = $("delete-password");
const deletionDialog = $("account-delete-dialog");
const validateDeletion = checkedForm(deletion, new Map([[deletionPassword, rules.currentPassword]]));

// Resolves true when the dialog is closed with 삭제; Escape and 취소 are a no.
function confirmDeletion() {
  return new Promise((resolve) => {
    deletionDialog.returnValue = "";
    deletionDialog.addEventListener("close", () => resolve(deletionDialog.returnValue === "delete"), { once: true });
    deletionDialog.showModal();
  });
}

onSubmit(deletion, $("delete-error"), async () => {
  if (!validateDeletion()) throw new Error("");
  if (!(await confirmDeletion())) {
    setBusy(deletion, false);
    $("delete-submit").focus();
    return;
  }
  try {
    await api("DELETE", "/users/me", { password: deletionPassword.value });
  } catch (failure) {
    // Only the password can be "invalid" here.
    if (errorId(failure.body) === "Auth.form.error.invalid") {
      fieldError(deletionPassword, "비밀번호가 맞지 않아요.");
      deletionPassword.focus();
      throw new FieldRefusal();
    }
    refuse(failure, { "Auth.form.error.password.provide": deletionPassword });
  }
  // What this browser kept for the account goes with it, as at logging out.
  if (me) forgetAccountData(me.id);
  flashNext("계정을 삭제했어요.");
  location.assign("/");
});

// ---- On arrival ----------------------------------------------------------------------------------------------

// The email confirmation link lands here (`?confirmed=1`); the query goes, so a reload does not say it again.
const address = new URL(location.href);
if (address.searchParams.get("confirmed") === "1") {
  address.searchParams.delete("confirmed");
  history.replaceState(history.state, "", address.pathname + address.search + address.hash);
  notify("이메일 주소를 확인했어요.");
}
const pending = readPending();
if (pending && pending.email === saved.email) writePending(null); // confirmed: it is the account's address now
else showPending(pending && pending.email);

loadSessions();
