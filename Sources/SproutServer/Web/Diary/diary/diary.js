// Sprout web: the Diary ("일기장"). Plain JavaScript over the diary API (`/api/diary/entries…`) and `/api/weather`
// with the session cookie. Two screens, as in the app: the list (newest first, endless scrolling) and one editor for
// writing and editing, where the first line of the text is the title. The editor saves by itself: about a second
// after typing stops, and when the page is hidden or left (a `keepalive` request that outlives the page). A new
// entry gets its id here (a UUID) and is PUT, so a retried save can never make two entries. When a new entry is
// first saved, the weather where the visitor is (if the browser may tell) is attached once; it is never fetched
// again on edits, and nothing is made up when it cannot be had. Weather icons are drawn here (SVG), not loaded.
// Text the server has not confirmed is also kept in this browser (a draft in localStorage, per account), so a
// closed tab or a lost connection loses nothing: it is saved when the server answers again, from the editor or
// from the list, and the editor offers it back when the server's copy changed meanwhile. The editor also shows the
// versions the server kept of an entry ("이전 버전") and restores one, and offers to bring back a deleted entry.
"use strict";

(() => {
  // notify(): messages in the page's toast; confirmations fade, errors stay.
  const { api, flashNext, notify, particle, sentences, showError, endlessList, notFound, me } = window.Sprout;
  const $ = (id) => document.getElementById(id);
  const API = "/api/diary/entries";
  const PAGE_SIZE = 20;
  const SAVE_DELAY_MS = 1000;
  const TITLE_LIMIT = 1000;
  // A `keepalive` request may carry at most 64 KiB (all such requests of the page together).
  const KEEPALIVE_LIMIT = 60 * 1024;
  const SVG = "http://www.w3.org/2000/svg";

  // While the server cannot be reached, saving is tried again after these waits (then every 30 s), and at once
  // when the browser says it is back online.
  const RETRY_DELAYS_MS = [2000, 5000, 10000, 30000];


  const logInAgain = () => location.assign("/account/login?next=" + encodeURIComponent(location.pathname + location.search));
  const entryPath = (id) => `${API}/${encodeURIComponent(id)}`;

  // ---- Dates: the app's long style ("2022년 6월 28일"), in the visitor's time zone ---------------------

  const longDateFormat = new Intl.DateTimeFormat("ko-KR", { year: "numeric", month: "long", day: "numeric" });

  function longDate(text) {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? "" : longDateFormat.format(date);
  }

  // When a kept version was replaced: "방금 전", "N분 전", "N시간 전" within a day (autosaves come seconds apart),
  // then the long date with the time. `full` (a <time>'s title) has the seconds.
  const dateTimeFormat = new Intl.DateTimeFormat("ko-KR", { dateStyle: "long", timeStyle: "short" });
  const fullDateTimeFormat = new Intl.DateTimeFormat("ko-KR", { dateStyle: "long", timeStyle: "medium" });

  function when(text) {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) return { short: "", full: "" };
    const seconds = (Date.now() - date.getTime()) / 1000;
    const short = seconds < 60 ? "방금 전" : seconds < 3600 ? `${Math.floor(seconds / 60)}분 전`
      : seconds < 86400 ? `${Math.floor(seconds / 3600)}시간 전` : dateTimeFormat.format(date);
    return { short, full: fullDateTimeFormat.format(date) };
  }

  function timeElement(text) {
    const { short, full } = when(text);
    return Object.assign(document.createElement("time"), { dateTime: text || "", title: full, textContent: short });
  }

  // ---- The text: the first line is the title, the rest the body (the app's split with maxSplits: 1) -------

  function split(text) {
    const end = text.indexOf("\n");
    return end < 0 ? { title: text, body: "" } : { title: text.slice(0, end), body: text.slice(end + 1) };
  }

  const joined = (entry) => (entry.body ? `${entry.title}\n${entry.body}` : entry.title);
  // What a save is compared by: "title" and "title\n" are the same entry.
  const keyOf = ({ title, body }) => JSON.stringify([title, body]);

  // The body's first line with something on it, for the list's one-line preview.
  const firstLine = (body) => (body.split("\n").find((line) => line.trim()) || "").trim();
  const hasTitle = ({ title }) => title.trim().length > 0;
  const titleTooLong = ({ title }) => [...title].length > TITLE_LIMIT;

  // What "공유" copies: the title, a blank line, and the body without its leading and trailing blank lines.
  function shareText({ title, body }) {
    const text = body.replace(/^\n+/, "").trimEnd();
    return text ? `${title}\n\n${text}` : title;
  }

  // ---- Drafts: text the server has not confirmed, kept in this browser ----------------------------------
  //
  // `sprout.diary.draft.<entry id>@<account id>` → {id, text, createdAt, baseUpdatedAt, onServer, weather, keptAt}.
  // The account in the key keeps one account's drafts from another's on a shared browser (and logging out clears
  // keys ending in "@<account id>"). `baseUpdatedAt` is the server version the text was written on, so a draft is
  // saved without asking only while the server's copy is still that version.

  const DRAFT_PREFIX = "sprout.diary.draft.";
  const draftSuffix = () => `@${me ? me.id : "anonymous"}`;
  const draftKey = (id) => `${DRAFT_PREFIX}${id}${draftSuffix()}`;

  function readDraft(id) {
    try {
      const draft = JSON.parse(localStorage.getItem(draftKey(id)) || "null");
      return draft && typeof draft.text === "string" && draft.id === id ? draft : null;
    } catch {
      return null;
    }
  }

  function writeDraft(draft) {
    try {
      localStorage.setItem(draftKey(draft.id), JSON.stringify({ ...draft, keptAt: new Date().toISOString() }));
      return true;
    } catch {
      return false; // storage full or refused: the page warns before it is left instead
    }
  }

  function removeDraft(id) {
    try { localStorage.removeItem(draftKey(id)); } catch { /* nothing kept, nothing to remove */ }
  }

  // This account's drafts, the most recently kept first.
  function allDrafts() {
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

  const sameText = (draft, entry) => keyOf(split(draft.text)) === keyOf(entry);

  // Saves `draft` if that can be done without asking: the server's copy is still the one it was written on (or the
  // entry is new and not there yet). "saved" (or already there: the draft is dropped), "kept" (the editor must
  // ask, or the text has no title to save it by) or "offline".
  async function flushDraft(draft) {
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

  // ---- Weather icons, drawn: one per OpenWeather icon group, day and night for 01 and 02 ------------------

  function node(tag, attributes, ...children) {
    const element = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
    element.append(...children);
    return element;
  }

  const CLOUD = "M36 20h-2.52A16 16 0 1 0 18 40h18a10 10 0 0 0 0-20z";
  const MOON = "M42 25.58A18 18 0 1 1 22.42 6 14 14 0 0 0 42 25.58z";

  function sun(cx, cy, r) {
    const rays = [];
    for (let i = 0; i < 8; i++) {
      const angle = (i * Math.PI) / 4;
      const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
      rays.push(node("line", {
        class: "wx-ray", x1: cx + cos * (r + 3), y1: cy + sin * (r + 3), x2: cx + cos * (r + 6.5), y2: cy + sin * (r + 6.5),
      }));
    }
    return node("g", {}, node("circle", { class: "wx-sun", cx, cy, r }), ...rays);
  }

  const moon = (transform) => node("path", { class: "wx-moon", d: MOON, transform });
  const cloud = (transform, dark = false) => node("path", { class: dark ? "wx-cloud wx-cloud-dark" : "wx-cloud", d: CLOUD, transform });
  const lines = (className, points) => points.map(([x1, y1, x2, y2]) => node("line", { class: className, x1, y1, x2, y2 }));
  const BEHIND_CLOUD = "translate(9 11) scale(.78)";
  const UNDER_RAIN = "translate(4 -3) scale(.84)";

  function weatherShapes(icon) {
    const group = icon.slice(0, 2);
    const night = icon.endsWith("n");
    switch (group) {
      case "01":
        return night ? [moon("translate(3 3) scale(.88)")] : [sun(24, 24, 9)];
      case "02":
        return [night ? moon("translate(1 0) scale(.6)") : sun(16, 16, 6.5), cloud(BEHIND_CLOUD)];
      case "03":
        return [cloud("translate(2 1) scale(.92)")];
      case "04":
        return [cloud("translate(16 2) scale(.62)", true), cloud("translate(0 9) scale(.8)")];
      case "09":
        return [cloud(UNDER_RAIN, true), ...lines("wx-rain", [[15, 37, 12, 44], [23, 37, 20, 44], [31, 37, 28, 44]])];
      case "10":
        return [night ? moon("translate(23 -3) scale(.55)") : sun(37, 10, 5.5), cloud(UNDER_RAIN),
          ...lines("wx-rain", [[17, 37, 17, 44], [25, 39, 25, 46], [33, 37, 33, 44]])];
      case "11":
        return [cloud(UNDER_RAIN, true), node("path", { class: "wx-bolt", d: "M25 28l-7 10h6l-3 9 10-12h-6l3-7z" })];
      case "13": {
        const flakes = [[14, 40], [24, 43], [34, 40]].flatMap(([x, y]) => lines("wx-snow", [
          [x - 3, y, x + 3, y], [x - 1.5, y - 2.6, x + 1.5, y + 2.6], [x - 1.5, y + 2.6, x + 1.5, y - 2.6],
        ]));
        return [cloud(UNDER_RAIN), ...flakes];
      }
      case "50":
        return lines("wx-mist", [[8, 14, 34, 14], [14, 21, 40, 21], [6, 28, 36, 28], [12, 35, 42, 35]]);
      default:
        return [cloud("translate(2 1) scale(.92)")];
    }
  }

  // Fills `holder` with the icon for `weather` ({main, icon} with description and tempC when known), named for
  // screen readers.
  function drawWeather(holder, weather) {
    holder.replaceChildren();
    holder.removeAttribute("role");
    holder.removeAttribute("aria-label");
    holder.removeAttribute("title");
    delete holder.dataset.icon;
    if (!weather || !/^\d\d[dn]$/.test(weather.icon)) return;
    const label = weather.description || weather.main;
    holder.dataset.icon = weather.icon;
    holder.setAttribute("role", "img");
    holder.setAttribute("aria-label", label);
    holder.title = label;
    holder.append(node("svg", { viewBox: "0 0 48 48", "aria-hidden": "true", focusable: "false", class: `wx wx-${weather.icon}` },
      ...weatherShapes(weather.icon)));
  }

  const temperature = (tempC) => `${Number(tempC).toFixed(1)}°C`;

  // ---- The list ------------------------------------------------------------------------------------------

  function setUpList() {
    const list = $("entry-list");
    const rowTemplate = $("entry-row");
    const loading = $("loading");
    const listEnd = $("list-end");
    const listEmpty = $("list-empty");
    const retry = $("retry");
    const notice = $("notice");
    const count = $("entry-count");
    const dialog = $("delete-dialog");
    // `offset` is where the next page starts; more is asked for while it is short of `total`.
    const state = { offset: 0, total: null };
    const finished = () => state.total !== null && state.offset >= state.total;
    // The entries shown, by id: what a row's share copies.
    const shown = new Map();
    let pendingDelete = null;

    const say = (text, kind = "success") => notify(text, { kind });

    function row(entry) {
      const item = rowTemplate.content.firstElementChild.cloneNode(true);
      shown.set(entry.id, entry);
      item.dataset.id = entry.id;
      item.querySelector(".diary-entry-link").href = `/diary/${entry.id}`;
      const title = item.querySelector(".diary-entry-title");
      title.textContent = entry.title;
      title.id = `entry-title-${entry.id}`;
      const date = item.querySelector(".diary-entry-date");
      date.textContent = longDate(entry.createdAt);
      date.dateTime = entry.createdAt;
      item.querySelector(".diary-entry-preview").textContent = firstLine(entry.body);
      drawWeather(item.querySelector(".diary-weather-icon"), entry.weather);
      // The buttons keep their short names and are described by the entry's title.
      for (const button of item.querySelectorAll("button")) button.setAttribute("aria-describedby", title.id);
      return item;
    }

    function updateFooter() {
      const rows = list.children.length;
      listEmpty.hidden = !(finished() && rows === 0);
      listEnd.hidden = !(finished() && rows > 0);
      count.textContent = state.total === null ? "" : `일기 ${state.total}개`;
    }

    const entries = endlessList({
      list, sentinel: $("sentinel"), loading, retry,
      isFinished: finished,
      fetchPage: () => api("GET", `${API}?${new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(state.offset) })}`),
      take(page) {
        state.offset += PAGE_SIZE;
        state.total = page.total;
        return page.entries;
      },
      idOf: (entry) => entry.id,
      row,
      failed(failure) {
        if (failure.status === 401) return logInAgain();
        showError(notice, `일기를 불러오지 못했어요. ${failure.message}`);
      },
      changed: updateFooter,
    });

    // Drafts still in this browser after trying to save them: said above the list, each a link to its editor
    // (which saves it, or asks when the server's copy changed meanwhile).
    function showDrafts() {
      const drafts = allDrafts();
      const box = $("drafts");
      box.hidden = drafts.length === 0;
      if (!drafts.length) return;
      $("drafts-text").textContent = `이 브라우저에 아직 서버에 저장되지 않은 일기가 ${drafts.length}개 있어요. 서버에 연결되면 저장돼요.`;
      $("drafts-list").replaceChildren(...drafts.map((draft) => {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = `/diary/${draft.id}`;
        link.textContent = split(draft.text).title.trim() || "(제목 없음)";
        item.append(link);
        return item;
      }));
    }

    // Saves what this browser still holds (a save cut off by leaving the editor, text written offline), then
    // lists from the top: the list then has the last save, whatever became of the editor's own request.
    let listing = null;
    function startOver() {
      if (listing) return listing;
      list.setAttribute("aria-busy", "true");
      listing = (async () => {
        const drafts = allDrafts();
        for (const draft of drafts) {
          if (await flushDraft(draft) === "offline") break;
        }
        showDrafts();
        state.offset = 0;
        state.total = null;
        shown.clear();
        showError(notice, "");
        entries.restart();
      })().finally(() => { listing = null; });
      return listing;
    }

    // ---- Share and delete, from the row

    list.addEventListener("click", async (event) => {
      const button = event.target.closest("button");
      const item = button && button.closest("li.diary-entry");
      if (!item) return;
      const entry = shown.get(item.dataset.id);
      if (!entry) return;
      if (button.matches(".diary-entry-share")) {
        const copied = await copyText(shareText(entry));
        if (copied) say(`${particle(`“${entry.title}”`, "을/를")} 복사했어요.`);
        else say("복사하지 못했어요. 이 브라우저가 클립보드를 쓰지 못하게 해요.", "error");
      } else if (button.matches(".diary-entry-delete")) {
        pendingDelete = item;
        dialog.returnValue = "";
        dialog.showModal();
      }
    });

    dialog.addEventListener("close", async () => {
      const item = pendingDelete;
      pendingDelete = null;
      if (!item) return;
      const deleteButton = item.querySelector(".diary-entry-delete");
      if (dialog.returnValue !== "delete") {
        deleteButton.focus();
        return;
      }
      const entry = shown.get(item.dataset.id);
      item.setAttribute("aria-busy", "true");
      try {
        // Names the version this row shows: if another device has changed the entry since, the server keeps it
        // (409) and the row is redrawn with what it now holds, rather than deleting text nobody here has seen.
        const base = entry.updatedAt ? `?${new URLSearchParams({ baseUpdatedAt: entry.updatedAt })}` : "";
        await api("DELETE", entryPath(entry.id) + base);
      } catch (failure) {
        item.removeAttribute("aria-busy");
        if (failure.status === 409) {
          try {
            const fresh = row(await api("GET", entryPath(entry.id)));
            item.replaceWith(fresh);
            fresh.querySelector(".diary-entry-delete").focus();
            say("다른 곳에서 고친 내용이 있어 지우지 않았어요. 최신 내용을 불러왔어요.", "error");
          } catch (reload) {
            say(`일기를 삭제하지 못했어요. ${reload.message}`, "error");
          }
          return;
        }
        if (failure.status !== 404) {
          say(`일기를 삭제하지 못했어요. ${failure.message}`, "error");
          deleteButton.focus();
          return;
        }
      }
      removeDraft(entry.id);
      // Keyboard focus moves to the neighbouring row rather than falling off the page.
      const neighbour = item.nextElementSibling || item.previousElementSibling;
      const hadFocus = item.contains(document.activeElement) || document.activeElement === document.body;
      item.remove();
      shown.delete(entry.id);
      // The rows after it moved up by one on the server's pages.
      state.offset = Math.max(0, state.offset - 1);
      if (state.total !== null) state.total = Math.max(0, state.total - 1);
      updateFooter();
      if (hadFocus) (neighbour ? neighbour.querySelector(".diary-entry-link") : $("new-entry-link")).focus();
      say("일기를 삭제했어요.");
      entries.loadIfNearBottom();
    });

    retry.addEventListener("click", () => {
      showError(notice, "");
      entries.retry();
    });
    // Coming back to the list by the browser's Back button may show the page as it was left (the back/forward
    // cache): list again, so an entry saved since is there.
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) startOver();
    });
    window.addEventListener("online", () => {
      if (allDrafts().length || !notice.hidden) startOver();
    });
    startOver();
  }

  // ---- The editor ----------------------------------------------------------------------------------------

  // A version 4 UUID; `crypto.randomUUID` exists only on secure origins (https, localhost).
  function newUUID() {
    if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // Copies `text`: the Clipboard API, else a hidden textarea and the old copy command.
  async function copyText(text) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch {
      // Refused (no permission, the page not focused): try the old way.
    }
    const helper = document.createElement("textarea");
    helper.value = text;
    helper.setAttribute("readonly", "");
    helper.className = "clipboard-helper";
    document.body.append(helper);
    helper.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    helper.remove();
    return copied;
  }

  function setUpEditor() {
    const page = $("diary-entry-page");
    const editor = $("editor");
    const text = $("entry-text");
    const status = $("save-status");
    const saveError = $("save-error");
    const notice = $("notice");
    const deleteButton = $("delete-button");
    const shareButton = $("share-button");
    const dialog = $("delete-dialog");
    const weatherLine = $("weather");
    const versionsButton = $("versions-button");
    const versionsDialog = $("versions-dialog");
    const existing = page.dataset.entryId || null;

    const state = {
      id: existing || newUUID(),
      // Whether the server has the entry (it was opened, or a save created it).
      onServer: Boolean(existing),
      loaded: !existing,
      createdAt: existing ? null : new Date().toISOString(),
      // The `updatedAt` of the last answer, sent back as `baseUpdatedAt`.
      updatedAt: null,
      weather: null,
      // Only a new entry asks for the weather, once, after its first save; fetched weather waits here to be saved.
      weatherWanted: !existing,
      pendingWeather: null,
      weatherNote: "",
      saved: keyOf({ title: "", body: "" }),
      sending: new Set(),
      timer: null,
      failure: null,
      deleted: false,
      // Saves run one after another.
      chain: Promise.resolve(true),
      // Whether the unsaved text is kept in this browser (false only when storage refused it).
      draftKept: true,
      retryTimer: null,
      retries: 0,
      // A draft this browser kept that the server's copy does not match, offered to the visitor.
      offered: null,
    };

    const current = () => split(text.value);
    const isSaved = () => keyOf(current()) === state.saved && !state.pendingWeather;
    const offline = () => state.failure && state.failure.status === 0;
    // Text that is typed but can never be saved as it is: no title, something below it.
    const unsaveable = () => { const parts = current(); return !hasTitle(parts) && (parts.title + parts.body).trim().length > 0; };

    // ---- What the page shows

    function render() {
      const parts = current();
      const preview = $("title-preview");
      preview.textContent = hasTitle(parts) ? parts.title : "첫 줄을 쓰면 제목이 돼요";
      preview.classList.toggle("is-empty", !hasTitle(parts));
      document.title = `${hasTitle(parts) ? parts.title : existing ? "일기" : "새 일기"} · Sprout`;

      const date = $("entry-date-time");
      date.textContent = longDate(state.createdAt);
      date.dateTime = state.createdAt || "";

      deleteButton.hidden = !state.onServer;
      versionsButton.hidden = !state.onServer || state.deleted;
      shareButton.disabled = !(parts.title + parts.body).trim();

      let message = "";
      let kind = "";
      if (state.deleted || !state.loaded) {
        message = "";
      } else if (state.sending.size > 0) {
        [message, kind] = ["저장 중…", "saving"];
      } else if (state.failure) {
        [message, kind] = ["저장 안 됨", "error"];
      } else if (!hasTitle(parts)) {
        if (unsaveable()) [message, kind] = ["첫 줄(제목)이 비어 있어 저장하지 않았어요.", "warning"];
        else if (state.onServer) [message, kind] = ["첫 줄(제목)이 비어 있어 저장하지 않았어요.", "warning"];
      } else if (titleTooLong(parts)) {
        [message, kind] = [`제목(첫 줄)은 ${TITLE_LIMIT.toLocaleString("ko-KR")}자까지예요. 저장하지 않았어요.`, "warning"];
      } else if (isSaved()) {
        [message, kind] = state.onServer ? ["저장됨", "saved"] : ["", ""];
      } else {
        [message, kind] = ["저장 중…", "saving"];
      }
      status.textContent = message;
      status.dataset.state = kind;
      const kept = state.draftKept ? " 이 브라우저에도 보관해 두어서 창을 닫아도 잃지 않아요." : "";
      const later = offline() ? " 서버에 다시 연결되면 저장할게요." : "";
      showError($("save-error-text"), state.failure ? `저장하지 못했어요. 글은 이 화면에 그대로 있어요.${kept}${later} ${state.failure.message}` : "");
      saveError.hidden = !state.failure || state.deleted;
    }

    function showWeather() {
      const weather = state.weather;
      drawWeather($("weather-icon"), weather);
      const line = $("weather-text");
      if (weather) {
        // The contract's weather is {main, icon}: description and tempC are extras an entry may lack.
        const words = weather.description || weather.main;
        line.textContent = typeof weather.tempC === "number" ? `${words} · ${temperature(weather.tempC)}` : words;
        weatherLine.classList.remove("is-missing");
        weatherLine.hidden = false;
      } else if (state.weatherNote) {
        line.textContent = state.weatherNote;
        weatherLine.classList.add("is-missing");
        weatherLine.hidden = false;
      } else {
        weatherLine.hidden = true;
      }
    }

    // ---- Keeping the unsaved text in this browser

    // Called after every change and every answer: the text the server has not confirmed is kept as a draft; once it
    // has (or there is nothing to keep), the draft goes.
    function keepDraft() {
      if (state.deleted || !state.loaded || state.offered) return;
      const parts = current();
      const empty = !(parts.title + parts.body).trim();
      if (isSaved() || (empty && !state.onServer)) {
        removeDraft(state.id);
        state.draftKept = true;
        return;
      }
      state.draftKept = writeDraft({
        id: state.id, text: text.value, createdAt: state.createdAt, baseUpdatedAt: state.updatedAt,
        onServer: state.onServer, weather: state.pendingWeather,
      });
    }

    // While the server cannot be reached: try again a little later, and at once when the browser is back online.
    function retryLater() {
      clearTimeout(state.retryTimer);
      const delay = RETRY_DELAYS_MS[Math.min(state.retries, RETRY_DELAYS_MS.length - 1)];
      state.retries += 1;
      state.retryTimer = setTimeout(() => { save(); }, delay);
    }

    // ---- Saving

    function payloadFor(parts, weather) {
      const payload = { title: parts.title, body: parts.body };
      if (!state.onServer) payload.createdAt = state.createdAt;
      if (weather) payload.weather = weather;
      if (state.updatedAt) payload.baseUpdatedAt = state.updatedAt;
      return payload;
    }

    // The server's answer to a save of `key` (and `weather`, when it carried some).
    function accepted(entry, key, weather) {
      // Even while deleting: the deletion names the version the server has, and a save that was on its way when
      // "삭제" was confirmed made a newer one.
      state.updatedAt = entry.updatedAt;
      if (state.deleted) return;
      const first = !state.onServer;
      state.onServer = true;
      state.updatedAt = entry.updatedAt;
      state.createdAt = entry.createdAt;
      state.saved = key;
      state.failure = null;
      if (weather && state.pendingWeather === weather) state.pendingWeather = null;
      state.weather = entry.weather || null;
      state.retries = 0;
      clearTimeout(state.retryTimer);
      keepDraft();
      showWeather();
      if (first) {
        // Reloading the page now opens the entry.
        history.replaceState(null, "", `/diary/${entry.id}`);
        if (state.weatherWanted) fetchWeather();
      }
    }

    async function saveNow() {
      clearTimeout(state.timer);
      state.timer = null;
      if (state.deleted || !state.loaded) return true;
      const parts = current();
      const key = keyOf(parts);
      const weather = state.pendingWeather;
      if (key === state.saved && !weather) {
        render();
        return true;
      }
      if (!hasTitle(parts) || titleTooLong(parts)) {
        render();
        return false;
      }
      state.sending.add(key);
      render();
      try {
        accepted(await api("PUT", entryPath(state.id), payloadFor(parts, weather)), key, weather);
        return true;
      } catch (failure) {
        if (!state.deleted) {
          state.failure = failure;
          if (failure.status === 0) retryLater();
        }
        return false;
      } finally {
        state.sending.delete(key);
        render();
      }
    }

    // Queues a save after the ones already running; resolves to whether the text is saved.
    function save() {
      state.chain = state.chain.then(saveNow, saveNow);
      return state.chain;
    }

    function scheduleSave() {
      clearTimeout(state.timer);
      state.timer = setTimeout(save, SAVE_DELAY_MS);
    }

    // The page is being hidden or left: send what is unsaved at once, in a request that outlives the page.
    // (The text is in this browser already: every change was kept as it was typed. Nothing is written here, so a page
    // left by logging out, which has just removed this account's keys, does not put the draft back.)
    function saveOnLeave() {
      if (state.deleted || !state.loaded) return;
      const parts = current();
      const key = keyOf(parts);
      const weather = state.pendingWeather;
      if ((key === state.saved && !weather) || state.sending.has(key) || !hasTitle(parts)) return;
      clearTimeout(state.timer);
      state.timer = null;
      const body = JSON.stringify(payloadFor(parts, weather));
      state.sending.add(key);
      render();
      fetch(entryPath(state.id), {
        method: "PUT",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        credentials: "same-origin",
        body,
        keepalive: new Blob([body]).size <= KEEPALIVE_LIMIT,
      }).then(async (response) => {
        const answer = await response.json().catch(() => null);
        if (!response.ok) throw new window.Sprout.ApiError(window.Sprout.errorMessage(answer, response.status), response.status, answer);
        accepted(answer, key, weather);
      }).catch((failure) => {
        if (!state.deleted) state.failure = new window.Sprout.ApiError(
          failure instanceof window.Sprout.ApiError ? failure.message : "서버에 연결할 수 없어요. 네트워크를 확인한 뒤 다시 시도해 주세요.",
          failure instanceof window.Sprout.ApiError ? failure.status : 0, null);
        if (offline()) retryLater();
      }).finally(() => {
        state.sending.delete(key);
        render();
      });
    }

    // ---- Weather, once, for a new entry

    function noWeather(reason) {
      state.weatherNote = `날씨 없음 · ${reason}`;
      showWeather();
    }

    function fetchWeather() {
      state.weatherWanted = false;
      if (!navigator.geolocation) return noWeather("이 브라우저는 위치를 알려 주지 않아요");
      state.weatherNote = "날씨 확인 중…";
      showWeather();
      navigator.geolocation.getCurrentPosition(async (position) => {
        const { latitude, longitude } = position.coords;
        const query = new URLSearchParams({ lat: latitude.toFixed(4), lon: longitude.toFixed(4) });
        let weather;
        try {
          weather = await api("GET", `/api/weather?${query}`);
        } catch (failure) {
          return noWeather(failure.status === 503 ? "서버에 날씨 서비스가 설정되어 있지 않아요"
            : failure.status === 401 ? "로그인이 끝났어요" : "날씨를 가져오지 못했어요");
        }
        if (state.deleted) return;
        state.pendingWeather = { main: weather.main, description: weather.description, icon: weather.icon, tempC: weather.tempC };
        state.weatherNote = "";
        save();
      }, (error) => {
        noWeather(error.code === error.PERMISSION_DENIED ? "위치 사용이 허용되지 않았어요" : "위치를 알 수 없어요");
      }, { timeout: 15000, maximumAge: 10 * 60 * 1000 });
    }

    // ---- Opening an entry

    const keptAt = (draft) => {
      const date = new Date(draft.keptAt);
      return Number.isNaN(date.getTime()) ? "" : date.toLocaleString("ko-KR", { dateStyle: "long", timeStyle: "short" });
    };

    function showEntry(entry) {
      text.value = joined(entry);
      state.saved = keyOf(split(text.value));
      state.updatedAt = entry.updatedAt;
      state.createdAt = entry.createdAt;
      state.weather = entry.weather || null;
      state.weatherNote = entry.weather ? "" : "날씨 없음";
      state.loaded = true;
      editor.hidden = false;
      showWeather();
      render();
    }

    // Says something about a kept draft above the editor; with `choices`, its two buttons are shown.
    function showRestore(message, choices) {
      $("restore-text").textContent = message;
      $("restore-use").hidden = !choices;
      $("restore-discard").hidden = !choices;
      $("restore").hidden = false;
    }

    function hideRestore() {
      $("restore").hidden = true;
    }

    // The draft's text becomes the editor's, to be saved now (or, offline, as soon as the server answers).
    function useDraft(draft) {
      state.offered = null;
      text.value = draft.text;
      if (draft.weather && !state.weather) state.pendingWeather = draft.weather;
      state.loaded = true;
      editor.hidden = false;
      showWeather();
      render();
      keepDraft();
      save();
    }

    // Opens the entry from the draft alone: the server cannot be reached, or never had this new entry.
    function openDraft(draft, onServer) {
      state.onServer = onServer;
      state.createdAt = draft.createdAt || state.createdAt || new Date().toISOString();
      state.updatedAt = onServer ? draft.baseUpdatedAt : null;
      state.weatherWanted = !onServer && !draft.weather;
      // Nothing is known to be saved: the draft's text is what must reach the server.
      state.saved = keyOf({ title: "", body: "" });
      useDraft(draft);
    }

    // Asks what to do with a draft that cannot simply be saved (the server's copy changed or went meanwhile).
    function offerDraft(draft, message) {
      state.offered = draft;
      showRestore(message, true);
      $("restore-use").onclick = () => {
        hideRestore();
        if (!state.loaded) openDraft(draft, false);
        else useDraft(draft);
        notice.hidden = true;
        text.focus();
      };
      $("restore-discard").onclick = () => {
        state.offered = null;
        removeDraft(draft.id);
        hideRestore();
        keepDraft();
        (state.loaded ? text : $("back-link")).focus();
      };
    }

    async function load() {
      const draft = readDraft(state.id);
      let entry;
      try {
        entry = await api("GET", entryPath(state.id));
      } catch (failure) {
        $("loading").hidden = true;
        if (failure.status === 401) return logInAgain();
        if (draft && failure.status === 0) {
          // Offline: this browser's copy is the latest text there is; it is saved once the server answers.
          openDraft(draft, draft.onServer);
          showRestore(`서버에 연결할 수 없어서 이 브라우저에 보관한 글(${keptAt(draft)})을 열었어요. 연결되면 저장할게요.`, false);
          return;
        }
        if (draft && failure.status === 404 && !draft.onServer) {
          // A new entry whose first save never reached the server.
          openDraft(draft, false);
          showRestore(`저장되지 않았던 글(${keptAt(draft)})을 이 브라우저에서 되살렸어요.`, false);
          return;
        }
        // Neither the server nor this browser has anything under this id: the site's not-found panel, as the server
        // draws it for a malformed one.
        if (!draft && failure.status === 404) {
          notFound("일기를 찾을 수 없어요. 삭제되었을 수 있어요.");
          return offerDeletedEntry();
        }
        showError(notice, failure.status === 404 ? "일기를 찾을 수 없어요. 삭제되었을 수 있어요."
          : `일기를 불러오지 못했어요. ${failure.message}`);
        if (draft && failure.status === 404) {
          offerDraft(draft, `이 일기는 다른 곳에서 삭제되었지만, 이 브라우저에 저장되지 않은 글(${keptAt(draft)})이 남아 있어요. 되살릴까요?`);
        }
        return;
      }
      $("loading").hidden = true;
      showEntry(entry);
      if (!draft) return;
      if (sameText(draft, entry)) {
        // It reached the server after all (a save on leaving whose answer the page never saw).
        removeDraft(state.id);
      } else if (draft.baseUpdatedAt === entry.updatedAt) {
        // Written on the copy the server still has: nothing is overwritten by saving it.
        useDraft(draft);
        showRestore(`저장되지 않았던 글(${keptAt(draft)})을 이 브라우저에서 되살려 저장했어요.`, false);
      } else {
        offerDraft(draft, `이 브라우저에 저장되지 않은 글(${keptAt(draft)})이 있는데, 그 뒤에 다른 곳에서 고친 글이 서버에 있어요. 지금 보이는 것은 서버의 글이에요. 이 브라우저의 글을 불러올까요? (서버의 글은 지난 버전으로 남아요)`);
      }
    }

    // /diary/new with a new entry this browser kept but the server never confirmed: that entry is continued
    // (and saved) rather than started again; "새 일기 따로 쓰기" (`?fresh`) starts a blank one instead.
    function resumeNewDraft() {
      if (new URLSearchParams(location.search).has("fresh")) return false;
      const draft = allDrafts().find((candidate) => !candidate.onServer);
      if (!draft) return false;
      state.id = draft.id;
      openDraft(draft, false);
      showRestore(`저장되지 않았던 새 일기(${keptAt(draft)})를 이어서 써요.`, false);
      const fresh = document.createElement("a");
      fresh.href = "/diary/new?fresh";
      fresh.id = "restore-fresh";
      fresh.className = "button button-small button-quiet";
      fresh.textContent = "새 일기 따로 쓰기";
      $("restore-text").append(" ", fresh);
      return true;
    }

    // ---- Kept versions ("이전 버전"): what the server kept of this entry before a write or a deletion replaced it

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

    // ---- A deleted entry: the server kept its text, so the not-found panel offers to bring it back

    // Called once the panel is drawn. A PUT without `baseUpdatedAt` brings a tombstone back (201) with the newest
    // kept version's text, date and weather; the editor then opens it. An id the server never had (404) or a failed
    // look-up leaves the panel as it is.
    async function offerDeletedEntry() {
      let answer;
      try {
        answer = await api("GET", `${entryPath(state.id)}/versions`);
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
          await api("PUT", entryPath(state.id), payload);
        } catch (failure) {
          button.disabled = false;
          if (failure.status === 401) return logInAgain();
          notify(`일기를 되살리지 못했어요. ${failure.message}`, { kind: "error" });
          return;
        }
        flashNext(`${particle(`“${newest.title}”`, "을/를")} 되살렸어요.`);
        location.assign(`/diary/${state.id}`);
      });
      actions.before(line);
      actions.prepend(button, " ");
    }

    // ---- Events

    text.addEventListener("input", () => {
      render();
      keepDraft();
      scheduleSave();
    });
    window.addEventListener("online", () => {
      if (state.failure && offline()) save();
    });
    $("save-retry").addEventListener("click", () => { save(); });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") saveOnLeave();
    });
    window.addEventListener("pagehide", saveOnLeave);
    // Text that did not reach the server (a failed save, or no title to save it by) is not left silently.
    // Once it is kept in this browser it is not lost by leaving, so only text that could not be kept asks.
    window.addEventListener("beforeunload", (event) => {
      if (state.deleted || !state.loaded) return;
      if (((state.failure && !isSaved()) || unsaveable()) && !state.draftKept) {
        event.preventDefault();
        event.returnValue = "";
      }
    });
    // Back to the list only once the text is saved; a failure keeps the visitor here, with the error.
    $("back-link").addEventListener("click", async (event) => {
      if (state.deleted || !state.loaded || isSaved() || !hasTitle(current())) return;
      event.preventDefault();
      if (await save()) location.assign("/diary");
    });

    shareButton.addEventListener("click", async () => {
      const copied = await copyText(shareText(current()));
      const feedback = $("share-feedback");
      feedback.textContent = copied ? "복사됨" : "복사하지 못했어요";
      feedback.dataset.state = copied ? "saved" : "error";
      clearTimeout(feedback.timer);
      feedback.timer = setTimeout(() => { feedback.textContent = ""; }, 3000);
    });

    // After a refused deletion: the entry as the server has it now, in place of what the page showed, and why
    // nothing was deleted. False when it cannot be read (then the deletion is reported as it stands).
    async function showChangedEntry() {
      let entry;
      try {
        entry = await api("GET", entryPath(state.id));
      } catch {
        return false;
      }
      state.deleted = false;
      state.failure = null;
      clearTimeout(state.retryTimer);
      showEntry(entry);
      keepDraft();
      showError(notice, "다른 곳에서 고친 내용이 있어 지우지 않았어요. 최신 내용을 불러왔어요.");
      return true;
    }

    deleteButton.addEventListener("click", () => dialog.showModal());
    dialog.addEventListener("close", async () => {
      if (dialog.returnValue !== "delete") return;
      dialog.returnValue = "";
      clearTimeout(state.timer);
      clearTimeout(state.retryTimer);
      state.deleted = true;
      render();
      showError(notice, "");
      // A save still on its way would bring the entry back after the deletion.
      await state.chain;
      // The deletion names the version this page shows: if another device has written the entry since, the server
      // refuses (409) rather than delete text the visitor never saw.
      const base = state.updatedAt ? `?${new URLSearchParams({ baseUpdatedAt: state.updatedAt })}` : "";
      try {
        await api("DELETE", entryPath(state.id) + base);
      } catch (failure) {
        if (failure.status === 409 && await showChangedEntry()) return;
        if (failure.status !== 404) {
          state.deleted = false;
          render();
          showError(notice, `일기를 삭제하지 못했어요. ${failure.message}`);
          return;
        }
      }
      removeDraft(state.id);
      flashNext("일기를 삭제했어요.");
      location.assign("/diary");
    });

    render();
    if (existing) {
      load();
    } else {
      resumeNewDraft();
      text.focus();
    }
  }

  if ($("diary-page")) setUpList();
  if ($("diary-entry-page")) setUpEditor();
})();
