// Sprout web, Diary: the versions the server kept of an entry ("이전 버전"), what it was before a write or a deletion
// replaced it: listed, shown, and restored. And for a deleted entry, the not-found panel's offer to bring it back.

import { api } from "./site-api.js";
import { showError } from "./site-forms.js";
import { particle, sentences } from "./site-korean.js";
import { flashNext, notify } from "./site-toast.js";
import { $, entryPath, logInAgain } from "./diary-common.js";
import { hasTitle, keyOf, longDate, timeElement, titleTooLong, when } from "./diary-text.js";

// The editor's "이전 버전" dialog. `ed` holds the editor's parts (diary-editor.js) and its `save` and `showEntry`.
export function setUpVersions(ed) {
  const { state, text, editor, current, isSaved, save, showEntry, keepDraft } = ed;
  const versionsButton = $("versions-button");
  const versionsDialog = $("versions-dialog");

  // The reasons the server gives, as the page says them.
  const REASONS = { replaced: "고치기 전", conflict: "다른 곳에서 덮어씀", deleted: "삭제됨" };
  const versionsList = $("versions-list");
  const versionPreview = $("version-preview");
  const versionRestore = $("version-restore");
  const versionsError = $("versions-error");
  // `ticket` drops the answer to a listing the visitor closed before it came.
  const versions = { shown: [], selected: -1, ticket: 0, restoring: false };

  function reasonBadge(reason) {
    const badge = Object.assign(document.createElement("span"), { className: "diary-version-reason", textContent: REASONS[reason] || "지난 버전" });
    badge.dataset.reason = String(reason);
    return badge;
  }

  function versionRow(version, index) {
    const item = document.createElement("li");
    const button = Object.assign(document.createElement("button"), { type: "button", className: "diary-version" });
    button.dataset.index = String(index);
    const title = Object.assign(document.createElement("span"), { className: "diary-version-row-title", textContent: version.title });
    const meta = Object.assign(document.createElement("span"), { className: "diary-version-row-meta" });
    meta.append(reasonBadge(version.reason), " ", timeElement(version.replacedAt));
    button.append(title, meta);
    item.append(button);
    return item;
  }

  function showVersionList() {
    versionPreview.hidden = true;
    versionsList.hidden = false;
    $("versions-lead").hidden = false;
  }

  async function openVersions() {
    const ticket = ++versions.ticket;
    versions.shown = [];
    versions.selected = -1;
    versionsList.replaceChildren();
    showError(versionsError, "");
    $("versions-empty").hidden = true;
    $("versions-loading").hidden = false;
    showVersionList();
    versionsDialog.showModal();
    $("versions-close").focus();
    let answer;
    try {
      answer = await api("GET", `${entryPath(state.id)}/versions`);
    } catch (failure) {
      if (ticket !== versions.ticket) return;
      $("versions-loading").hidden = true;
      if (failure.status === 401) return logInAgain();
      showError(versionsError, `이전 버전을 불러오지 못했어요. ${failure.message}`);
      return;
    }
    if (ticket !== versions.ticket) return;
    $("versions-loading").hidden = true;
    versions.shown = Array.isArray(answer && answer.versions) ? answer.versions : [];
    versionsList.replaceChildren(...versions.shown.map(versionRow));
    $("versions-empty").hidden = versions.shown.length > 0;
    // Into the list, at the newest, unless the visitor has moved on meanwhile.
    if (versions.shown.length && document.activeElement === $("versions-close")) versionsList.querySelector("button").focus();
  }

  // One version's whole text, read-only, with the way to restore it.
  function showVersion(index) {
    const version = versions.shown[index];
    if (!version) return;
    versions.selected = index;
    $("version-title").textContent = version.title;
    const meta = $("version-meta");
    meta.replaceChildren(reasonBadge(version.reason), " ", timeElement(version.replacedAt));
    const written = longDate(version.createdAt);
    const part = (words) => Object.assign(document.createElement("span"), { textContent: `· ${words}` });
    if (written) meta.append(" ", part(`${written}의 일기`));
    if (version.weather) meta.append(" ", part(version.weather.description || version.weather.main));
    const body = $("version-text");
    body.textContent = version.body || "(본문 없음)";
    body.classList.toggle("is-empty", !version.body);
    // Restoring the text the editor already holds would change nothing.
    const same = keyOf(version) === keyOf(current());
    $("version-same").hidden = !same;
    versionRestore.disabled = same || versions.restoring;
    showError(versionsError, "");
    versionsList.hidden = true;
    $("versions-empty").hidden = true;
    $("versions-lead").hidden = true;
    versionPreview.hidden = false;
    $("version-title").focus();
  }

  // Puts the version's text back: a PUT like any save, made from the version the editor holds (`baseUpdatedAt`),
  // so the text it replaces is kept as a version in turn. `createdAt` is left out (the server keeps it); the
  // version's weather goes along when it had some.
  async function restoreVersion() {
    const version = versions.shown[versions.selected];
    if (!version || versions.restoring) return;
    versions.restoring = true;
    versionRestore.disabled = true;
    showError(versionsError, "");
    try {
      // Text typed but not yet saved goes to the server first, so that it is kept too rather than lost.
      if (!isSaved()) {
        const parts = current();
        if (!hasTitle(parts) || titleTooLong(parts) || !(await save())) {
          showError(versionsError, sentences("되돌리지 않았어요. 지금 쓰고 있는 글을 먼저 저장하지 못했어요",
            state.failure ? state.failure.message : "첫 줄(제목)을 확인해 주세요."));
          return;
        }
      }
      const payload = { title: version.title, body: version.body };
      if (version.weather) payload.weather = version.weather;
      if (state.updatedAt) payload.baseUpdatedAt = state.updatedAt;
      const put = () => api("PUT", entryPath(state.id), payload);
      // In line with the saves, so no autosave overtakes it.
      const restoring = state.chain.then(put, put);
      state.chain = restoring.then(() => true, () => false);
      let entry;
      try {
        entry = await restoring;
      } catch (failure) {
        if (failure.status === 401) return logInAgain();
        showError(versionsError, `이 버전으로 되돌리지 못했어요. ${failure.message}`);
        return;
      }
      state.failure = null;
      showEntry(entry);
      keepDraft();
      versions.ticket += 1;
      versionsDialog.close();
      text.focus();
      notify("이 버전으로 되돌렸어요. 바뀌기 전 글은 이전 버전에 남아 있어요.");
    } finally {
      versions.restoring = false;
      if (versionsDialog.open) versionRestore.disabled = !$("version-same").hidden;
    }
  }

  versionsButton.addEventListener("click", openVersions);
  $("versions-close").addEventListener("click", () => versionsDialog.close());
  versionsList.addEventListener("click", (event) => {
    const button = event.target.closest("button.diary-version");
    if (button) showVersion(Number(button.dataset.index));
  });
  $("version-back").addEventListener("click", () => {
    showVersionList();
    const row = versionsList.querySelector(`button[data-index="${versions.selected}"]`);
    (row || $("versions-close")).focus();
  });
  versionRestore.addEventListener("click", restoreVersion);
  // Closed by 닫기 or Escape (the dialog's own): an answer still on its way is dropped, and the focus goes back
  // to "이전 버전" (after a restore it is on the text already).
  versionsDialog.addEventListener("close", () => {
    versions.ticket += 1;
    if (!editor.contains(document.activeElement) || document.activeElement === document.body) versionsButton.focus();
  });
}

