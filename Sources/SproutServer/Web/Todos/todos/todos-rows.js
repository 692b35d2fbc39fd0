// Sprout web, Todos: the list's rows.

import { favourites, list, readOnly, rowTemplate } from "./todos-page.js";
import { formatDate, parseTimestamp } from "./todos-rules.js";

export const rows = () => list.querySelectorAll("li.todo");
export const rowFor = (id) => list.querySelector(`li.todo[data-id="${id}"]`);
export const rowTitle = (row) => row.querySelector(".todo-title").textContent;

export function makeRow(todo) {
  const row = rowTemplate.content.firstElementChild.cloneNode(true);
  const titleId = `todo-title-${todo.id}`;
  row.dataset.id = String(todo.id);
  row.querySelector(".todo-title").id = titleId;
  // The checkbox is named by the title; the buttons keep their short names and are described by it.
  row.querySelector(".todo-done").setAttribute("aria-labelledby", titleId);
  for (const button of row.querySelectorAll("button")) button.setAttribute("aria-describedby", titleId);
  row.querySelector(".todo-star").setAttribute("aria-label", "즐겨찾기");
  if (readOnly) {
    // Nothing here changes the shared list; a mark shows whether the todo is done.
    const mark = document.createElement("span");
    mark.className = "todo-done-mark";
    mark.setAttribute("role", "img");
    row.querySelector(".todo-done").replaceWith(mark);
    row.querySelector(".todo-edit").remove();
    row.querySelector(".todo-delete").remove();
  }
  fillRow(row, todo);
  return row;
}

export function fillRow(row, todo) {
  row.querySelector(".todo-title").textContent = todo.title;
  row.classList.toggle("is-done", todo.is_done);
  row.dataset.done = String(todo.is_done);
  const checkbox = row.querySelector(".todo-done");
  if (checkbox) checkbox.checked = todo.is_done;
  const mark = row.querySelector(".todo-done-mark");
  if (mark) {
    mark.textContent = todo.is_done ? "✓" : "";
    mark.setAttribute("aria-label", todo.is_done ? "완료" : "미완료");
  }
  const date = row.querySelector(".todo-date");
  date.textContent = formatDate(todo.created_at);
  date.dateTime = todo.created_at;
  date.title = parseTimestamp(todo.created_at).toLocaleString();
  showStar(row, favourites().has(todo.id));
}

export function showStar(row, on) {
  const star = row.querySelector(".todo-star");
  star.setAttribute("aria-pressed", String(on));
  star.firstElementChild.textContent = on ? "★" : "☆";
  row.classList.toggle("is-favourite", on);
}
