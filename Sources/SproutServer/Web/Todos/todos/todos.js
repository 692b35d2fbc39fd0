// Sprout web: the Todos app. Plain JavaScript over the JSON API at /api/v2 (no framework, no build step).
// This module holds what the visitor does (add, complete, star, delete) and wires the page; todos-listing.js
// lists, todos-rows.js draws the rows, todos-edit.js edits a title in place, todos-page.js holds the page's parts
// and state, todos-rules.js the title and date rules, todos-api.js the API.

import { api } from "./todos-api.js";
import { checkTitle, startEdit } from "./todos-edit.js";
import { loadMore, removeRow, startListing, updateFooter } from "./todos-listing.js";
import {
  createError, createForm, createSubmit, dialog, dialogName, favourites, favouritesOnly, hideDone, hideError, list,
  newTitle, newTitleCount, readOnly, retry, say, searchClear, searchForm, searchQuery, sentinel, setFavourite,
  showCreateError, showError, state,
} from "./todos-page.js";
import { fillRow, makeRow, rowTitle, showStar } from "./todos-rows.js";
import { followTodos } from "./todos-live.js";
import { quoted, titleValid, todoFits } from "./todos-rules.js";

// ---- Actions ------------------------------------------------------------------------------------

let creating = false;
const checkNewTitle = () => checkTitle(newTitle, createSubmit, createError, newTitleCount, creating);

async function create(event) {
  event.preventDefault();
  if (creating || !titleValid(newTitle.value)) return;
  hideError();
  creating = true;
  createSubmit.disabled = true;
  try {
    const body = await api("/todos-json", { method: "POST", body: JSON.stringify({ title: newTitle.value, is_done: false }) });
    const todo = body.data;
    newTitle.value = "";
    showCreateError("");
    // A new todo is the newest, so it goes on top, when it belongs in what is shown.
    // The stream (todos-live.js) may have put it there first.
    const shown = list.querySelector(`li.todo[data-id="${todo.id}"]`);
    if (shown) {
      fillRow(shown, todo);
    } else if (todoFits(todo, state)) {
      list.prepend(makeRow(todo));
      if (state.total !== null) state.total += 1;
      updateFooter();
    }
    say(`${quoted(todo.title, "을/를")} 추가했어요.`);
  } catch (error) {
    showCreateError(error.message);
    creating = false;
    createSubmit.disabled = !titleValid(newTitle.value);
    newTitle.focus();
    return;
  }
  creating = false;
  checkNewTitle();
  newTitle.focus();
}

async function toggleDone(row, checkbox) {
  const isDone = checkbox.checked;
  hideError();
  row.setAttribute("aria-busy", "true");
  try {
    const body = await api(`/todos/${row.dataset.id}`, { method: "PUT", body: JSON.stringify({ is_done: isDone }) });
    fillRow(row, body.data);
    if (state.hideDone && body.data.is_done) {
      removeRow(row);
      say("완료했어요. 완료한 할 일은 숨겨져요.");
    } else {
      say(isDone ? "완료로 표시했어요." : "완료 표시를 지웠어요.");
    }
  } catch (error) {
    checkbox.checked = !isDone;
    showError(error.message);
  } finally {
    row.removeAttribute("aria-busy");
  }
}

function toggleStar(row) {
  const id = Number(row.dataset.id);
  const on = !favourites().has(id);
  setFavourite(id, on);
  showStar(row, on);
  say(on ? "즐겨찾기에 넣었어요." : "즐겨찾기에서 뺐어요.");
  if (state.favouritesOnly && !on) removeRow(row);
}

let pendingDelete = null;

function askDelete(row) {
  pendingDelete = row;
  dialogName.textContent = rowTitle(row);
  dialog.returnValue = "";
  dialog.showModal();
}

async function dialogClosed() {
  const row = pendingDelete;
  pendingDelete = null;
  if (!row) return;
  if (dialog.returnValue !== "delete") {
    row.querySelector(".todo-delete").focus();
    return;
  }
  hideError();
  try {
    const body = await api(`/todos/${row.dataset.id}`, { method: "DELETE" });
    setFavourite(body.data.id, false);
    removeRow(row);
    say(`${quoted(body.data.title, "을/를")} 삭제했어요.`);
  } catch (error) {
    showError(error.message);
    row.querySelector(".todo-delete").focus();
  }
}

// ---- Wiring -------------------------------------------------------------------------------------

if (createForm) {
  createForm.addEventListener("submit", create);
  newTitle.addEventListener("input", checkNewTitle);
  checkNewTitle();
}

searchForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const query = searchQuery.value.trim();
  searchClear.hidden = !query;
  if (query === state.query) return;
  state.query = query;
  startListing();
});

// Emptying the box (by typing or with its own clear control) goes back to the whole list.
searchQuery.addEventListener("input", () => {
  if (searchQuery.value.trim() === "" && state.query) {
    state.query = "";
    searchClear.hidden = true;
    startListing();
  }
});

searchClear.addEventListener("click", () => {
  searchQuery.value = "";
  searchClear.hidden = true;
  state.query = "";
  startListing();
  searchQuery.focus();
});

hideDone.addEventListener("change", () => {
  state.hideDone = hideDone.checked;
  startListing();
});

favouritesOnly.addEventListener("change", () => {
  state.favouritesOnly = favouritesOnly.checked;
  startListing();
});

list.addEventListener("change", (event) => {
  if (!readOnly && event.target.matches(".todo-done")) toggleDone(event.target.closest("li.todo"), event.target);
});

list.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  const row = button && button.closest("li.todo");
  if (!row) return;
  if (button.matches(".todo-star")) toggleStar(row);
  else if (readOnly) return;
  else if (button.matches(".todo-edit")) startEdit(row);
  else if (button.matches(".todo-delete")) askDelete(row);
});

if (dialog) dialog.addEventListener("close", dialogClosed);

retry.addEventListener("click", () => {
  state.failed = false;
  hideError();
  loadMore();
});

// The next page loads as the sentinel under the list comes within 200px of the viewport.
new IntersectionObserver((entries) => {
  if (entries.some((entry) => entry.isIntersecting)) loadMore();
}, { rootMargin: "0px 0px 200px 0px" }).observe(sentinel);

// Form controls may keep their state across a reload; start from what they show.
state.hideDone = hideDone.checked;
state.favouritesOnly = favouritesOnly.checked;
state.query = searchQuery.value.trim();
searchClear.hidden = !state.query;
startListing();
followTodos();
