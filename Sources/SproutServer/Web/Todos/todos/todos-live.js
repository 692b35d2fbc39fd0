// Sprout web, Todos: the list kept current with the visitor's other tabs and devices (site-live.js, topic
// `todos`: the account's own list, or the shared one). A new todo goes on top when it fits the filters, a changed
// one is redrawn (or leaves when done ones are hidden), a deleted one leaves.

import { live } from "./site-live.js";
import { api } from "./todos-api.js";
import { removeRow, startListing, updateFooter } from "./todos-listing.js";
import { list, state } from "./todos-page.js";
import { fillRow, makeRow, rowFor } from "./todos-rows.js";
import { todoFits } from "./todos-rules.js";

async function todoOf(event) {
  if (event.item) return event.item;
  try {
    return (await api(`/todos/${event.id}`)).data;
  } catch {
    return null;
  }
}

async function onTodo(event) {
  if (event.change === "deleted") {
    const row = rowFor(event.id);
    if (row) removeRow(row);
    return;
  }
  const todo = await todoOf(event);
  if (!todo) return;
  const row = rowFor(todo.id);
  if (row) {
    // A title being edited here keeps its form; the row under it takes the rest.
    if (state.hideDone && todo.is_done) removeRow(row);
    else fillRow(row, todo);
    return;
  }
  // Only a new todo goes on top: an older one changed elsewhere belongs further down, where paging finds it.
  if (event.change !== "created" || !todoFits(todo, state)) return;
  list.prepend(makeRow(todo));
  if (state.total !== null) state.total += 1;
  updateFooter();
}

export function followTodos() {
  live({ topics: ["todos"], on: { todo: onTodo }, reset: startListing });
}
