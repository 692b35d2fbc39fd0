// Sprout web: the Todos app. Plain JavaScript over the JSON API at /api/v2 (no framework, no build step).
"use strict";

(() => {
  const API = "/api/v2";
  // particle("“장보기”", "을/를") → "“장보기”를"; notify(): confirmations in the page's toast, fading by themselves.
  const { particle, notify } = window.Sprout;
  // A title quoted in a message, cut to 30 characters (a 255-character title would fill the screen), with the
  // particle its whole text takes: quoted("장보기 목록", "을/를") → "“장보기 목록”을".
  function quoted(title, pair) {
    const whole = particle(`“${title}”`, pair);
    const chars = [...title];
    if (chars.length <= 30) return whole;
    return `“${chars.slice(0, 30).join("")}…”${whole.slice(`“${title}”`.length)}`;
  }
  const PER_PAGE = 10;
  // Favourites live in this browser only, as REST_TODO kept them on the phone: a list of todo ids.
  const FAVOURITES_KEY = "sprout.todos.favourites";

  const $ = (id) => document.getElementById(id);
  // Signed-out visitors read the shared list only: the page has no form and its rows no controls that change it
  // (the API still takes anonymous writes, as the apps' learning contract says; only the page is read-only).
  const readOnly = $("todos-page").dataset.readOnly === "true";
  const list = $("todo-list");
  const count = $("todo-count");
  const loading = $("loading");
  const listEnd = $("list-end");
  const listEmpty = $("list-empty");
  const retry = $("retry");
  const sentinel = $("sentinel");
  const notice = $("notice");
  const createForm = $("create-form");
  const newTitle = $("new-title");
  const createError = $("create-error");
  const createSubmit = $("create-submit");
  const newTitleCount = $("new-title-count");
  const searchForm = $("search-form");
  const searchQuery = $("search-query");
  const searchClear = $("search-clear");
  const hideDone = $("hide-done");
  const favouritesOnly = $("favourites-only");
  const dialog = $("delete-dialog");
  const dialogName = $("delete-dialog-name");
  const rowTemplate = $("todo-row");
  const editTemplate = $("todo-edit-form");

  const state = {
    query: "",
    hideDone: false,
    favouritesOnly: false,
    // Bumped on every new listing, so answers to an older listing's requests are dropped.
    generation: 0,
    loading: false,
    finished: false,
    failed: false,
    total: null,
    lastFetchedPage: 0,
    lastAdded: 0,
  };

  // ---- Talking to the API ------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  async function api(path, options = {}) {
    const headers = { Accept: "application/json" };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      // Same-origin credentials (fetch's default, stated): a signed-in visitor's session cookie makes the API
      // answer with their own list; the browser's `Origin` on writes satisfies the server's cross-site guard.
      response = await fetch(API + path, { ...options, headers, credentials: "same-origin" });
    } catch {
      throw new ApiError("서버에 연결할 수 없어요. 네트워크를 확인한 뒤 다시 시도해 주세요.", 0);
    }
    let body = null;
    try {
      body = await response.json();
    } catch {
      // Not JSON (a proxy's error page, say): the status line is all there is to report.
    }
    if (!response.ok) {
      // The API answers errors as {"message": "...", "errors": {...}}; its message is already readable Korean.
      const message = body && typeof body.message === "string" && body.message
        ? body.message
        : `요청을 처리하지 못했어요 (HTTP ${response.status}).`;
      throw new ApiError(message, response.status);
    }
    if (!body) throw new ApiError("서버의 응답을 읽을 수 없어요.", response.status);
    return body;
  }

  // ---- Favourites ---------------------------------------------------------------------------------

  function favourites() {
    try {
      const ids = JSON.parse(localStorage.getItem(FAVOURITES_KEY) || "[]");
      return new Set(Array.isArray(ids) ? ids.filter(Number.isInteger) : []);
    } catch {
      return new Set();
    }
  }

  function setFavourite(id, on) {
    const ids = favourites();
    if (on) ids.add(id); else ids.delete(id);
    try {
      localStorage.setItem(FAVOURITES_KEY, JSON.stringify([...ids]));
    } catch {
      showError("즐겨찾기를 이 브라우저에 저장하지 못했어요.");
    }
  }

  // ---- Rows ---------------------------------------------------------------------------------------

  const pad = (n) => String(n).padStart(2, "0");

  // The API's timestamps carry microseconds (`…38.000000Z`); Date parses milliseconds reliably.
  function parseTimestamp(text) {
    return new Date(String(text).replace(/\.(\d{3})\d*Z$/, ".$1Z"));
  }

  // yyyy.MM.dd in the viewer's own time zone, as the app showed it.
  function formatDate(text) {
    const date = parseTimestamp(text);
    if (Number.isNaN(date.getTime())) return "";
    return `${date.getFullYear()}.${pad(date.getMonth() + 1)}.${pad(date.getDate())}`;
  }

  const rows = () => list.querySelectorAll("li.todo");
  const rowFor = (id) => list.querySelector(`li.todo[data-id="${id}"]`);
  const rowTitle = (row) => row.querySelector(".todo-title").textContent;

  function makeRow(todo) {
    const row = rowTemplate.content.firstElementChild.cloneNode(true);
    const titleId = `todo-title-${todo.id}`;
    row.dataset.id = String(todo.id);
    row.querySelector(".todo-title").id = titleId;
    // The checkbox is named by the title; the buttons keep their short names and are described by it.
    row.querySelector(".todo-done").setAttribute("aria-labelledby", titleId);
    for (const button of row.querySelectorAll("button")) button.setAttribute("aria-describedby", titleId);
    row.querySelector(".todo-star").setAttribute("aria-label", "즐겨찾기");
    if (readOnly) {
      // Nothing here changes the shared list; a mark shows whether the todo is done.
      const mark = document.createElement("span");
      mark.className = "todo-done-mark";
      mark.setAttribute("role", "img");
      row.querySelector(".todo-done").replaceWith(mark);
      row.querySelector(".todo-edit").remove();
      row.querySelector(".todo-delete").remove();
    }
    fillRow(row, todo);
    return row;
  }

  function fillRow(row, todo) {
    row.querySelector(".todo-title").textContent = todo.title;
    row.classList.toggle("is-done", todo.is_done);
    row.dataset.done = String(todo.is_done);
    const checkbox = row.querySelector(".todo-done");
    if (checkbox) checkbox.checked = todo.is_done;
    const mark = row.querySelector(".todo-done-mark");
    if (mark) {
      mark.textContent = todo.is_done ? "✓" : "";
      mark.setAttribute("aria-label", todo.is_done ? "완료" : "미완료");
    }
    const date = row.querySelector(".todo-date");
    date.textContent = formatDate(todo.created_at);
    date.dateTime = todo.created_at;
    date.title = parseTimestamp(todo.created_at).toLocaleString();
    showStar(row, favourites().has(todo.id));
  }

  function showStar(row, on) {
    const star = row.querySelector(".todo-star");
    star.setAttribute("aria-pressed", String(on));
    star.firstElementChild.textContent = on ? "★" : "☆";
    row.classList.toggle("is-favourite", on);
  }

  // Removes a row without dropping keyboard focus on the floor: it moves to the neighbouring row.
  function removeRow(row) {
    const hadFocus = row.contains(document.activeElement);
    const neighbour = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    if (state.total !== null) state.total = Math.max(0, state.total - 1);
    if (hadFocus) (neighbour ? neighbour.querySelector(".todo-done, .todo-star") : newTitle || searchQuery).focus();
    updateFooter();
    loadIfNearBottom();
  }

  // ---- Listing ------------------------------------------------------------------------------------

  function startListing() {
    state.generation += 1;
    Object.assign(state, { loading: false, finished: false, failed: false, total: null, lastFetchedPage: 0, lastAdded: 0 });
    list.replaceChildren();
    hideError();
    updateFooter();
    loadMore();
  }

  async function loadMore() {
    if (state.loading || state.finished || state.failed) return;
    const generation = state.generation;
    state.loading = true;
    updateFooter();
    try {
      if (state.favouritesOnly) {
        await loadFavourites(generation);
      } else {
        await loadPage(generation);
      }
    } catch (error) {
      if (generation !== state.generation) return;
      state.failed = true;
      showError(error.message);
    } finally {
      if (generation === state.generation) {
        state.loading = false;
        updateFooter();
      }
    }
    if (generation === state.generation) loadIfNearBottom();
  }

  async function loadPage(generation) {
    // The rows shown are the start of the server's order (newest first), so their number says which page comes
    // next, even after this page added or deleted todos; rows already shown are skipped.
    let page = Math.floor(rows().length / PER_PAGE) + 1;
    if (page <= state.lastFetchedPage && state.lastAdded === 0) page = state.lastFetchedPage + 1;
    const params = new URLSearchParams({ page, per_page: PER_PAGE, filter: "created_at", order_by: "desc" });
    if (state.hideDone) params.set("is_done", "false");
    if (state.query) params.set("query", state.query);
    const body = await api(`/todos${state.query ? "/search" : ""}?${params}`);
    if (generation !== state.generation) return;
    let added = 0;
    for (const todo of body.data) {
      if (rowFor(todo.id)) continue;
      list.append(makeRow(todo));
      added += 1;
    }
    state.lastFetchedPage = body.meta.current_page;
    state.lastAdded = added;
    state.total = body.meta.total;
    state.finished = body.meta.current_page >= body.meta.last_page;
  }

  // Favourites only: fetch each starred todo (they are few), then filter and order them like the list.
  async function loadFavourites(generation) {
    const todos = await Promise.all([...favourites()].map(async (id) => {
      try {
        return (await api(`/todos/${id}`)).data;
      } catch (error) {
        if (error.status === 404) {
          setFavourite(id, false); // deleted elsewhere
          return null;
        }
        throw error;
      }
    }));
    if (generation !== state.generation) return;
    const query = state.query.toLocaleLowerCase();
    const shown = todos
      .filter((todo) => todo && !(state.hideDone && todo.is_done))
      .filter((todo) => !query || todo.title.toLocaleLowerCase().includes(query))
      .sort((a, b) => parseTimestamp(b.created_at) - parseTimestamp(a.created_at) || b.id - a.id);
    list.append(...shown.map(makeRow));
    state.total = shown.length;
    state.finished = true;
  }

  function loadIfNearBottom() {
    if (sentinel.getBoundingClientRect().top < window.innerHeight + 200) loadMore();
  }

  function emptyText() {
    if (state.query) return `“${state.query}”에 맞는 할 일이 없어요.`;
    if (state.favouritesOnly) return "즐겨찾기한 할 일이 없어요. ☆를 눌러 모아 보세요.";
    if (state.hideDone) return "남은 할 일이 없어요. 모두 끝냈어요!";
    if (readOnly) return "아직 할 일이 없어요. 로그인하면 나만의 목록에 할 일을 추가할 수 있어요.";
    return "아직 할 일이 없어요. 위에서 첫 할 일을 추가해 보세요.";
  }

  function updateFooter() {
    const shown = rows().length;
    loading.hidden = !state.loading;
    list.setAttribute("aria-busy", String(state.loading));
    listEmpty.hidden = !(state.finished && shown === 0);
    listEmpty.textContent = emptyText();
    listEnd.hidden = !(state.finished && shown > 0);
    listEnd.textContent = `모두 불러왔어요 · ${shown}개`;
    retry.hidden = !state.failed;
    if (state.total === null) {
      count.textContent = "";
    } else {
      count.textContent = state.query ? `검색 결과 ${state.total}개` : `${state.total}개`;
    }
  }

  // ---- Messages -----------------------------------------------------------------------------------

  const say = (text) => notify(text);

  function showError(message) {
    notice.textContent = message;
    notice.hidden = false;
  }

  function hideError() {
    notice.hidden = true;
    notice.textContent = "";
  }

  function showCreateError(message) {
    createError.textContent = message;
    createError.hidden = !message;
    newTitle.setAttribute("aria-invalid", String(Boolean(message)));
  }

  // ---- Title rules, as the server checks them (TodoInput.swift) ------------------------------------

  const TITLE_MIN = 6;
  const TITLE_MAX = 255;
  // The server trims Unicode white space (the White_Space property, which is not quite JavaScript's \s) and
  // counts what is left in code points, as PHP's mb_strlen did.
  const trimmed = (text) => text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
  const titleLength = (text) => [...trimmed(text)].length;

  // The message for a title as typed, or "" when it may be sent (an empty field says nothing: it just cannot be sent).
  function titleProblem(text) {
    const length = titleLength(text);
    if (length === 0) return "";
    if (length < TITLE_MIN) return `제목은 ${TITLE_MIN}자 이상이어야 해요. (지금 ${length}자)`;
    if (length > TITLE_MAX) return `제목은 ${TITLE_MAX}자를 넘을 수 없어요. (지금 ${length}자)`;
    return "";
  }
  const titleValid = (text) => { const length = titleLength(text); return length >= TITLE_MIN && length <= TITLE_MAX; };

  // Shows the rule's state under `input`: the counter, the message, and whether `submit` may be pressed.
  function checkTitle(input, submit, errorElement, counter, busy = false) {
    const length = titleLength(input.value);
    const problem = titleProblem(input.value);
    counter.textContent = `${length}/${TITLE_MAX}`;
    counter.classList.toggle("is-over", length > TITLE_MAX);
    errorElement.textContent = problem;
    errorElement.hidden = !problem;
    input.setAttribute("aria-invalid", String(Boolean(problem)));
    submit.disabled = busy || !titleValid(input.value);
  }

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
      const fits = !state.favouritesOnly && (!state.query || todo.title.toLocaleLowerCase().includes(state.query.toLocaleLowerCase()));
      if (fits) {
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

  function startEdit(row) {
    if (row.classList.contains("is-editing")) return;
    const form = editTemplate.content.firstElementChild.cloneNode(true);
    const input = form.querySelector("input");
    const label = form.querySelector("label");
    const fieldError = form.querySelector(".field-error");
    input.id = `todo-edit-${row.dataset.id}`;
    label.htmlFor = input.id;
    label.textContent = "할 일 제목";
    fieldError.id = `todo-edit-error-${row.dataset.id}`;
    const counter = form.querySelector(".title-counter");
    counter.id = `todo-edit-count-${row.dataset.id}`;
    input.setAttribute("aria-describedby", `${fieldError.id} ${counter.id}`);
    input.value = rowTitle(row);
    const saveButton = form.querySelector("button[type=submit]");
    let saving = false;
    const check = () => checkTitle(input, saveButton, fieldError, counter, saving);
    input.addEventListener("input", check);
    check();
    row.classList.add("is-editing");
    row.append(form);
    input.focus();
    input.select();

    const finish = () => {
      form.remove();
      row.classList.remove("is-editing");
      row.querySelector(".todo-edit").focus();
    };
    form.querySelector(".todo-edit-cancel").addEventListener("click", finish);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") finish();
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (saving || !titleValid(input.value)) return;
      saving = true;
      saveButton.disabled = true;
      try {
        const body = await api(`/todos/${row.dataset.id}`, { method: "PUT", body: JSON.stringify({ title: input.value }) });
        fillRow(row, body.data);
        finish();
        say("제목을 바꿨어요.");
      } catch (error) {
        fieldError.textContent = error.message;
        fieldError.hidden = false;
        input.setAttribute("aria-invalid", "true");
        input.focus();
      } finally {
        saving = false;
        saveButton.disabled = !titleValid(input.value);
      }
    });
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
})();
