// Sprout web: every service's refusals in Korean, for the message under a form or in the toast. Pure functions
// of the error body and status (Tests/Web checks them with `node --test`); site-api.js applies them to every answer.

import { particle, sentences } from "./site-korean.js";

// The APIs answer in their contracts' words (mostly English; the Todos API's Laravel messages are Korean with the
// field's English name). The page shows Korean only: a text below, a pattern, the Strapi id, the status, and
// last of all a general sentence, so nothing English reaches the visitor. The APIs themselves are unchanged.
const UNREADABLE = "보낸 내용을 서버가 읽지 못했어요. 페이지를 새로 고친 뒤 다시 해 주세요.";
const SIGNED_OUT = "로그인이 끝났어요. 다시 로그인해 주세요.";
const CROSS_SITE = "다른 사이트를 거친 요청은 받을 수 없어요. 이 사이트의 페이지에서 다시 해 주세요.";
const ENTRY_GONE = "일기를 찾을 수 없어요. 삭제되었을 수 있어요.";
const CURRENCY = "통화는 KRW나 USD 중에서 골라 주세요.";
const RESET_LINK = "이 링크는 더 쓸 수 없어요. 이미 썼거나 한 시간이 지났을 수 있어요. 재설정 메일을 다시 받아 주세요.";

