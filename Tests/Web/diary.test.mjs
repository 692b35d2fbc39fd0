// The diary's text (diary-text.js): the first line is the title, the rest the body.
import assert from "node:assert/strict";
import { test } from "node:test";
import { firstLine, hasTitle, joined, keyOf, shareText, split, titleTooLong } from "sprout-web/diary-text.js";

test("split at the first line break only, and joined back", () => {
  assert.deepEqual(split("제목\n본문\n둘째 줄"), { title: "제목", body: "본문\n둘째 줄" });
  assert.deepEqual(split("제목만"), { title: "제목만", body: "" });
  assert.equal(joined({ title: "제목", body: "본문" }), "제목\n본문");
  assert.equal(joined({ title: "제목", body: "" }), "제목");
  assert.equal(keyOf(split("제목\n")), keyOf(split("제목")), "a trailing line break is the same entry");
});

test("a title must hold something and at most 1000 characters", () => {
  assert.ok(!hasTitle(split("   \n본문")));
  assert.ok(hasTitle(split("제목")));
  assert.ok(!titleTooLong({ title: "가".repeat(1000) }));
  assert.ok(titleTooLong({ title: "가".repeat(1001) }));
});

test("the list's preview and what 공유 copies", () => {
  assert.equal(firstLine("\n\n  둘째 줄부터  \n셋째"), "둘째 줄부터");
  assert.equal(firstLine(""), "");
  assert.equal(shareText({ title: "제목", body: "\n\n본문\n\n" }), "제목\n\n본문");
  assert.equal(shareText({ title: "제목", body: "\n" }), "제목");
});
