// Sprout web, Diary: addresses, limits and timings its screens share, and copying to the clipboard.

export const $ = (id) => document.getElementById(id);
export const API = "/api/diary/entries";
export const PAGE_SIZE = 20;
export const SAVE_DELAY_MS = 1000;
export const TITLE_LIMIT = 1000;
// A `keepalive` request may carry at most 64 KiB (all such requests of the page together).
export const KEEPALIVE_LIMIT = 60 * 1024;

// While the server cannot be reached, saving is tried again after these waits (then every 30 s), and at once
// when the browser says it is back online.
export const RETRY_DELAYS_MS = [2000, 5000, 10000, 30000];

export const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));
export const entryPath = (id) => `${API}/${encodeURIComponent(id)}`;

// Copies `text`: the Clipboard API, else a hidden textarea and the old copy command.
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, the page not focused): try the old way.
  }
  const helper = document.createElement("textarea");
  helper.value = text;
  helper.setAttribute("readonly", "");
  helper.className = "clipboard-helper";
  document.body.append(helper);
  helper.select();
  let copied = false;
  try { copied = document.execCommand("copy"); } catch { copied = false; }
  helper.remove();
  return copied;
}
