// Sprout web, Diary: drafts, the text the server has not confirmed, kept in this browser per account and saved
// when the server answers again.

import { api } from "./site-api.js";
import { me } from "./site-visitor.js";
import { entryPath } from "./diary-common.js";
import { hasTitle, keyOf, split, titleTooLong } from "./diary-text.js";

//
// `sprout.diary.draft.<entry id>@<account id>` → {id, text, createdAt, baseUpdatedAt, onServer, weather, keptAt}.
// The account in the key keeps one account's drafts from another's on a shared browser (and logging out clears
// keys ending in "@<account id>"). `baseUpdatedAt` is the server version the text was written on, so a draft is
// saved without asking only while the server's copy is still that version.

const DRAFT_PREFIX = "sprout.diary.draft.";
const draftSuffix = () => `@${me ? me.id : "anonymous"}`;
const draftKey = (id) => `${DRAFT_PREFIX}${id}${draftSuffix()}`;

export function readDraft(id) {
  try {
    const draft = JSON.parse(localStorage.getItem(draftKey(id)) || "null");
    return draft && typeof draft.text === "string" && draft.id === id ? draft : null;
  } catch {
    return null;
  }
}

export function writeDraft(draft) {
  try {
    localStorage.setItem(draftKey(draft.id), JSON.stringify({ ...draft, keptAt: new Date().toISOString() }));
    return true;
  } catch {
    return false; // storage full or refused: the page warns before it is left instead
  }
}

export function removeDraft(id) {
  try { localStorage.removeItem(draftKey(id)); } catch { /* nothing kept, nothing to remove */ }
}

// This account's drafts, the most recently kept first.
export function allDrafts() {
  const drafts = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(DRAFT_PREFIX) || !key.endsWith(draftSuffix())) continue;
      const draft = readDraft(key.slice(DRAFT_PREFIX.length, -draftSuffix().length));
      if (draft) drafts.push(draft);
    }
  } catch {
    return [];
  }
  return drafts.sort((a, b) => String(b.keptAt).localeCompare(String(a.keptAt)));
}

export const sameText = (draft, entry) => keyOf(split(draft.text)) === keyOf(entry);

// Saves `draft` if that can be done without asking: the server's copy is still the one it was written on (or the
// entry is new and not there yet). "saved" (or already there: the draft is dropped), "kept" (the editor must
// ask, or the text has no title to save it by) or "offline".
export async function flushDraft(draft) {
  let entry = null;
  try {
    entry = await api("GET", entryPath(draft.id));
  } catch (failure) {
    if (failure.status === 0) return "offline";
    if (failure.status !== 404) return "kept";
  }
  if (entry && sameText(draft, entry)) {
    removeDraft(draft.id);
    return "saved";
  }
  const parts = split(draft.text);
  if (!hasTitle(parts) || titleTooLong(parts)) return "kept";
  if (entry ? entry.updatedAt !== draft.baseUpdatedAt : draft.onServer) return "kept"; // changed or deleted elsewhere
  const payload = { title: parts.title, body: parts.body };
  if (entry) payload.baseUpdatedAt = entry.updatedAt;
  else payload.createdAt = draft.createdAt;
  if (draft.weather) payload.weather = draft.weather;
  try {
    await api("PUT", entryPath(draft.id), payload);
  } catch (failure) {
    return failure.status === 0 ? "offline" : "kept";
  }
  removeDraft(draft.id);
  return "saved";
}
