// Sprout web, Diary: dates as the app wrote them, and an entry's text, whose first line is its title. Pure but for
// timeElement (Tests/Web checks them with `node --test`).

import { TITLE_LIMIT } from "./diary-common.js";

const longDateFormat = new Intl.DateTimeFormat("ko-KR", { year: "numeric", month: "long", day: "numeric" });

export function longDate(text) {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? "" : longDateFormat.format(date);
}

// When a kept version was replaced: "방금 전", "N분 전", "N시간 전" within a day (autosaves come seconds apart),
// then the long date with the time. `full` (a <time>'s title) has the seconds.
const dateTimeFormat = new Intl.DateTimeFormat("ko-KR", { dateStyle: "long", timeStyle: "short" });
const fullDateTimeFormat = new Intl.DateTimeFormat("ko-KR", { dateStyle: "long", timeStyle: "medium" });

export function when(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return { short: "", full: "" };
  const seconds = (Date.now() - date.getTime()) / 1000;
  const short = seconds < 60 ? "방금 전" : seconds < 3600 ? `${Math.floor(seconds / 60)}분 전`
    : seconds < 86400 ? `${Math.floor(seconds / 3600)}시간 전` : dateTimeFormat.format(date);
  return { short, full: fullDateTimeFormat.format(date) };
}

export function timeElement(text) {
  const { short, full } = when(text);
  return Object.assign(document.createElement("time"), { dateTime: text || "", title: full, textContent: short });
}

// ---- The text: the first line is the title, the rest the body (the app's split with maxSplits: 1) -------

export function split(text) {
  const end = text.indexOf("\n");
  return end < 0 ? { title: text, body: "" } : { title: text.slice(0, end), body: text.slice(end + 1) };
}

export const joined = (entry) => (entry.body ? `${entry.title}\n${entry.body}` : entry.title);
// What a save is compared by: "title" and "title\n" are the same entry.
export const keyOf = ({ title, body }) => JSON.stringify([title, body]);

// The body's first line with something on it, for the list's one-line preview.
export const firstLine = (body) => (body.split("\n").find((line) => line.trim()) || "").trim();
export const hasTitle = ({ title }) => title.trim().length > 0;
export const titleTooLong = ({ title }) => [...title].length > TITLE_LIMIT;

// What "공유" copies: the title, a blank line, and the body without its leading and trailing blank lines.
export function shareText({ title, body }) {
  const text = body.replace(/^\n+/, "").trimEnd();
  return text ? `${title}\n\n${text}` : title;
}
