// Sprout web: what every page runs first (the layout loads it before the page's own module), and `window.Sprout`,
// the shared helpers for the browser tests and the console. The page modules import the helpers from their modules:
// - site-api.js: api(), JSON to and from this site, every refusal in Korean (site-errors.js: errorMessage, errorId);
// - site-toast.js: notify() / flashNext() / clearNotice(), one message at a time in the toast;
// - site-korean.js: particle() and sentences();
// - site-forms.js: forms whose submit button waits for the required fields, fieldError(), onSubmit();
// - site-not-found.js, site-endless-list.js, site-dates.js (formatDate);
// - site-visitor.js: me and accountKey(), per-account localStorage keys, which signing out removes.
// This module itself sets up the header: the phone menu, the log-out button (with its confirmation), sign-up links
// that come back.

import { api, ApiError } from "./site-api.js";
import { endlessList } from "./site-endless-list.js";
import { errorId, errorMessage } from "./site-errors.js";
import { fieldError, onSubmit, refreshForm, setBusy, showError, watchForm } from "./site-forms.js";
import { formatDate } from "./site-dates.js";
import { particle, sentences } from "./site-korean.js";
import { notFound } from "./site-not-found.js";
import { clearNotice, flashNext, notify, setUpToast, showFlash } from "./site-toast.js";
import { accountKey, forgetAccountData, me } from "./site-visitor.js";

function setUpLogout() {
  const button = document.getElementById("logout-button");
  const dialog = document.getElementById("logout-dialog");
  const error = document.getElementById("logout-error");
  if (!button || !dialog) return;
  button.addEventListener("click", () => {
    showError(error, "");
    dialog.showModal();
  });
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "logout") {
      // Back to the button, or to the menu button when the menu that held it has closed (phone).
      (button.offsetParent ? button : document.getElementById("menu-button") || button).focus();
      return;
    }
    dialog.returnValue = "";
    try {
      await api("DELETE", "/web/session");
    } catch (failure) {
      showError(error, failure.message);
      dialog.showModal();
      return;
    }
    if (me) forgetAccountData(me.id);
    flashNext("로그아웃했어요.");
    // As the app did: back to the start page.
    location.assign("/");
  });
}

// ---- The header's menu (phones) ------------------------------------------------------------------------

// Below 641 px the header is one row: the brand and a menu button that opens the apps and the account links.
// The button says whether it is open (aria-expanded); Escape closes it and puts the focus back on the button, as
// do a click elsewhere, the focus leaving the header, and a window that grows wide enough to show everything.
function setUpMenu() {
  const button = document.getElementById("menu-button");
  const header = button && button.closest(".site-header");
  if (!header) return;
  const label = button.querySelector(".visually-hidden");
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  const setOpen = (open) => {
    button.setAttribute("aria-expanded", String(open));
    header.classList.toggle("is-menu-open", open);
    label.textContent = open ? "메뉴 닫기" : "메뉴";
  };
  button.addEventListener("click", () => setOpen(!isOpen()));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !isOpen() || document.querySelector("dialog[open]")) return;
    setOpen(false);
    button.focus();
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !header.contains(event.target)) setOpen(false);
  });
  header.addEventListener("focusout", (event) => {
    if (isOpen() && event.relatedTarget && !header.contains(event.relatedTarget)) setOpen(false);
  });
  document.getElementById("logout-button")?.addEventListener("click", () => setOpen(false));
  matchMedia("(min-width: 641px)").addEventListener("change", (query) => { if (query.matches) setOpen(false); });
}

// ---- Sign-up links come back --------------------------------------------------------------------------

// Every link to the sign-up page carries `next`: the log-in or sign-up page's own `next`, else this page. The
// server writes it where it renders the link; this covers the rest (the log-in prompts of every app).
function carryNextToSignUp() {
  const form = document.querySelector("#login-form, #signup-form");
  const next = (form && form.dataset.next) || location.pathname + location.search;
  for (const link of document.querySelectorAll('a[href^="/account/signup"]')) {
    const url = new URL(link.getAttribute("href"), location.origin);
    if (url.searchParams.has("next")) continue;
    // Encoded as the server writes it: slashes stay readable.
    const query = url.search ? `${url.search}&` : "?";
    link.setAttribute("href", `${url.pathname}${query}next=${encodeURIComponent(next).replace(/%2F/g, "/")}`);
  }
}

window.Sprout = {
  api, ApiError, errorMessage, errorId, formatDate, flashNext, notify, clearNotice, watchForm, refreshForm, setBusy,
  showError, fieldError, onSubmit, endlessList, notFound, particle, sentences, accountKey, me,
};

setUpToast();
setUpMenu();
setUpLogout();
carryNextToSignUp();
showFlash();

for (const form of document.querySelectorAll("form[novalidate]")) {
  if (form.querySelector("[required]")) watchForm(form);
}
