// The services' refusals in Korean (site-errors.js): nothing English reaches the visitor.
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorId, errorMessage, translate } from "sprout-web/site-errors.js";

test("a known text of any service is translated", () => {
  assert.equal(errorMessage({ message: "Identifier or password invalid." }, 400), "아이디(또는 이메일)나 비밀번호가 맞지 않아요.");
  assert.equal(errorMessage({ message: "No product has this id." }, 404), "상품을 찾을 수 없어요. 삭제되었을 수 있어요.");
});

test("patterns name the field in Korean, with its particle", () => {
  assert.equal(translate("title is required."), "제목을 입력해 주세요.");
  assert.equal(translate("name may be at most 50 characters long."), "이름은 50자까지 쓸 수 있어요.");
  assert.equal(translate("price must be a number from 0 to 1000000."), "가격은 0부터 1,000,000까지의 숫자로 써 주세요.");
  assert.equal(translate("image 2 (photo.heic) is neither a JPEG nor a PNG."), "2번째 이미지(photo.heic)는 JPEG나 PNG가 아니에요.");
  assert.equal(translate("The request body is larger than the 1 MB limit."), "내용이 너무 커요. 1MB까지 보낼 수 있어요.");
});

test("a field the page has no name for falls back to the status", () => {
  assert.equal(translate("frobnicator is required."), undefined);
  assert.equal(errorMessage({ message: "frobnicator is required." }, 422), "입력한 내용을 확인해 주세요.");
});

test("Strapi's form errors: the text, else the id", () => {
  const taken = { message: [{ messages: [{ id: "Auth.form.error.username.taken", message: "Username already taken" }] }] };
  assert.equal(errorMessage(taken, 400), "이미 사용 중인 아이디예요.");
  assert.equal(errorId(taken), "Auth.form.error.username.taken");
  const unknownText = { message: [{ messages: [{ id: "Auth.form.error.blocked", message: "Something new" }] }] };
  assert.equal(errorMessage(unknownText, 400), "관리자가 막아 둔 계정이에요.");
  assert.equal(errorId({ message: "plain" }), null);
});

test("Laravel's errors: the top message's field first, each once", () => {
  const body = {
    message: "제목(title)은 6자 이상이어야 합니다. (그 외 1개의 오류)",
    errors: { is_done: ["완료 여부(is_done)는 true, false, 1, 0 중 하나여야 합니다."], title: ["제목(title)은 6자 이상이어야 합니다."] },
  };
  assert.equal(errorMessage(body, 422), "제목은 6자 이상이어야 해요. 완료 여부를 알 수 없어요. 페이지를 새로 고친 뒤 다시 해 주세요.");
});

test("Korean without Latin letters is kept; English never shows", () => {
  assert.equal(translate("이미 처리된 요청입니다."), "이미 처리된 요청입니다.");
  assert.equal(errorMessage({ message: "Something broke in English" }, 500), "서버에서 오류가 났어요. 잠시 뒤에 다시 해 주세요.");
  assert.equal(errorMessage(null, 401), "로그인이 끝났어요. 다시 로그인해 주세요.");
  assert.equal(errorMessage("not json", 503), "지금은 서버가 응답하지 않아요. 잠시 뒤에 다시 해 주세요.");
  assert.equal(errorMessage(null, 418), "요청을 처리하지 못했어요. 잠시 뒤에 다시 해 주세요.");
});

test("the forgotten password's refusals", () => {
  const form = (id, message) => ({ message: [{ messages: [{ id, message }] }] });
  assert.equal(errorMessage(form("Auth.form.error.ratelimit", "Too many mails asked for, please try again later."), 429),
    "메일을 너무 여러 번 요청했어요. 한 시간쯤 뒤에 다시 해 주세요.");
  assert.match(errorMessage(form("Auth.form.error.code.provide", "Incorrect code provided."), 400), /^이 링크는 더 쓸 수 없어요\./);
  assert.equal(errorMessage(form("Auth.form.error.params.provide", "Something new"), 400), "필요한 칸을 모두 채워 주세요.");
  assert.match(errorMessage(form("Auth.form.error.confirmed", "Your account email is not confirmed"), 400), /확인 링크/);
});
