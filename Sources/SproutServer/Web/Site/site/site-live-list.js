// Sprout web: a list that follows its topic (site-live.js) without moving under the reader: new rows wait in a
// "새 글 N개" button over the list, whose tap lists again from the top; deleted rows leave at once; an edited row
// is redrawn when the event carries it. The board's posts and the market's products use it.

import { live } from "./site-live.js";
import { PendingRows, pendingLabel } from "./site-live-rules.js";

// `kind`: the events' noun (`board-post`); `rowFor(id)`: the rows shown for an id (a pinned post shows twice);
// `redraw(row, item)`; `removed()` after a row left; `reload()` lists again from the top.
export function followList({ topics, kind, button, noun = "글", rowFor, redraw, removed, reload }) {
  const pending = new PendingRows();

  function showCount() {
    // A hidden button keeps its last words: every control has a name, shown or not.
    if (pending.count > 0) button.textContent = pendingLabel(pending.count, noun);
    button.hidden = pending.count === 0;
  }

  function forget() {
    pending.take();
    showCount();
  }

  button.addEventListener("click", () => {
    forget();
    window.scrollTo({ top: 0 });
    reload();
  });

  function onEvent(event) {
    const rows = rowFor(event.id);
    if (event.change === "deleted") {
      pending.note(event);
      showCount();
      if (rows.length === 0) return;
      for (const row of rows) row.remove();
      return removed();
    }
    if (rows.length > 0) {
      if (event.item) for (const row of rows) redraw(row, event.item);
      return;
    }
    pending.note(event);
    showCount();
  }

  const stream = live({ topics, on: { [kind]: onEvent }, reset: () => { forget(); reload(); } });
  return {
    // Another board: what waited was for the one before.
    setTopics(next) {
      forget();
      stream.setTopics(next);
    },
    forget,
  };
}