const TEXTS = {
  // Accounts (Strapi's users-permissions)
  "Identifier or password invalid.": "아이디(또는 이메일)나 비밀번호가 맞지 않아요.",
  "Please provide your username or your e-mail.": "아이디나 이메일을 입력해 주세요.",
  "Please provide your email.": "이메일을 입력해 주세요.",
  "Please provide valid email address.": "이메일 주소 형식이 올바르지 않아요.",
  "Email is already taken.": "이미 가입된 이메일이에요.",
  "Please provide your username.": "아이디를 입력해 주세요.",
  "Username already taken": "이미 사용 중인 아이디예요.",
  "Please provide your password.": "비밀번호를 입력해 주세요.",
  "Your password cannot contain more than three times the symbol `$`.": "비밀번호에 $ 기호는 세 번까지만 쓸 수 있어요.",
  "Passwords do not match.": "비밀번호가 일치하지 않습니다.",
  "Your account has been blocked by an administrator": "관리자가 막아 둔 계정이에요.",
  "Too many attempts, please try again in a minute.": "시도가 너무 많아요. 1분쯤 뒤에 다시 해 주세요.",
  "Too many products with pictures were registered in the last hour; try again later.": "한 시간 동안 올릴 수 있는 상품 수를 넘었어요. 잠시 뒤에 다시 해 주세요.",
  "Too many sign-ups from this address, please try again later.": "이곳에서 가입이 너무 많았어요. 한 시간쯤 뒤에 다시 해 주세요.",
  "Too many vendors were created from this address in the last hour; try again later.": "이곳에서 만든 판매자가 너무 많아요. 한 시간쯤 뒤에 다시 해 주세요.",
  "Too many mails asked for, please try again later.": "메일을 너무 여러 번 요청했어요. 한 시간쯤 뒤에 다시 해 주세요.",
  "Incorrect code provided.": RESET_LINK,
  "Incorrect params provided.": "필요한 칸을 모두 채워 주세요.",
  "Your account email is not confirmed": "이메일 주소를 아직 확인하지 않았어요. 메일로 받은 확인 링크를 열어 주세요.",
  "Your username cannot contain control characters.": "아이디에 쓸 수 없는 문자가 들어 있어요.",
  "Your username cannot be an email address.": "아이디는 이메일 주소 모양일 수 없어요.",
  "Invalid token.": SIGNED_OUT,
  "Cross-site request refused: sign-in cookies work only on pages of this site.": CROSS_SITE,
  "Cross-site request refused: sign in on a page of this site.": CROSS_SITE,
  // Community (Strapi)
  "Forbidden": "권한이 없어요. 내가 쓴 글과 댓글만 고치거나 지울 수 있어요.",
  "Not Found": "찾는 글이나 댓글이 없어요. 이미 삭제되었을 수 있어요.",
  "Server Error": "서버에서 오류가 났어요. 잠시 뒤에 다시 해 주세요.",
  // Todos (Laravel)
  "Unauthenticated.": SIGNED_OUT,
  "할일을 찾을 수 없습니다.": "할 일을 찾을 수 없어요. 이미 삭제되었을 수 있어요.",
  "입력값이 올바르지 않습니다.": "입력한 내용을 확인해 주세요.",
  "제목(title)은 필수입니다.": "제목을 입력해 주세요.",
  "제목(title)에 쓸 수 없는 문자가 있습니다. (UTF-8이 아니거나 NUL 문자)": "제목에 쓸 수 없는 문자가 들어 있어요.",
  "제목(title)은 문자열이어야 합니다.": "제목은 글자로 써 주세요.",
  "완료 여부(is_done)는 true, false, 1, 0 중 하나여야 합니다.": "완료 여부를 알 수 없어요. 페이지를 새로 고친 뒤 다시 해 주세요.",
  "검색어(query)는 필수입니다.": "검색어를 입력해 주세요.",
  "검색어(query)에 쓸 수 없는 문자가 있습니다. (UTF-8이 아니거나 NUL 문자)": "검색어에 쓸 수 없는 문자가 들어 있어요.",
  // Open Market
  "A known vendor identifier is required in the identifier header.": "판매자 정보를 확인하지 못했어요. 판매자 화면에서 다시 확인해 주세요.",
  "The vendor secret is missing or wrong.": "판매자 암호가 없거나 맞지 않아요.",
  "This product belongs to another vendor.": "다른 판매자의 상품은 고치거나 지울 수 없어요.",
  "No product has this id.": "상품을 찾을 수 없어요. 삭제되었을 수 있어요.",
  "No image has this name.": "이미지를 찾을 수 없어요.",
  "The product secret is wrong.": "상품 암호가 맞지 않아요.",
  "Sign in to an account first.": "먼저 로그인해 주세요.",
  "This account is not a vendor yet.": "아직 판매자로 등록하지 않았어요.",
  "This account is already a vendor.": "이미 판매자로 등록했어요.",
  "This vendor name is taken.": "이미 쓰이는 판매자 이름이에요.",
  "currency is required (KRW or USD).": CURRENCY,
  "currency must be KRW or USD.": CURRENCY,
  "discounted_price may not be larger than price.": "할인 금액은 가격보다 클 수 없어요.",
  "name may not hold control characters.": "이름에 쓸 수 없는 문자가 들어 있어요.",
  "An image is neither a JPEG nor a PNG.": "JPEG나 PNG 이미지만 올릴 수 있어요.",
  "An image could not be decoded in full (truncated or corrupt).": "이미지 파일이 손상되어 읽을 수 없어요.",
  "At least one image is required.": "이미지를 한 장 이상 골라 주세요.",
  "The product is being changed without pause by other servers; try again.": "다른 곳에서 이 상품을 계속 고치고 있어요. 잠시 뒤에 다시 해 주세요.",
  "thumbnail_id must be the id of one of this product's images.": "대표 이미지는 이 상품의 이미지 중에서 골라 주세요.",
  "page_no is too large.": "더 불러올 상품이 없어요.",
  "search_value may be at most 200 characters long.": "검색어는 200자까지 쓸 수 있어요.",
  "The delete path is not one the archived lookup gave.": "상품을 삭제하지 못했어요. 페이지를 새로 고친 뒤 다시 해 주세요.",
  "The body must be multipart/form-data with a boundary.": UNREADABLE,
  "Only one params part may be sent.": UNREADABLE,
  "The params part is missing.": UNREADABLE,
  "The body is not valid multipart/form-data.": UNREADABLE,
  "The params part must be a JSON object.": UNREADABLE,
  "An image's file name may not hold a path.": "이미지 파일 이름에 경로를 쓸 수 없어요.",
  // Board (Mail Plug)
  "A valid Bearer token is required.": SIGNED_OUT,
  "No board has this id.": "게시판을 찾을 수 없어요.",
  "No post in this board has this id.": "게시글을 찾을 수 없어요. 삭제되었을 수 있어요.",
  "This board cannot be written in.": "이 게시판에는 글을 쓸 수 없어요.",
  "The API token can read boards but not write in them.": "이 방법으로는 게시판에 글을 쓸 수 없어요.",
  "Only the post's writer may change it.": "내가 쓴 글만 고치거나 지울 수 있어요.",
  "parentPostId must be a post of this board.": "답글을 달 글이 이 게시판에 없어요.",
  "parentPostId must be a post id.": "답글을 달 글이 없어요.",
  "searchTarget must be all, title, contents or writer.": "검색 범위를 다시 골라 주세요.",
  "search must be text.": "검색어는 글자로 써 주세요.",
  // Diary and weather
  "Sign in: the diary needs an account's Bearer token.": SIGNED_OUT,
  "No diary entry has this id.": ENTRY_GONE,
  "This account never had a diary entry with this id.": ENTRY_GONE,
  "Other writes to this entry kept overtaking this one; send it again.": "다른 곳에서 이 일기를 계속 저장하고 있어요. 다시 저장해 주세요.",
  "The entry changed since baseUpdatedAt (another device wrote it): fetch it, then decide again.": "다른 곳에서 이 일기를 고쳤어요. 최신 내용을 불러온 뒤 다시 해 주세요.",
  "The entry id must be a UUID.": "일기 주소가 올바르지 않아요.",
  "title must not be empty: it is the first line of the entry.": "첫 줄(제목)을 입력해 주세요.",
  "title is the first line: it cannot hold a line break.": "제목은 한 줄로 써 주세요.",
  "Weather is not available: this server has no OpenWeather API key (OPENWEATHER_API_KEY).": "이 서버에서는 날씨를 알 수 없어요.",
  "lat must be a number from -90 to 90 and lon one from -180 to 180.": "위치 정보가 올바르지 않아요.",
  // Reports (ReportError.swift): the 신고 dialog of every app
  "Sign in to report: a Bearer token or the web app's session.": "신고하려면 로그인해 주세요.",
  "There is no such item to report.": "신고할 내용을 찾을 수 없어요. 삭제되었거나 숨겨졌을 수 있어요.",
  "Too many reports from this account in the last hour; try again later.": "한 시간 동안 신고할 수 있는 횟수를 넘었어요. 잠시 뒤에 다시 해 주세요.",
  "reason must be 1 to 1000 characters.": "신고 이유는 1자 이상 1,000자 이하로 써 주세요.",
  "kind must be one of post, comment, product, board-post.": "신고할 수 없는 종류예요. 페이지를 새로 고친 뒤 다시 해 주세요.",
  // Any service: a body that could not be read
  "The request body is not valid JSON.": UNREADABLE,
  "The request body must be a JSON object.": UNREADABLE,
  "The request body is not valid multipart/form-data.": UNREADABLE,
};

