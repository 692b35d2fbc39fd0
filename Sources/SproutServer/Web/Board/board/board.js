// Sprout web: the Mail Plug Board. Plain JavaScript over the board API (`/api/v2/boards…`) with the session
// cookie, which the API takes as the account. Three screens: the board (its menu, the posts 30 at a time with
// endless scrolling, search by target with highlighted matches and recent searches), a post (edit and delete for
// its writer, deleting after a confirmation; a reply to it), and one form for writing, replying and editing. The last
// board opened and the recent searches are kept in this browser's localStorage, as the app kept them in UserDefaults
// and CoreData, but per account: under keys ending in "@{account id}", which signing out removes (site.js).
"use strict";

(() => {
  const { api, flashNext, setBusy, showError, onSubmit, endlessList, notFound, me } = window.Sprout;
  const $ = (id) => document.getElementById(id);
  const PAGE_SIZE = 30;
  // Kept per account, under keys ending in "@{account id}" that signing out removes (site.js's accountKey). Every
  // board page has a signed-in account (the server shows the others a log-in prompt and no script).
  const accountKey = window.Sprout.accountKey || ((name) => (me ? `${name}@${me.id}` : null));
  const LAST_BOARD_KEY = accountKey("sprout.board.last");
  const HISTORY_KEY = accountKey("sprout.board.history");
  // Before they were per account, both were the browser's: whoever signed in next saw them. Dropped, not adopted,
  // since nothing tells whose they were.
  const UNOWNED_KEYS = ["sprout.board.last", "sprout.board.searches"];
  const HISTORY_LIMIT = 20;
  const TARGETS = { all: "전체", title: "제목", contents: "내용", writer: "작성자" };
  const API = "/api/v2/boards";

  const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));
  const postPath = (boardID, postID) => `/board/${boardID}/posts/${postID}`;
  // What the not-found panel (site.js) says when the address names a post or a board the API does not have.
  const POST_GONE = "게시글을 찾을 수 없습니다. 삭제되었을 수 있어요.";
  const PARENT_GONE = "답글을 달 게시글을 찾을 수 없습니다. 삭제되었을 수 있어요.";
  const BOARD_GONE = "게시판을 찾을 수 없습니다.";

  // ---- Storage (a browser without it only forgets) ------------------------------------------------------

  function stored(key, fallback) {
    if (!key) return fallback;
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  }

  function store(key, value) {
    if (!key) return;
    try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: only this visit keeps it */ }
  }

  try {
    for (const key of UNOWNED_KEYS) localStorage.removeItem(key);
  } catch { /* no storage: nothing to drop */ }

  // Recent searches: {text, target} pairs, most recent first, each pair once (the app's CoreData de-duplication).
  const history = {
    entries() {
      const entries = stored(HISTORY_KEY, []);
      return Array.isArray(entries)
        ? entries.filter((e) => e && typeof e.text === "string" && e.text && Object.hasOwn(TARGETS, e.target))
        : [];
    },
    add(text, target) {
      const rest = this.entries().filter((e) => !(e.text === text && e.target === target));
      store(HISTORY_KEY, [{ text, target }, ...rest].slice(0, HISTORY_LIMIT));
    },
    remove(text, target) {
      store(HISTORY_KEY, this.entries().filter((e) => !(e.text === text && e.target === target)));
    },
    clear() {
      store(HISTORY_KEY, []);
    },
  };

  // ---- Shared parts of a post ---------------------------------------------------------------------------

  const pad = (number) => String(number).padStart(2, "0");

  // `yy-MM-dd` in the visitor's time zone, as the app showed dates; with `time`, ` HH:mm` after it.
  function boardDate(text, time = false) {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) return "";
    const day = `${pad(date.getFullYear() % 100)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
    return time ? `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}` : day;
  }

  function badge(text, kind, label) {
    const element = document.createElement("span");
    element.className = `badge board-badge board-badge-${kind}`;
    element.textContent = text;
    if (label) element.title = label;
    return element;
  }

  // 공지 or Re before the title, as the app's PostBadgeView; 익명 for an anonymous board's post.
  function showBadges(container, post) {
    const badges = [];
    if (post.postType === "notice") badges.push(badge("공지", "notice", "공지"));
    if (post.postType === "reply") badges.push(badge("Re", "reply", "답글"));
    if (post.isAnonymous) badges.push(badge("익명", "anonymous", "익명 게시글"));
    container.replaceChildren(...badges);
  }

  // `text` with every match of `query` (any case) in <mark>: text nodes only, never markup from the API.
  function highlight(element, text, query) {
    const source = String(text).normalize("NFC");
    const needle = query ? query.normalize("NFC") : "";
    if (!needle) {
      element.replaceChildren(source);
      return;
    }
    const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu");
    const parts = [];
    let last = 0;
    for (const match of source.matchAll(pattern)) {
      if (match.index > last) parts.push(document.createTextNode(source.slice(last, match.index)));
      const mark = document.createElement("mark");
      mark.textContent = match[0];
      parts.push(mark);
      last = match.index + match[0].length;
    }
    if (last < source.length) parts.push(document.createTextNode(source.slice(last)));
    element.replaceChildren(...parts);
  }

  // ---- The board: menu, posts, search -------------------------------------------------------------------

  function setUpBoard() {
    const menu = $("board-menu");
    const menuTemplate = $("board-menu-item");
    const boardName = $("board-name");
    const writeLink = $("write-link");
    const list = $("post-list");
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
      Object.assign(state, { search, offset: 0, total: null });
      showError(notice, "");
      searchClear.hidden = !search;
      posts.restart();
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

  // ---- A post --------------------------------------------------------------------------------------------

  function setUpPost() {
    const page = $("board-post-page");
    const boardID = Number(page.dataset.boardId);
    const postID = Number(page.dataset.postId);
    const notice = $("notice");
    const loading = $("loading");
    const dialog = $("delete-dialog");

    // `writable`: whether this account may write in the post's board, so may reply to it.
    function showPost(post, writable) {
      document.title = `${post.title} · Sprout`;
      $("post-board").textContent = post.boardDisplayName;
      showBadges($("post-badges"), post);
      $("post-title-text").textContent = post.title;
      $("post-writer").textContent = post.writer ? post.writer.displayName : "";
      const date = $("post-date");
      date.textContent = boardDate(post.createdDateTime, true);
      date.dateTime = post.createdDateTime;
      $("post-views").textContent = `조회 ${post.viewCount}`;
      $("post-contents").textContent = post.contents;
      $("post-edit").href = `${postPath(boardID, postID)}/edit`;
      $("post-actions").hidden = !post.isOwner;
      const reply = $("post-reply");
      reply.href = `/board/${boardID}/write?reply=${postID}`;
      reply.hidden = !writable;
      const parent = post.parentPostId;
      $("post-parent").hidden = !(parent > 0);
      if (parent > 0) $("post-parent-link").href = postPath(boardID, parent);
      $("post").hidden = false;
    }

    async function load() {
      try {
        // Opening a post counts a view, on the server. The board list says whether replying is allowed here (not in
        // 공지사항); the post shows without it.
        const [post, boards] = await Promise.all([
          api("GET", `${API}/${boardID}/posts/${postID}`),
          api("GET", API).then((answer) => answer.value, () => []),
        ]);
        const board = boards.find((b) => b.boardId === boardID);
        showPost(post, Boolean(board && board.capability && board.capability.writable));
      } catch (failure) {
        if (failure.status === 401) return logInAgain();
        // A well-formed id the API does not have: the site's not-found panel, as the server draws it for a bad one.
        if (failure.status === 404) return notFound(POST_GONE);
        showError(notice, `게시글을 불러오지 못했습니다. ${failure.message}`);
      } finally {
        loading.hidden = true;
      }
    }

    $("post-delete").addEventListener("click", () => dialog.showModal());
    dialog.addEventListener("close", async () => {
      if (dialog.returnValue !== "delete") return;
      dialog.returnValue = "";
      try {
        await api("DELETE", `${API}/${boardID}/posts/${postID}`);
      } catch (failure) {
        showError(notice, `게시글을 삭제하지 못했습니다. ${failure.message}`);
        return;
      }
      flashNext("게시글을 삭제했습니다.");
      location.assign("/board");
    });

    load();
  }

  // ---- Writing and editing (one form) ----------------------------------------------------------------

  function setUpForm() {
    const form = $("board-form");
    const title = $("board-title-input");
    const contents = $("board-contents-input");
    const error = $("form-error");
    const boardID = Number(form.dataset.boardId);
    const editing = form.dataset.postId ? Number(form.dataset.postId) : null;
    const replyTo = form.dataset.replyTo ? Number(form.dataset.replyTo) : null;

    function refuse(message) {
      showError(error, message);
      title.disabled = true;
      contents.disabled = true;
    }

    // The board (its name; whether this account may write in it) and, when editing or replying, the post.
    async function load() {
      setBusy(form, true);
      try {
        const boards = (await api("GET", API)).value;
        const board = boards.find((b) => b.boardId === boardID);
        if (!board) return notFound(BOARD_GONE);
        $("form-board-name").textContent = board.displayName;
        // The post edited or replied to (reading it counts a view, as opening it does) is read before the board's
        // refusal: an address naming a post that is not there gets the not-found panel, in any board.
        const named = editing !== null ? editing : replyTo;
        const post = named !== null ? await api("GET", `${API}/${boardID}/posts/${named}`) : null;
        if (!(board.capability && board.capability.writable)) return refuse("이 게시판에는 글을 쓸 수 없습니다.");
        if (editing !== null) {
          if (!post.isOwner) return refuse("내 글만 수정할 수 있습니다.");
          title.value = post.title;
          contents.value = post.contents;
        }
        if (replyTo !== null) {
          // The post replied to: its title, after "Re: ", is the reply's, as mail does it — once, however deep the
          // thread.
          $("reply-to-link").textContent = post.title;
          $("reply-to").hidden = false;
          const replyTitle = /^re:\s/i.test(post.title) ? post.title : `Re: ${post.title}`;
          title.value = [...replyTitle].slice(0, 200).join("");
        }
        setBusy(form, false);
        (replyTo !== null ? contents : title).focus();
      } catch (failure) {
        if (failure.status === 401) return logInAgain();
        // The post edited or replied to is not there (or not in this board): the site's not-found panel.
        if (failure.status === 404) return notFound(replyTo !== null ? PARENT_GONE : POST_GONE);
        refuse(`불러오지 못했습니다. ${failure.message}`);
      }
    }

    onSubmit(form, error, async () => {
      const body = { title: title.value, contents: contents.value };
      if (replyTo !== null) body.parentPostId = replyTo;
      const post = editing === null
        ? await api("POST", `${API}/${boardID}/posts`, body)
        : await api("PUT", `${API}/${boardID}/posts/${editing}`, body);
      flashNext(editing !== null ? "게시글을 수정했습니다." : replyTo !== null ? "답글을 등록했습니다." : "게시글을 등록했습니다.");
      location.assign(postPath(post.boardId, post.postId));
    }, editing !== null ? "게시글을 수정하지 못했습니다. " : replyTo !== null ? "답글을 등록하지 못했습니다. " : "게시글을 등록하지 못했습니다. ");

    load();
  }

  if ($("board-page")) setUpBoard();
  if ($("board-post-page")) setUpPost();
  if ($("board-write-page")) setUpForm();
})();
