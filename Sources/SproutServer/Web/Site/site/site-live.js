// Sprout web: live updates, one EventSource per page on `GET /api/events` (docs/events.md, "The stream"), and the
// small "실시간" mark in the header that says whether it is connected. A page calls
//   live({ topics: ["community"], on: { post(event) {…}, comment(event) {…} }, reset(topic) {…} })
// once (again only to change topics: the board's menu); `on` is keyed by what changed (`post`, `comment`,
// `board-post`, `product`, `todo`, `entry`) and gets parsed events (site-live-rules.js: parseEvent). The session
// cookie goes along by itself; EventSource reconnects by itself with Last-Event-ID, and gets what it missed.

import { parseEvent, streamWanted } from "./site-live-rules.js";

const CHANGES = ["created", "updated", "deleted"];
// A drop shorter than this (the server's `retry` is 2 s) is not worth a word.
const LOST_GRACE_MS = 2500;
// After the server refused the stream (EventSource gives up on a non-200), try again this much later.
const REOPEN_MS = 10000;
// A tab hidden this long lets its stream go (site-live-rules.js: streamWanted), and takes it up again when shown.
const HIDDEN_GRACE_MS = 10000;

const connection = {
  topics: [], on: {}, reset: null, source: null, lastId: "", lostTimer: 0, reopenTimer: 0, hiddenSince: 0, hiddenTimer: 0,
};

function wanted() {
  const hidden = document.visibilityState === "hidden";
  const hiddenFor = hidden && connection.hiddenSince ? performance.now() - connection.hiddenSince : 0;
  return streamWanted({ topics: connection.topics, online: navigator.onLine, hidden, hiddenFor, graceMs: HIDDEN_GRACE_MS });
}

function indicator() {
  let mark = document.getElementById("live-status");
  if (mark) return mark;
  const brand = document.querySelector(".site-header .brand");
  if (!brand) return null;
  mark = document.createElement("span");
  mark.id = "live-status";
  mark.className = "live-status";
  // Created with its text, so only changes are announced: a drop and the way back, not every page opening.
  mark.setAttribute("role", "status");
  mark.setAttribute("aria-live", "polite");
  mark.hidden = true;
  mark.innerHTML = '<span class="live-dot" aria-hidden="true"></span><span class="live-label"></span>';
  brand.after(mark);
  return mark;
}

function showState(state) {
  const mark = indicator();
  if (!mark) return;
  const label = state === "open" ? "실시간" : "실시간 연결 끊김";
  mark.dataset.state = state;
  mark.title = state === "open" ? "새 글과 변경 사항이 바로 보여요." : "다시 연결하는 중이에요. 그동안의 변경은 연결되면 보여요.";
  mark.querySelector(".live-label").textContent = label;
  mark.hidden = false;
}

function streamURL() {
  const query = new URLSearchParams({ topics: connection.topics.join(",") });
  // A new EventSource sends no Last-Event-ID of its own: the query carries the cursor instead.
  if (connection.lastId) query.set("lastEventId", connection.lastId);
  return `/api/events?${query}`;
}

function dispatch(message) {
  if (message.lastEventId) connection.lastId = message.lastEventId;
  const event = parseEvent(message.data);
  if (!event) return;
  const handler = connection.on[event.kind];
  if (handler) handler(event);
}

function open() {
  close();
  if (!wanted()) return;
  const source = new EventSource(streamURL());
  connection.source = source;
  source.addEventListener("open", () => {
    clearTimeout(connection.lostTimer);
    connection.lostTimer = 0;
    showState("open");
  });
  source.addEventListener("ready", (message) => {
    if (message.lastEventId) connection.lastId = message.lastEventId;
  });
  source.addEventListener("reset", (message) => {
    if (message.lastEventId) connection.lastId = message.lastEventId;
    let topic = "";
    try { topic = JSON.parse(message.data).topic; } catch { /* a reset without a topic: reload all */ }
    if (connection.reset) connection.reset(topic);
  });
  for (const kind of Object.keys(connection.on)) {
    for (const change of CHANGES) source.addEventListener(`${kind}.${change}`, dispatch);
  }
  source.addEventListener("error", () => {
    if (connection.source !== source) return;
    if (!connection.lostTimer) connection.lostTimer = setTimeout(() => showState("lost"), LOST_GRACE_MS);
    // CLOSED: the server answered with an error (401, 429, …) and EventSource will not retry; this page does.
    if (source.readyState === EventSource.CLOSED) {
      connection.source = null;
      connection.reopenTimer = setTimeout(open, REOPEN_MS);
    }
  });
}

function close() {
  clearTimeout(connection.reopenTimer);
  connection.reopenTimer = 0;
  if (connection.source) connection.source.close();
  connection.source = null;
}

export function live({ topics, on = {}, reset = null }) {
  if (typeof EventSource !== "function") return { setTopics() {} };
  Object.assign(connection, { on, reset });
  const setTopics = (next) => {
    const same = next.join(",") === connection.topics.join(",");
    if (same && connection.source) return;
    // Another board's cursor means nothing for this one.
    if (!same) connection.lastId = "";
    connection.topics = [...next];
    open();
  };
  setTopics(topics);
  return { setTopics };
}

// Offline, EventSource would fail again every two seconds: the stream waits for the way back instead.
addEventListener("offline", () => {
  if (connection.topics.length === 0) return;
  close();
  clearTimeout(connection.lostTimer);
  connection.lostTimer = 0;
  showState("lost");
});
addEventListener("online", () => {
  if (!connection.source) open();
});

function noteVisibility() {
  clearTimeout(connection.hiddenTimer);
  if (document.visibilityState === "hidden") {
    connection.hiddenSince = performance.now();
    // Still hidden when it fires (not `wanted()`: a timer a hair early would keep the stream for good).
    connection.hiddenTimer = setTimeout(() => {
      if (document.visibilityState === "hidden") close();
    }, HIDDEN_GRACE_MS);
  } else {
    connection.hiddenSince = 0;
    if (!connection.source && !connection.reopenTimer && connection.topics.length > 0) open();
  }
}
document.addEventListener("visibilitychange", noteVisibility);
noteVisibility();

// Closed when the page goes (no stream left open behind it); opened again when it comes back from the back/forward
// cache, from where it stopped.
addEventListener("pagehide", close);
addEventListener("pageshow", (event) => {
  if (event.persisted && connection.topics.length > 0) open();
});
