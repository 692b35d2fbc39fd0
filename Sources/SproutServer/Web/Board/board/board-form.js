// Sprout web, Board: one form for writing, replying and editing.

import { api } from "./site-api.js";
import { onSubmit, setBusy, showError } from "./site-forms.js";
import { notFound } from "./site-not-found.js";
import { flashNext } from "./site-toast.js";
import { $, API, BOARD_GONE, logInAgain, PARENT_GONE, POST_GONE, postPath } from "./board-common.js";

export function setUpForm() {
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
        // A moderator or an admin also edits the notices others wrote in a board only they write in.
        if (!post.isOwner && !board.capability.editsOthersPosts) return refuse("내 글만 수정할 수 있습니다.");
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