// What the fields in the services' messages are called on the pages.
const FIELDS = {
  title: "제목", contents: "내용", content: "내용", text: "글", comment: "댓글", post: "글", name: "이름",
  description: "설명", descriptions: "설명", price: "가격", discounted_price: "할인 금액", stock: "재고 수량",
  currency: "통화", secret: "암호", search: "검색어", search_value: "검색어", query: "검색어",
  "weather.main": "날씨", "weather.description": "날씨 설명", "weather.icon": "날씨 아이콘", "weather.tempC": "기온",
  weather: "날씨", createdAt: "작성 시각", baseUpdatedAt: "저장 시각", body: "본문",
};

const unit = (bytes) => (bytes >= 1 << 20 ? `${Math.round(bytes / (1 << 20))}MB` : `${Math.round(bytes / 1024)}KB`);

// "2번째 이미지(photo.heic)는": the refused picture by its position and file name, with its particle.
const picture = (m) => `${m[1]}번째 이미지${m[2] ? `(${m[2]})` : ""}는`;

// [pattern, Korean]: the Korean is a function of the match; a field not in FIELDS makes it give up (undefined).
const PATTERNS = [
  [/^The request body is larger than the (.+) limit\.$/, (m) => `내용이 너무 커요. ${m[1].replace(/\s+/g, "")}까지 보낼 수 있어요.`],
  [/^The request body has more than \d+ fields\.$/, () => UNREADABLE],
  [/^The body has more than \d+ parts\.$/, () => UNREADABLE],
  [/^The weather service did not answer properly/, () => "날씨 서비스가 응답하지 않았어요. 잠시 뒤에 다시 해 주세요."],
  [/^Your username must be (\d+) to (\d+) characters long\.$/, (m) => `아이디는 ${m[1]}자 이상 ${m[2]}자 이하로 정해 주세요.`],
  [/^Your password must be at least (\d+) characters long\.$/, (m) => `비밀번호는 ${m[1]}자 이상이어야 해요.`],
  [/^Your password must be at most (\d+) bytes long\.$/, (m) => `비밀번호가 너무 길어요. 영문은 ${m[1]}자, 한글은 ${Math.floor(m[1] / 3)}자까지 쓸 수 있어요.`],
  [/^post \d+ does not exist\.$/, () => "글을 찾을 수 없어요. 삭제되었을 수 있어요."],
  [/^At most (\d+) images may be sent\.$/, (m) => `이미지는 ${m[1]}장까지 올릴 수 있어요.`],
  [/^An image of \d+×\d+ pixels is larger than (\d+) megapixels\.$/, (m) => `이미지가 너무 커요. ${m[1]}백만 화소까지 올릴 수 있어요.`],
  // The market names the picture it refuses: "image 3 (photo.heic) is …" (its position, and its file name).
  [/^image (\d+)(?: \((.+)\))? is neither a JPEG nor a PNG\.$/, (m) => `${picture(m)} JPEG나 PNG가 아니에요.`],
  [/^image (\d+)(?: \((.+)\))? could not be decoded in full/, (m) => `${picture(m)} 손상되어 읽을 수 없어요.`],
  [/^image (\d+)(?: \((.+)\))? is \d+×\d+ pixels, larger than (\d+) megapixels\.$/,
    (m) => `${picture(m)} 너무 커요. ${m[3]}백만 화소까지 올릴 수 있어요.`],
  [/^image (\d+)(?: \((.+)\))? is \d+×\d+ pixels, .+: too costly to decode\.$/,
    (m) => `${picture(m)} 풀어 보기에 너무 무거운 파일이에요. 다른 파일로 올려 주세요.`],
  [/^An image named or labelled (\w+) holds a (\w+)\.$/, (m) => `이미지 파일의 이름(${m[1]})과 실제 형식(${m[2]})이 달라요.`],
  [/^.+ is larger than (\d+) bytes\.$/, (m) => `파일이 너무 커요. ${unit(Number(m[1]))}까지 올릴 수 있어요.`],
  [/^제목\(title\)은 (\d+)자 이상이어야 합니다\.$/, (m) => `제목은 ${m[1]}자 이상이어야 해요.`],
  [/^제목\(title\)은 (\d+)자를 넘을 수 없습니다\.$/, (m) => `제목은 ${m[1]}자를 넘을 수 없어요.`],
  [/^\S+\((?:page|per_page)\)는 정수여야 합니다\.$/, () => "페이지 번호가 올바르지 않아요. 페이지를 새로 고친 뒤 다시 해 주세요."],
  [/^(.+) \(그 외 (\d+)개의 오류\)$/, (m) => { const first = translate(m[1]); return first && sentences(first, `그 밖에도 ${m[2]}가지를 확인해 주세요`); }],
  [/^([\w.]+) (?:is required|cannot be empty)\.$/, (m, f) => f && `${particle(f, "을/를")} 입력해 주세요.`],
  [/^([\w.]+) (?:may|can) be at most (\d+) characters long\.$/, (m, f) => f && `${particle(f, "은/는")} ${m[2]}자까지 쓸 수 있어요.`],
  [/^([\w.]+) must be (\d+) to (\d+) characters long\.$/, (m, f) => f && `${particle(f, "은/는")} ${m[2]}자 이상 ${m[3]}자 이하로 써 주세요.`],
  [/^([\w.]+) (?:must be UTF-8 text without NUL characters|cannot hold NUL characters)\.$/, (m, f) => f && `${f}에 쓸 수 없는 문자가 들어 있어요.`],
  [/^([\w.]+) must be text\.$/, (m, f) => f && `${particle(f, "은/는")} 글자로 써 주세요.`],
  [/^([\w.]+) must be a (?:whole )?number from (-?\d+) to (-?\d+)\.$/, (m, f) => f && `${particle(f, "은/는")} ${m[2]}부터 ${Number(m[3]).toLocaleString("ko-KR")}까지의 숫자로 써 주세요.`],
  [/^([\w.]+) must be a (?:whole )?number\.$/, (m, f) => f && `${particle(f, "은/는")} 숫자로 써 주세요.`],
  [/^([\w.]+) must be (?:an? |text of ).*$/, (m, f) => f && `${particle(f, "이/가")} 올바르지 않아요.`],
];

