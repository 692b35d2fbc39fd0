// Sprout web, Open Market: the product form's rules, as the app and the server have them. Pure functions of the
// form's values (Tests/Web checks them with `node --test`); market-form.js reads the fields and shows the results.

// How many pictures a new product may have, as the server takes them.
export const MAX_IMAGES = 5;
// A name's and a description's length, in characters as the server counts them.
const NAME_MIN = 3;
const NAME_MAX = 100;
const DESCRIPTION_MAX = 1000;

const graphemes = new Intl.Segmenter("ko", { granularity: "grapheme" });

// Characters as the server counts them (Swift's: what a reader sees as one, emoji and Hangul alike).
export function graphemeLength(text) {
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}

// What is wrong with `value` ({name, description, price, discounted_price, stock}; a number field is null when
// empty, NaN when it holds no number), by field: name, price, discount, stock, description, images. The app's
// messages where it had them (`값이 없습니다.`, `상품명은 세 글자 이상…`, `글자수가 초과되었습니다.`). A new
// product (`creating`) needs at least one of its `pictures`.
export function productProblems(value, { creating, pictures }) {
  const found = {};
  const nameLength = graphemeLength(value.name);
  if (nameLength < NAME_MIN) found.name = "상품명은 세 글자 이상 입력되어야 합니다.";
  else if (nameLength > NAME_MAX) found.name = "상품명은 100자 이하로 입력되어야 합니다.";
  if (value.price === null) found.price = "값이 없습니다.";
  else if (!(value.price >= 0)) found.price = "0 이상의 숫자를 입력해 주세요.";
  if (!(value.discounted_price >= 0)) found.discount = "0 이상의 숫자를 입력해 주세요.";
  else if (value.price >= 0 && value.discounted_price > value.price) found.discount = "할인 금액은 가격보다 클 수 없습니다.";
  if (!(Number.isInteger(value.stock) && value.stock >= 0)) found.stock = "0 이상의 정수를 입력해 주세요.";
  if (graphemeLength(value.description) > DESCRIPTION_MAX) found.description = "글자수가 초과되었습니다.";
  if (creating && pictures === 0) found.images = "이미지를 한 장 이상 추가해 주세요.";
  return found;
}

// The id of the image `product` shows as its thumbnail, or null.
export function thumbnailID(product) {
  const image = product.images.find((candidate) => candidate.thumbnail_url === product.thumbnail);
  return image ? image.id : null;
}

// What an edit changes from `original`, the product as the API gave it: only those fields are sent, and the
// thumbnail only when another image was chosen.
export function productChanges(value, original) {
  const changed = {};
  for (const key of ["name", "description", "price", "discounted_price", "stock", "currency"]) {
    if (value[key] !== original[key]) changed[key] = value[key];
  }
  if (value.thumbnail_id !== null && value.thumbnail_id !== thumbnailID(original)) changed.thumbnail_id = value.thumbnail_id;
  return changed;
}
