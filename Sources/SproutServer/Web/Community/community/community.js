// Sprout web: the Community. Plain JavaScript over the Strapi API (`/posts`, `/comments`) with the session
// cookie. Three screens: the feed (newest or oldest first, 20 at a time as it is scrolled, with a refresh), a post
// with its comments, and the write/edit screen the app also shared. Edit and delete appear only on the visitor's
// own posts and comments (the server refuses the rest anyway), and deleting asks first, in the app's words.
// Times read "방금 전", "3분 전", … (the full date in their title), kept current while the page is open.
// This module is the feed and starts the page's screen; community-post.js and community-write.js are the others,
// sharing community-common.js and community-time.js.

import { api } from "./site-api.js";
import { endlessList } from "./site-endless-list.js";
import { showError } from "./site-forms.js";
import { showHiddenMark } from "./site-report.js";
import { $, logInAgain, PAGE_SIZE, sessionEnded, showTime } from "./community-common.js";
import { followFeed } from "./community-live.js";
import { setUpPost } from "./community-post.js";
import { setUpWrite } from "./community-write.js";

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
  // The stream (community-live.js); null while the first listing starts, which has nothing waiting to forget.
  let live = null;

  function row(post) {
    const item = rowTemplate.content.firstElementChild.cloneNode(true);
    item.dataset.id = String(post.id);
    item.querySelector(".post-link").href = `/community/posts/${post.id}`;
    item.querySelector(".post-author").textContent = post.user ? post.user.username : "(알 수 없음)";
    showTime(item.querySelector(".post-date"), post);
    item.querySelector(".post-text").textContent = post.text;
    // The feed lists the visitor's own hidden posts too (nobody else's): marked, as on the post's page.
    showHiddenMark(item.querySelector(".post-hidden"), post);
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
    live?.forget();
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
  live = followFeed({ list, button: $("pending-posts"), row, state, changed: updateFooter, reload: startOver });
}

if ($("feed")) setUpFeed();
if ($("post-page")) setUpPost();
if ($("write-page")) setUpWrite();
