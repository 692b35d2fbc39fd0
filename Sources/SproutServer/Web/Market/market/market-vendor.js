// Sprout web, Open Market: the vendor screen. Become one; see the identifier and the secret; make a new secret.

import { api } from "./site-api.js";
import { onSubmit, setBusy, showError } from "./site-forms.js";
import { flashNext, notify } from "./site-toast.js";
import { $, failureText, logInAgain, myVendor } from "./market-common.js";

export function setUpVendor() {
  const loading = $("loading");
  const notice = $("notice");
  const form = $("vendor-form");
  const nameInput = $("vendor-name");
  const info = $("vendor-info");
  const secret = $("vendor-info-secret");
  const toggle = $("secret-toggle");
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
    notify(done);
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
    notify("새 암호로 바꿨어요. 예전 암호는 이제 쓸 수 없어요.");
  });

  load();
}
