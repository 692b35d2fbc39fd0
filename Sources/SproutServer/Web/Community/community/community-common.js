// Sprout web, Community: what its screens share. Addresses and texts, times kept current while the page is open,
// text lengths counted as the server counts them, and Ctrl+Enter to send.

import { formatDate } from "./site-dates.js";
import { showError } from "./site-forms.js";
import { me } from "./site-visitor.js";
import { relativeTime } from "./community-time.js";

export const $ = (id) => document.getElementById(id);
export const PAGE_SIZE = 20;
// The server's limits (CommunityInput.swift), in characters as Swift counts them: grapheme clusters.
const RELATIVE_REFRESH_MS = 30 * 1000;
const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));
// A list call refused for want of a session means the session ended (logged out elsewhere, expired):
// as the app returned to its start page, the web app asks to log in again.
export const sessionEnded = (failure) => failure.status === 401 || failure.status === 403;

// What the not-found panel says on a post's page or its edit form when the API has no such post.
export const POST_GONE = "게시물을 찾을 수 없어요. 삭제되었을 수 있어요.";

export const isMine = (entity) => me !== null && entity && entity.user && entity.user.id === me.id;

// ---- Times: relative while recent (community-time.js), kept current ---------------------------------

// Fills a <time> for `entity`: relative text, `datetime`, and the full date (and the edit's) in its title.
export function showTime(element, entity) {
  const created = new Date(entity.created_at);
  const edited = entity.updated_at && entity.updated_at !== entity.created_at;
  element.dateTime = entity.created_at;
  element.dataset.relative = "true";
  element.dataset.edited = edited ? "true" : "false";
  element.title = edited ? `${formatDate(entity.created_at)} (수정: ${formatDate(entity.updated_at)})` : formatDate(entity.created_at);
  element.textContent = Number.isNaN(created.getTime()) ? "" : relativeTime(created) + (edited ? " (수정됨)" : "");
}

function refreshTimes() {
  const now = new Date();
  for (const element of document.querySelectorAll("time[data-relative]")) {
    const created = new Date(element.dateTime);
    if (Number.isNaN(created.getTime())) continue;
    element.textContent = relativeTime(created, now) + (element.dataset.edited === "true" ? " (수정됨)" : "");
  }
}

setInterval(refreshTimes, RELATIVE_REFRESH_MS);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refreshTimes();
});

// ---- Text lengths: counted as the server counts them, with the limit shown as one types ---------------

const segmenter = typeof Intl.Segmenter === "function" ? new Intl.Segmenter("ko", { granularity: "grapheme" }) : null;
function characters(text) {
  if (!segmenter) return [...text].length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}

// Shows `field`'s length against its `data-max-length` in the form's `.length-counter`, says so in its
// `.length-error` when it is over, and keeps the submit button disabled meanwhile (after site.js has had its say
// about empty fields: this listener is added after site.js's own).
export function guardLength(form, field) {
  const max = Number(field.dataset.maxLength);
  const counter = form.querySelector(".length-counter");
  const error = form.querySelector(".length-error");
  const submit = form.querySelector('button[type="submit"]');
  const over = () => characters(field.value) > max;
  function check() {
    const length = characters(field.value);
    counter.textContent = `${length.toLocaleString("ko-KR")}/${max.toLocaleString("ko-KR")}`;
    counter.classList.toggle("is-over", length > max);
    const message = length > max ? `${max.toLocaleString("ko-KR")}자까지 쓸 수 있어요. ${(length - max).toLocaleString("ko-KR")}자를 줄여 주세요.` : "";
    showError(error, message);
    field.setAttribute("aria-invalid", String(length > max));
    if (length > max) submit.disabled = true;
  }
  form.addEventListener("input", check);
  // Checked again right before sending, in case something (a failed send) enabled the button meanwhile.
  form.addEventListener("submit", (event) => {
    if (over()) {
      event.preventDefault();
      event.stopImmediatePropagation();
      check();
    }
  }, { capture: true });
  check();
  return check;
}

// Ctrl+Enter (⌘+Enter on a Mac) sends `form` from `field`, when its button may be pressed.
export function sendWithKeys(form, field, hint) {
  if (hint) hint.textContent = hint.textContent.replace("Ctrl+Enter", IS_MAC ? "⌘+Enter" : "Ctrl+Enter");
  field.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.isComposing) return;
    event.preventDefault();
    const submit = form.querySelector('button[type="submit"]');
    if (submit && !submit.disabled) form.requestSubmit(submit);
  });
}
