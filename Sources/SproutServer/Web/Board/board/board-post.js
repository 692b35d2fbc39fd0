// Sprout web, Board: a post. Edit and delete for its writer (deleting after a confirmation), a reply to it, 신고
// for everyone else (site-report.js), and the mark on the writer's own post that a moderator hid. Moderators and
// admins also pin it (고정) and edit the notices of a board only they write in.

import { api } from "./site-api.js";
import { showError } from "./site-forms.js";
import { notFound } from "./site-not-found.js";
import { showHiddenMark, reportTarget } from "./site-report.js";
import { flashNext, notify } from "./site-toast.js";
import { $, API, boardDate, logInAgain, POST_GONE, postPath, showBadges } from "./board-common.js";

export function setUpPost() {
  const page = $("board-post-page");
  const boardID = Number(page.dataset.boardId);
  const postID = Number(page.dataset.postId);
  const notice = $("notice");
  const loading = $("loading");
  const dialog = $("delete-dialog");

  const pin = $("post-pin");
  let current = null;

  function showPin(post) {
    pin.textContent = post.isPinned ? "고정 해제" : "고정";
    pin.setAttribute("aria-pressed", String(Boolean(post.isPinned)));
  }

  // `capability`: what this account may do in the post's board (reply when writable; pin when manageable; edit
  // others' posts when editsOthersPosts).
  function showPost(post, capability) {
    current = post;
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
    $("post-actions").hidden = !(post.isOwner || capability.editsOthersPosts);
    $("post-delete").hidden = !post.isOwner;
    pin.hidden = !capability.manageable || post.postType === "reply";
    showPin(post);
    reportTarget($("post-report"), "board-post", postID, !post.isOwner);
    showHiddenMark($("post-hidden"), post);
    const reply = $("post-reply");
    reply.href = `/board/${boardID}/write?reply=${postID}`;
    reply.hidden = !capability.writable;
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
      showPost(post, (board && board.capability) || {});
    } catch (failure) {
      if (failure.status === 401) return logInAgain();
      // A well-formed id the API does not have: the site's not-found panel, as the server draws it for a bad one.
      if (failure.status === 404) return notFound(POST_GONE);
      showError(notice, `게시글을 불러오지 못했습니다. ${failure.message}`);
    } finally {
      loading.hidden = true;
    }
  }

  pin.addEventListener("click", async () => {
    if (!current) return;
    const pinning = !current.isPinned;
    pin.disabled = true;
    try {
      current = await api(pinning ? "PUT" : "DELETE", `${API}/${boardID}/posts/${postID}/pin`);
      showBadges($("post-badges"), current);
      showPin(current);
      notify(pinning ? "게시글을 고정했습니다." : "고정을 해제했습니다.");
    } catch (failure) {
      if (failure.status === 401) return logInAgain();
      showError(notice, `${pinning ? "고정하지" : "고정을 해제하지"} 못했습니다. ${failure.message}`);
    } finally {
      pin.disabled = false;
    }
  });

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
