// Sprout web: the Diary ("일기장"). Plain JavaScript over the diary API (`/api/diary/entries…`) and `/api/weather`
// with the session cookie. Two screens, as in the app: the list (newest first, endless scrolling) and one editor for
// writing and editing, where the first line of the text is the title. The editor saves by itself: about a second
// after typing stops, and when the page is hidden or left (a `keepalive` request that outlives the page). A new
// entry gets its id here (a UUID) and is PUT, so a retried save can never make two entries. When a new entry is
// first saved, the weather where the visitor is (if the browser may tell) is attached once; it is never fetched
// again on edits, and nothing is made up when it cannot be had. Weather icons are drawn here (SVG), not loaded.
// Text the server has not confirmed is also kept in this browser (a draft in localStorage, per account), so a
// closed tab or a lost connection loses nothing: it is saved when the server answers again, from the editor or
// from the list, and the editor offers it back when the server's copy changed meanwhile. The editor also shows the
// versions the server kept of an entry ("이전 버전") and restores one, and offers to bring back a deleted entry.
// This module is the list and starts the page's screen; diary-editor.js is the other, with diary-drafts.js,
// diary-text.js, diary-weather.js and diary-common.js.

import { api } from "./site-api.js";
import { endlessList } from "./site-endless-list.js";
import { showError } from "./site-forms.js";
import { particle } from "./site-korean.js";
import { notify } from "./site-toast.js";
import { $, API, copyText, entryPath, logInAgain, PAGE_SIZE } from "./diary-common.js";
import { allDrafts, flushDraft, removeDraft } from "./diary-drafts.js";
import { firstLine, longDate, shareText, split } from "./diary-text.js";
import { drawWeather } from "./diary-weather.js";
import { setUpEditor } from "./diary-editor.js";
import { followDiary } from "./diary-live.js";

