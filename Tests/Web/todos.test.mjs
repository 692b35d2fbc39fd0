// The Todos page's title rules, quoting and paging (todos-rules.js), as TodoInput.swift checks titles.
import assert from "node:assert/strict";
import { test } from "node:test";
import { nextPage, quoted, titleLength, titleProblem, titleValid, todoFits } from "sprout-web/todos-rules.js";

test("titles: 6 to 255 code points once Unicode white space is trimmed", () => {
  assert.equal(titleLength("\u3000 여섯글자제목 \u2003"), 6);
  assert.ok(titleValid("여섯글자제목"));
  assert.ok(!titleValid("다섯글자다"));
  assert.ok(!titleValid("가".repeat(256)));
  assert.equal(titleProblem(""), "", "an empty field says nothing");
  assert.equal(titleProblem("   "), "");
  assert.equal(titleProblem("짧아"), "제목은 6자 이상이어야 해요. (지금 2자)");
  assert.equal(titleProblem("가".repeat(256)), "제목은 255자를 넘을 수 없어요. (지금 256자)");
  assert.equal(titleLength("👍🏽"), 2, "code points, as PHP's mb_strlen counted");
});

test("a quoted title with the particle its whole text takes, cut at 30 characters", () => {
  assert.equal(quoted("장보기 목록", "을/를"), "“장보기 목록”을");
  assert.equal(quoted("운동하기", "을/를"), "“운동하기”를");
  const long = "가".repeat(29) + "각" + "나".repeat(10);
  assert.equal(quoted(long, "을/를"), `“${"가".repeat(29)}각…”를`, "the particle fits the whole title");
});

test("the next page follows the rows shown, and skips a page that added nothing", () => {
  assert.equal(nextPage(0, { lastFetchedPage: 0, lastAdded: 0 }, 10), 1);
  assert.equal(nextPage(10, { lastFetchedPage: 1, lastAdded: 10 }, 10), 2);
  assert.equal(nextPage(11, { lastFetchedPage: 2, lastAdded: 1 }, 10), 2, "a todo added on the page shifts nothing away");
  assert.equal(nextPage(9, { lastFetchedPage: 1, lastAdded: 0 }, 10), 2, "page 1 again would add nothing");
});

test("a todo from another tab fits the list as filtered", () => {
  const todo = { title: "장보기 목록 정리", is_done: false };
  const all = { favouritesOnly: false, query: "", hideDone: false };
  assert.ok(todoFits(todo, all));
  assert.ok(!todoFits(todo, { ...all, favouritesOnly: true }), "favourites are picked by hand");
  assert.ok(todoFits(todo, { ...all, query: "장보기" }));
  assert.ok(!todoFits(todo, { ...all, query: "운동" }));
  assert.ok(!todoFits({ ...todo, is_done: true }, { ...all, hideDone: true }));
});
