// Dates as the pages write them: the site's (site-dates.js), the diary's, the community's relative times and the
// todos'. Each is checked against a moment made from local clock fields, so the machine's time zone does not matter.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDate } from "sprout-web/site-dates.js";
import { longDate } from "sprout-web/diary-text.js";
import { relativeTime } from "sprout-web/community-time.js";
import { formatDate as todoDate, parseTimestamp } from "sprout-web/todos-rules.js";

const local = (...fields) => new Date(...fields);

// The day period is the ICU's word for it: 오전/오후 in Chromium; Debian's Node (ICU 78) says AM/PM for ko-KR.
test("yyyy/MM/dd 오전|오후 hh:mm, as the SeSAC app showed dates", () => {
  assert.match(formatDate(local(2024, 0, 5, 14, 7).toISOString()), /^2024\/01\/05 (오후|PM) 02:07$/);
  assert.match(formatDate(local(2024, 11, 31, 9, 30).toISOString()), /^2024\/12\/31 (오전|AM) 09:30$/);
  assert.equal(formatDate("not a date"), "");
});

test("the diary's long date", () => {
  assert.equal(longDate(local(2022, 5, 28, 12).toISOString()), "2022년 6월 28일");
  assert.equal(longDate("not a date"), "");
});

test("relative while recent, 어제, then the date", () => {
  const now = local(2024, 2, 10, 12, 0, 0);
  assert.equal(relativeTime(local(2024, 2, 10, 11, 59, 30), now), "방금 전");
  assert.equal(relativeTime(local(2024, 2, 10, 12, 0, 5), now), "방금 전", "a clock a little ahead");
  assert.equal(relativeTime(local(2024, 2, 10, 11, 15), now), "45분 전");
  assert.equal(relativeTime(local(2024, 2, 10, 1, 0), now), "11시간 전");
  assert.equal(relativeTime(local(2024, 2, 9, 8, 0), now), "어제");
  assert.equal(relativeTime(local(2024, 2, 8, 23, 0), now), "2024/03/08");
});

test("the todos' dates: microseconds parsed, yyyy.MM.dd shown", () => {
  const moment = local(2023, 8, 1, 7, 5, 38);
  const iso = moment.toISOString().replace(/\.\d{3}Z$/, ".000000Z");
  assert.equal(parseTimestamp(iso).getTime(), moment.getTime());
  assert.equal(todoDate(iso), "2023.09.01");
  assert.equal(todoDate("garbage"), "");
});
