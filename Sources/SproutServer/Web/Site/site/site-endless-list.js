// Sprout web: lists that load their next page as the visitor scrolls (the market's products, the board's posts,
// the diary and the community feed).

// A list that asks for its next page while `sentinel`, below it, is within 200 px of the screen: one request at a
// time (`loading` shows meanwhile, `list` is aria-busy), and again after a page too short to push the sentinel
// away (the observer speaks only when it comes into reach). `fetchPage()` asks; `take(page)` — called only while
// the answer still belongs to the current listing — notes the paging and returns the items, which are shown by
// `row(item)` unless `idOf(item)` was shown already (an item added meanwhile shifts the pages by one). A failure
// goes to `failed(failure)` and shows `retry` until `retry()`. `restart()` empties the list for a new listing
// (another search); answers to the old one's requests are dropped. `note(id)` marks an item put in by other means
// (a live event) as shown. `changed()` follows every change of state.
export function endlessList({ list, sentinel, loading, retry, isFinished, fetchPage, take, idOf, row, failed, changed }) {
  const state = { loading: false, failed: false, generation: 0, seen: new Set() };

  function update() {
    loading.hidden = !state.loading;
    list.setAttribute("aria-busy", String(state.loading));
    retry.hidden = !state.failed;
    changed();
  }

  async function loadMore() {
    if (state.loading || state.failed || isFinished()) return;
    const generation = state.generation;
    state.loading = true;
    update();
    try {
      const page = await fetchPage();
      if (generation !== state.generation) return;
      for (const item of take(page)) {
        const id = idOf(item);
        if (state.seen.has(id)) continue;
        state.seen.add(id);
        list.append(row(item));
      }
    } catch (failure) {
      if (generation !== state.generation) return;
      state.failed = true;
      failed(failure);
    } finally {
      if (generation === state.generation) {
        state.loading = false;
        update();
      }
    }
    if (generation === state.generation) loadIfNearBottom();
  }

  function loadIfNearBottom() {
    if (sentinel.getBoundingClientRect().top < window.innerHeight + 200) loadMore();
  }

  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }, { rootMargin: "0px 0px 200px 0px" }).observe(sentinel);

  return {
    loadIfNearBottom,
    // A page already on its way may list it too: it is not shown twice.
    note(id) {
      state.seen.add(id);
    },
    restart() {
      state.generation += 1;
      Object.assign(state, { loading: false, failed: false });
      state.seen.clear();
      list.replaceChildren();
      update();
      loadMore();
    },
    retry() {
      state.failed = false;
      update();
      loadMore();
    },
  };
}
