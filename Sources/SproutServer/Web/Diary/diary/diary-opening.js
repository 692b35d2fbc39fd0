// Sprout web, Diary: opening an entry in the editor, from the server or from a draft this browser kept, and asking
// what to do with a draft the server's copy no longer matches. `opening(ed)` gets the editor's parts
// (diary-editor.js, with `save` from diary-saving.js) and gives back what the editor calls.

import { api } from "./site-api.js";
import { showError } from "./site-forms.js";
import { notFound } from "./site-not-found.js";
import { $, entryPath, logInAgain } from "./diary-common.js";
import { allDrafts, readDraft, removeDraft, sameText } from "./diary-drafts.js";
import { joined, keyOf, split } from "./diary-text.js";
import { offerDeletedEntry } from "./diary-versions.js";

export function opening(ed) {
  const { state, text, editor, notice, render, showWeather, keepDraft, save } = ed;

  const keptAt = (draft) => {
    const date = new Date(draft.keptAt);
    return Number.isNaN(date.getTime()) ? "" : date.toLocaleString("ko-KR", { dateStyle: "long", timeStyle: "short" });
  };

  function showEntry(entry) {
    text.value = joined(entry);
    state.saved = keyOf(split(text.value));
    state.updatedAt = entry.updatedAt;
    state.createdAt = entry.createdAt;
    state.weather = entry.weather || null;
    state.weatherNote = entry.weather ? "" : "날씨 없음";
    state.loaded = true;
    editor.hidden = false;
    showWeather();
    render();
  }

  // Says something about a kept draft above the editor; with `choices`, its two buttons are shown.
  function showRestore(message, choices) {
    $("restore-text").textContent = message;
    $("restore-use").hidden = !choices;
    $("restore-discard").hidden = !choices;
    $("restore").hidden = false;
  }

  function hideRestore() {
    $("restore").hidden = true;
  }

  // The draft's text becomes the editor's, to be saved now (or, offline, as soon as the server answers).
  function useDraft(draft) {
    state.offered = null;
    text.value = draft.text;
    if (draft.weather && !state.weather) state.pendingWeather = draft.weather;
    state.loaded = true;
    editor.hidden = false;
    showWeather();
    render();
    keepDraft();
    save();
  }

  // Opens the entry from the draft alone: the server cannot be reached, or never had this new entry.
  function openDraft(draft, onServer) {
    state.onServer = onServer;
    state.createdAt = draft.createdAt || state.createdAt || new Date().toISOString();
    state.updatedAt = onServer ? draft.baseUpdatedAt : null;
    state.weatherWanted = !onServer && !draft.weather;
    // Nothing is known to be saved: the draft's text is what must reach the server.
    state.saved = keyOf({ title: "", body: "" });
    useDraft(draft);
  }

  // Asks what to do with a draft that cannot simply be saved (the server's copy changed or went meanwhile).
  function offerDraft(draft, message) {
    state.offered = draft;
    showRestore(message, true);
    $("restore-use").onclick = () => {
      hideRestore();
      if (!state.loaded) openDraft(draft, false);
      else useDraft(draft);
      notice.hidden = true;
      text.focus();
    };
    $("restore-discard").onclick = () => {
      state.offered = null;
      removeDraft(draft.id);
      hideRestore();
      keepDraft();
      (state.loaded ? text : $("back-link")).focus();
    };
  }

  async function load() {
    const draft = readDraft(state.id);
    let entry;
    try {
      entry = await api("GET", entryPath(state.id));
    } catch (failure) {
      $("loading").hidden = true;
      if (failure.status === 401) return logInAgain();
      if (draft && failure.status === 0) {
        // Offline: this browser's copy is the latest text there is; it is saved once the server answers.
        openDraft(draft, draft.onServer);
        showRestore(`서버에 연결할 수 없어서 이 브라우저에 보관한 글(${keptAt(draft)})을 열었어요. 연결되면 저장할게요.`, false);
        return;
      }
      if (draft && failure.status === 404 && !draft.onServer) {
        // A new entry whose first save never reached the server.
        openDraft(draft, false);
        showRestore(`저장되지 않았던 글(${keptAt(draft)})을 이 브라우저에서 되살렸어요.`, false);
        return;
      }
      // Neither the server nor this browser has anything under this id: the site's not-found panel, as the server
      // draws it for a malformed one.
      if (!draft && failure.status === 404) {
        notFound("일기를 찾을 수 없어요. 삭제되었을 수 있어요.");
        return offerDeletedEntry(state.id);
      }
      showError(notice, failure.status === 404 ? "일기를 찾을 수 없어요. 삭제되었을 수 있어요."
        : `일기를 불러오지 못했어요. ${failure.message}`);
      if (draft && failure.status === 404) {
        offerDraft(draft, `이 일기는 다른 곳에서 삭제되었지만, 이 브라우저에 저장되지 않은 글(${keptAt(draft)})이 남아 있어요. 되살릴까요?`);
      }
      return;
    }
    $("loading").hidden = true;
    showEntry(entry);
    if (!draft) return;
    if (sameText(draft, entry)) {
      // It reached the server after all (a save on leaving whose answer the page never saw).
      removeDraft(state.id);
    } else if (draft.baseUpdatedAt === entry.updatedAt) {
      // Written on the copy the server still has: nothing is overwritten by saving it.
      useDraft(draft);
      showRestore(`저장되지 않았던 글(${keptAt(draft)})을 이 브라우저에서 되살려 저장했어요.`, false);
    } else {
      offerDraft(draft, `이 브라우저에 저장되지 않은 글(${keptAt(draft)})이 있는데, 그 뒤에 다른 곳에서 고친 글이 서버에 있어요. 지금 보이는 것은 서버의 글이에요. 이 브라우저의 글을 불러올까요? (서버의 글은 지난 버전으로 남아요)`);
    }
  }

  // /diary/new with a new entry this browser kept but the server never confirmed: that entry is continued
  // (and saved) rather than started again; "새 일기 따로 쓰기" (`?fresh`) starts a blank one instead.
  function resumeNewDraft() {
    if (new URLSearchParams(location.search).has("fresh")) return false;
    const draft = allDrafts().find((candidate) => !candidate.onServer);
    if (!draft) return false;
    state.id = draft.id;
    openDraft(draft, false);
    showRestore(`저장되지 않았던 새 일기(${keptAt(draft)})를 이어서 써요.`, false);
    const fresh = document.createElement("a");
    fresh.href = "/diary/new?fresh";
    fresh.id = "restore-fresh";
    fresh.className = "button button-small button-quiet";
    fresh.textContent = "새 일기 따로 쓰기";
    $("restore-text").append(" ", fresh);
    return true;
  }

  return { showEntry, load, resumeNewDraft };
}
