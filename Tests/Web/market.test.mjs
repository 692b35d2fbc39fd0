// The Open Market's prices and product form rules (market-price.js, market-form-rules.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { money } from "sprout-web/market-price.js";
import { graphemeLength, productChanges, productProblems, thumbnailID } from "sprout-web/market-form-rules.js";

test("money: the currency, a non-breaking space, thousands separators", () => {
  assert.equal(money("KRW", 1234567), "KRW\u00A01,234,567");
  assert.equal(money("KRW", 999.6), "KRW\u00A01,000", "whole won");
  assert.equal(money("USD", 1234.5), "USD\u00A01,234.5");
  assert.equal(money("USD", 0.125), "USD\u00A00.13", "at most two decimals");
  assert.equal(money("USD", 12), "USD\u00A012");
});

const product = { name: "새싹 화분", description: "", price: 10000, discounted_price: 0, stock: 3, currency: "KRW", thumbnail_id: null };

test("a product as typed passes", () => {
  assert.deepEqual(productProblems(product, { creating: true, pictures: 1 }), {});
  assert.deepEqual(productProblems(product, { creating: false, pictures: 0 }), {}, "an edit needs no new pictures");
});

test("each field has the app's message", () => {
  const found = productProblems(
    { ...product, name: "화분", price: null, discounted_price: -1, stock: 1.5, description: "가".repeat(1001) },
    { creating: true, pictures: 0 });
  assert.deepEqual(found, {
    name: "상품명은 세 글자 이상 입력되어야 합니다.",
    price: "값이 없습니다.",
    discount: "0 이상의 숫자를 입력해 주세요.",
    stock: "0 이상의 정수를 입력해 주세요.",
    description: "글자수가 초과되었습니다.",
    images: "이미지를 한 장 이상 추가해 주세요.",
  });
  assert.equal(productProblems({ ...product, name: "가".repeat(101) }, { creating: false }).name, "상품명은 100자 이하로 입력되어야 합니다.");
  assert.equal(productProblems({ ...product, price: NaN }, { creating: false }).price, "0 이상의 숫자를 입력해 주세요.");
  assert.equal(productProblems({ ...product, discounted_price: 10001 }, { creating: false }).discount, "할인 금액은 가격보다 클 수 없습니다.");
});

test("lengths are counted as the server counts them: what a reader sees as one", () => {
  assert.equal(graphemeLength("👩‍👩‍👧‍👦🌱"), 2);
  assert.equal(graphemeLength("한글"), 2);
  assert.deepEqual(productProblems({ ...product, name: "👩‍👩‍👧‍👦🌱🌱" }, { creating: false }), {});
});

test("an edit sends what changed, and the thumbnail only when another was chosen", () => {
  const original = {
    ...product, thumbnail: "https://example.com/t2.png",
    images: [{ id: 1, thumbnail_url: "https://example.com/t1.png" }, { id: 2, thumbnail_url: "https://example.com/t2.png" }],
  };
  assert.equal(thumbnailID(original), 2);
  assert.deepEqual(productChanges({ ...product, thumbnail_id: 2 }, original), {});
  assert.deepEqual(productChanges({ ...product, price: 9000, stock: 0, thumbnail_id: 1 }, original), { price: 9000, stock: 0, thumbnail_id: 1 });
});
