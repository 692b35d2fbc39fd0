// Sign-up and password rules in the page (account-rules.js), as Accounts/AccountInput.swift has them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isEmailAddress, rules, trimmed } from "sprout-web/account-rules.js";

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
