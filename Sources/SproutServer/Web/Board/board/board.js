// Sprout web: the Mail Plug Board. Plain JavaScript over the board API (`/api/v2/boards…`) with the session
// cookie, which the API takes as the account. Three screens: the board (its menu, the posts 30 at a time with
// endless scrolling, search by target with highlighted matches and recent searches), a post (edit and delete for
// its writer, deleting after a confirmation; a reply to it; pinning for moderators), and one form for writing, replying and editing. The last
// board opened and the recent searches are kept in this browser's localStorage, as the app kept them in UserDefaults
// and CoreData, but per account: under keys ending in "@{account id}", which signing out removes (site.js).
// This module is the board screen and starts the page's screen; board-post.js and board-form.js are the others,
// sharing board-common.js.

import { api } from "./site-api.js";
import { endlessList } from "./site-endless-list.js";
import { showError } from "./site-forms.js";
import { followList } from "./site-live-list.js";
import { $, API, boardDate, highlight, history, LAST_BOARD_KEY, logInAgain, PAGE_SIZE, postPath, showBadges,
  store, stored, TARGETS } from "./board-common.js";
import { setUpForm } from "./board-form.js";
import { setUpPost } from "./board-post.js";

function setUpBoard() {
  const menu = $("board-menu");
  const menuTemplate = $("board-menu-item");
  const boardName = $("board-name");
  const writeLink = $("write-link");
  const list = $("post-list");
  const pinnedList = $("pinned-list");
  const rowTemplate = $("post-row");
  const loading = $("loading");
  const listEnd = $("list-end");
  const listEmpty = $("list-empty");
  const retry = $("retry");
  const notice = $("notice");
  const sentinel = $("sentinel");
  const count = $("post-count");
  const searchArea = $("board-search");
  const searchForm = $("search-form");
  const searchQuery = $("search-query");
  const searchTarget = $("search-target");
  const searchClear = $("search-clear");
  const historyPanel = $("search-history");
  const historyList = $("history-list");
  const historyEmpty = $("history-empty");
  const historyClear = $("history-clear");
  const historyTemplate = $("history-row");
  // `offset` is where the next page starts; more is asked for while it is short of `total`.
  const state = { boards: [], board: null, search: null, offset: 0, total: null };
  const finished = () => state.total !== null && state.offset >= state.total;
  // The open board's stream (site-live-list.js): new posts wait in a button, deleted ones leave.
  let following = null;

  function row(post) {
    const item = rowTemplate.content.firstElementChild.cloneNode(true);
    item.dataset.id = String(post.postId);
    item.querySelector(".board-post-link").href = postPath(post.boardId, post.postId);
    showBadges(item.querySelector(".board-badges"), post);
    const search = state.search;
    const inTitle = search && (search.target === "all" || search.target === "title");
    const inWriter = search && (search.target === "all" || search.target === "writer");
    highlight(item.querySelector(".board-post-title"), post.title, inTitle ? search.text : "");
    item.querySelector(".board-clip").hidden = !(post.attachmentsCount > 0);
    item.querySelector(".board-badge-new").hidden = !post.isNewPost;
    highlight(item.querySelector(".board-post-writer"), post.writer ? post.writer.displayName : "", inWriter ? search.text : "");
    const date = item.querySelector(".board-post-date");
    date.textContent = boardDate(post.createdDateTime);
    date.dateTime = post.createdDateTime;
    item.querySelector(".board-post-views").textContent = `조회 ${post.viewCount}`;
    return item;
  }

  function updateFooter() {
    const shown = list.children.length;
    listEmpty.hidden = !(finished() && shown === 0);
    listEmpty.textContent = state.search ? "검색 결과가 없습니다.\n다른 검색어를 입력해 보세요." : "등록된 게시글이 없습니다.";
    listEnd.hidden = !(finished() && shown > 0);
    if (state.total === null) count.textContent = "";
    else if (state.search) count.textContent = `${TARGETS[state.search.target]} 검색 결과 ${state.total}개`;
    else count.textContent = `게시글 ${state.total}개`;
  }

  const posts = endlessList({
    list, sentinel, loading, retry,
    isFinished: () => !state.board || finished(),
    fetchPage() {
      const query = new URLSearchParams({ offset: String(state.offset), limit: String(PAGE_SIZE) });
      if (state.search) {
        query.set("search", state.search.text);
        query.set("searchTarget", state.search.target);
      }
      return api("GET", `${API}/${state.board.boardId}/posts?${query}`);
    },
    take(page) {
      state.offset += PAGE_SIZE;
      state.total = page.total;
      return page.value;
    },
    idOf: (post) => post.postId,
    row,
    failed(failure) {
      if (failure.status === 401) return logInAgain();
      showError(notice, `게시글을 불러오지 못했습니다. ${failure.message}`);
    },
    changed: updateFooter,
  });

  function startListing(search) {
    following?.forget();
    Object.assign(state, { search, offset: 0, total: null });
    showError(notice, "");
    searchClear.hidden = !search;
    showPinned(search ? null : state.board);
    posts.restart();
  }

  // The board's pinned posts above its list (not above search results). The list stays newest first, as the API
  // answers it, pinned posts in their places too (marked 고정). Without them the board still works: no error.
  async function showPinned(board) {
    pinnedList.hidden = true;
    pinnedList.replaceChildren();
    if (!board) return;
    let page;
    try {
      page = await api("GET", `${API}/${board.boardId}/posts?pinned=true`);
    } catch {
      return;
    }
    if (state.board !== board || state.search) return;  // another board or a search came meanwhile
    pinnedList.replaceChildren(...page.value.map(row));
    pinnedList.hidden = page.value.length === 0;
  }

  // ---- The menu

  function selectBoard(board) {
    state.board = board;
    store(LAST_BOARD_KEY, board.boardId);
    for (const button of menu.querySelectorAll(".board-menu-button")) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.boardId) === board.boardId));
    }
    boardName.textContent = board.displayName;
    searchQuery.placeholder = `${board.displayName}에서 검색`;
    writeLink.href = `/board/${board.boardId}/write`;
    writeLink.hidden = !(board.capability && board.capability.writable);
    searchQuery.value = "";
    updateHistoryPanel();
    startListing(null);
    follow(board);
  }

  function follow(board) {
    const topics = [`board:${board.boardId}`];
    if (following) return following.setTopics(topics);
    following = followList({
      topics, kind: "board-post", button: $("pending-posts"),
      rowFor: (id) => [...document.querySelectorAll(`#post-list > li[data-id="${CSS.escape(id)}"], #pinned-list > li[data-id="${CSS.escape(id)}"]`)],
      redraw: (old, post) => old.replaceWith(row(post)),
      removed() {
        // The pages after it moved up by one.
        state.offset = Math.max(0, state.offset - 1);
        if (state.total !== null) state.total = Math.max(0, state.total - 1);
        pinnedList.hidden = pinnedList.children.length === 0;
        updateFooter();
      },
      reload: () => startListing(state.search),
    });
  }

  function menuItem(board) {
    const item = menuTemplate.content.firstElementChild.cloneNode(true);
    const button = item.querySelector(".board-menu-button");
    button.dataset.boardId = String(board.boardId);
    item.querySelector(".board-menu-name").textContent = board.displayName;
    const fresh = item.querySelector(".board-menu-new");
    fresh.hidden = !board.hasNewPost;
    if (board.hasNewPost) button.setAttribute("aria-label", `${board.displayName} (새 글)`);
    button.addEventListener("click", () => {
      if (state.board && state.board.boardId === board.boardId && !state.search) return;
      selectBoard(board);
    });
    return item;
  }

  async function loadBoards() {
    loading.hidden = false;
    try {
      state.boards = (await api("GET", API)).value;
    } catch (failure) {
      if (failure.status === 401) return logInAgain();
      showError(notice, `게시판 목록을 불러오지 못했습니다. ${failure.message}`);
      retry.hidden = false;
      return;
    } finally {
      loading.hidden = true;
    }
    menu.replaceChildren(...state.boards.map(menuItem));
    if (state.boards.length === 0) {
      showError(notice, "게시판이 없습니다.");
      list.setAttribute("aria-busy", "false");
      return;
    }
    // The board opened last, as long as it is still there; else the first.
    const last = stored(LAST_BOARD_KEY, null);
    selectBoard(state.boards.find((b) => b.boardId === last) || state.boards[0]);
  }

  // ---- Search and recent searches

  function runSearch(text, target) {
    searchQuery.value = text;
    searchTarget.value = target;
    history.add(text, target);
    renderHistory();
    startListing({ text, target });
    updateHistoryPanel();
  }

  function historyRow(entry) {
    const item = historyTemplate.content.firstElementChild.cloneNode(true);
    const label = TARGETS[entry.target];
    item.dataset.text = entry.text;
    item.dataset.target = entry.target;
    item.querySelector(".search-history-target").textContent = label;
    item.querySelector(".search-history-text").textContent = entry.text;
    item.querySelector(".search-history-run").setAttribute("aria-label", `${label} : ${entry.text} 다시 검색`);
    item.querySelector(".search-history-delete").setAttribute("aria-label", `${label} : ${entry.text} 검색어 삭제`);
    return item;
  }

  function renderHistory() {
    const entries = history.entries();
    historyList.replaceChildren(...entries.map(historyRow));
    historyEmpty.hidden = entries.length > 0;
    historyClear.hidden = entries.length === 0;
  }

  // Recent searches show under the box while it (or the panel) has the focus and the box is empty.
  function updateHistoryPanel(focusInside = searchArea.contains(document.activeElement)) {
    historyPanel.hidden = !(focusInside && searchQuery.value.trim() === "" && state.board);
  }

  searchArea.addEventListener("focusin", () => updateHistoryPanel(true));
  searchArea.addEventListener("focusout", (event) => updateHistoryPanel(searchArea.contains(event.relatedTarget)));
  searchQuery.addEventListener("keydown", (event) => {
    if (event.key === "Escape") historyPanel.hidden = true;
  });

  searchForm.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!state.board) return;
    const text = searchQuery.value.trim();
    if (text) runSearch(text, searchTarget.value);
    else if (state.search) startListing(null);
  });
  // Emptying the box goes back to the board's posts (and shows the recent searches).
  searchQuery.addEventListener("input", () => {
    if (searchQuery.value.trim() === "" && state.search) startListing(null);
    updateHistoryPanel();
  });
  searchClear.addEventListener("click", () => {
    searchQuery.value = "";
    startListing(null);
    searchQuery.focus();
    updateHistoryPanel();
  });

  historyList.addEventListener("click", (event) => {
    const item = event.target.closest(".search-history-item");
    if (!item) return;
    const { text, target } = item.dataset;
    if (event.target.closest(".search-history-delete")) {
      history.remove(text, target);
      renderHistory();
      searchQuery.focus();
    } else if (event.target.closest(".search-history-run")) {
      runSearch(text, target);
    }
  });
  historyClear.addEventListener("click", () => {
    history.clear();
    renderHistory();
    searchQuery.focus();
  });

  retry.addEventListener("click", () => {
    showError(notice, "");
    if (state.board) {
      posts.retry();
    } else {
      retry.hidden = true;
      loadBoards();
    }
  });

  renderHistory();
  loadBoards();
}

if ($("board-page")) setUpBoard();
if ($("board-post-page")) setUpPost();
if ($("board-write-page")) setUpForm();
