// Sprout web, Open Market: a product's page. Its images in a carousel (buttons, arrow keys, swipes), edit and
// delete for its own vendor, 신고 for everyone else signed in (site-report.js), and the mark on the vendor's own
// product that a moderator hid.

import { api } from "./site-api.js";
import { showError } from "./site-forms.js";
import { notFound } from "./site-not-found.js";
import { showHiddenMark, reportTarget } from "./site-report.js";
import { flashNext } from "./site-toast.js";
import { me } from "./site-visitor.js";
import { $, failureText, myVendor, PRODUCT_GONE, sameOrigin } from "./market-common.js";
import { showPrice, showStock } from "./market-price.js";

export function setUpProduct() {
  const page = $("product-page");
  const productID = Number(page.dataset.productId);
  const notice = $("notice");
  const loading = $("loading");
  const carousel = $("carousel");
  const track = $("carousel-track");
  const previous = $("carousel-prev");
  const next = $("carousel-next");
  const indicator = $("carousel-indicator");
  const slideTemplate = $("carousel-slide");
  let index = 0;
  let vendor = null;

  function showSlide(wanted) {
    const slides = track.children;
    if (slides.length === 0) return;
    index = Math.max(0, Math.min(slides.length - 1, wanted));
    track.style.transform = `translateX(${-100 * index}%)`;
    [...slides].forEach((slide, i) => {
      slide.setAttribute("aria-hidden", String(i !== index));
    });
    indicator.textContent = `${index + 1}/${slides.length}`;
    previous.disabled = index === 0;
    next.disabled = index === slides.length - 1;
  }

  function showProduct(product) {
    document.title = `${product.name} · Sprout`;
    $("product-name").textContent = product.name;
    showPrice($("product-price"), product);
    showStock($("product-stock"), product.stock);
    $("product-vendor").textContent = product.vendors ? product.vendors.name : "";
    $("product-description").textContent = product.description || "";
    const images = Array.isArray(product.images) ? product.images : [];
    track.replaceChildren(...images.map((image, i) => {
      const slide = slideTemplate.content.firstElementChild.cloneNode(true);
      const img = slide.querySelector("img");
      img.src = sameOrigin(image.url);
      img.alt = `${product.name} 이미지 ${i + 1}/${images.length}`;
      img.draggable = false;
      return slide;
    }));
    carousel.classList.toggle("is-single", images.length < 2);
    showSlide(0);
    $("product-edit").href = `/market/products/${product.id}/edit`;
    const mine = Boolean(vendor && vendor.id === product.vendor_id);
    $("product-actions").hidden = !mine;
    // A signed-in visitor may report another vendor's product; signed out there is nobody to report as.
    reportTarget($("product-report"), "product", product.id, me !== null && !mine);
    showHiddenMark($("product-hidden"), product);
    $("product").hidden = false;
  }

  async function load() {
    try {
      const [product, mine] = await Promise.all([
        api("GET", `/api/products/${productID}`),
        myVendor().catch(() => null),
      ]);
      vendor = mine;
      showProduct(product);
    } catch (failure) {
      // A well-formed id the API does not have: the site's not-found panel, as the server draws it for a bad one.
      if (failure.status === 404) return notFound(PRODUCT_GONE);
      showError(notice, failureText("상품을 불러오는데 실패하였습니다.", failure));
    } finally {
      loading.hidden = true;
    }
  }

  previous.addEventListener("click", () => showSlide(index - 1));
  next.addEventListener("click", () => showSlide(index + 1));
  // ← and → turn the pages, unless the keys belong to a field or a dialog is open.
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (event.target.closest("input, textarea, select, dialog") || document.querySelector("dialog[open]")) return;
    const shown = $("product");
    if (!shown || shown.hidden) return; // not yet loaded, or the not-found panel took its place
    event.preventDefault();
    showSlide(index + (event.key === "ArrowLeft" ? -1 : 1));
  });
  // A swipe, by finger or by mouse: far enough sideways turns the page.
  let swipe = null;
  carousel.addEventListener("pointerdown", (event) => {
    if (event.target.closest("button")) return;
    swipe = { id: event.pointerId, x: event.clientX };
  });
  carousel.addEventListener("pointerup", (event) => {
    if (!swipe || swipe.id !== event.pointerId) return;
    const distance = event.clientX - swipe.x;
    swipe = null;
    if (Math.abs(distance) >= 40) showSlide(index + (distance < 0 ? 1 : -1));
  });
  carousel.addEventListener("pointercancel", () => { swipe = null; });

  setUpDelete(productID, () => vendor, () => $("product-name").textContent);
  load();
}

// Deleting asks for a confirmation only: the page already holds the vendor's secret (`/api/vendors/me`), which it
// reads again at the moment of deleting (it may have been renewed in another tab). Then v3's two steps: the
// archived lookup gives the delete path, and DELETE on it removes the product. A refusal keeps the dialog open
// with the reason.
function setUpDelete(productID, currentVendor, productName) {
  const dialog = $("delete-dialog");
  if (!dialog) return;
  const form = $("delete-form");
  const error = $("delete-error");
  const confirm = $("delete-confirm");
  const cancel = $("delete-cancel");
  let busy = false;
  const setBusy = (value) => {
    busy = value;
    confirm.disabled = value;
    form.setAttribute("aria-busy", String(value));
  };

  $("product-delete").addEventListener("click", () => {
    $("delete-product-name").textContent = productName();
    showError(error, "");
    setBusy(false);
    dialog.showModal();
    cancel.focus();
  });
  cancel.addEventListener("click", () => { if (!busy) dialog.close("cancel"); });
  dialog.addEventListener("cancel", (event) => { if (busy) event.preventDefault(); });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    showError(error, "");
    try {
      const vendor = (await myVendor()) || currentVendor();
      if (!vendor) throw new Error("판매자 정보를 찾을 수 없습니다.");
      const headers = { identifier: vendor.identifier };
      const path = await api("POST", `/api/products/${productID}/archived`, { secret: vendor.secret }, headers);
      if (typeof path !== "string" || !path.trim().startsWith("/api/products/")) throw new Error("상품을 제거할 수 없습니다.");
      await api("DELETE", path.trim(), undefined, headers);
    } catch (failure) {
      setBusy(false);
      showError(error, failureText("상품 삭제 실패하였습니다", failure));
      confirm.focus();
      return;
    }
    flashNext("상품 삭제 완료하였습니다");
    location.assign("/market");
  });
}
