// Sprout web: forms. A field's own message, submit buttons that wait for the required fields, and sending one at
// a time with the failure shown in the form.

import { clearNotice } from "./site-toast.js";

// Shows `message` under `field` (in `#{field.id}-error`, made after the field's hint if missing) and marks the field
// aria-invalid, or clears both when `message` is empty. The message is part of the field's description.
export function fieldError(field, message) {
  const id = `${field.id}-error`;
  let element = document.getElementById(id);
  if (!element && message) {
    element = document.createElement("p");
    element.id = id;
    element.className = "field-message";
    let anchor = field;
    const hint = field.nextElementSibling;
    if (hint && hint.classList.contains("hint")) anchor = hint;
    anchor.after(element);
  }
  const described = (field.getAttribute("aria-describedby") || "").split(/\s+/).filter((part) => part && part !== id);
  if (message) {
    element.textContent = message;
    element.hidden = false;
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", [...described, id].join(" "));
  } else {
    if (element) {
      element.textContent = "";
      element.hidden = true;
    }
    field.removeAttribute("aria-invalid");
    if (described.length) field.setAttribute("aria-describedby", described.join(" "));
    else field.removeAttribute("aria-describedby");
  }
}

// ---- Forms: the submit button is enabled only when every required field has something in it ---------

function isFilled(field) {
  // Passwords count as typed; other text must be more than spaces, as the server will insist.
  return field.type === "password" ? field.value.length > 0 : field.value.trim().length > 0;
}

export function refreshForm(form) {
  const submit = form.querySelector('button[type="submit"]');
  if (!submit) return;
  const fields = [...form.querySelectorAll("[required]")];
  submit.disabled = form.dataset.busy === "true" || !fields.every(isFilled);
}

export function watchForm(form) {
  form.addEventListener("input", () => refreshForm(form));
  refreshForm(form);
}

export function setBusy(form, busy) {
  form.dataset.busy = busy ? "true" : "false";
  form.setAttribute("aria-busy", busy ? "true" : "false");
  refreshForm(form);
}

export function showError(element, message) {
  element.textContent = message;
  element.hidden = !message;
}

// Submits `form` with `send`, one at a time: the button waits while it runs; a failure is shown in
// `errorElement` (after `failurePrefix`) and the form may be sent again. On success `send` decides what follows.
export function onSubmit(form, errorElement, send, failurePrefix = "") {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (form.dataset.busy === "true") return;
    showError(errorElement, "");
    if (document.getElementById("toast")?.dataset.kind === "error") clearNotice();
    setBusy(form, true);
    try {
      await send();
    } catch (failure) {
      showError(errorElement, failurePrefix + failure.message);
      setBusy(form, false);
    }
  });
}
