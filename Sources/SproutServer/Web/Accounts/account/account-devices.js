// Sprout web, Accounts: the account page's sessions in words — which browser on which system (from the session's
// User-Agent), when it was last used, and in what order they are listed. Pure (Tests/Web checks them with
// `node --test`); account-settings.js draws the list.

// The first pattern that matches names the browser. Order matters: Edge, Opera, Samsung Internet, Whale and the
// in-app browsers all say "Chrome" and "Safari" too; Chrome says "Safari"; Chrome and Firefox on iOS say neither.
const BROWSERS = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOPiOS\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "삼성 인터넷"],
  [/\bWhale\//, "네이버 웨일"],
  [/\bKAKAOTALK\b/i, "카카오톡"],
  [/\bNAVER\(inapp/, "네이버 앱"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\b(?:Headless)?Chrome\/|\bChromium\/|\bCriOS\//, "Chrome"],
  [/\bSafari\/|\b(?:iPhone|iPad|iPod)\b.*\bAppleWebKit\//, "Safari"],
];

// iPhones and iPads say "like Mac OS X", Android says "Linux": they come first.
const SYSTEMS = [
  [/\b(?:iPhone|iPod)\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const first = (list, text) => (list.find(([pattern]) => pattern.test(text)) || [])[1] || "";

// "Chrome · Linux", "Safari · iPhone", "Firefox"; a client that is no browser by its first product name
// ("curl/8.5.0" → "curl"); nothing usable (no User-Agent at all): "알 수 없는 기기".
export function deviceName(userAgent) {
  const text = typeof userAgent === "string" ? userAgent.trim() : "";
  const browser = first(BROWSERS, text);
  const system = first(SYSTEMS, text);
  if (browser || system) return [browser, system].filter(Boolean).join(" · ");
  const product = text.match(/^[^\s/;()]+/);
  return product ? product[0].slice(0, 40) : "알 수 없는 기기";
}

const startOfDay = (date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());

// When a session was last used, as people say it: "방금 전" under a minute (and for a clock a little ahead of
// ours), "N분 전", "N시간 전" within a day, "어제" (the calendar day before), "N일 전" within a week, then the date
// in the browser's time zone ("3월 2일", with the year when it is another one: "2024년 12월 30일").
export function lastSeen(date, now = new Date()) {
  const seconds = (now - date) / 1000;
  if (seconds < 60) return "방금 전";
  if (seconds < 60 * 60) return `${Math.floor(seconds / 60)}분 전`;
  if (seconds < 24 * 60 * 60) return `${Math.floor(seconds / 3600)}시간 전`;
  // Whole calendar days (rounded: a day with a clock change is 23 or 25 hours long).
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  if (days <= 1) return "어제";
  if (days < 7) return `${days}일 전`;
  const day = `${date.getMonth() + 1}월 ${date.getDate()}일`;
  return date.getFullYear() === now.getFullYear() ? day : `${date.getFullYear()}년 ${day}`;
}

// When a session was last used: `lastSeenAt`, or for one never used since it began, `createdAt`.
export const lastUse = (session) => new Date(session.lastSeenAt || session.createdAt);

// This browser's session first, then the others, most recently used first (ties by id, so the order holds still).
export function sessionOrder(sessions) {
  return [...sessions].sort((a, b) => (Number(b.current) - Number(a.current)) || (lastUse(b) - lastUse(a))
    || String(a.id).localeCompare(String(b.id)));
}
