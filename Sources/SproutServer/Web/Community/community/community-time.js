// Sprout web, Community: times as the feed shows them, relative while recent. Pure (Tests/Web checks it with
// `node --test`); community-common.js writes them into the page and keeps them current.

const pad = (n) => String(n).padStart(2, "0");
const sameDay = (a, b) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

// "방금 전" under a minute (and for a clock a little ahead of ours), then minutes, hours up to a day,
// "어제" for the calendar day before today, then the date (yyyy/MM/dd, the app's style).
export function relativeTime(date, now = new Date()) {
  const seconds = (now - date) / 1000;
  if (seconds < 60) return "방금 전";
  if (seconds < 60 * 60) return `${Math.floor(seconds / 60)}분 전`;
  if (seconds < 24 * 60 * 60) return `${Math.floor(seconds / 3600)}시간 전`;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return "어제";
  return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())}`;
}
