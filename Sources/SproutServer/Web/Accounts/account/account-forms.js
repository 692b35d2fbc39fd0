// Sprout web, Accounts: what the account forms share (account.js: sign-up, log-in, the password change and reset;
// account-settings.js: the profile and deletion). Every field is checked the way the server will (Accounts/
// AccountInput.swift): when it is left, as it is corrected, and all at once on submit, each with its own message
// (aria-invalid, described by the message); the server's refusals go to the field they are about.

import { errorId } from "./site-errors.js";
import { fieldError } from "./site-forms.js";

// A form whose `checks` ({field: rule}) run when a field is left (once something was typed in it), on every
// change after that, and all together on submit. Returns `validate()`, true when every field passes; the first
// failing field gets the focus.
export function checkedForm(form, checks) {
  const touched = new Set();
  // A message appearing as a field is left moves the submit button down; when the field is left for that button,
  // the check waits for the submit (which checks everything), or the press would miss the moved button.
  const submit = form.querySelector('button[type="submit"]');
  let pressing = false;
  submit.addEventListener("pointerdown", () => { pressing = true; });
  document.addEventListener("pointerup", () => setTimeout(() => { pressing = false; }));
  const check = (field) => {
    const message = checks.get(field)(field);
    fieldError(field, message);
    return !message;
  };
  for (const field of checks.keys()) {
    field.addEventListener("blur", () => {
      if (pressing) return;
      if (!field.value && !touched.has(field)) return; // passing through an empty field is no mistake yet
      touched.add(field);
      check(field);
    });
    field.addEventListener("input", () => {
      if (touched.has(field)) check(field);
      // The confirmation follows the password it confirms.
      for (const other of checks.keys()) if (other !== field && touched.has(other) && other.dataset.confirms === field.id) check(other);
    });
  }
  return () => {
    let first = null;
    for (const field of checks.keys()) {
      touched.add(field);
      if (!check(field) && !first) first = field;
    }
    if (first) first.focus();
    return !first;
  };
}

// A refusal already shown beside its field: its empty message leaves the form's own error line hidden
// (site-forms.js's onSubmit).
export class FieldRefusal extends Error {
  constructor() { super(""); }
}

// A server refusal that is about one field goes under that field (and takes the focus); others go to the form.
// `fields` maps Strapi ids to fields. Always throws.
export function refuse(failure, fields) {
  const field = fields[errorId(failure.body)];
  if (!field) throw failure;
  fieldError(field, failure.message);
  field.focus();
  throw new FieldRefusal();
}