// Korean for one message of a service, or undefined when there is none.
export function translate(text) {
  if (typeof text !== "string") return undefined;
  const trimmed = text.trim();
  if (Object.hasOwn(TEXTS, trimmed)) return TEXTS[trimmed];
  for (const [pattern, korean] of PATTERNS) {
    const match = trimmed.match(pattern);
    if (!match) continue;
    const result = korean(match, match[1] && FIELDS[match[1]]);
    if (result) return result;
  }
  // A Korean sentence without Latin letters is already the visitor's language (the Todos API's own texts).
  if (/[가-힣]/.test(trimmed) && !/[A-Za-z]/.test(trimmed)) return trimmed;
  return undefined;
}

// Strapi's ids, for a text that has no entry of its own.
const STRAPI_IDS = {
  "Auth.form.error.invalid": "아이디(또는 이메일)나 비밀번호가 맞지 않아요.",
  "Auth.form.error.email.taken": "이미 가입된 이메일이에요.",
  "Auth.form.error.username.taken": "이미 사용 중인 아이디예요.",
  "Auth.form.error.email.format": "이메일 주소 형식이 올바르지 않아요.",
  "Auth.form.error.username.format": "아이디를 확인해 주세요. 3자 이상 50자 이하이고, 이메일 주소 모양은 안 돼요.",
  "Auth.form.error.password.format": "비밀번호를 확인해 주세요. 6자 이상이어야 해요.",
  "Auth.form.error.password.matching": "비밀번호가 일치하지 않습니다.",
  "Auth.form.error.blocked": "관리자가 막아 둔 계정이에요.",
  "Auth.form.error.ratelimit": "시도가 너무 많아요. 잠시 뒤에 다시 해 주세요.",
  "Auth.form.error.code.provide": RESET_LINK,
  "Auth.form.error.params.provide": "필요한 칸을 모두 채워 주세요.",
  "Auth.form.error.confirmed": "이메일 주소를 아직 확인하지 않았어요. 메일로 받은 확인 링크를 열어 주세요.",
  "Auth.form.error.email.provide": "필요한 칸을 모두 채워 주세요.",
  "Auth.form.error.username.provide": "필요한 칸을 모두 채워 주세요.",
  "Auth.form.error.password.provide": "필요한 칸을 모두 채워 주세요.",
};

