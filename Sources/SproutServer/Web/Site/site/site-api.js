// Sprout web: JSON to and from this site, every refusal made into Korean (site-errors.js).

import { errorMessage } from "./site-errors.js";

export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

// JSON to and from this site. Credentials are same-origin (the session cookie goes along, and only here),
// and the browser adds `Origin` to every POST, PUT and DELETE, which the server's cross-site guard checks.
// A `FormData` body goes as multipart (the browser writes the boundary); `headers` are added (the market's
// `identifier`). A `text/plain` answer comes back as its text.
export async function api(method, path, body, extraHeaders = {}) {
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
