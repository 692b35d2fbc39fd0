// Sprout web, Todos: the page's parts and the state of its listing, shared by its modules; its messages; and the
// favourites, kept in this browser.

import { notify } from "./site-toast.js";

export const PER_PAGE = 10;
// Favourites live in this browser only, as REST_TODO kept them on the phone: a list of todo ids.
const FAVOURITES_KEY = "sprout.todos.favourites";

const $ = (id) => document.getElementById(id);
// Signed-out visitors read the shared list only: the page has no form and its rows no controls that change it
// (the API still takes anonymous writes, as the apps' learning contract says; only the page is read-only).
export const readOnly = $("todos-page").dataset.readOnly === "true";
export const list = $("todo-list");
export const count = $("todo-count");
export const loading = $("loading");
export const listEnd = $("list-end");
export const listEmpty = $("list-empty");
export const retry = $("retry");
export const sentinel = $("sentinel");
const notice = $("notice");
export const createForm = $("create-form");
export const newTitle = $("new-title");
export const createError = $("create-error");
export const createSubmit = $("create-submit");
export const newTitleCount = $("new-title-count");
export const searchForm = $("search-form");
export const searchQuery = $("search-query");
export const searchClear = $("search-clear");
export const hideDone = $("hide-done");
export const favouritesOnly = $("favourites-only");
export const dialog = $("delete-dialog");
export const dialogName = $("delete-dialog-name");
export const rowTemplate = $("todo-row");
export const editTemplate = $("todo-edit-form");

export const state = {
  query: "",
  hideDone: false,
  favouritesOnly: false,
  // Bumped on every new listing, so answers to an older listing's requests are dropped.
  generation: 0,
  loading: false,
  finished: false,
  failed: false,
  total: null,
  lastFetchedPage: 0,
  lastAdded: 0,
};

// ---- Messages -----------------------------------------------------------------------------------

export const say = (text) => notify(text);

export function showError(message) {
  notice.textContent = message;
  notice.hidden = false;
}

export function hideError() {
  notice.hidden = true;
  notice.textContent = "";
}

export function showCreateError(message) {
  createError.textContent = message;
  createError.hidden = !message;
  newTitle.setAttribute("aria-invalid", String(Boolean(message)));
}

// ---- Favourites ---------------------------------------------------------------------------------

export function favourites() {
  try {
    const ids = JSON.parse(localStorage.getItem(FAVOURITES_KEY) || "[]");
    return new Set(Array.isArray(ids) ? ids.filter(Number.isInteger) : []);
  } catch {
    return new Set();
  }
}

export function setFavourite(id, on) {
  const ids = favourites();
  if (on) ids.add(id); else ids.delete(id);
  try {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify([...ids]));
  } catch {
    showError("즐겨찾기를 이 브라우저에 저장하지 못했어요.");
  }
}
