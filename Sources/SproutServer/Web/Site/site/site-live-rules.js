// Sprout web: the live updates' pure part (docs/events.md, "The stream"), kept apart from the EventSource so Node
// can test it: reading an event's data, and what one does to a list shown or to the "새 글 N개" count.

// Whether a page holds its stream open now. Not while offline (EventSource would only fail over and over), nor once
// it has been hidden for `graceMs`: a browser opens at most 6 connections to a host over HTTP/1.1, and every tab
// holding a stream keeps one, so a few tabs in the background would starve the one in front. A page that lets go
// catches up from where it stopped (`lastEventId`) when it is back.
export function streamWanted({ topics, online, hidden, hiddenFor = 0, graceMs = 0 }) {
  return topics.length > 0 && online !== false && !(hidden && hiddenFor >= graceMs);
}

// An event's `data`, or null when it is not the JSON the stream promises (then the page ignores it).
export function parseEvent(text) {
  let data;
  try { data = JSON.parse(text); } catch { return null; }
  if (!data || typeof data !== "object" || typeof data.action !== "string" || typeof data.topic !== "string") return null;
  const dot = data.action.lastIndexOf(".");
  if (dot <= 0) return null;
  return {
    topic: data.topic,
    seq: Number(data.seq),
    action: data.action,
    kind: data.action.slice(0, dot),
    change: data.action.slice(dot + 1),
    id: data.id === undefined || data.id === null ? "" : String(data.id),
    parentId: data.parentId === undefined || data.parentId === null ? null : String(data.parentId),
    item: data.item && typeof data.item === "object" ? data.item : null,
  };
}

// What an event does to a list of rows keyed by id (strings): "insert" (at the top: it is new), "replace",
// "remove", or "ignore". `held` says whether the list shows that id. An update for a row not held is a row that
// came back (a moderator restored it): inserted when `belongs`, as docs/events.md asks.
export function listChange(event, held, belongs = true) {
  if (event.change === "deleted") return held ? "remove" : "ignore";
  if (event.change === "created") return held ? "replace" : belongs ? "insert" : "ignore";
  if (event.change === "updated") return held ? "replace" : belongs ? "insert" : "ignore";
  return "ignore";
}

// Applies `change` for `event` to `rows` (an array of items, newest first) and returns the new array; `item` is the
// row's JSON (the event's, or fetched), `idOf` reads an item's id.
export function applyToRows(rows, event, item, idOf) {
  const index = rows.findIndex((row) => String(idOf(row)) === event.id);
  const change = listChange(event, index >= 0, item !== null);
  if (change === "remove") return rows.filter((_, i) => i !== index);
  if (change === "replace" && item) return rows.map((row, i) => (i === index ? item : row));
  if (change === "insert") return [item, ...rows];
  return rows;
}

// The "새 글 N개" count: ids of rows written since the list was shown, not yet put in. Rows the visitor wrote
// are not counted (their page shows them already); one deleted before the tap leaves the count.
export class PendingRows {
  constructor() { this.ids = []; }
  get count() { return this.ids.length; }
  note(event, { mine = false, shown = false } = {}) {
    if (event.change === "deleted") {
      this.ids = this.ids.filter((id) => id !== event.id);
    } else if (event.change === "created" && !mine && !shown && !this.ids.includes(event.id)) {
      this.ids.push(event.id);
    }
    return this.count;
  }
  take() {
    const ids = this.ids;
    this.ids = [];
    return ids;
  }
}

// The button's words for `count` new rows ("" when there are none: the button hides).
export const pendingLabel = (count, noun = "글") => (count > 0 ? `새 ${noun} ${count.toLocaleString("ko-KR")}개` : "");
