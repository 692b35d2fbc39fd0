// Sprout web, Community: one post and its comments. Edit and delete appear only on the visitor's own, and
// deleting asks first, in the app's words; 신고 only on other people's (site-report.js), and the visitor's own
// items that a moderator hid carry a mark.

import { api } from "./site-api.js";
import { onSubmit, refreshForm, setBusy, showError } from "./site-forms.js";
import { notFound } from "./site-not-found.js";
import { showHiddenMark, reportTarget } from "./site-report.js";
import { flashNext } from "./site-toast.js";
import { followPost } from "./community-live.js";
import { $, guardLength, isMine, logInAgain, POST_GONE, sendWithKeys, showTime } from "./community-common.js";

export function setUpPost() {
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
    reportTarget($("post-report"), "post", post.id, !isMine(post));
    showHiddenMark($("post-hidden"), post);
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
    reportTarget(item.querySelector(".comment-report"), "comment", comment.id, !mine);
    showHiddenMark(item.querySelector(".comment-hidden"), comment);
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
    // The stream may have shown it already.
    const shown = commentList.querySelector(`li.comment[data-id="${comment.id}"]`);
    if (shown) fillComment(shown, comment);
    else commentList.append(commentRow(comment));
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
  followPost({
    postID, list: commentList, row: commentRow, fill: fillComment, changed: updateCount, showPost, reload: load,
    gone: () => notFound(POST_GONE),
  });
}
