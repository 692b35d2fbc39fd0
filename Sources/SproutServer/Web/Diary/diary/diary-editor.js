// Sprout web, Diary: the editor, for writing and editing, where the first line of the text is the title. This module
// holds its state, draws it, keeps the unsaved text as a draft, and wires its buttons; diary-saving.js saves (and
// attaches the weather to a new entry once), diary-opening.js opens an entry or a draft, diary-versions.js shows
// the versions the server kept. They share the editor's parts through one object, `ed`.

import { api } from "./site-api.js";
import { showError } from "./site-forms.js";
import { flashNext } from "./site-toast.js";
import { $, copyText, entryPath, TITLE_LIMIT } from "./diary-common.js";
import { removeDraft, writeDraft } from "./diary-drafts.js";
import { opening } from "./diary-opening.js";
import { saving } from "./diary-saving.js";
import { hasTitle, keyOf, longDate, shareText, split, titleTooLong } from "./diary-text.js";
import { setUpVersions } from "./diary-versions.js";
import { drawWeather, temperature } from "./diary-weather.js";

// A version 4 UUID; `crypto.randomUUID` exists only on secure origins (https, localhost).
function newUUID() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function setUpEditor() {
  const page = $("diary-entry-page");
  const editor = $("editor");
  const text = $("entry-text");
  const status = $("save-status");
  const saveError = $("save-error");
  const notice = $("notice");
  const deleteButton = $("delete-button");
  const shareButton = $("share-button");
  const dialog = $("delete-dialog");
  const weatherLine = $("weather");
  const versionsButton = $("versions-button");
  const existing = page.dataset.entryId || null;

  const state = {
    id: existing || newUUID(),
    // Whether the server has the entry (it was opened, or a save created it).
    onServer: Boolean(existing),
    loaded: !existing,
    createdAt: existing ? null : new Date().toISOString(),
    // The `updatedAt` of the last answer, sent back as `baseUpdatedAt`.
    updatedAt: null,
    weather: null,
    // Only a new entry asks for the weather, once, after its first save; fetched weather waits here to be saved.
    weatherWanted: !existing,
    pendingWeather: null,
    weatherNote: "",
    saved: keyOf({ title: "", body: "" }),
    sending: new Set(),
    timer: null,
    failure: null,
    deleted: false,
    // Saves run one after another.
    chain: Promise.resolve(true),
    // Whether the unsaved text is kept in this browser (false only when storage refused it).
    draftKept: true,
    retryTimer: null,
    retries: 0,
    // A draft this browser kept that the server's copy does not match, offered to the visitor.
    offered: null,
  };

  const current = () => split(text.value);
  const isSaved = () => keyOf(current()) === state.saved && !state.pendingWeather;
  const offline = () => state.failure && state.failure.status === 0;
  // Text that is typed but can never be saved as it is: no title, something below it.
  const unsaveable = () => { const parts = current(); return !hasTitle(parts) && (parts.title + parts.body).trim().length > 0; };

  // ---- What the page shows

  function render() {
    const parts = current();
    const preview = $("title-preview");
    preview.textContent = hasTitle(parts) ? parts.title : "첫 줄을 쓰면 제목이 돼요";
    preview.classList.toggle("is-empty", !hasTitle(parts));
    document.title = `${hasTitle(parts) ? parts.title : existing ? "일기" : "새 일기"} · Sprout`;

    const date = $("entry-date-time");
    date.textContent = longDate(state.createdAt);
    date.dateTime = state.createdAt || "";

    deleteButton.hidden = !state.onServer;
    versionsButton.hidden = !state.onServer || state.deleted;
    shareButton.disabled = !(parts.title + parts.body).trim();

    let message = "";
    let kind = "";
    if (state.deleted || !state.loaded) {
      message = "";
    } else if (state.sending.size > 0) {
      [message, kind] = ["저장 중…", "saving"];
    } else if (state.failure) {
      [message, kind] = ["저장 안 됨", "error"];
    } else if (!hasTitle(parts)) {
      if (unsaveable()) [message, kind] = ["첫 줄(제목)이 비어 있어 저장하지 않았어요.", "warning"];
      else if (state.onServer) [message, kind] = ["첫 줄(제목)이 비어 있어 저장하지 않았어요.", "warning"];
    } else if (titleTooLong(parts)) {
      [message, kind] = [`제목(첫 줄)은 ${TITLE_LIMIT.toLocaleString("ko-KR")}자까지예요. 저장하지 않았어요.`, "warning"];
    } else if (isSaved()) {
      [message, kind] = state.onServer ? ["저장됨", "saved"] : ["", ""];
    } else {
      [message, kind] = ["저장 중…", "saving"];
    }
    status.textContent = message;
    status.dataset.state = kind;
    const kept = state.draftKept ? " 이 브라우저에도 보관해 두어서 창을 닫아도 잃지 않아요." : "";
    const later = offline() ? " 서버에 다시 연결되면 저장할게요." : "";
    showError($("save-error-text"), state.failure ? `저장하지 못했어요. 글은 이 화면에 그대로 있어요.${kept}${later} ${state.failure.message}` : "");
    saveError.hidden = !state.failure || state.deleted;
  }

  function showWeather() {
    const weather = state.weather;
    drawWeather($("weather-icon"), weather);
    const line = $("weather-text");
    if (weather) {
      // The contract's weather is {main, icon}: description and tempC are extras an entry may lack.
      const words = weather.description || weather.main;
      line.textContent = typeof weather.tempC === "number" ? `${words} · ${temperature(weather.tempC)}` : words;
      weatherLine.classList.remove("is-missing");
      weatherLine.hidden = false;
    } else if (state.weatherNote) {
      line.textContent = state.weatherNote;
      weatherLine.classList.add("is-missing");
      weatherLine.hidden = false;
    } else {
      weatherLine.hidden = true;
    }
  }

  // ---- Keeping the unsaved text in this browser

  // Called after every change and every answer: the text the server has not confirmed is kept as a draft; once it
  // has (or there is nothing to keep), the draft goes.
  function keepDraft() {
    if (state.deleted || !state.loaded || state.offered) return;
    const parts = current();
    const empty = !(parts.title + parts.body).trim();
    if (isSaved() || (empty && !state.onServer)) {
      removeDraft(state.id);
      state.draftKept = true;
      return;
    }
    state.draftKept = writeDraft({
      id: state.id, text: text.value, createdAt: state.createdAt, baseUpdatedAt: state.updatedAt,
      onServer: state.onServer, weather: state.pendingWeather,
    });
  }

  // The parts the other editor modules use; `save` and the rest are added as those modules set up.
  const ed = { state, text, editor, notice, current, isSaved, offline, render, showWeather, keepDraft };
  Object.assign(ed, saving(ed));
  Object.assign(ed, opening(ed));
  setUpVersions(ed);
  const { save, scheduleSave, saveOnLeave, showEntry, load, resumeNewDraft } = ed;

  // ---- Events

  text.addEventListener("input", () => {
    render();
    keepDraft();
    scheduleSave();
  });
  window.addEventListener("online", () => {
    if (state.failure && offline()) save();
  });
  $("save-retry").addEventListener("click", () => { save(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") saveOnLeave();
  });
  window.addEventListener("pagehide", saveOnLeave);
  // Text that did not reach the server (a failed save, or no title to save it by) is not left silently.
  // Once it is kept in this browser it is not lost by leaving, so only text that could not be kept asks.
  window.addEventListener("beforeunload", (event) => {
    if (state.deleted || !state.loaded) return;
    if (((state.failure && !isSaved()) || unsaveable()) && !state.draftKept) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
  // Back to the list only once the text is saved; a failure keeps the visitor here, with the error.
  $("back-link").addEventListener("click", async (event) => {
    if (state.deleted || !state.loaded || isSaved() || !hasTitle(current())) return;
    event.preventDefault();
    if (await save()) location.assign("/diary");
  });

  shareButton.addEventListener("click", async () => {
    const copied = await copyText(shareText(current()));
    const feedback = $("share-feedback");
    feedback.textContent = copied ? "복사됨" : "복사하지 못했어요";
    feedback.dataset.state = copied ? "saved" : "error";
    clearTimeout(feedback.timer);
    feedback.timer = setTimeout(() => { feedback.textContent = ""; }, 3000);
  });

  // After a refused deletion: the entry as the server has it now, in place of what the page showed, and why
  // nothing was deleted. False when it cannot be read (then the deletion is reported as it stands).
  async function showChangedEntry() {
    let entry;
    try {
      entry = await api("GET", entryPath(state.id));
    } catch {
      return false;
    }
    state.deleted = false;
    state.failure = null;
    clearTimeout(state.retryTimer);
    showEntry(entry);
    keepDraft();
    showError(notice, "다른 곳에서 고친 내용이 있어 지우지 않았어요. 최신 내용을 불러왔어요.");
    return true;
  }

  deleteButton.addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "delete") return;
    dialog.returnValue = "";
    clearTimeout(state.timer);
    clearTimeout(state.retryTimer);
    state.deleted = true;
    render();
    showError(notice, "");
    // A save still on its way would bring the entry back after the deletion.
    await state.chain;
    // The deletion names the version this page shows: if another device has written the entry since, the server
    // refuses (409) rather than delete text the visitor never saw.
    const base = state.updatedAt ? `?${new URLSearchParams({ baseUpdatedAt: state.updatedAt })}` : "";
    try {
      await api("DELETE", entryPath(state.id) + base);
    } catch (failure) {
      if (failure.status === 409 && await showChangedEntry()) return;
      if (failure.status !== 404) {
        state.deleted = false;
        render();
        showError(notice, `일기를 삭제하지 못했어요. ${failure.message}`);
        return;
      }
    }
    removeDraft(state.id);
    flashNext("일기를 삭제했어요.");
    location.assign("/diary");
  });

  render();
  if (existing) {
    load();
  } else {
    resumeNewDraft();
    text.focus();
  }
}