// The last resort, by status: never the server's English.
function statusMessage(status) {
  if (status === 401) return SIGNED_OUT;
  if (status === 403) return "권한이 없어요.";
  if (status === 404) return "찾는 내용이 없어요. 이미 삭제되었을 수 있어요.";
  if (status === 409) return "다른 곳에서 먼저 바뀌었어요. 새로 고친 뒤 다시 해 주세요.";
  if (status === 413) return "내용이 너무 커요.";
  if (status === 422 || status === 400) return "입력한 내용을 확인해 주세요.";
  if (status === 429) return "요청이 너무 많아요. 잠시 뒤에 다시 해 주세요.";
  if (status === 502 || status === 503 || status === 504) return "지금은 서버가 응답하지 않아요. 잠시 뒤에 다시 해 주세요.";
  if (status >= 500) return "서버에서 오류가 났어요. 잠시 뒤에 다시 해 주세요.";
  return "요청을 처리하지 못했어요. 잠시 뒤에 다시 해 주세요.";
}

// The Korean for an error body: Strapi's `message` string or its form error `message[0].messages[0]` ({id,
// message}); Laravel's 422 `errors` (each field's messages, in Korean, one after another); Sprout's and Laravel's
// `{"message"}`. Korean alone — the APIs keep their contract texts, the page does not repeat them.
export function errorMessage(body, status) {
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
  if (body && body.errors && typeof body.errors === "object" && !Array.isArray(body.errors)) {
    // The top message's field first (Laravel names the first error there), then the others.
    const lead = typeof text === "string" ? text.replace(/ \(그 외 \d+개의 오류\)$/, "") : null;
    const all = Object.values(body.errors).flat().filter((item) => typeof item === "string");
    const ordered = all.includes(lead) ? [lead, ...all.filter((item) => item !== lead)] : all;
    const each = ordered.map(translate);
    if (each.length && each.every(Boolean)) return sentences(...new Set(each));
  }
  return translate(text) || (id && STRAPI_IDS[id]) || statusMessage(status);
}

// The Strapi id of an error body (`Auth.form.error.username.taken`), for forms that put it beside a field.
export function errorId(body) {
  const first = body && Array.isArray(body.message) && body.message[0] && Array.isArray(body.message[0].messages)
    ? body.message[0].messages[0] : null;
  return first && typeof first.id === "string" ? first.id : null;
}
