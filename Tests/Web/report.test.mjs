// The report dialog's pure parts (site-report-rules.js) and the report refusals' Korean (site-errors.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorMessage } from "sprout-web/site-errors.js";
import { REASON_MAX, reasonLength, reasonState, reportBody } from "sprout-web/site-report-rules.js";

test("a reason is counted as the server counts it: trimmed, grapheme clusters", () => {
  assert.equal(reasonLength("  스팸이에요\n"), 5);
  assert.equal(reasonLength("\u3000\u00a0"), 0, "Unicode white space is trimmed too");
  assert.equal(reasonLength("👩‍👩‍👧‍👦🌱"), 2);
  assert.equal(reasonLength("한 글자 두 글자"), 9, "spaces inside count");
});

test("an empty reason cannot be sent and says nothing", () => {
  for (const text of ["", "   ", "\n\t"]) {
    const state = reasonState(text);
    assert.equal(state.sendable, false, JSON.stringify(text));
    assert.equal(state.message, "");
    assert.equal(state.counter, "0/1,000");
  }
});

test("up to 1,000 characters may be sent; past that the counter says by how much", () => {
  assert.equal(REASON_MAX, 1000);
  assert.deepEqual(reasonState("가".repeat(1000)), {
    length: 1000, counter: "1,000/1,000", over: false, message: "", sendable: true,
  });
  const over = reasonState("가".repeat(1003));
  assert.equal(over.sendable, false);
  assert.equal(over.over, true);
  assert.equal(over.counter, "1,003/1,000");
  assert.equal(over.message, "1,000자까지 쓸 수 있어요. 3자를 줄여 주세요.");
  assert.equal(reasonState(` ${"가".repeat(1000)}  \n`).sendable, true, "surrounding spaces do not count");
});

test("the body names the kind, the id and the trimmed reason", () => {
  assert.deepEqual(reportBody("board-post", "7", "  광고예요 "), { kind: "board-post", id: 7, reason: "광고예요" });
  assert.throws(() => reportBody("diary", 1, "x"), TypeError);
});

test("the report refusals are Korean", () => {
  const korean = (message, status) => errorMessage({ message }, status);
  assert.equal(korean("Sign in to report: a Bearer token or the web app's session.", 401), "신고하려면 로그인해 주세요.");
  assert.equal(korean("There is no such item to report.", 404), "신고할 내용을 찾을 수 없어요. 삭제되었거나 숨겨졌을 수 있어요.");
  assert.equal(korean("Too many reports from this account in the last hour; try again later.", 429),
    "한 시간 동안 신고할 수 있는 횟수를 넘었어요. 잠시 뒤에 다시 해 주세요.");
  assert.equal(korean("reason must be 1 to 1000 characters.", 400), "신고 이유는 1자 이상 1,000자 이하로 써 주세요.");
  assert.equal(korean("kind must be one of post, comment, product, board-post.", 400),
    "신고할 수 없는 종류예요. 페이지를 새로 고친 뒤 다시 해 주세요.");
});
