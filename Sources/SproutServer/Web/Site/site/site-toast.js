// Sprout web: the toast, one message at a time, and messages carried over to the next page.

const FLASH_KEY = "sprout.flash";

// ---- Messages: Sprout.notify --------------------------------------------------------------------------

// One message at a time, in the toast at the bottom of the screen (#flash, a live region):
//   Sprout.notify("“장보기”를 삭제했어요.")                  a confirmation: fades after about 4 s
//   Sprout.notify("저장하지 못했어요. …", { kind: "error" })  a refusal: stays, with a close button
//   Sprout.flashNext(text[, { kind }])                        the same, shown on the next page (after location.assign)
//   Sprout.clearNotice()                                      takes down whatever is shown
// Each message replaces the one before. A confirmation waits while the pointer or the focus is on it, then
// fades; an error stays until the next message, its close button, or the next form sent with Sprout.onSubmit.
const NOTICE_DURATION = 4000;
const FADE = 400;
const notice = { timer: 0, fadeTimer: 0, remaining: 0, started: 0, paused: false };

function toastParts() {
  return { toast: document.getElementById("toast"), text: document.getElementById("flash") };
}

function stopTimers() {
  clearTimeout(notice.timer);
  clearTimeout(notice.fadeTimer);
  notice.timer = 0;
}

export function clearNotice() {
  const { toast, text } = toastParts();
  if (!toast) return;
  stopTimers();
  toast.hidden = true;
  toast.classList.remove("is-fading");
  text.hidden = true;
  text.textContent = "";
  delete toast.dataset.kind;
}

function fadeOut() {
  const { toast } = toastParts();
  notice.timer = 0;
  toast.classList.add("is-fading");
  notice.fadeTimer = setTimeout(clearNotice, FADE);
}

function startCountdown(milliseconds) {
  notice.remaining = milliseconds;
  notice.started = Date.now();
  notice.timer = setTimeout(fadeOut, milliseconds);
}

export function notify(message, { kind = "success" } = {}) {
  const { toast, text } = toastParts();
  if (!toast) return;
  stopTimers();
  notice.paused = false;
  if (!message) return clearNotice();
  const error = kind === "error";
  toast.classList.remove("is-fading");
  toast.dataset.kind = error ? "error" : "success";
  // Errors interrupt (alert); confirmations wait their turn (status).
  text.setAttribute("role", error ? "alert" : "status");
  toast.hidden = false;
  text.hidden = false;
  text.textContent = message;
  if (!error) startCountdown(NOTICE_DURATION);
}

export function setUpToast() {
  const { toast } = toastParts();
  if (!toast) return;
  const pause = () => {
    if (!notice.timer) return;
    clearTimeout(notice.timer);
    notice.timer = 0;
    notice.remaining = Math.max(1000, notice.remaining - (Date.now() - notice.started));
    notice.paused = true;
  };
  const resume = () => {
    if (!notice.paused || toast.matches(":hover") || toast.contains(document.activeElement)) return;
    notice.paused = false;
    if (toast.dataset.kind === "success" && !toast.hidden) startCountdown(notice.remaining);
  };
  toast.addEventListener("pointerenter", pause);
  toast.addEventListener("focusin", pause);
  toast.addEventListener("pointerleave", resume);
  toast.addEventListener("focusout", () => setTimeout(resume));
  document.getElementById("toast-close").addEventListener("click", clearNotice);
}

// ---- One-time messages across a page change ("비밀번호를 바꿨어요.", then the feed) ----------------

export function flashNext(message, { kind = "success" } = {}) {
  try { sessionStorage.setItem(FLASH_KEY, JSON.stringify({ message, kind })); } catch { /* private mode: the message is only lost */ }
}

export function showFlash() {
  let stored = null;
  try {
    stored = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
  } catch { return; }
  if (!stored) return;
  let flash;
  try { flash = JSON.parse(stored); } catch { flash = { message: stored }; }
  if (typeof flash === "string") flash = { message: flash };
  if (flash && flash.message) notify(flash.message, { kind: flash.kind });
}
