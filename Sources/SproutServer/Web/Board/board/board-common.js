// Sprout web, Board: what its screens share. Addresses and texts, this browser's per-account storage (the last
// board, recent searches), and the parts of a post: dates, badges, highlighted matches.

import { accountKey } from "./site-visitor.js";

export const $ = (id) => document.getElementById(id);
export const PAGE_SIZE = 30;
// Kept per account, under keys ending in "@{account id}" that signing out removes (site-visitor.js's accountKey).
// Every board page has a signed-in account (the server shows the others a log-in prompt and no script).
export const LAST_BOARD_KEY = accountKey("sprout.board.last");
const HISTORY_KEY = accountKey("sprout.board.history");
// Before they were per account, both were the browser's: whoever signed in next saw them. Dropped, not adopted,
// since nothing tells whose they were.
const UNOWNED_KEYS = ["sprout.board.last", "sprout.board.searches"];
const HISTORY_LIMIT = 20;
export const TARGETS = { all: "전체", title: "제목", contents: "내용", writer: "작성자" };
export const API = "/api/v2/boards";

export const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));
export const postPath = (boardID, postID) => `/board/${boardID}/posts/${postID}`;
// What the not-found panel (site.js) says when the address names a post or a board the API does not have.
export const POST_GONE = "게시글을 찾을 수 없습니다. 삭제되었을 수 있어요.";
export const PARENT_GONE = "답글을 달 게시글을 찾을 수 없습니다. 삭제되었을 수 있어요.";
export const BOARD_GONE = "게시판을 찾을 수 없습니다.";

// ---- Storage (a browser without it only forgets) ------------------------------------------------------

export function stored(key, fallback) {
  if (!key) return fallback;
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

export function store(key, value) {
  if (!key) return;
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: only this visit keeps it */ }
}

try {
  for (const key of UNOWNED_KEYS) localStorage.removeItem(key);
} catch { /* no storage: nothing to drop */ }

// Recent searches: {text, target} pairs, most recent first, each pair once (the app's CoreData de-duplication).
export const history = {
  entries() {
    const entries = stored(HISTORY_KEY, []);
    return Array.isArray(entries)
      ? entries.filter((e) => e && typeof e.text === "string" && e.text && Object.hasOwn(TARGETS, e.target))
      : [];
  },
  add(text, target) {
    const rest = this.entries().filter((e) => !(e.text === text && e.target === target));
    store(HISTORY_KEY, [{ text, target }, ...rest].slice(0, HISTORY_LIMIT));
  },
  remove(text, target) {
    store(HISTORY_KEY, this.entries().filter((e) => !(e.text === text && e.target === target)));
  },
  clear() {
    store(HISTORY_KEY, []);
  },
};

// ---- Shared parts of a post ---------------------------------------------------------------------------

const pad = (number) => String(number).padStart(2, "0");

// `yy-MM-dd` in the visitor's time zone, as the app showed dates; with `time`, ` HH:mm` after it.
export function boardDate(text, time = false) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return "";
  const day = `${pad(date.getFullYear() % 100)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return time ? `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}` : day;
}

function badge(text, kind, label) {
  const element = document.createElement("span");
  element.className = `badge board-badge board-badge-${kind}`;
  element.textContent = text;
  if (label) element.title = label;
  return element;
}

// 공지 or Re before the title, as the app's PostBadgeView; 익명 for an anonymous board's post; 고정 for a post a
// moderator pinned (Sprout's own).
export function showBadges(container, post) {
  const badges = [];
  if (post.isPinned) badges.push(badge("고정", "pinned", "고정된 글"));
  if (post.postType === "notice") badges.push(badge("공지", "notice", "공지"));
  if (post.postType === "reply") badges.push(badge("Re", "reply", "답글"));
  if (post.isAnonymous) badges.push(badge("익명", "anonymous", "익명 게시글"));
  container.replaceChildren(...badges);
}

// `text` with every match of `query` (any case) in <mark>: text nodes only, never markup from the API.
export function highlight(element, text, query) {
  const source = String(text).normalize("NFC");
  const needle = query ? query.normalize("NFC") : "";
  if (!needle) {
    element.replaceChildren(source);
    return;
  }
  const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu");
  const parts = [];
  let last = 0;
  for (const match of source.matchAll(pattern)) {
    if (match.index > last) parts.push(document.createTextNode(source.slice(last, match.index)));
    const mark = document.createElement("mark");
    mark.textContent = match[0];
    parts.push(mark);
    last = match.index + match[0].length;
  }
  if (last < source.length) parts.push(document.createTextNode(source.slice(last)));
  element.replaceChildren(...parts);
}
