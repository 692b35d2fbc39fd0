// Sprout web, Open Market: registering and editing a product (one form, as in the app). Pictures are picked,
// previewed, reordered and removed before anything is sent; an edit sends only what changed.

import { api } from "./site-api.js";
import { showError } from "./site-forms.js";
import { notFound } from "./site-not-found.js";
import { flashNext } from "./site-toast.js";
import { $, failureText, logInAgain, myVendor, PRODUCT_GONE, quoted, sameOrigin } from "./market-common.js";
import { graphemeLength, MAX_IMAGES, productChanges, productProblems, thumbnailID } from "./market-form-rules.js";
import { inspect, labelled, shrunk } from "./market-pictures.js";
import { money } from "./market-price.js";

export function setUpForm() {
  const form = $("product-form");
  const editing = form.dataset.productId ? Number(form.dataset.productId) : null;
  const notice = $("notice");
  const formError = $("form-error");
  const submit = $("product-submit");
  const nameInput = $("product-name-input");
  const priceInput = $("product-price-input");
  const discountInput = $("product-discount-input");
  const stockInput = $("product-stock-input");
  const descriptionInput = $("product-description-input");
  const descriptionCount = $("description-count");
  const previews = $("image-previews");
  const previewTemplate = $("image-preview");
  const imageInput = $("image-input");
  const imageError = $("image-error");
  const imageCount = $("image-count");
  const pricePreview = $("price-preview");
  const fields = {
    name: [nameInput, $("name-error")],
    price: [priceInput, $("price-error")],
    discount: [discountInput, $("discount-error")],
    stock: [stockInput, $("stock-error")],
    description: [descriptionInput, $("description-error")],
  };
  // Pictures picked but not sent yet, in upload order: {file (as it is sent), name (as the visitor knows it),
  // url (an object URL for the preview)}.
  const picked = [];
  // Fields the visitor has typed in or left: only those show their messages.
  const touched = new Set();
  const maxImageBytes = Number(form.dataset.maxImageBytes) || 307200;
  let vendor = null;
  let original = null;
  let busy = true;
  // While picked pictures are being shrunk.
  let picking = false;

  // A number field: null when empty, NaN when it holds no number.
  function numberIn(input) {
    if (input.validity.badInput) return NaN;
    const text = input.value.trim();
    return text === "" ? null : Number(text);
  }

  const currency = () => form.querySelector('input[name="currency"]:checked').value;

  function values() {
    const chosen = form.querySelector(".image-thumbnail-choice:checked");
    return {
      name: nameInput.value.trim(),
      description: descriptionInput.value,
      price: numberIn(priceInput),
      discounted_price: numberIn(discountInput) ?? 0,
      stock: numberIn(stockInput) ?? 0,
      currency: currency(),
      thumbnail_id: chosen ? Number(chosen.value) : null,
    };
  }

  const problems = () => productProblems(values(), { creating: editing === null, pictures: picked.length });
  // What an edit changes: only those fields are sent.
  const changes = () => (original ? productChanges(values(), original) : {});

  // What the product will sell for, as the list will show it, while price and discount are typed: "판매가 KRW
  // 10,000", or "할인가 KRW 9,000" with a discount. Nothing while either is not a usable number.
  function showResultingPrice(found) {
    const value = values();
    const usable = value.price !== null && !found.price && !found.discount;
    pricePreview.hidden = !usable;
    if (!usable) return;
    const discounted = value.discounted_price > 0;
    $("price-preview-label").textContent = discounted ? "할인가" : "판매가";
    $("price-preview-amount").textContent = money(value.currency, value.price - value.discounted_price);
  }

  function refresh() {
    const found = problems();
    for (const [key, [input, error]] of Object.entries(fields)) {
      const message = touched.has(key) ? found[key] || "" : "";
      showError(error, message);
      input.setAttribute("aria-invalid", String(Boolean(message)));
    }
    showResultingPrice(found);
    const characters = graphemeLength(descriptionInput.value);
    descriptionCount.textContent = `${characters}/1000`;
    descriptionCount.classList.toggle("is-over", characters > 1000);
    imageCount.textContent = editing === null ? `${picked.length}/${MAX_IMAGES}` : "";
    const unchanged = editing !== null && Object.keys(changes()).length === 0;
    submit.disabled = busy || picking || Object.keys(found).length > 0 || unchanged;
  }

  for (const [key, [input]] of Object.entries(fields)) {
    const touch = () => { touched.add(key); refresh(); };
    input.addEventListener("input", touch);
    input.addEventListener("change", touch);
  }
  form.addEventListener("change", refresh);

  // ---- Pictures: picked, previewed, reordered and removed before anything is sent --------------------

  function renderPreviews(focus) {
    previews.replaceChildren(...picked.map((entry, i) => {
      const item = previewTemplate.content.firstElementChild.cloneNode(true);
      item.dataset.index = String(i);
      const img = item.querySelector("img");
      img.src = entry.url;
      img.alt = `${i + 1}번째 이미지: ${entry.name}`;
      item.querySelector(".image-preview-badge").textContent = i === 0 ? "대표" : String(i + 1);
      const left = item.querySelector(".image-left");
      const right = item.querySelector(".image-right");
      left.disabled = i === 0;
      right.disabled = i === picked.length - 1;
      left.setAttribute("aria-label", `${i + 1}번째 이미지를 앞으로`);
      right.setAttribute("aria-label", `${i + 1}번째 이미지를 뒤로`);
      item.querySelector(".image-remove").setAttribute("aria-label", `${i + 1}번째 이미지 빼기`);
      return item;
    }));
    if (focus) {
      const target = previews.children[focus.index]?.querySelector(focus.selector);
      (target && !target.disabled ? target : imageInput).focus();
    }
  }

  // Each picked file is read in the browser first: one that is no JPEG or PNG picture is named in the message and
  // left out, before anything is sent. A picture larger than the server takes is shrunk first.
  async function addPictures(files) {
    picking = true;
    refresh();
    const messages = [];
    let full = false;
    for (const file of files) {
      if (picked.length >= MAX_IMAGES) {
        full = true;
        continue;
      }
      const found = await inspect(file);
      if (found.problem === "type") {
        messages.push(`${quoted(file.name, "은/는")} JPEG나 PNG 이미지가 아니에요. 올리지 않을게요.`);
        continue;
      }
      if (found.problem === "decode") {
        messages.push(`${quoted(file.name, "은/는")} 이미지로 읽을 수 없어요. 파일이 깨졌을 수 있어요.`);
        continue;
      }
      let ready = labelled(file, found.type);
      let name = file.name;
      if (ready.size > maxImageBytes) {
        try {
          ready = await shrunk(ready, maxImageBytes);
          name = ready.name;
        } catch {
          messages.push(`${quoted(file.name, "을/를")} 올릴 수 있는 크기로 줄이지 못했어요. 다른 이미지를 골라 주세요.`);
          continue;
        }
      }
      picked.push({ file: ready, name, url: URL.createObjectURL(ready) });
      renderPreviews();
    }
    if (full) messages.push("이미지를 추가할 수 없습니다.");
    showError(imageError, messages.join("\n"));
    picking = false;
    refresh();
  }

  if (imageInput) {
    $("image-limit").textContent = `${Math.floor(maxImageBytes / 1024)}KB`;
    // Picks are handled one after another, so a second one waits for the first one's shrinking.
    let picks = Promise.resolve();
    imageInput.addEventListener("change", () => {
      const files = [...imageInput.files];
      imageInput.value = "";
      picks = picks.then(() => addPictures(files));
    });

    previews.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      const item = event.target.closest("li.image-preview");
      if (!button || !item || busy) return;
      const i = Number(item.dataset.index);
      if (button.classList.contains("image-remove")) {
        URL.revokeObjectURL(picked[i].url);
        picked.splice(i, 1);
        showError(imageError, "");
        renderPreviews({ index: Math.min(i, picked.length - 1), selector: ".image-remove" });
      } else {
        const to = button.classList.contains("image-left") ? i - 1 : i + 1;
        if (to < 0 || to >= picked.length) return;
        [picked[i], picked[to]] = [picked[to], picked[i]];
        renderPreviews({ index: to, selector: button.classList.contains("image-left") ? ".image-left" : ".image-right" });
      }
      refresh();
    });
  }

  // ---- Editing: the product's own images, of which only the thumbnail can be chosen ---------------------

  function fillIn(product) {
    nameInput.value = product.name;
    priceInput.value = String(product.price);
    discountInput.value = String(product.discounted_price);
    stockInput.value = String(product.stock);
    descriptionInput.value = product.description || "";
    for (const radio of form.querySelectorAll('input[name="currency"]')) radio.checked = radio.value === product.currency;
    const chosen = thumbnailID(product);
    previews.replaceChildren(...product.images.map((image, i) => {
      const item = previewTemplate.content.firstElementChild.cloneNode(true);
      const img = item.querySelector("img");
      img.src = sameOrigin(image.thumbnail_url);
      img.alt = `${i + 1}번째 이미지`;
      const radio = item.querySelector("input");
      radio.value = String(image.id);
      radio.checked = image.id === chosen;
      radio.setAttribute("aria-label", `${i + 1}번째 이미지를 대표 이미지로`);
      return item;
    }));
  }

  function disableForm(message, link) {
    for (const element of form.elements) element.disabled = true;
    const text = document.createElement("span");
    text.append(message);
    if (link) text.append(" ", link);
    notice.replaceChildren(text);
    notice.hidden = false;
  }

  async function load() {
    try {
      // Editing reads the product beside the vendor: an address naming a product that is not there gets the
      // not-found panel, whoever asks.
      let product;
      [vendor, product] = await Promise.all([myVendor(), editing !== null ? api("GET", `/api/products/${editing}`) : null]);
      if (!vendor && editing === null) {
        // Registering is for vendors: become one first, and come back here afterwards.
        location.replace("/market/vendor?next=" + encodeURIComponent(location.pathname));
        return;
      }
      if (!vendor) {
        const link = document.createElement("a");
        link.href = "/market/vendor";
        link.id = "become-vendor";
        link.textContent = "판매자 등록하기";
        disableForm("상품을 올리려면 먼저 판매자로 등록해야 해요.", link);
        return;
      }
      if (editing !== null) {
        original = product;
        if (original.vendor_id !== vendor.id) {
          disableForm("내 상품만 고칠 수 있어요.");
          return;
        }
        fillIn(original);
      }
      busy = false;
    } catch (failure) {
      if (failure.status === 401) return logInAgain();
      if (failure.status === 404) return notFound(PRODUCT_GONE);
      disableForm(failureText("상품을 불러오는데 실패하였습니다.", failure));
    } finally {
      form.setAttribute("aria-busy", String(busy));
      refresh();
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    busy = true;
    refresh();
    showError(formError, "");
    try {
      // Read again: the secret may have been renewed in another tab since the page opened.
      vendor = (await myVendor()) || vendor;
      const headers = { identifier: vendor.identifier };
      let product;
      if (editing === null) {
        const value = values();
        const body = new FormData();
        body.append("params", JSON.stringify({
          name: value.name, description: value.description, price: value.price,
          discounted_price: value.discounted_price, stock: value.stock, currency: value.currency, secret: vendor.secret,
        }));
        for (const entry of picked) body.append("images", entry.file, entry.file.name);
        product = await api("POST", "/api/products", body, headers);
        flashNext("상품 등록하였습니다.");
      } else {
        product = await api("PATCH", `/api/products/${editing}`, { ...changes(), secret: vendor.secret }, headers);
        flashNext("상품 수정하였습니다.");
      }
      location.assign(`/market/products/${product.id}`);
    } catch (failure) {
      busy = false;
      showError(formError, failureText(editing === null ? "상품 등록 실패하였습니다." : "상품 수정에 실패하였습니다.", failure));
      refresh();
    }
  });

  refresh();
  load();
}
