// Korean particles and sentences (site-korean.js), which every page's messages are made with.
import assert from "node:assert/strict";
import { test } from "node:test";
import { finalSound, particle, sentences } from "sprout-web/site-korean.js";

test("a particle follows the word's last sound", () => {
  assert.equal(particle("장보기", "을/를"), "장보기를");
  assert.equal(particle("할 일", "을/를"), "할 일을");
  assert.equal(particle("“할 일”", "이/가"), "“할 일”이");
  assert.equal(particle("사과", "은/는"), "사과는");
  assert.equal(particle("책", "과/와"), "책과");
});

test("either order of the pair, and 을(를)", () => {
  assert.equal(particle("장보기", "를/을"), "장보기를");
  assert.equal(particle("밥", "을(를)"), "밥을");
});

test("으로/로 takes 로 after a vowel and after ㄹ", () => {
  assert.equal(particle("서울", "으로/로"), "서울로");
  assert.equal(particle("부산", "으로/로"), "부산으로");
  assert.equal(particle("학교", "으로/로"), "학교로");
});

test("digits, capitals and English words are read as a Korean reader says them", () => {
  assert.equal(particle("1", "을/를"), "1을"); // 일
  assert.equal(particle("2", "을/를"), "2를"); // 이
  assert.equal(particle("10", "이/가"), "10이"); // 십
  assert.equal(particle("API", "을/를"), "API를");
  assert.equal(particle("URL", "을/를"), "URL을");
  assert.equal(particle("mail", "을/를"), "mail을");
  assert.equal(particle("login", "이/가"), "login이");
  assert.equal(particle("note", "이/가"), "note가");
});

test("a word with nothing readable gets both forms", () => {
  assert.equal(particle("!!!", "을/를"), "!!!을(를)");
  assert.equal(finalSound("…"), null);
});

test("a pair that is no pair is refused", () => {
  assert.throws(() => particle("밥", "을"), /not a pair/);
});

test("sentences end in one full stop each and skip empty parts", () => {
  assert.equal(sentences("게시물을 불러오지 못했어요", "서버에서 오류가 났어요."), "게시물을 불러오지 못했어요. 서버에서 오류가 났어요.");
  assert.equal(sentences("정말요?", "", null, "네!!"), "정말요? 네!");
  assert.equal(sentences("  "), "");
});