// Called once the panel is drawn. A PUT without `baseUpdatedAt` brings a tombstone back (201) with the newest
// kept version's text, date and weather; the editor then opens it. An id the server never had (404) or a failed
// look-up leaves the panel as it is.
export async function offerDeletedEntry(id) {
  let answer;
  try {
    answer = await api("GET", `${entryPath(id)}/versions`);
  } catch {
    return;
  }
  const newest = answer && Array.isArray(answer.versions) ? answer.versions[0] : null;
  const panel = $("error-page");
  const actions = panel && panel.querySelector(".error-actions");
  if (!newest || !actions) return;
  const line = Object.assign(document.createElement("p"), { id: "deleted-entry-text", className: "diary-deleted-entry" });
  const { short } = when(newest.replacedAt);
  const at = short === "방금 전" ? "방금 " : short ? `${short}에 ` : "";
  line.textContent = newest.reason === "deleted"
    ? `${particle(`“${newest.title}”`, "은/는")} ${at}삭제되었어요. 삭제하기 전 글이 남아 있어 되살릴 수 있어요.`
    : `삭제된 일기의 지난 글(“${newest.title}”)이 남아 있어 되살릴 수 있어요.`;
  const button = Object.assign(document.createElement("button"), {
    type: "button", className: "button", id: "restore-deleted", textContent: "삭제된 일기 되살리기",
  });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const payload = { title: newest.title, body: newest.body, createdAt: newest.createdAt };
    if (newest.weather) payload.weather = newest.weather;
    try {
      await api("PUT", entryPath(id), payload);
    } catch (failure) {
      button.disabled = false;
      if (failure.status === 401) return logInAgain();
      notify(`일기를 되살리지 못했어요. ${failure.message}`, { kind: "error" });
      return;
    }
    flashNext(`${particle(`“${newest.title}”`, "을/를")} 되살렸어요.`);
    location.assign(`/diary/${id}`);
  });
  actions.before(line);
  actions.prepend(button, " ");
}
