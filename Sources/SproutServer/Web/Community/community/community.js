// Sprout web: the Community. Plain JavaScript over the Strapi API (`/posts`, `/comments`) with the session
// cookie. Three screens: the feed (newest or oldest first, 20 at a time as it is scrolled, with a refresh), a post
// with its comments, and the write/edit screen the app also shared. Edit and delete appear only on the visitor's
// own posts and comments (the server refuses the rest anyway), and deleting asks first, in the app's words.
// Times read "방금 전", "3분 전", … (the full date in their title), kept current while the page is open.
"use strict";

(() => {
  const { api, formatDate, flashNext, refreshForm, setBusy, showError, onSubmit, endlessList, notFound, me } = window.Sprout;
  const $ = (id) => document.getElementById(id);
  const PAGE_SIZE = 20;
  // The server's limits (CommunityInput.swift), in characters as Swift counts them: grapheme clusters.
  const RELATIVE_REFRESH_MS = 30 * 1000;
  const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

  const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));
  // A list call refused for want of a session means the session ended (logged out elsewhere, expired):
  // as the app returned to its start page, the web app asks to log in again.
  const sessionEnded = (failure) => failure.status === 401 || failure.status === 403;

  // What the not-found panel says on a post's page or its edit form when the API has no such post.
  const POST_GONE = "게시물을 찾을 수 없어요. 삭제되었을 수 있어요.";

  const isMine = (entity) => me !== null && entity && entity.user && entity.user.id === me.id;

  // ---- Times: relative while recent, a date after that; the full date and time in the title -------------

  const pad = (n) => String(n).padStart(2, "0");
  const sameDay = (a, b) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

  // "방금 전" under a minute (and for a clock a little ahead of ours), then minutes, hours up to a day,
  // "어제" for the calendar day before today, then the date (yyyy/MM/dd, the app's style).
  function relativeTime(date, now = new Date()) {
    const seconds = (now - date) / 1000;
    if (seconds < 60) return "방금 전";
    if (seconds < 60 * 60) return `${Math.floor(seconds / 60)}분 전`;
    if (seconds < 24 * 60 * 60) return `${Math.floor(seconds / 3600)}시간 전`;
    const yesterday = new Date(now);
    yesterday.setDate(now.getDate() - 1);
    if (sameDay(date, yesterday)) return "어제";
    return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())}`;
  }

  // Fills a <time> for `entity`: relative text, `datetime`, and the full date (and the edit's) in its title.
  function showTime(element, entity) {
    const created = new Date(entity.created_at);
    const edited = entity.updated_at && entity.updated_at !== entity.created_at;
    element.dateTime = entity.created_at;
    element.dataset.relative = "true";
    element.dataset.edited = edited ? "true" : "false";
    element.title = edited ? `${formatDate(entity.created_at)} (수정: ${formatDate(entity.updated_at)})` : formatDate(entity.created_at);
    element.textContent = Number.isNaN(created.getTime()) ? "" : relativeTime(created) + (edited ? " (수정됨)" : "");
  }

  function refreshTimes() {
    const now = new Date();
    for (const element of document.querySelectorAll("time[data-relative]")) {
      const created = new Date(element.dateTime);
      if (Number.isNaN(created.getTime())) continue;
      element.textContent = relativeTime(created, now) + (element.dataset.edited === "true" ? " (수정됨)" : "");
    }
  }

  setInterval(refreshTimes, RELATIVE_REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshTimes();
  });

  // ---- Text lengths: counted as the server counts them, with the limit shown as one types ---------------

  const segmenter = typeof Intl.Segmenter === "function" ? new Intl.Segmenter("ko", { granularity: "grapheme" }) : null;
  function characters(text) {
    if (!segmenter) return [...text].length;
    let count = 0;
    for (const _ of segmenter.segment(text)) count += 1;
    return count;
  }

  // Shows `field`'s length against its `data-max-length` in the form's `.length-counter`, says so in its
  // `.length-error` when it is over, and keeps the submit button disabled meanwhile (after site.js has had its say
  // about empty fields: this listener is added after site.js's own).
  function guardLength(form, field) {
    const max = Number(field.dataset.maxLength);
    const counter = form.querySelector(".length-counter");
    const error = form.querySelector(".length-error");
    const submit = form.querySelector('button[type="submit"]');
    const over = () => characters(field.value) > max;
    function check() {
      const length = characters(field.value);
      counter.textContent = `${length.toLocaleString("ko-KR")}/${max.toLocaleString("ko-KR")}`;
      counter.classList.toggle("is-over", length > max);
      const message = length > max ? `${max.toLocaleString("ko-KR")}자까지 쓸 수 있어요. ${(length - max).toLocaleString("ko-KR")}자를 줄여 주세요.` : "";
      showError(error, message);
      field.setAttribute("aria-invalid", String(length > max));
      if (length > max) submit.disabled = true;
    }
    form.addEventListener("input", check);
    // Checked again right before sending, in case something (a failed send) enabled the button meanwhile.
    form.addEventListener("submit", (event) => {
      if (over()) {
        event.preventDefault();
        event.stopImmediatePropagation();
        check();
      }
    }, { capture: true });
    check();
    return check;
  }

  // Ctrl+Enter (⌘+Enter on a Mac) sends `form` from `field`, when its button may be pressed.
  function sendWithKeys(form, field, hint) {
    if (hint) hint.textContent = hint.textContent.replace("Ctrl+Enter", IS_MAC ? "⌘+Enter" : "Ctrl+Enter");
    field.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.isComposing) return;
      event.preventDefault();
      const submit = form.querySelector('button[type="submit"]');
      if (submit && !submit.disabled) form.requestSubmit(submit);
    });
  }

  // ---- The feed -----------------------------------------------------------------------------------

  function setUpFeed() {
    const list = $("post-list");
    const rowTemplate = $("post-row");
    const retry = $("retry");
    const listEnd = $("list-end");
    const listEmpty = $("list-empty");
    const notice = $("notice");
    const newest = $("sort-newest");
    const oldest = $("sort-oldest");
    const refresh = $("refresh");
    // `start` is where the next page begins; a page shorter than PAGE_SIZE is the last.
    const state = { descending: true, start: 0, finished: false, started: false };

    function row(post) {
      const item = rowTemplate.content.firstElementChild.cloneNode(true);
      item.dataset.id = String(post.id);
      item.querySelector(".post-link").href = `/community/posts/${post.id}`;
      item.querySelector(".post-author").textContent = post.user ? post.user.username : "(알 수 없음)";
      showTime(item.querySelector(".post-date"), post);
      item.querySelector(".post-text").textContent = post.text;
      item.querySelector(".post-comments").textContent = `댓글 ${Array.isArray(post.comments) ? post.comments.length : 0}개`;
      return item;
    }

    function updateFooter() {
      const count = list.children.length;
      listEnd.hidden = !(state.finished && count > 0);
      listEmpty.hidden = !(state.finished && count === 0);
    }

    const feed = endlessList({
      list, sentinel: $("sentinel"), loading: $("loading"), retry,
      isFinished: () => state.finished,
      fetchPage() {
        const direction = state.descending ? "desc" : "asc";
        // `id` breaks ties between posts written in the same millisecond, so pages never overlap or skip.
        return api("GET", `/posts?_sort=created_at:${direction},id:${direction}&_start=${state.start}&_limit=${PAGE_SIZE}`);
      },
      take(posts) {
        state.start += posts.length;
        state.finished = posts.length < PAGE_SIZE;
        showError(notice, "");
        return posts;
      },
      idOf: (post) => post.id,
      row,
      failed(failure) {
        // A list call refused for want of a session: the session ended elsewhere, so log in again.
        if (sessionEnded(failure)) return logInAgain();
        showError(notice, `게시물을 불러오지 못했어요. ${failure.message}`);
      },
      changed: updateFooter,
    });

    // From the top again: a new order, or the refresh button (new posts, new comment counts).
    function startOver() {
      state.start = 0;
      state.finished = false;
      state.started = true;
      showError(notice, "");
      feed.restart();
    }

    function sortBy(descending) {
      if (state.descending === descending && state.started) return;
      state.descending = descending;
      newest.setAttribute("aria-pressed", String(descending));
      oldest.setAttribute("aria-pressed", String(!descending));
      startOver();
    }

    newest.addEventListener("click", () => sortBy(true));
    oldest.addEventListener("click", () => sortBy(false));
    refresh.addEventListener("click", () => {
      window.scrollTo({ top: 0 });
      startOver();
    });
    retry.addEventListener("click", () => {
      showError(notice, "");
      feed.retry();
    });
    sortBy(true);
  }

  // ---- One post and its comments ------------------------------------------------------------------

  function setUpPost() {
    const page = $("post-page");
    const postID = Number(page.dataset.postId);
    const notice = $("notice");
    const loading = $("loading");
    const article = $("post");
    const commentsSection = $("comments-section");
    const commentList = $("comment-list");
    const commentsEmpty = $("comments-empty");
    const commentCount = $("comment-count");
    const commentForm = $("comment-form");
    const commentText = $("comment-text");
    const commentError = $("comment-error");
    const dialog = $("delete-dialog");
    const dialogTitle = $("delete-dialog-title");
    const rowTemplate = $("comment-row");
    const editTemplate = $("comment-edit-form");
    // What the open delete dialog is about: a function that deletes it.
    let pendingDelete = null;

    function showPost(post) {
      $("post-author").textContent = post.user ? post.user.username : "(알 수 없음)";
      showTime($("post-date"), post);
      $("post-text").textContent = post.text;
      $("post-actions").hidden = !isMine(post);
      $("post-edit").href = `/community/write?post=${post.id}`;
      article.hidden = false;
    }

    function updateCount() {
      const count = commentList.children.length;
      commentCount.textContent = `${count}개`;
      commentsEmpty.hidden = count > 0;
    }

    function commentRow(comment) {
      const item = rowTemplate.content.firstElementChild.cloneNode(true);
      fillComment(item, comment);
      return item;
    }

    function fillComment(item, comment) {
      item.dataset.id = String(comment.id);
      item.querySelector(".comment-author").textContent = comment.user ? comment.user.username : "(알 수 없음)";
      showTime(item.querySelector(".comment-date"), comment);
      item.querySelector(".comment-text").textContent = comment.comment;
      const mine = isMine(comment);
      item.querySelector(".comment-actions").hidden = !mine;
      item.querySelector(".comment-edit").setAttribute("aria-label", "댓글 수정");
      item.querySelector(".comment-delete").setAttribute("aria-label", "댓글 삭제");
    }

    async function load() {
      try {
        const [post, comments] = await Promise.all([
          api("GET", `/posts/${postID}`),
          api("GET", `/comments?post=${postID}&_sort=created_at:asc,id:asc&_limit=-1`),
        ]);
        showPost(post);
        commentList.replaceChildren(...comments.map(commentRow));
        updateCount();
        commentsSection.hidden = false;
      } catch (failure) {
        if (failure.status === 403 || failure.status === 401) return logInAgain();
        // A well-formed id the API does not have: the site's not-found panel, as the server draws it for a bad one.
        if (failure.status === 404) return notFound(POST_GONE);
        showError(notice, `게시물을 불러오지 못했어요. ${failure.message}`);
      } finally {
        loading.hidden = true;
      }
    }

    function confirmDelete(title, action) {
      dialogTitle.textContent = title;
      pendingDelete = action;
      dialog.showModal();
    }

    dialog.addEventListener("close", async () => {
      const action = pendingDelete;
      pendingDelete = null;
      if (dialog.returnValue === "delete" && action) await action();
      dialog.returnValue = "";
    });

    $("post-delete").addEventListener("click", () => confirmDelete("게시물을 삭제하시겠어요?", async () => {
      try {
        await api("DELETE", `/posts/${postID}`);
      } catch (failure) {
        showError(notice, `게시물을 삭제하지 못했어요. ${failure.message}`);
        return;
      }
      flashNext("게시물을 삭제했어요.");
      location.assign("/community");
    }));

    const checkComment = guardLength(commentForm, commentText);
    sendWithKeys(commentForm, commentText, $("comment-keys"));
    onSubmit(commentForm, commentError, async () => {
      const comment = await api("POST", "/comments", { comment: commentText.value, post: postID });
      commentList.append(commentRow(comment));
      updateCount();
      commentText.value = "";
      setBusy(commentForm, false);
      checkComment();
    }, "댓글을 등록하지 못했어요. ");

    commentList.addEventListener("click", (event) => {
      const item = event.target.closest("li.comment");
      if (!item) return;
      const id = Number(item.dataset.id);
      if (event.target.closest(".comment-delete")) {
        confirmDelete("댓글을 삭제하시겠어요?", async () => {
          try {
            await api("DELETE", `/comments/${id}`);
            item.remove();
            updateCount();
          } catch (failure) {
            showError(notice, `댓글을 삭제하지 못했어요. ${failure.message}`);
          }
        });
      } else if (event.target.closest(".comment-edit")) {
        startEditing(item, id);
      } else if (event.target.closest(".comment-cancel")) {
        stopEditing(item);
      }
    });

    function startEditing(item, id) {
      if (item.querySelector(".comment-edit-form")) return;
      const form = editTemplate.content.firstElementChild.cloneNode(true);
      const input = form.querySelector(".comment-edit-input");
      const error = form.querySelector(".edit-error");
      const inputID = `comment-edit-${id}`;
      input.id = inputID;
      form.querySelector("label").htmlFor = inputID;
      input.value = item.querySelector(".comment-text").textContent;
      item.classList.add("is-editing");
      item.append(form);
      form.addEventListener("input", () => refreshForm(form));
      refreshForm(form);
      guardLength(form, input);
      sendWithKeys(form, input, form.querySelector(".comment-edit-keys"));
      input.focus();
      onSubmit(form, error, async () => {
        const comment = await api("PUT", `/comments/${id}`, { comment: input.value, post: postID });
        fillComment(item, comment);
        stopEditing(item);
      }, "댓글을 고치지 못했어요. ");
    }

    function stopEditing(item) {
      item.querySelector(".comment-edit-form")?.remove();
      item.classList.remove("is-editing");
      item.querySelector(".comment-edit")?.focus();
    }

    load();
  }

  // ---- Writing and editing a post (one screen) ----------------------------------------------------

  function setUpWrite() {
    const form = $("post-form");
    const text = $("post-text-input");
    const error = $("form-error");
    const editing = form.dataset.postId ? Number(form.dataset.postId) : null;
    const checkLength = guardLength(form, text);
    sendWithKeys(form, text, $("post-keys"));

    async function loadForEditing() {
      setBusy(form, true);
      try {
        const post = await api("GET", `/posts/${editing}`);
        if (!isMine(post)) {
          showError(error, "내 글만 고칠 수 있어요.");
          text.disabled = true;
          return;
        }
        text.value = post.text;
        setBusy(form, false);
        checkLength();
      } catch (failure) {
        if (sessionEnded(failure)) return logInAgain();
        if (failure.status === 404) return notFound(POST_GONE);
        showError(error, `게시물을 불러오지 못했어요. ${failure.message}`);
        text.disabled = true;
      }
    }

    onSubmit(form, error, async () => {
      const post = editing === null
        ? await api("POST", "/posts", { text: text.value })
        : await api("PUT", `/posts/${editing}`, { text: text.value });
      flashNext(editing === null ? "글을 올렸어요." : "글을 고쳤어요.");
      location.assign(`/community/posts/${post.id}`);
    }, `${editing === null ? "글을 올리지" : "글을 고치지"} 못했어요. `);

    if (editing !== null) loadForEditing();
  }

  if ($("feed")) setUpFeed();
  if ($("post-page")) setUpPost();
  if ($("write-page")) setUpWrite();
})();