function setUpList() {
  const list = $("entry-list");
  const rowTemplate = $("entry-row");
  const loading = $("loading");
  const listEnd = $("list-end");
  const listEmpty = $("list-empty");
  const retry = $("retry");
  const notice = $("notice");
  const count = $("entry-count");
  const dialog = $("delete-dialog");
  // `offset` is where the next page starts; more is asked for while it is short of `total`.
  const state = { offset: 0, total: null };
  const finished = () => state.total !== null && state.offset >= state.total;
  // The entries shown, by id: what a row's share copies.
  const shown = new Map();
  let pendingDelete = null;

  const say = (text, kind = "success") => notify(text, { kind });

  function row(entry) {
    const item = rowTemplate.content.firstElementChild.cloneNode(true);
    shown.set(entry.id, entry);
    item.dataset.id = entry.id;
    item.querySelector(".diary-entry-link").href = `/diary/${entry.id}`;
    const title = item.querySelector(".diary-entry-title");
    title.textContent = entry.title;
    title.id = `entry-title-${entry.id}`;
    const date = item.querySelector(".diary-entry-date");
    date.textContent = longDate(entry.createdAt);
    date.dateTime = entry.createdAt;
    item.querySelector(".diary-entry-preview").textContent = firstLine(entry.body);
    drawWeather(item.querySelector(".diary-weather-icon"), entry.weather);
    // The buttons keep their short names and are described by the entry's title.
    for (const button of item.querySelectorAll("button")) button.setAttribute("aria-describedby", title.id);
    return item;
  }

  function updateFooter() {
    const rows = list.children.length;
    listEmpty.hidden = !(finished() && rows === 0);
    listEnd.hidden = !(finished() && rows > 0);
    count.textContent = state.total === null ? "" : `일기 ${state.total}개`;
  }

  const entries = endlessList({
    list, sentinel: $("sentinel"), loading, retry,
    isFinished: finished,
    fetchPage: () => api("GET", `${API}?${new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(state.offset) })}`),
    take(page) {
      state.offset += PAGE_SIZE;
      state.total = page.total;
      return page.entries;
    },
    idOf: (entry) => entry.id,
    row,
    failed(failure) {
      if (failure.status === 401) return logInAgain();
      showError(notice, `일기를 불러오지 못했어요. ${failure.message}`);
    },
    changed: updateFooter,
  });

  // Drafts still in this browser after trying to save them: said above the list, each a link to its editor
  // (which saves it, or asks when the server's copy changed meanwhile).
  function showDrafts() {
    const drafts = allDrafts();
    const box = $("drafts");
    box.hidden = drafts.length === 0;
    if (!drafts.length) return;
    $("drafts-text").textContent = `이 브라우저에 아직 서버에 저장되지 않은 일기가 ${drafts.length}개 있어요. 서버에 연결되면 저장돼요.`;
    $("drafts-list").replaceChildren(...drafts.map((draft) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/diary/${draft.id}`;
      link.textContent = split(draft.text).title.trim() || "(제목 없음)";
      item.append(link);
      return item;
    }));
  }

  // Saves what this browser still holds (a save cut off by leaving the editor, text written offline), then
  // lists from the top: the list then has the last save, whatever became of the editor's own request.
  let listing = null;
  function startOver() {
    if (listing) return listing;
    list.setAttribute("aria-busy", "true");
    listing = (async () => {
      const drafts = allDrafts();
      for (const draft of drafts) {
        if (await flushDraft(draft) === "offline") break;
      }
      showDrafts();
      state.offset = 0;
      state.total = null;
      shown.clear();
      showError(notice, "");
      entries.restart();
    })().finally(() => { listing = null; });
    return listing;
  }

  // ---- Share and delete, from the row

  list.addEventListener("click", async (event) => {
    const button = event.target.closest("button");
    const item = button && button.closest("li.diary-entry");
    if (!item) return;
    const entry = shown.get(item.dataset.id);
    if (!entry) return;
    if (button.matches(".diary-entry-share")) {
      const copied = await copyText(shareText(entry));
      if (copied) say(`${particle(`“${entry.title}”`, "을/를")} 복사했어요.`);
      else say("복사하지 못했어요. 이 브라우저가 클립보드를 쓰지 못하게 해요.", "error");
    } else if (button.matches(".diary-entry-delete")) {
      pendingDelete = item;
      dialog.returnValue = "";
      dialog.showModal();
    }
  });

  dialog.addEventListener("close", async () => {
    const item = pendingDelete;
    pendingDelete = null;
    if (!item) return;
    const deleteButton = item.querySelector(".diary-entry-delete");
    if (dialog.returnValue !== "delete") {
      deleteButton.focus();
      return;
    }
    const entry = shown.get(item.dataset.id);
    item.setAttribute("aria-busy", "true");
    try {
      // Names the version this row shows: if another device has changed the entry since, the server keeps it
      // (409) and the row is redrawn with what it now holds, rather than deleting text nobody here has seen.
      const base = entry.updatedAt ? `?${new URLSearchParams({ baseUpdatedAt: entry.updatedAt })}` : "";
      await api("DELETE", entryPath(entry.id) + base);
    } catch (failure) {
      item.removeAttribute("aria-busy");
      if (failure.status === 409) {
        try {
          const fresh = row(await api("GET", entryPath(entry.id)));
          item.replaceWith(fresh);
          fresh.querySelector(".diary-entry-delete").focus();
          say("다른 곳에서 고친 내용이 있어 지우지 않았어요. 최신 내용을 불러왔어요.", "error");
        } catch (reload) {
          say(`일기를 삭제하지 못했어요. ${reload.message}`, "error");
        }
        return;
      }
      if (failure.status !== 404) {
        say(`일기를 삭제하지 못했어요. ${failure.message}`, "error");
        deleteButton.focus();
        return;
      }
    }
    removeDraft(entry.id);
    // The deletion's live event may have taken the row away already (followDiary's remove, below): counted once.
    if (!item.isConnected) {
      say("일기를 삭제했어요.");
      return;
    }
    // Keyboard focus moves to the neighbouring row rather than falling off the page.
    const neighbour = item.nextElementSibling || item.previousElementSibling;
    const hadFocus = item.contains(document.activeElement) || document.activeElement === document.body;
    item.remove();
    shown.delete(entry.id);
    // The rows after it moved up by one on the server's pages.
    state.offset = Math.max(0, state.offset - 1);
    if (state.total !== null) state.total = Math.max(0, state.total - 1);
    updateFooter();
    if (hadFocus) (neighbour ? neighbour.querySelector(".diary-entry-link") : $("new-entry-link")).focus();
    say("일기를 삭제했어요.");
    entries.loadIfNearBottom();
  });

  retry.addEventListener("click", () => {
    showError(notice, "");
    entries.retry();
  });
  // Coming back to the list by the browser's Back button may show the page as it was left (the back/forward
  // cache): list again, so an entry saved since is there.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) startOver();
  });
  window.addEventListener("online", () => {
    if (allDrafts().length || !notice.hidden) startOver();
  });
  startOver();
  followDiary({
    rowFor: (id) => list.querySelector(`li.diary-entry[data-id="${CSS.escape(id)}"]`),
    redraw: (old, entry) => old.replaceWith(row(entry)),
    insert(entry) {
      // The newest entry: on top, and the server's pages moved down by one.
      entries.note(entry.id);
      list.prepend(row(entry));
      state.offset += 1;
      if (state.total !== null) state.total += 1;
      updateFooter();
    },
    remove(item) {
      item.remove();
      shown.delete(item.dataset.id);
      state.offset = Math.max(0, state.offset - 1);
      if (state.total !== null) state.total = Math.max(0, state.total - 1);
      updateFooter();
    },
    reload: startOver,
  });
}

if ($("diary-page")) setUpList();
if ($("diary-entry-page")) setUpEditor();
