// Sprout web, Diary: saving the editor's text. About a second after typing stops, again and again while the server
// cannot be reached, and when the page is hidden or left (a `keepalive` request that outlives the page); and the
// weather, asked for once for a new entry after its first save. `saving(ed)` gets the editor's parts (diary-editor.js)
// and gives back what the editor calls.

import { api, ApiError } from "./site-api.js";
import { errorMessage } from "./site-errors.js";
import { entryPath, KEEPALIVE_LIMIT, RETRY_DELAYS_MS, SAVE_DELAY_MS } from "./diary-common.js";
import { hasTitle, keyOf, titleTooLong } from "./diary-text.js";

export function saving(ed) {
  const { state, current, offline, render, showWeather, keepDraft } = ed;

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
      if (!response.ok) throw new ApiError(errorMessage(answer, response.status), response.status, answer);
      accepted(answer, key, weather);
    }).catch((failure) => {
      if (!state.deleted) state.failure = new ApiError(
        failure instanceof ApiError ? failure.message : "서버에 연결할 수 없어요. 네트워크를 확인한 뒤 다시 시도해 주세요.",
        failure instanceof ApiError ? failure.status : 0, null);
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

  return { save, scheduleSave, saveOnLeave };
}
