// Sprout web, Open Market: prices and stock as the app showed them. `money` is pure (Tests/Web checks it with
// `node --test`); the others write it into an element.

const numberFormats = new Map();
// `{currency} {amount}` with thousands separators: KRW in whole won, USD with up to two decimals. The space is
// a non-breaking one, so a narrow screen never puts the amount on another line than its currency.
export function money(currency, amount) {
  const digits = currency === "KRW" ? 0 : 2;
  if (!numberFormats.has(digits)) numberFormats.set(digits, new Intl.NumberFormat("ko-KR", { maximumFractionDigits: digits }));
  return `${currency}\u00A0${numberFormats.get(digits).format(amount)}`;
}

// A discounted product: the original price struck through, then the bargain price.
export function showPrice(element, product) {
  const current = document.createElement("span");
  current.className = "price-current";
  if (product.discounted_price > 0) {
    const original = document.createElement("del");
    original.className = "price-original";
    original.textContent = money(product.currency, product.price);
    current.textContent = money(product.currency, product.bargain_price);
    element.replaceChildren(original, " ", current);
  } else {
    current.textContent = money(product.currency, product.price);
    element.replaceChildren(current);
  }
}

export function showStock(element, stock) {
  element.textContent = stock > 0 ? `잔여수량 : ${stock}` : "품절";
  element.classList.toggle("is-sold-out", !(stock > 0));
}
