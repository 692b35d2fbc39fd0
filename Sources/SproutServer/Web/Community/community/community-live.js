// Sprout web, Community: the feed and a post's page kept current (site-live.js). In the feed, posts by others
// wait in a "새 글 N개" button until it is tapped (the list does not move under a reader); edits and new comment
// counts redraw their rows, deleted posts leave. On a post's page, comments appear, change and go as written.

import { api } from "./site-api.js";
import { live } from "./site-live.js";
import { PendingRows, pendingLabel } from "./site-live-rules.js";
import { isMine } from "./community-common.js";

// The post or comment an event is about: its `item`, else fetched (null when it is gone or hidden meanwhile).
async function rowOf(event, path) {
  if (event.item) return event.item;
  try {
    return await api("GET", `${path}/${event.id}`);
  } catch {
    return null;
  }
}

// `feed`: { list, button, row(post), state (start, descending, finished), changed(), reload() }.
export function followFeed(feed) {
  const { list, button } = feed;
  const pending = new PendingRows();
  const fetched = new Map();
  const shownRow = (id) => list.querySelector(`li[data-id="${CSS.escape(String(id))}"]`);

  function showCount() {
    // A hidden button keeps its last words: every control has a name, shown or not.
    if (pending.count > 0) button.textContent = pendingLabel(pending.count);
    button.hidden = pending.count === 0;
  }

  async function redraw(id) {
    const old = shownRow(id);
    if (!old) return;
    const post = await rowOf({ id: String(id), item: null }, "/posts");
    if (post && old.isConnected) old.replaceWith(feed.row(post));
  }

  function remove(id) {
    const old = shownRow(id);
    if (!old) return;
    old.remove();
    // The pages after it moved up by one.
    feed.state.start = Math.max(0, feed.state.start - 1);
    feed.changed();
  }

  async function onPost(event) {
    if (event.change === "deleted") {
      fetched.delete(event.id);
      pending.note(event);
      showCount();
      return remove(event.id);
    }
    if (shownRow(event.id)) return redraw(event.id);
    if (event.change !== "created" && !pending.ids.includes(event.id)) return;
    const post = await rowOf(event, "/posts");
    if (!post) return;
    if (!feed.state.descending) {
      // Oldest first: a new post belongs at the end, shown when the list has reached it.
      if (feed.state.finished && !shownRow(post.id) && !isMine(post)) {
        list.append(feed.row(post));
        feed.state.start += 1;
        feed.changed();
      }
      return;
    }
    fetched.set(event.id, post);
    pending.note(event, { mine: isMine(post), shown: Boolean(shownRow(event.id)) });
    showCount();
  }

  button.addEventListener("click", () => {
    // Newest on top, as the feed orders them.
    const posts = pending.take().map((id) => fetched.get(id)).filter(Boolean).reverse();
    fetched.clear();
    showCount();
    const rows = posts.filter((post) => !shownRow(post.id)).map(feed.row);
    list.prepend(...rows);
    feed.state.start += rows.length;
    feed.changed();
    window.scrollTo({ top: 0 });
    rows[0]?.querySelector("a")?.focus({ preventScroll: true });
  });

  // Called when the feed starts over (another order, the refresh button): nothing is waiting any more.
  const forget = () => {
    pending.take();
    fetched.clear();
    showCount();
  };

  live({
    topics: ["community"],
    on: {
      post: onPost,
      // A comment changes its post's count.
      comment: (event) => { if (event.parentId) redraw(event.parentId); },
    },
    reset: () => { forget(); feed.reload(); },
  });
  return { forget };
}

// `page`: { postID, list, row(comment), fill(item, comment), changed(), showPost(post), gone() }.
export function followPost(page) {
  const shownRow = (id) => page.list.querySelector(`li.comment[data-id="${CSS.escape(String(id))}"]`);

  async function onComment(event) {
    if (event.parentId !== String(page.postID)) return;
    const old = shownRow(event.id);
    if (event.change === "deleted") {
      old?.remove();
      return page.changed();
    }
    const comment = await rowOf(event, "/comments");
    if (!comment) return;
    const current = shownRow(event.id);
    if (current) {
      // Someone editing it here keeps their form; the text under it is the new one.
      page.fill(current, comment);
    } else {
      page.list.append(page.row(comment));
    }
    page.changed();
  }

  async function onPost(event) {
    if (event.id !== String(page.postID)) return;
    if (event.change === "deleted") return page.gone();
    const post = await rowOf(event, "/posts");
    if (post) page.showPost(post);
  }

  live({ topics: ["community"], on: { post: onPost, comment: onComment }, reset: () => page.reload() });
}
