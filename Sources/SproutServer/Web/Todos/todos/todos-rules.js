// Sprout web, Todos: titles, dates and paging as the server and the app have them. Pure (Tests/Web checks them with
// `node --test`).

import { particle } from "./site-korean.js";

// A title quoted in a message, cut to 30 characters (a 255-character title would fill the screen), with the
// particle its whole text takes: quoted("장보기 목록", "을/를") → "“장보기 목록”을".
export function quoted(title, pair) {
  const whole = particle(`“${title}”`, pair);
  const chars = [...title];
  if (chars.length <= 30) return whole;
  return `“${chars.slice(0, 30).join("")}…”${whole.slice(`“${title}”`.length)}`;
}

const pad = (n) => String(n).padStart(2, "0");

// The API's timestamps carry microseconds (`…38.000000Z`); Date parses milliseconds reliably.
export function parseTimestamp(text) {
  return new Date(String(text).replace(/\.(\d{3})\d*Z$/, ".$1Z"));
}

// yyyy.MM.dd in the viewer's own time zone, as the app showed it.
export function formatDate(text) {
  const date = parseTimestamp(text);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}.${pad(date.getMonth() + 1)}.${pad(date.getDate())}`;
}

// ---- Title rules, as the server checks them (TodoInput.swift) ------------------------------------

const TITLE_MIN = 6;
export const TITLE_MAX = 255;
// The server trims Unicode white space (the White_Space property, which is not quite JavaScript's \s) and
// counts what is left in code points, as PHP's mb_strlen did.
const trimmed = (text) => text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
export const titleLength = (text) => [...trimmed(text)].length;

// The message for a title as typed, or "" when it may be sent (an empty field says nothing: it just cannot be sent).
export function titleProblem(text) {
  const length = titleLength(text);
  if (length === 0) return "";
  if (length < TITLE_MIN) return `제목은 ${TITLE_MIN}자 이상이어야 해요. (지금 ${length}자)`;
  if (length > TITLE_MAX) return `제목은 ${TITLE_MAX}자를 넘을 수 없어요. (지금 ${length}자)`;
  return "";
}
export const titleValid = (text) => { const length = titleLength(text); return length >= TITLE_MIN && length <= TITLE_MAX; };

// The page of `perPage` to ask for next. The rows shown (`shown`) are the start of the server's order (newest first),
// so their number says which page comes next, even after this page added or deleted todos; but never the last page
// fetched or one before it when that fetch added no row (every todo on it was shown already): then the one after.
export function nextPage(shown, { lastFetchedPage, lastAdded }, perPage) {
  const page = Math.floor(shown / perPage) + 1;
  return page <= lastFetchedPage && lastAdded === 0 ? lastFetchedPage + 1 : page;
}

// Whether `todo` belongs in the list as `state` filters it (a todo added here or in another tab): not among the
// favourites only (they are picked by hand), matching the search, and not done while done ones are hidden.
export function todoFits(todo, { favouritesOnly, query, hideDone }) {
  if (favouritesOnly) return false;
  if (hideDone && todo.is_done) return false;
  return !query || todo.title.toLocaleLowerCase().includes(query.toLocaleLowerCase());
}
