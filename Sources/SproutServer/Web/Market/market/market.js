// Sprout web: the Open Market. Plain JavaScript over the market API (`/api/products`, `/api/vendors`) with the
// session cookie. Four screens: the product list (LIST/GRID, search, endless scrolling), a product (its images in
// a carousel; edit and delete for its own vendor), one form for registering and editing, as in the app, and the
// vendor screen (become one; see the identifier and secret; make a new secret). Product changes carry the vendor's
// `identifier` header and secret, which the page reads from `/api/vendors/me`, as the app kept them in its code.
// This module is the product list and starts the page's screen; the others are market-product.js, market-form.js
// (with market-form-rules.js and market-pictures.js) and market-vendor.js, sharing market-common.js and
// market-price.js.

import { api } from "./site-api.js";
import { endlessList } from "./site-endless-list.js";
import { showError } from "./site-forms.js";
import { followList } from "./site-live-list.js";
import { me } from "./site-visitor.js";
import { $, failureText, myVendor, sameOrigin } from "./market-common.js";
import { setUpForm } from "./market-form.js";
import { showPrice, showStock } from "./market-price.js";
import { setUpProduct } from "./market-product.js";
import { setUpVendor } from "./market-vendor.js";

const PAGE_SIZE = 20;

const LAYOUT_KEY = "sprout.market.layout";

// ---- The list -------------------------------------------------------------------------------------

function setUpList() {
  const list = $("product-list");
  const rowTemplate = $("product-row");
  const loading = $("loading");
  const listEnd = $("list-end");
  const listEmpty = $("list-empty");
  const retry = $("retry");
  const notice = $("notice");
  const sentinel = $("sentinel");
  const count = $("product-count");
  const searchForm = $("search-form");
  const searchQuery = $("search-query");
  const searchClear = $("search-clear");
  const listButton = $("layout-list");
  const gridButton = $("layout-grid");
  const state = { search: "", page: 0, total: null, finished: false };
  // New products wait in a button over the list; deleted ones leave (site-live-list.js).
  let following = null;

  function row(product) {
    const item = rowTemplate.content.firstElementChild.cloneNode(true);
    item.dataset.id = String(product.id);
    item.querySelector(".product-link").href = `/market/products/${product.id}`;
    const thumbnail = sameOrigin(product.thumbnail);
    if (thumbnail) item.querySelector(".product-thumb").src = thumbnail;
    item.querySelector(".product-name").textContent = product.name;
    showPrice(item.querySelector(".product-price"), product);
    showStock(item.querySelector(".product-stock"), product.stock);
    return item;
  }

  function updateFooter() {
    const shown = list.children.length;
    listEmpty.hidden = !(state.finished && shown === 0);
    listEmpty.textContent = state.search ? `“${state.search}”에 맞는 상품이 없어요.` : "아직 등록된 상품이 없어요.";
    listEnd.hidden = !(state.finished && shown > 0);
    count.textContent = state.total === null ? "" : state.search ? `검색 결과 ${state.total}개` : `상품 ${state.total}개`;
  }

  const products = endlessList({
    list, sentinel, loading, retry,
    isFinished: () => state.finished,
    fetchPage() {
      const query = new URLSearchParams({ page_no: String(state.page + 1), items_per_page: String(PAGE_SIZE) });
      if (state.search) query.set("search_value", state.search);
      return api("GET", `/api/products?${query}`);
    },
    take(page) {
      state.page = page.page_no;
      state.total = page.total_count;
      state.finished = !page.has_next;
      return page.pages;
    },
    idOf: (product) => product.id,
    row,
    failed: (failure) => showError(notice, failureText("상품 리스트를 불러오는데 실패하였습니다.", failure)),
    changed: updateFooter,
  });

  function startListing(search) {
    following?.forget();
    Object.assign(state, { search, page: 0, total: null, finished: false });
    showError(notice, "");
    searchClear.hidden = !search;
    products.restart();
  }

  function setLayout(layout, remember) {
    const grid = layout === "grid";
    list.classList.toggle("layout-grid", grid);
    list.classList.toggle("layout-list", !grid);
    listButton.setAttribute("aria-pressed", String(!grid));
    gridButton.setAttribute("aria-pressed", String(grid));
    if (remember) {
      try { localStorage.setItem(LAYOUT_KEY, layout); } catch { /* private mode: only this visit keeps it */ }
    }
  }

  let savedLayout = null;
  try { savedLayout = localStorage.getItem(LAYOUT_KEY); } catch { /* no storage: the list it is */ }
  setLayout(savedLayout === "grid" ? "grid" : "list", false);
  listButton.addEventListener("click", () => { setLayout("list", true); products.loadIfNearBottom(); });
  gridButton.addEventListener("click", () => { setLayout("grid", true); products.loadIfNearBottom(); });

  searchForm.addEventListener("submit", (event) => {
    event.preventDefault();
    startListing(searchQuery.value.trim());
  });
  // Emptying the box (or its ✕) goes back to every product.
  searchQuery.addEventListener("input", () => {
    if (searchQuery.value.trim() === "" && state.search) startListing("");
  });
  searchClear.addEventListener("click", () => {
    searchQuery.value = "";
    startListing("");
    searchQuery.focus();
  });
  retry.addEventListener("click", () => {
    showError(notice, "");
    products.retry();
  });

  // Registering is for vendors; a signed-in account that is none yet is offered to become one. Asked again when
  // the page comes back from the browser's back-forward cache: the account may have become a vendor meanwhile.
  function showSellerLinks() {
    if (!me) return;
    myVendor().then((vendor) => {
      const vendorLink = $("vendor-link");
      vendorLink.textContent = vendor ? "판매자 정보" : "판매자 되기";
      vendorLink.hidden = false;
      $("new-product-link").hidden = !vendor;
    }, () => { /* the list works without it */ });
  }
  showSellerLinks();
  window.addEventListener("pageshow", (event) => { if (event.persisted) showSellerLinks(); });

  startListing(searchQuery.value.trim());
  following = followList({
    topics: ["market"], kind: "product", button: $("pending-products"), noun: "상품",
    rowFor: (id) => [...list.querySelectorAll(`li[data-id="${CSS.escape(id)}"]`)],
    redraw: (old, product) => old.replaceWith(row(product)),
    removed() {
      if (state.total !== null) state.total = Math.max(0, state.total - 1);
      updateFooter();
    },
    reload: () => startListing(state.search),
  });
}

if ($("market-list-page")) setUpList();
if ($("product-page")) setUpProduct();
if ($("product-form-page")) setUpForm();
if ($("vendor-page")) setUpVendor();
