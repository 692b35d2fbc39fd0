// Sprout web, Todos: a title's rules shown as it is typed, and editing a title in its row.

import { api } from "./todos-api.js";
import { editTemplate, say } from "./todos-page.js";
import { fillRow, rowTitle } from "./todos-rows.js";
import { TITLE_MAX, titleLength, titleProblem, titleValid } from "./todos-rules.js";

// Shows the rule's state under `input`: the counter, the message, and whether `submit` may be pressed.
export function checkTitle(input, submit, errorElement, counter, busy = false) {
  const length = titleLength(input.value);
  const problem = titleProblem(input.value);
  counter.textContent = `${length}/${TITLE_MAX}`;
  counter.classList.toggle("is-over", length > TITLE_MAX);
  errorElement.textContent = problem;
  errorElement.hidden = !problem;
  input.setAttribute("aria-invalid", String(Boolean(problem)));
  submit.disabled = busy || !titleValid(input.value);
}

export function startEdit(row) {
  if (row.classList.contains("is-editing")) return;
  const form = editTemplate.content.firstElementChild.cloneNode(true);
  const input = form.querySelector("input");
  const label = form.querySelector("label");
  const fieldError = form.querySelector(".field-error");
  input.id = `todo-edit-${row.dataset.id}`;
  label.htmlFor = input.id;
  label.textContent = "할 일 제목";
  fieldError.id = `todo-edit-error-${row.dataset.id}`;
  const counter = form.querySelector(".title-counter");
  counter.id = `todo-edit-count-${row.dataset.id}`;
  input.setAttribute("aria-describedby", `${fieldError.id} ${counter.id}`);
  input.value = rowTitle(row);
  const saveButton = form.querySelector("button[type=submit]");
  let saving = false;
  const check = () => checkTitle(input, saveButton, fieldError, counter, saving);
  input.addEventListener("input", check);
  check();
  row.classList.add("is-editing");
  row.append(form);
  input.focus();
  input.select();

  const finish = () => {
    form.remove();
    row.classList.remove("is-editing");
    row.querySelector(".todo-edit").focus();
  };
  form.querySelector(".todo-edit-cancel").addEventListener("click", finish);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") finish();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving || !titleValid(input.value)) return;
    saving = true;
    saveButton.disabled = true;
    try {
      const body = await api(`/todos/${row.dataset.id}`, { method: "PUT", body: JSON.stringify({ title: input.value }) });
      fillRow(row, body.data);
      finish();
      say("제목을 바꿨어요.");
    } catch (error) {
      fieldError.textContent = error.message;
      fieldError.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
    } finally {
      saving = false;
      saveButton.disabled = !titleValid(input.value);
    }
  });
}
