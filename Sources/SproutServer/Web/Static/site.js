// Sprout web: what every page shares. The header's log-out button (with its confirmation), a one-time
// message carried across a page change, forms whose submit button waits until every required field is
// filled, and `window.Sprout`: the JSON helper the page scripts use, with the server's errors made readable.
"use strict";

(() => {
  const FLASH_KEY = "sprout.flash";

  class ApiError extends Error {
    constructor(message, status, body) {
      super(message);
      this.status = status;
      this.body = body;
    }
  }

  // Strapi's users-permissions ids, in Korean. The server's own (English) message is shown beside them, so
  // nothing it said is hidden; an id not listed here shows the server's message alone.
  const MESSAGES = {
    "Auth.form.error.invalid": "아이디(또는 이메일)나 비밀번호가 맞지 않아요.",
    "Auth.form.error.email.taken": "이미 가입된 이메일이에요.",
    "Auth.form.error.username.taken": "이미 사용 중인 아이디예요.",
    "Auth.form.error.email.format": "이메일 주소를 확인해 주세요.",
    "Auth.form.error.username.format": "아이디를 확인해 주세요.",
    "Auth.form.error.password.format": "비밀번호를 확인해 주세요.",
    "Auth.form.error.password.matching": "비밀번호가 일치하지 않습니다.",
    "Auth.form.error.blocked": "관리자가 막아 둔 계정이에요.",
    "Auth.form.error.ratelimit": "시도가 너무 많아요. 잠시 뒤에 다시 해 주세요.",
    "Auth.form.error.email.provide": "필요한 칸을 모두 채워 주세요.",
    "Auth.form.error.username.provide": "필요한 칸을 모두 채워 주세요.",
    "Auth.form.error.password.provide": "필요한 칸을 모두 채워 주세요.",
  };

  const STATUS_MESSAGES = {
    401: "로그인이 끝났어요. 다시 로그인해 주세요.",
    403: "권한이 없어요. 내 글과 댓글만 고치거나 지울 수 있고, 로그인이 끝났다면 다시 로그인해 주세요.",
    404: "찾는 글이나 댓글이 없어요. 이미 삭제되었을 수 있어요.",
    413: "내용이 너무 길어요.",
    429: "요청이 너무 많아요. 잠시 뒤에 다시 해 주세요.",
  };

  // The message an error body carries: Strapi's `message` string, or its form error
  // `message[0].messages[0]` ({id, message}); Laravel's and Sprout's `{"message"}` are the string case.
  function errorMessage(body, status) {
    let id = null;
    let text = null;
    if (body && typeof body.message === "string") {
      text = body.message;
    } else if (body && Array.isArray(body.message)) {
      const first = body.message[0] && Array.isArray(body.message[0].messages) ? body.message[0].messages[0] : null;
      if (first) {
        id = typeof first.id === "string" ? first.id : null;
        text = typeof first.message === "string" ? first.message : null;
      }
    }
    const korean = (id && MESSAGES[id]) || STATUS_MESSAGES[status];
    if (korean && text) return `${korean} (${text})`;
    return korean || text || `요청을 처리하지 못했어요 (HTTP ${status}).`;
  }

  // JSON to and from this site. Credentials are same-origin (the session cookie goes along, and only here),
  // and the browser adds `Origin` to every POST, PUT and DELETE, which the server's cross-site guard checks.
  // A `FormData` body goes as multipart (the browser writes the boundary); `headers` are added (the market's
  // `identifier`). A `text/plain` answer comes back as its text.
  async function api(method, path, body, extraHeaders = {}) {
    const headers = { Accept: "application/json", ...extraHeaders };
    const init = { method, headers, credentials: "same-origin" };
    if (body instanceof FormData) {
      init.body = body;
    } else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch {
      throw new ApiError("서버에 연결할 수 없어요. 네트워크를 확인한 뒤 다시 시도해 주세요.", 0, null);
    }
    let parsed = null;
    try {
      const plain = (response.headers.get("Content-Type") || "").startsWith("text/plain");
      parsed = plain ? await response.text() : await response.json();
    } catch {
      // Not JSON (a proxy's error page, say): the status is all there is to report.
    }
    if (!response.ok) throw new ApiError(errorMessage(parsed, response.status), response.status, parsed);
    return parsed;
  }

  // ---- One-time messages across a page change ("비밀번호를 바꿨어요.", then the feed) ----------------

  function flashNext(message) {
    try { sessionStorage.setItem(FLASH_KEY, message); } catch { /* private mode: the message is only lost */ }
  }

  function showFlash() {
    let message = null;
    try {
      message = sessionStorage.getItem(FLASH_KEY);
      sessionStorage.removeItem(FLASH_KEY);
    } catch { return; }
    const flash = document.getElementById("flash");
    if (!message || !flash) return;
    flash.textContent = message;
    flash.hidden = false;
  }

  // ---- Forms: the submit button is enabled only when every required field has something in it ---------

  function isFilled(field) {
    // Passwords count as typed; other text must be more than spaces, as the server will insist.
    return field.type === "password" ? field.value.length > 0 : field.value.trim().length > 0;
  }

  function refreshForm(form) {
    const submit = form.querySelector('button[type="submit"]');
    if (!submit) return;
    const fields = [...form.querySelectorAll("[required]")];
    submit.disabled = form.dataset.busy === "true" || !fields.every(isFilled);
  }

  function watchForm(form) {
    form.addEventListener("input", () => refreshForm(form));
    refreshForm(form);
  }

  function setBusy(form, busy) {
    form.dataset.busy = busy ? "true" : "false";
    form.setAttribute("aria-busy", busy ? "true" : "false");
    refreshForm(form);
  }

  function showError(element, message) {
    element.textContent = message;
    element.hidden = !message;
  }

  // Submits `form` with `send`, one at a time: the button waits while it runs; a failure is shown in
  // `errorElement` (after `failurePrefix`) and the form may be sent again. On success `send` decides what follows.
  function onSubmit(form, errorElement, send, failurePrefix = "") {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (form.dataset.busy === "true") return;
      showError(errorElement, "");
      setBusy(form, true);
      try {
        await send();
      } catch (failure) {
        showError(errorElement, failurePrefix + failure.message);
        setBusy(form, false);
      }
    });
  }

  // ---- Dates: yyyy/MM/dd a hh:mm in Korean, as the SeSAC app showed them ------------------------------

  const dateFormat = new Intl.DateTimeFormat("ko-KR", {
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: true,
  });

  function formatDate(text) {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) return "";
    const parts = Object.fromEntries(dateFormat.formatToParts(date).map((p) => [p.type, p.value]));
    return `${parts.year}/${parts.month}/${parts.day} ${parts.dayPeriod} ${parts.hour}:${parts.minute}`;
  }

  // ---- Endless lists (the market's products, the board's posts) ----------------------------------------

  // A list that asks for its next page while `sentinel`, below it, is within 200 px of the screen: one request at a
  // time (`loading` shows meanwhile, `list` is aria-busy), and again after a page too short to push the sentinel
  // away (the observer speaks only when it comes into reach). `fetchPage()` asks; `take(page)` — called only while
  // the answer still belongs to the current listing — notes the paging and returns the items, which are shown by
  // `row(item)` unless `idOf(item)` was shown already (an item added meanwhile shifts the pages by one). A failure
  // goes to `failed(failure)` and shows `retry` until `retry()`. `restart()` empties the list for a new listing
  // (another search); answers to the old one's requests are dropped. `changed()` follows every change of state.
  function endlessList({ list, sentinel, loading, retry, isFinished, fetchPage, take, idOf, row, failed, changed }) {
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

  // ---- The signed-in visitor, and logging out -----------------------------------------------------------

  const body = document.body;
  const me = body.dataset.userId ? { id: Number(body.dataset.userId), username: body.dataset.username } : null;

  function setUpLogout() {
    const button = document.getElementById("logout-button");
    const dialog = document.getElementById("logout-dialog");
    const error = document.getElementById("logout-error");
    if (!button || !dialog) return;
    button.addEventListener("click", () => {
      showError(error, "");
      dialog.showModal();
    });
    dialog.addEventListener("close", async () => {
      if (dialog.returnValue !== "logout") {
        button.focus();
        return;
      }
      dialog.returnValue = "";
      try {
        await api("DELETE", "/web/session");
      } catch (failure) {
        showError(error, failure.message);
        dialog.showModal();
        return;
      }
      flashNext("로그아웃했어요.");
      // As the app did: back to the start page.
      location.assign("/");
    });
  }

  window.Sprout = {
    api, ApiError, errorMessage, formatDate, flashNext, watchForm, refreshForm, setBusy, showError, onSubmit, endlessList, me,
  };

  setUpLogout();
  showFlash();
  for (const form of document.querySelectorAll("form[novalidate]")) {
    if (form.querySelector("[required]")) watchForm(form);
  }
})();
