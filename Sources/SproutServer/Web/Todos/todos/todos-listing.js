// Sprout web, Todos: the listing. Pages of ten as the list is scrolled, search, the done and favourites filters,
// and the footer that says where the list stands.

import { api } from "./todos-api.js";
import {
  count, favourites, hideError, list, listEmpty, listEnd, loading, newTitle, PER_PAGE, readOnly, retry, searchQuery,
  sentinel, setFavourite, showError, state,
} from "./todos-page.js";
import { makeRow, rowFor, rows } from "./todos-rows.js";
import { nextPage, parseTimestamp } from "./todos-rules.js";

export function startListing() {
  state.generation += 1;
  Object.assign(state, { loading: false, finished: false, failed: false, total: null, lastFetchedPage: 0, lastAdded: 0 });
  list.replaceChildren();
  hideError();
  updateFooter();
  loadMore();
}

export async function loadMore() {
  if (state.loading || state.finished || state.failed) return;
  const generation = state.generation;
  state.loading = true;
  updateFooter();
  try {
    if (state.favouritesOnly) {
      await loadFavourites(generation);
    } else {
      await loadPage(generation);
    }
  } catch (error) {
    if (generation !== state.generation) return;
    state.failed = true;
    showError(error.message);
  } finally {
    if (generation === state.generation) {
      state.loading = false;
      updateFooter();
    }
  }
  if (generation === state.generation) loadIfNearBottom();
}

async function loadPage(generation) {
  // Rows already shown are skipped.
  const page = nextPage(rows().length, state, PER_PAGE);
  const params = new URLSearchParams({ page, per_page: PER_PAGE, filter: "created_at", order_by: "desc" });
  if (state.hideDone) params.set("is_done", "false");
  if (state.query) params.set("query", state.query);
  const body = await api(`/todos${state.query ? "/search" : ""}?${params}`);
  if (generation !== state.generation) return;
  let added = 0;
  for (const todo of body.data) {
    if (rowFor(todo.id)) continue;
    list.append(makeRow(todo));
    added += 1;
  }
  state.lastFetchedPage = body.meta.current_page;
  state.lastAdded = added;
  state.total = body.meta.total;
  state.finished = body.meta.current_page >= body.meta.last_page;
}

// Favourites only: fetch each starred todo (they are few), then filter and order them like the list.
async function loadFavourites(generation) {
  const todos = await Promise.all([...favourites()].map(async (id) => {
    try {
      return (await api(`/todos/${id}`)).data;
    } catch (error) {
      if (error.status === 404) {
        setFavourite(id, false); // deleted elsewhere
        return null;
      }
      throw error;
    }
  }));
  if (generation !== state.generation) return;
  const query = state.query.toLocaleLowerCase();
  const shown = todos
    .filter((todo) => todo && !(state.hideDone && todo.is_done))
    .filter((todo) => !query || todo.title.toLocaleLowerCase().includes(query))
    .sort((a, b) => parseTimestamp(b.created_at) - parseTimestamp(a.created_at) || b.id - a.id);
  list.append(...shown.map(makeRow));
  state.total = shown.length;
  state.finished = true;
}

function loadIfNearBottom() {
  if (sentinel.getBoundingClientRect().top < window.innerHeight + 200) loadMore();
}

function emptyText() {
  if (state.query) return `“${state.query}”에 맞는 할 일이 없어요.`;
  if (state.favouritesOnly) return "즐겨찾기한 할 일이 없어요. ☆를 눌러 모아 보세요.";
  if (state.hideDone) return "남은 할 일이 없어요. 모두 끝냈어요!";
  if (readOnly) return "아직 할 일이 없어요. 로그인하면 나만의 목록에 할 일을 추가할 수 있어요.";
  return "아직 할 일이 없어요. 위에서 첫 할 일을 추가해 보세요.";
}

export function updateFooter() {
  const shown = rows().length;
  loading.hidden = !state.loading;
  list.setAttribute("aria-busy", String(state.loading));
  listEmpty.hidden = !(state.finished && shown === 0);
  listEmpty.textContent = emptyText();
  listEnd.hidden = !(state.finished && shown > 0);
  listEnd.textContent = `모두 불러왔어요 · ${shown}개`;
  retry.hidden = !state.failed;
  if (state.total === null) {
    count.textContent = "";
  } else {
    count.textContent = state.query ? `검색 결과 ${state.total}개` : `${state.total}개`;
  }
}

// Removes a row without dropping keyboard focus on the floor: it moves to the neighbouring row.
export function removeRow(row) {
  // Once only: the live stream may have taken it away while this page's own request was on its way.
  if (!row.isConnected) return;
  const hadFocus = row.contains(document.activeElement);
  const neighbour = row.nextElementSibling || row.previousElementSibling;
  row.remove();
  if (state.total !== null) state.total = Math.max(0, state.total - 1);
  if (hadFocus) (neighbour ? neighbour.querySelector(".todo-done, .todo-star") : newTitle || searchQuery).focus();
  updateFooter();
  loadIfNearBottom();
}
