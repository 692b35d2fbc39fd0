// Sprout web: the Open Market. Plain JavaScript over the market API (`/api/products`, `/api/vendors`) with the
// session cookie. Four screens: the product list (LIST/GRID, search, endless scrolling), a product (its images in
// a carousel; edit and delete for its own vendor), one form for registering and editing, as in the app, and the
// vendor screen (become one; see the identifier and secret; make a new secret). Product changes carry the vendor's
// `identifier` header and secret, which the page reads from `/api/vendors/me`, as the app kept them in its code.
"use strict";

(() => {
  const { api, flashNext, setBusy, showError, onSubmit, endlessList, notFound, me } = window.Sprout;
  const $ = (id) => document.getElementById(id);
  const PAGE_SIZE = 20;
  const MAX_IMAGES = 5;
  const LAYOUT_KEY = "sprout.market.layout";

  // Messages that come and go (site.js's toasts once they are there; else the page's own status line).
  function notify(text, kind, fallback) {
    if (typeof window.Sprout.notify === "function") window.Sprout.notify(text, { kind });
    else if (fallback) fallback.textContent = text;
  }

  // The Korean particle that follows `word` ("은/는" → "은" or "는"): site.js's `particle` once it is there (whether
  // it answers the particle or the word with it); else both forms, "은(는)".
  function particle(word, pair) {
    if (typeof window.Sprout.particle === "function") {
      const answer = String(window.Sprout.particle(word, pair));
      return answer.startsWith(word) ? answer.slice(word.length) : answer;
    }
    const [afterConsonant, afterVowel] = pair.split("/");
    return `${afterConsonant}(${afterVowel})`;
  }
  // `“word”` and its particle, for messages that quote a name.
  const quoted = (word, pair) => `“${word}”${particle(word, pair)}`;

  // What the not-found panel (site.js) says on a product's page or its edit form when the API has no such product.
  const PRODUCT_GONE = "상품을 찾을 수 없어요. 삭제되었을 수 있어요.";

  const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));

  // The app's sentence for what failed, then why in the visitor's words (site.js's api() makes every refusal
  // Korean); no connection at all is the app's network message alone.
  function failureText(what, failure) {
    if (failure.status === 0) return "인터넷 연결에 실패하였습니다.";
    return failure.message ? `${what} (${failure.message})` : what;
  }

  // The signed-in account's vendor ({id, name, identifier, secret}); null when it is none yet or nobody is signed in.
  async function myVendor() {
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
  function sameOrigin(address) {
    if (!address) return "";
    try {
      const url = new URL(address, location.href);
      if (url.protocol !== "http:" && url.protocol !== "https:") return "";
      return url.origin === location.origin ? url.href : url.pathname + url.search;
    } catch {
      return "";
    }
  }

  // ---- Prices and stock, as the app showed them -------------------------------------------------------

  const numberFormats = new Map();
  // `{currency} {amount}` with thousands separators: KRW in whole won, USD with up to two decimals. The space is
  // a non-breaking one, so a narrow screen never puts the amount on another line than its currency.
  function money(currency, amount) {
    const digits = currency === "KRW" ? 0 : 2;
    if (!numberFormats.has(digits)) numberFormats.set(digits, new Intl.NumberFormat("ko-KR", { maximumFractionDigits: digits }));
    return `${currency}\u00A0${numberFormats.get(digits).format(amount)}`;
  }

  // A discounted product: the original price struck through, then the bargain price.
  function showPrice(element, product) {
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

  function showStock(element, stock) {
    element.textContent = stock > 0 ? `잔여수량 : ${stock}` : "품절";
    element.classList.toggle("is-sold-out", !(stock > 0));
  }

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
  }

  // ---- A product ------------------------------------------------------------------------------------

  function setUpProduct() {
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
      $("product-actions").hidden = !(vendor && vendor.id === product.vendor_id);
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

  // ---- Registering and editing (one form) -----------------------------------------------------------

  // A picture larger than the server takes, drawn again smaller as a JPEG until it fits, as the app compressed its
  // photos before uploading them. The browser applies the EXIF orientation; transparency becomes white.
  async function shrunk(file, limit) {
    const bitmap = await createImageBitmap(file);
    try {
      let scale = Math.min(1, 2000 / Math.max(bitmap.width, bitmap.height));
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const canvas = document.createElement("canvas");
        canvas.width = Math.max(1, Math.round(bitmap.width * scale));
        canvas.height = Math.max(1, Math.round(bitmap.height * scale));
        const context = canvas.getContext("2d");
        context.fillStyle = "#fff";
        context.fillRect(0, 0, canvas.width, canvas.height);
        context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        for (const quality of [0.85, 0.7]) {
          const blob = await new Promise((resolve) => { canvas.toBlob(resolve, "image/jpeg", quality); });
          if (blob && blob.size <= limit) {
            return new File([blob], `${file.name.replace(/\.[^.]*$/, "")}.jpg`, { type: "image/jpeg" });
          }
        }
        scale *= 0.7;
      }
    } finally {
      bitmap.close();
    }
    throw new Error("could not make the picture small enough");
  }

  // What a picked file is, judged by its content as the server judges it (not by its name or the type the system
  // guessed from the name): "image/jpeg" or "image/png" when it starts like one and the browser can decode it into
  // a picture; else why not ("type": neither a JPEG nor a PNG; "decode": it starts like one but is no picture).
  async function inspect(file) {
    let head;
    try {
      head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
    } catch {
      return { problem: "decode" };
    }
    const starts = (bytes) => bytes.every((byte, i) => head[i] === byte);
    const type = starts([0xFF, 0xD8, 0xFF]) ? "image/jpeg"
      : starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? "image/png" : null;
    if (!type) return { problem: "type" };
    try {
      const bitmap = await createImageBitmap(file);
      const drawn = bitmap.width > 0 && bitmap.height > 0;
      bitmap.close();
      return drawn ? { type } : { problem: "decode" };
    } catch {
      return { problem: "decode" };
    }
  }

  // The file as it is sent: named and typed for what it holds (a PNG picked as `photo.jpeg` goes as `photo.png`,
  // image/png), the bytes untouched.
  function labelled(file, type) {
    const extension = type === "image/png" ? ".png" : ".jpg";
    const fits = type === "image/png" ? /\.png$/i : /\.jpe?g$/i;
    if (file.type === type && fits.test(file.name)) return file;
    const base = file.name.replace(/\.[^.]*$/, "") || "image";
    return new File([file], base + extension, { type, lastModified: file.lastModified });
  }

  function setUpForm() {
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

    const graphemes = new Intl.Segmenter("ko", { granularity: "grapheme" });
    // Characters as the server counts them (Swift's: what a reader sees as one, emoji and Hangul alike).
    function length(text) {
      let count = 0;
      for (const _ of graphemes.segment(text)) count += 1;
      return count;
    }

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

    // The app's messages where it had them (`값이 없습니다.`, `상품명은 세 글자 이상…`, `글자수가 초과되었습니다.`).
    function problems() {
      const found = {};
      const value = values();
      const nameLength = length(value.name);
      if (nameLength < 3) found.name = "상품명은 세 글자 이상 입력되어야 합니다.";
      else if (nameLength > 100) found.name = "상품명은 100자 이하로 입력되어야 합니다.";
      if (value.price === null) found.price = "값이 없습니다.";
      else if (!(value.price >= 0)) found.price = "0 이상의 숫자를 입력해 주세요.";
      if (!(value.discounted_price >= 0)) found.discount = "0 이상의 숫자를 입력해 주세요.";
      else if (value.price >= 0 && value.discounted_price > value.price) found.discount = "할인 금액은 가격보다 클 수 없습니다.";
      if (!(Number.isInteger(value.stock) && value.stock >= 0)) found.stock = "0 이상의 정수를 입력해 주세요.";
      if (length(value.description) > 1000) found.description = "글자수가 초과되었습니다.";
      if (editing === null && picked.length === 0) found.images = "이미지를 한 장 이상 추가해 주세요.";
      return found;
    }

    // What an edit changes: only those fields are sent.
    function changes() {
      if (!original) return {};
      const value = values();
      const changed = {};
      for (const key of ["name", "description", "price", "discounted_price", "stock", "currency"]) {
        if (value[key] !== original[key]) changed[key] = value[key];
      }
      if (value.thumbnail_id !== null && value.thumbnail_id !== thumbnailID(original)) changed.thumbnail_id = value.thumbnail_id;
      return changed;
    }

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
      const characters = length(descriptionInput.value);
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

    function thumbnailID(product) {
      const image = product.images.find((candidate) => candidate.thumbnail_url === product.thumbnail);
      return image ? image.id : null;
    }

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

  // ---- The vendor screen ----------------------------------------------------------------------------

  function setUpVendor() {
    const loading = $("loading");
    const notice = $("notice");
    const form = $("vendor-form");
    const nameInput = $("vendor-name");
    const info = $("vendor-info");
    const secret = $("vendor-info-secret");
    const toggle = $("secret-toggle");
    const status = $("vendor-status");
    const dialog = $("rotate-dialog");
    let vendor = null;
    let revealed = false;
    // Where to go once the vendor exists (the server passes only a path on this site).
    const returnTo = $("vendor-page").dataset.next || "";

    // The secret is hidden until asked for: it is a password to the vendor's products.
    function showSecret() {
      secret.textContent = revealed ? vendor.secret : "•".repeat(20);
      secret.classList.toggle("is-masked", !revealed);
      toggle.textContent = revealed ? "숨기기" : "보기";
      toggle.setAttribute("aria-pressed", String(revealed));
    }

    function showVendor(shown) {
      vendor = shown;
      form.hidden = true;
      $("vendor-info-name").textContent = vendor.name;
      $("vendor-info-id").textContent = String(vendor.id);
      $("vendor-info-identifier").textContent = vendor.identifier;
      showSecret();
      info.hidden = false;
    }

    async function load() {
      try {
        const found = await myVendor();
        if (found) {
          showVendor(found);
        } else {
          form.hidden = false;
        }
      } catch (failure) {
        if (failure.status === 401) return logInAgain();
        showError(notice, failureText("판매자 정보를 불러오지 못했어요.", failure));
      } finally {
        loading.hidden = true;
      }
    }

    onSubmit(form, $("vendor-error"), async () => {
      let created;
      try {
        created = await api("POST", "/api/vendors", { name: nameInput.value.trim() });
      } catch (failure) {
        throw new Error(failureText("판매자로 등록하지 못했어요.", failure));
      }
      const done = `“${created.name}” 판매자로 등록했어요. 이제 상품을 올릴 수 있어요.`;
      if (returnTo) {
        // Back to where registering began (the product form), with the news. The detour leaves no trace in the
        // history: "back" from the form goes where the visitor was before it.
        flashNext(done);
        location.replace(returnTo);
        return;
      }
      setBusy(form, false);
      showVendor(created);
      notify(done, "success", status);
    });

    toggle.addEventListener("click", () => {
      revealed = !revealed;
      showSecret();
    });
    $("secret-rotate").addEventListener("click", () => dialog.showModal());
    dialog.addEventListener("close", async () => {
      const chosen = dialog.returnValue;
      dialog.returnValue = "";
      if (chosen !== "rotate") return;
      try {
        showVendor(await api("POST", "/api/vendors/me/secret"));
      } catch (failure) {
        showError(notice, failureText("암호를 바꾸지 못했어요.", failure));
        return;
      }
      revealed = true;
      showSecret();
      notify("새 암호로 바꿨어요. 예전 암호는 이제 쓸 수 없어요.", "success", status);
    });

    load();
  }

  if ($("market-list-page")) setUpList();
  if ($("product-page")) setUpProduct();
  if ($("product-form-page")) setUpForm();
  if ($("vendor-page")) setUpVendor();
})();
