// Sprout web, Todos: the v2 JSON API, whose refusals are already Korean (the page shows them as they come).

const API = "/api/v2";

// ---- Talking to the API ------------------------------------------------------------------------

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(path, options = {}) {
  const headers = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    // Same-origin credentials (fetch's default, stated): a signed-in visitor's session cookie makes the API
    // answer with their own list; the browser's `Origin` on writes satisfies the server's cross-site guard.
    response = await fetch(API + path, { ...options, headers, credentials: "same-origin" });
  } catch {
    throw new ApiError("서버에 연결할 수 없어요. 네트워크를 확인한 뒤 다시 시도해 주세요.", 0);
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): the status line is all there is to report.
  }
  if (!response.ok) {
    // The API answers errors as {"message": "...", "errors": {...}}; its message is already readable Korean.
    const message = body && typeof body.message === "string" && body.message
      ? body.message
      : `요청을 처리하지 못했어요 (HTTP ${response.status}).`;
    throw new ApiError(message, response.status);
  }
  if (!body) throw new ApiError("서버의 응답을 읽을 수 없어요.", response.status);
  return body;
}
