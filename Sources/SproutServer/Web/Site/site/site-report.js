// Sprout web: 신고 (reporting an item to the moderators) and the mark on one's own hidden items, for the Community,
// Market and Board pages alike. A page renders the dialog (the `report-dialog` partial) and gives each 신고 button
// `data-report-kind` and `data-report-id` (reportTarget below); one listener here opens the dialog for any of them.
// The reason's rules are in site-report-rules.js (pure, tested with node).

import { api } from "./site-api.js";
import { showError } from "./site-forms.js";
import { notify } from "./site-toast.js";
import { REPORT_TITLES, reasonState, reportBody } from "./site-report-rules.js";

export const REPORTED = "신고가 접수됐어요. 운영진이 확인할게요.";
const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

// Shows `button` as the 신고 of one item, or hides it: nobody reports their own writing, and signed-out visitors
// cannot report at all (the API answers 401), so the page passes `shown` = signed in and not the author.
export function reportTarget(button, kind, id, shown) {
  button.dataset.reportKind = kind;
  button.dataset.reportId = String(id);
  button.setAttribute("aria-haspopup", "dialog");
  button.hidden = !shown;
}

// ---- The mark on an item its author sees although a moderator hid it --------------------------------

// Fills `slot` with the badge and the line saying why only the author sees the item, or empties it. The API marks
// such an item `"hidden": true`, and only in answers to its author (everyone else gets 404 or no row at all).
export function showHiddenMark(slot, item) {
  if (!(item && item.hidden === true)) {
    slot.replaceChildren();
    slot.hidden = true;
    return;
  }
  const badge = document.createElement("span");
  badge.className = "badge badge-hidden";
  badge.textContent = "숨김 처리됨";
  const why = document.createElement("span");
  why.className = "hidden-mark-text";
  why.textContent = "운영 정책에 따라 다른 사람에게는 보이지 않아요.";
  slot.replaceChildren(badge, " ", why);
  slot.hidden = false;
}

// ---- The dialog ---------------------------------------------------------------------------------------

function setUpDialog(dialog) {
  const $ = (id) => document.getElementById(id);
  const form = $("report-form");
  const reason = $("report-reason");
  const counter = $("report-length");
  const lengthError = $("report-length-error");
  const error = $("report-error");
  const submit = $("report-submit");
  const keys = $("report-keys");
  keys.textContent = keys.textContent.replace("Ctrl+Enter", IS_MAC ? "⌘+Enter" : "Ctrl+Enter");
  // What the open dialog reports ({kind, id, opener}); the reason typed stays while it is the same item.
  let target = null;
  let busy = false;

  function check() {
    const state = reasonState(reason.value);
    counter.textContent = state.counter;
    counter.classList.toggle("is-over", state.over);
    showError(lengthError, state.message);
    reason.setAttribute("aria-invalid", String(state.over));
    submit.disabled = busy || !state.sendable;
    return state;
  }

  function setBusy(value) {
    busy = value;
    form.dataset.busy = String(value);
    form.setAttribute("aria-busy", String(value));
    check();
  }

  function open(kind, id, opener) {
    if (!target || target.kind !== kind || target.id !== id) reason.value = "";
    target = { kind, id, opener };
    $("report-dialog-title").textContent = REPORT_TITLES[kind] || "신고";
    showError(error, "");
    setBusy(false);
    dialog.showModal();
    reason.focus();
  }

  // site.js watches every form with required fields and enables the button once the reason has text; this
  // listener, on the form too and added after site.js's, runs after it, so the length rule has the last word.
  form.addEventListener("input", check);
  reason.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.isComposing) return;
    event.preventDefault();
    if (!submit.disabled) form.requestSubmit(submit);
  });
  $("report-cancel").addEventListener("click", () => { if (!busy) dialog.close("cancel"); });
  // Escape closes it too, unless the report is on its way (its answer must find the dialog).
  dialog.addEventListener("cancel", (event) => { if (busy) event.preventDefault(); });
  dialog.addEventListener("close", () => target?.opener?.focus());

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy || !target || !check().sendable) return;
    setBusy(true);
    showError(error, "");
    try {
      await api("POST", "/api/reports", reportBody(target.kind, target.id, reason.value));
    } catch (failure) {
      setBusy(false);
      showError(error, `신고하지 못했어요. ${failure.message}`);
      reason.focus();
      return;
    }
    reason.value = "";
    setBusy(false);
    dialog.close("reported");
    notify(REPORTED);
  });

  return open;
}

const dialog = document.getElementById("report-dialog");
if (dialog) {
  const open = setUpDialog(dialog);
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-report-kind]");
    if (button && !button.hidden) open(button.dataset.reportKind, button.dataset.reportId, button);
  });
}
