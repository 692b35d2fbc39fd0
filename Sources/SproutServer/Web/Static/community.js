// Sprout web: the Community. Plain JavaScript over the Strapi API (`/posts`, `/comments`) with the session
// cookie. Three screens: the feed (newest or oldest first, 20 at a time), a post with its comments, and the
// write/edit screen the app also shared. Edit and delete appear only on the visitor's own posts and comments
// (the server refuses the rest anyway), and deleting asks first, in the app's words.
"use strict";

(() => {
  const { api, formatDate, flashNext, refreshForm, setBusy, showError, onSubmit, me } = window.Sprout;
  const $ = (id) => document.getElementById(id);
  const PAGE_SIZE = 20;

  const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));
  // A list call refused for want of a session means the session ended (logged out elsewhere, expired):
  // as the app returned to its start page, the web app asks to log in again.
  const sessionEnded = (failure) => failure.status === 401 || failure.status === 403;

  const isMine = (entity) => me !== null && entity && entity.user && entity.user.id === me.id;

  function dateText(entity) {
    const created = formatDate(entity.created_at);
    return entity.updated_at && entity.updated_at !== entity.created_at ? `${created} (수정됨)` : created;
  }

  // ---- The feed -----------------------------------------------------------------------------------

  function setUpFeed() {
    const list = $("post-list");
    const rowTemplate = $("post-row");
    const loading = $("loading");
    const more = $("more");
    const retry = $("retry");
    const listEnd = $("list-end");
    const listEmpty = $("list-empty");
    const notice = $("notice");
    const newest = $("sort-newest");
    const oldest = $("sort-oldest");
    const state = { descending: true, start: 0, finished: false, loading: false, generation: 0, seen: new Set() };

    function row(post) {
      const item = rowTemplate.content.firstElementChild.cloneNode(true);
      item.dataset.id = String(post.id);
      item.querySelector(".post-link").href = `/community/posts/${post.id}`;
      item.querySelector(".post-author").textContent = post.user ? post.user.username : "(알 수 없음)";
      const date = item.querySelector(".post-date");
      date.textContent = dateText(post);
      date.dateTime = post.created_at;
      item.querySelector(".post-text").textContent = post.text;
      item.querySelector(".post-comments").textContent = `댓글 ${Array.isArray(post.comments) ? post.comments.length : 0}개`;
      return item;
    }

    function updateFooter() {
      const count = list.children.length;
      loading.hidden = !state.loading;
      more.hidden = state.loading || state.finished || !notice.hidden;
      listEnd.hidden = !(state.finished && count > 0);
      listEmpty.hidden = !(state.finished && count === 0);
      list.setAttribute("aria-busy", state.loading ? "true" : "false");
    }

    async function loadPage() {
      if (state.loading || state.finished) return;
      const generation = state.generation;
      const direction = state.descending ? "desc" : "asc";
      state.loading = true;
      notice.hidden = true;
      retry.hidden = true;
      updateFooter();
      try {
        // `id` breaks ties between posts written in the same millisecond, so pages never overlap or skip.
        const posts = await api("GET", `/posts?_sort=created_at:${direction},id:${direction}&_start=${state.start}&_limit=${PAGE_SIZE}`);
        if (generation !== state.generation) return;
        for (const post of posts) {
          // A post written since the last page shifts the offsets by one; never show one twice.
          if (state.seen.has(post.id)) continue;
          state.seen.add(post.id);
          list.append(row(post));
        }
        state.start += posts.length;
        state.finished = posts.length < PAGE_SIZE;
      } catch (failure) {
        if (generation !== state.generation) return;
        if (sessionEnded(failure)) return logInAgain();
        showError(notice, `게시물을 불러오지 못했어요.. ${failure.message}`);
        retry.hidden = false;
      } finally {
        if (generation === state.generation) {
          state.loading = false;
          updateFooter();
        }
      }
    }

    function sortBy(descending) {
      if (state.descending === descending && state.generation > 0) return;
      state.descending = descending;
      state.generation += 1;
      state.start = 0;
      state.finished = false;
      state.loading = false;
      state.seen.clear();
      list.replaceChildren();
      newest.setAttribute("aria-pressed", String(descending));
      oldest.setAttribute("aria-pressed", String(!descending));
      loadPage();
    }

    newest.addEventListener("click", () => sortBy(true));
    oldest.addEventListener("click", () => sortBy(false));
    more.addEventListener("click", loadPage);
    retry.addEventListener("click", loadPage);
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
      const date = $("post-date");
      date.textContent = dateText(post);
      date.dateTime = post.created_at;
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
      const date = item.querySelector(".comment-date");
      date.textContent = dateText(comment);
      date.dateTime = comment.created_at;
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
        const what = failure.status === 404 ? "게시물을 찾을 수 없어요. 삭제되었을 수 있어요." : `게시물을 불러오지 못했어요.. ${failure.message}`;
        showError(notice, what);
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
        showError(notice, `게시물을 삭제하지 못했어요.. ${failure.message}`);
        return;
      }
      flashNext("게시물을 삭제했어요.");
      location.assign("/community");
    }));

    onSubmit(commentForm, commentError, async () => {
      const comment = await api("POST", "/comments", { comment: commentText.value, post: postID });
      commentList.append(commentRow(comment));
      updateCount();
      commentText.value = "";
      setBusy(commentForm, false);
    }, "댓글을 등록하지 못했어요.. ");

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
            showError(notice, `댓글을 삭제하지 못했어요.. ${failure.message}`);
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
      const error = form.querySelector(".field-error");
      const inputID = `comment-edit-${id}`;
      input.id = inputID;
      form.querySelector("label").htmlFor = inputID;
      input.value = item.querySelector(".comment-text").textContent;
      item.classList.add("is-editing");
      item.append(form);
      form.addEventListener("input", () => refreshForm(form));
      refreshForm(form);
      input.focus();
      onSubmit(form, error, async () => {
        const comment = await api("PUT", `/comments/${id}`, { comment: input.value, post: postID });
        fillComment(item, comment);
        stopEditing(item);
      }, "댓글을 고치지 못했어요.. ");
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
      } catch (failure) {
        if (sessionEnded(failure)) return logInAgain();
        showError(error, failure.status === 404 ? "게시물을 찾을 수 없어요. 삭제되었을 수 있어요." : `게시물을 불러오지 못했어요.. ${failure.message}`);
        text.disabled = true;
      }
    }

    onSubmit(form, error, async () => {
      const post = editing === null
        ? await api("POST", "/posts", { text: text.value })
        : await api("PUT", `/posts/${editing}`, { text: text.value });
      flashNext(editing === null ? "글을 올렸어요." : "글을 고쳤어요.");
      location.assign(`/community/posts/${post.id}`);
    }, `${editing === null ? "글을 올리지" : "글을 고치지"} 못했어요.. `);

    if (editing !== null) loadForEditing();
  }

  if ($("feed")) setUpFeed();
  if ($("post-page")) setUpPost();
  if ($("write-page")) setUpWrite();
})();
