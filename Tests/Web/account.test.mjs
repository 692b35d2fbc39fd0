// Sign-up and password rules in the page (account-rules.js), as Accounts/AccountInput.swift has them, and the
// account page's sessions in words (account-devices.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { isEmailAddress, rules, trimmed } from "sprout-web/account-rules.js";
import { deviceName, lastSeen, lastUse, sessionOrder } from "sprout-web/account-devices.js";

const field = (value, extra = {}) => ({ value, ...extra });

test("e-mail addresses as the server takes them", () => {
  for (const good of ["name@example.com", "first.last@mail.example.co", "a-b@x-y.io"]) assert.ok(isEmailAddress(good), good);
  for (const bad of ["name", "a@b", "a@@b.com", "a b@example.com", "name@example.c0m", ".@example.com", "a..b@example.com", "a@exa_mple.com"]) {
    assert.ok(!isEmailAddress(bad), bad);
  }
});

test("user names: 3 to 50 characters, no control characters, no e-mail address", () => {
  assert.equal(rules.username(field("  sprout  ")), "");
  assert.equal(rules.username(field("")), "아이디를 입력해 주세요.");
  assert.equal(rules.username(field("ab")), "아이디는 3자 이상 50자 이하로 정해 주세요. 지금 2자예요.");
  assert.equal(rules.username(field("가".repeat(51))), "아이디는 3자 이상 50자 이하로 정해 주세요. 지금 51자예요.");
  assert.equal(rules.username(field("👩‍👩‍👧‍👦🌱🌱")), "", "three characters as a reader counts them");
  assert.equal(rules.username(field("tab\there")), "아이디에 쓸 수 없는 문자가 들어 있어요.");
  assert.match(rules.username(field("me@example.com")), /이메일 주소 모양일 수 없어요/);
});

test("e-mail field", () => {
  assert.equal(rules.email(field(" me@example.com ")), "");
  assert.equal(rules.email(field("")), "이메일을 입력해 주세요.");
  assert.match(rules.email(field("me@example")), /형식이 올바르지 않아요/);
});

test("passwords: 6 to 72 bytes, at most three $", () => {
  assert.equal(rules.newPassword(field("secret")), "");
  assert.equal(rules.newPassword(field("")), "비밀번호를 입력해 주세요.");
  assert.equal(rules.newPassword(field("12345")), "비밀번호는 6자 이상이어야 해요.");
  assert.equal(rules.newPassword(field("가나")), "", "two Hangul syllables are six bytes");
  assert.match(rules.newPassword(field("가".repeat(25))), /너무 길어요/);
  assert.equal(rules.newPassword(field("a$b$c$d$")), "비밀번호에 $ 기호는 세 번까지만 쓸 수 있어요.");
  assert.equal(rules.currentPassword(field("")), "현재 비밀번호를 입력해 주세요.");
});

test("the confirmation follows its password", () => {
  const confirm = rules.confirmation(field("secret1"));
  assert.equal(confirm(field("secret1")), "");
  assert.equal(confirm(field("secret2")), "비밀번호가 일치하지 않습니다.");
  assert.equal(confirm(field("")), "비밀번호를 한 번 더 입력해 주세요.");
  assert.equal(trimmed(field("\u00A0 a b \n")), "a b");
});

// ---- The account page's sessions (account-devices.js) ----------------------------------------------------

test("a session's browser and system, read from its User-Agent", () => {
  const cases = {
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36": "Chrome · Linux",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36": "Chrome · Linux",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0": "Edge · Windows",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15": "Safari · macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0": "Firefox · macOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1": "Safari · iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1": "Chrome · iPhone",
    "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15": "Firefox · iPad",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 KAKAOTALK 10.8.1": "카카오톡 · iPhone",
    "Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36": "삼성 인터넷 · Android",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36": "Chrome · Android",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Whale/3.26.244.21 Safari/537.36": "네이버 웨일 · Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0": "Opera · Windows",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36": "Chrome · ChromeOS",
  };
  for (const [agent, name] of Object.entries(cases)) assert.equal(deviceName(agent), name, agent);
  // Clients that are no browser go by their first product name; nothing at all is an unknown device.
  assert.equal(deviceName("curl/8.5.0"), "curl");
  assert.equal(deviceName("python-requests/2.31.0"), "python-requests");
  assert.equal(deviceName("x".repeat(100)), "x".repeat(40));
  for (const nothing of [null, undefined, "", "   ", "(;)"]) assert.equal(deviceName(nothing), "알 수 없는 기기", String(nothing));
});

test("when a session was last used, as people say it", () => {
  const now = new Date(2026, 2, 10, 15, 30); // 10 March 2026, 15:30 in the local time zone
  const ago = (ms) => new Date(now.getTime() - ms);
  assert.equal(lastSeen(ago(20_000), now), "방금 전");
  assert.equal(lastSeen(new Date(now.getTime() + 30_000), now), "방금 전", "a clock a little ahead of ours");
  assert.equal(lastSeen(ago(60_000), now), "1분 전");
  assert.equal(lastSeen(ago(59 * 60_000), now), "59분 전");
  assert.equal(lastSeen(ago(3 * 3600_000 + 5), now), "3시간 전");
  assert.equal(lastSeen(new Date(2026, 2, 9, 9, 0), now), "어제");
  assert.equal(lastSeen(new Date(2026, 2, 9, 16, 0), now), "23시간 전", "within a day counts hours, even yesterday");
  assert.equal(lastSeen(new Date(2026, 2, 7, 23, 59), now), "3일 전");
  assert.equal(lastSeen(new Date(2026, 2, 4, 8, 0), now), "6일 전");
  assert.equal(lastSeen(new Date(2026, 2, 3, 8, 0), now), "3월 3일");
  assert.equal(lastSeen(new Date(2025, 11, 30, 8, 0), now), "2025년 12월 30일");
});

test("sessions: this browser's first, then the most recently used", () => {
  const sessions = [
    { id: "b", current: false, createdAt: "2026-03-01T00:00:00.000Z", lastSeenAt: "2026-03-09T00:00:00.000Z" },
    { id: "c", current: false, createdAt: "2026-03-08T00:00:00.000Z", lastSeenAt: null },
    { id: "a", current: true, createdAt: "2026-02-01T00:00:00.000Z", lastSeenAt: "2026-02-02T00:00:00.000Z" },
    { id: "d", current: false, createdAt: "2026-03-01T00:00:00.000Z", lastSeenAt: "2026-03-09T00:00:00.000Z" },
  ];
  assert.deepEqual(sessionOrder(sessions).map((s) => s.id), ["a", "b", "d", "c"]);
  assert.equal(sessions[0].id, "b", "the list given is left as it was");
  assert.equal(lastUse(sessions[1]).toISOString(), "2026-03-08T00:00:00.000Z", "never used since it began: its start");
});
