// Sprout web, Diary: the list kept current with the visitor's other tabs and devices (site-live.js, topic `diary`).
// Diary events carry ids only (an entry is private and may be long), so a changed or new entry is fetched; the
// editor saves every second or so while one types, so the fetches of one entry are coalesced.

import { api } from "./site-api.js";
import { live } from "./site-live.js";
import { entryPath } from "./diary-common.js";

// `list`: { rowFor(id), redraw(old, entry), insert(entry), remove(row), reload() }.
export function followDiary(list) {
  const fetching = new Map();

  async function fetchEntry(id) {
    try {
      return await api("GET", entryPath(id));
    } catch {
      return null;
    }
  }

  async function onEntry(event) {
    if (event.change === "deleted") {
      const row = list.rowFor(event.id);
      if (row) list.remove(row);
      return;
    }
    // One request at a time per entry; a change arriving meanwhile asks once more afterwards.
    if (fetching.has(event.id)) {
      fetching.set(event.id, true);
      return;
    }
    fetching.set(event.id, false);
    const entry = await fetchEntry(event.id);
    const again = fetching.get(event.id);
    fetching.delete(event.id);
    if (entry) {
      const row = list.rowFor(entry.id);
      if (row) list.redraw(row, entry);
      else if (event.change === "created") list.insert(entry);
    }
    if (again) onEntry({ ...event, change: "updated" });
  }

  live({ topics: ["diary"], on: { entry: onEntry }, reset: list.reload });
}
