// Sprout web, Open Market: what its screens share. Messages that quote a name, failure texts as the app wrote them,
// the signed-in account's vendor, and image addresses made same-origin.

import { api } from "./site-api.js";
import { particle } from "./site-korean.js";
import { me } from "./site-visitor.js";

// `“word”` and its particle, for messages that quote a name (site-korean.js fits the particle to the word).
export const quoted = (word, pair) => `“${word}”${particle(word, pair).slice(String(word).length)}`;

export const $ = (id) => document.getElementById(id);

// What the not-found panel (site.js) says on a product's page or its edit form when the API has no such product.
export const PRODUCT_GONE = "상품을 찾을 수 없어요. 삭제되었을 수 있어요.";

export const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));

// The app's sentence for what failed, then why in the visitor's words (site.js's api() makes every refusal
// Korean); no connection at all is the app's network message alone.
export function failureText(what, failure) {
  if (failure.status === 0) return "인터넷 연결에 실패하였습니다.";
  return failure.message ? `${what} (${failure.message})` : what;
}

// The signed-in account's vendor ({id, name, identifier, secret}); null when it is none yet or nobody is signed in.
export async function myVendor() {
  if (!me) return null;
  try {
    return await api("GET", "/api/vendors/me");
  } catch (failure) {
    if (failure.status === 404) return null;
    throw failure;
  }
}

// Image addresses are absolute, made from the server's PUBLIC_URL. One naming another origin (the server reached
// by another name or port) is loaded from this one by its path: the images are here too, and the page's
// Content-Security-Policy allows this origin only.
export function sameOrigin(address) {
  if (!address) return "";
  try {
    const url = new URL(address, location.href);
    if (url.protocol !== "http:" && url.protocol !== "https:") return "";
    return url.origin === location.origin ? url.href : url.pathname + url.search;
  } catch {
    return "";
  }
}
