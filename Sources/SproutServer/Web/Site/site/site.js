// Sprout web: what every page shares, and `window.Sprout`, the helpers the page scripts use:
// - api(): JSON to and from this site, with every service's refusals made into Korean (errorMessage, errorId);
// - notify() / flashNext() / clearNotice(): one message at a time in the toast; confirmations fade after ~4 s,
//   errors stay until the next message (see "Messages" below);
// - particle() and sentences(): Korean particles after a word (“장보기”를) and sentences joined without doubled
//   punctuation;
// - forms whose submit button waits until every required field is filled, fieldError() for a field's own message;
// - notFound(): the not-found panel for an item the API does not have; endlessList(); formatDate();
// - me and accountKey(): the signed-in account (from <body data-user-id>) and per-account localStorage keys, which
//   signing out removes;
// plus the header: the phone menu, the log-out button (with its confirmation), sign-up links that come back.
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

  // ---- Korean particles ---------------------------------------------------------------------------------

  // The forms that follow a final consonant (받침) first; the other form follows a vowel.
  const AFTER_CONSONANT = new Set(["을", "이", "은", "과", "으로", "아", "이랑", "이나", "이며", "이에요", "이야", "이라고", "이라는"]);
  const DIGIT_FINALS = { 0: "ㅇ", 1: "ㄹ", 3: "ㅁ", 6: "ㄱ", 7: "ㄹ", 8: "ㄹ" }; // 영 일 삼 육 칠 팔 (10 십, 100 백…: 0 always has one)
  const LETTER_FINALS = { L: "ㄹ", M: "ㅁ", N: "ㄴ", R: "ㄹ" }; // 엘 엠 엔 알; the other letters' names end in a vowel

  // The final sound of `word`, as a Korean reader would say it: "ㄹ", another consonant (any non-empty string),
  // "" for a vowel, or null when there is nothing to read. Closing quotes, brackets, punctuation and spaces after the
  // word are skipped (“장보기”를). Hangul syllables by their 받침; digits by their Korean names (1 일, 3 삼, …; a
  // final 0 is 영/십/백/천/만, all with 받침); a capital letter, or a word of one letter, by the letter's English name
  // (L 엘, M 엠, N 엔, R 알 have 받침, the others not: "API를", "URL을"); a lowercase word by how it ends when said:
  // -l 을 (mail 메일), -m, -n, -ng with 받침 (team 팀, login 로그인, ping 핑), anything else as a vowel (note 노트).
  function finalSound(word) {
    const chars = [...String(word)];
    for (let i = chars.length - 1; i >= 0; i--) {
      const c = chars[i];
      const code = c.codePointAt(0);
      if (code >= 0xac00 && code <= 0xd7a3) {
        const jong = (code - 0xac00) % 28;
        return jong === 0 ? "" : jong === 8 ? "ㄹ" : "ㄱ";
      }
      if (code >= 0x3131 && code <= 0x314e) return c === "ㄹ" ? "ㄹ" : c; // a bare consonant (ㅋ)
      if (code >= 0x314f && code <= 0x3163) return ""; // a bare vowel
      if (/[0-9]/.test(c)) return DIGIT_FINALS[c] || "";
      if (/[A-Za-z]/.test(c)) {
        const letters = chars.slice(0, i + 1).join("").match(/[A-Za-z]+$/)[0];
        if (/[A-Z]/.test(c) || letters.length === 1) return LETTER_FINALS[c.toUpperCase()] || "";
        if (c === "l") return "ㄹ";
        if (c === "m" || c === "n" || letters.endsWith("ng")) return "ㄴ";
        return "";
      }
    }
    return null;
  }

  // `word` with the particle `pair` ("을/를", "이/가", "은/는", "과/와", "으로/로"; either order, or "을(를)")
  // fitted to how it ends: particle("장보기", "을/를") → "장보기를", particle("“할 일”", "이/가") → "“할 일”이".
  // 으로/로 takes 로 after a vowel and after ㄹ (서울로). Nothing readable (only symbols): both, as "을(를)".
  function particle(word, pair) {
    const forms = String(pair).split(/[/()]/).filter(Boolean);
    if (forms.length !== 2) throw new Error(`particle: "${pair}" is not a pair such as 을/를`);
    const [consonant, vowel] = AFTER_CONSONANT.has(forms[0]) ? forms : [forms[1], forms[0]];
    const sound = finalSound(word);
    if (sound === null) return `${word}${consonant}(${vowel})`;
    if (consonant === "으로") return word + (sound === "" || sound === "ㄹ" ? vowel : consonant);
    return word + (sound === "" ? vowel : consonant);
  }

  // Sentences joined with one space, each ending in a full stop unless it already ends in . ? ! or …
  // (sentences("게시물을 불러오지 못했어요", failure.message)); empty parts are left out. No doubled punctuation.
  function sentences(...parts) {
    return parts
      .map((part) => String(part ?? "").trim())
      .filter(Boolean)
      .map((part) => (/[.?!…]$/.test(part) ? part : `${part}.`).replace(/([.?!])\1+$/u, "$1"))
      .join(" ");
  }

  // ---- The servers' refusals, in Korean ------------------------------------------------------------------

  // The APIs answer in their contracts' words (mostly English; the Todos API's Laravel messages are Korean with the
  // field's English name). The page shows Korean only: a text below, a pattern, the Strapi id, the status, and
  // last of all a general sentence, so nothing English reaches the visitor. The APIs themselves are unchanged.
  const UNREADABLE = "보낸 내용을 서버가 읽지 못했어요. 페이지를 새로 고친 뒤 다시 해 주세요.";
  const SIGNED_OUT = "로그인이 끝났어요. 다시 로그인해 주세요.";
  const CROSS_SITE = "다른 사이트를 거친 요청은 받을 수 없어요. 이 사이트의 페이지에서 다시 해 주세요.";
  const ENTRY_GONE = "일기를 찾을 수 없어요. 삭제되었을 수 있어요.";
  const CURRENCY = "통화는 KRW나 USD 중에서 골라 주세요.";

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
  function translate(text) {
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
  function errorId(body) {
    const first = body && Array.isArray(body.message) && body.message[0] && Array.isArray(body.message[0].messages)
      ? body.message[0].messages[0] : null;
    return first && typeof first.id === "string" ? first.id : null;
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

  // ---- Messages: Sprout.notify --------------------------------------------------------------------------

  // One message at a time, in the toast at the bottom of the screen (#flash, a live region):
  //   Sprout.notify("“장보기”를 삭제했어요.")                  a confirmation: fades after about 4 s
  //   Sprout.notify("저장하지 못했어요. …", { kind: "error" })  a refusal: stays, with a close button
  //   Sprout.flashNext(text[, { kind }])                        the same, shown on the next page (after location.assign)
  //   Sprout.clearNotice()                                      takes down whatever is shown
  // Each message replaces the one before. A confirmation waits while the pointer or the focus is on it, then
  // fades; an error stays until the next message, its close button, or the next form sent with Sprout.onSubmit.
  const NOTICE_DURATION = 4000;
  const FADE = 400;
  const notice = { timer: 0, fadeTimer: 0, remaining: 0, started: 0, paused: false };

  function toastParts() {
    return { toast: document.getElementById("toast"), text: document.getElementById("flash") };
  }

  function stopTimers() {
    clearTimeout(notice.timer);
    clearTimeout(notice.fadeTimer);
    notice.timer = 0;
  }

  function clearNotice() {
    const { toast, text } = toastParts();
    if (!toast) return;
    stopTimers();
    toast.hidden = true;
    toast.classList.remove("is-fading");
    text.hidden = true;
    text.textContent = "";
    delete toast.dataset.kind;
  }

  function fadeOut() {
    const { toast } = toastParts();
    notice.timer = 0;
    toast.classList.add("is-fading");
    notice.fadeTimer = setTimeout(clearNotice, FADE);
  }

  function startCountdown(milliseconds) {
    notice.remaining = milliseconds;
    notice.started = Date.now();
    notice.timer = setTimeout(fadeOut, milliseconds);
  }

  function notify(message, { kind = "success" } = {}) {
    const { toast, text } = toastParts();
    if (!toast) return;
    stopTimers();
    notice.paused = false;
    if (!message) return clearNotice();
    const error = kind === "error";
    toast.classList.remove("is-fading");
    toast.dataset.kind = error ? "error" : "success";
    // Errors interrupt (alert); confirmations wait their turn (status).
    text.setAttribute("role", error ? "alert" : "status");
    toast.hidden = false;
    text.hidden = false;
    text.textContent = message;
    if (!error) startCountdown(NOTICE_DURATION);
  }

  function setUpToast() {
    const { toast } = toastParts();
    if (!toast) return;
    const pause = () => {
      if (!notice.timer) return;
      clearTimeout(notice.timer);
      notice.timer = 0;
      notice.remaining = Math.max(1000, notice.remaining - (Date.now() - notice.started));
      notice.paused = true;
    };
    const resume = () => {
      if (!notice.paused || toast.matches(":hover") || toast.contains(document.activeElement)) return;
      notice.paused = false;
      if (toast.dataset.kind === "success" && !toast.hidden) startCountdown(notice.remaining);
    };
    toast.addEventListener("pointerenter", pause);
    toast.addEventListener("focusin", pause);
    toast.addEventListener("pointerleave", resume);
    toast.addEventListener("focusout", () => setTimeout(resume));
    document.getElementById("toast-close").addEventListener("click", clearNotice);
  }

  // ---- One-time messages across a page change ("비밀번호를 바꿨어요.", then the feed) ----------------

  function flashNext(message, { kind = "success" } = {}) {
    try { sessionStorage.setItem(FLASH_KEY, JSON.stringify({ message, kind })); } catch { /* private mode: the message is only lost */ }
  }

  function showFlash() {
    let stored = null;
    try {
      stored = sessionStorage.getItem(FLASH_KEY);
      sessionStorage.removeItem(FLASH_KEY);
    } catch { return; }
    if (!stored) return;
    let flash;
    try { flash = JSON.parse(stored); } catch { flash = { message: stored }; }
    if (typeof flash === "string") flash = { message: flash };
    if (flash && flash.message) notify(flash.message, { kind: flash.kind });
  }

  // ---- A field's own message (sign-up, password change; any form may use it) ------------------------------

  // Shows `message` under `field` (in `#{field.id}-error`, made after the field's hint if missing) and marks the field
  // aria-invalid, or clears both when `message` is empty. The message is part of the field's description.
  function fieldError(field, message) {
    const id = `${field.id}-error`;
    let element = document.getElementById(id);
    if (!element && message) {
      element = document.createElement("p");
      element.id = id;
      element.className = "field-message";
      let anchor = field;
      const hint = field.nextElementSibling;
      if (hint && hint.classList.contains("hint")) anchor = hint;
      anchor.after(element);
    }
    const described = (field.getAttribute("aria-describedby") || "").split(/\s+/).filter((part) => part && part !== id);
    if (message) {
      element.textContent = message;
      element.hidden = false;
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", [...described, id].join(" "));
    } else {
      if (element) {
        element.textContent = "";
        element.hidden = true;
      }
      field.removeAttribute("aria-invalid");
      if (described.length) field.setAttribute("aria-describedby", described.join(" "));
      else field.removeAttribute("aria-describedby");
    }
  }

  // ---- "Not found", drawn by a page script -----------------------------------------------------------------

  // For a page whose address is well formed but whose item the API does not have (a post deleted meanwhile):
  // the main area becomes the site's not-found panel, as the server's 404 page draws it. The status is the page's
  // (200): the server could not know. `text` says what is missing.
  function notFound(text = "찾는 내용이 없어요. 주소가 잘못되었거나 삭제되었을 수 있어요.") {
    const main = document.getElementById("main");
    if (!main) return;
    const section = document.createElement("section");
    section.className = "error-page";
    section.id = "error-page";
    section.dataset.status = "404";
    section.setAttribute("aria-labelledby", "error-title");
    const code = Object.assign(document.createElement("p"), { className: "error-code", textContent: "오류 404" });
    const heading = Object.assign(document.createElement("h1"), { id: "error-title", textContent: "페이지를 찾을 수 없어요" });
    const lead = Object.assign(document.createElement("p"), { className: "lead", id: "error-explanation", textContent: text });
    const actions = Object.assign(document.createElement("p"), { className: "error-actions" });
    actions.append(Object.assign(document.createElement("a"), { className: "button", href: "/", id: "error-home", textContent: "홈으로" }));
    const app = document.querySelector('.site-nav a[aria-current="page"]');
    if (app) {
      actions.append(" ", Object.assign(document.createElement("a"), {
        className: "button button-quiet", href: app.getAttribute("href"), id: "error-app", textContent: `${app.textContent} 첫 화면`,
      }));
    }
    section.append(code, heading, lead, actions);
    main.replaceChildren(section);
    document.title = "페이지를 찾을 수 없어요 · Sprout";
    heading.tabIndex = -1;
    heading.focus();
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
      if (document.getElementById("toast")?.dataset.kind === "error") clearNotice();
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
  // The layout writes the signed-in account on <body>: data-user-id and data-username.
  const me = body.dataset.userId ? { id: Number(body.dataset.userId), username: body.dataset.username } : null;

  // A localStorage key kept per account: `${name}@${id}` ("sprout.board.history@42"). Signing out removes every
  // key ending in "@" + the account's id, so the next person on this browser sees none of it. Null when signed out.
  function accountKey(name) {
    return me ? `${name}@${me.id}` : null;
  }

  function forgetAccountData(id) {
    try {
      const suffix = `@${id}`;
      const keys = [];
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (key !== null && key.endsWith(suffix)) keys.push(key);
      }
      for (const key of keys) localStorage.removeItem(key);
    } catch { /* storage refused: there is nothing kept either */ }
  }

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
        // Back to the button, or to the menu button when the menu that held it has closed (phone).
        (button.offsetParent ? button : document.getElementById("menu-button") || button).focus();
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
      if (me) forgetAccountData(me.id);
      flashNext("로그아웃했어요.");
      // As the app did: back to the start page.
      location.assign("/");
    });
  }

  // ---- The header's menu (phones) ------------------------------------------------------------------------

  // Below 641 px the header is one row: the brand and a menu button that opens the apps and the account links.
  // The button says whether it is open (aria-expanded); Escape closes it and puts the focus back on the button, as
  // do a click elsewhere, the focus leaving the header, and a window that grows wide enough to show everything.
  function setUpMenu() {
    const button = document.getElementById("menu-button");
    const header = button && button.closest(".site-header");
    if (!header) return;
    const label = button.querySelector(".visually-hidden");
    const isOpen = () => button.getAttribute("aria-expanded") === "true";
    const setOpen = (open) => {
      button.setAttribute("aria-expanded", String(open));
      header.classList.toggle("is-menu-open", open);
      label.textContent = open ? "메뉴 닫기" : "메뉴";
    };
    button.addEventListener("click", () => setOpen(!isOpen()));
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !isOpen() || document.querySelector("dialog[open]")) return;
      setOpen(false);
      button.focus();
    });
    document.addEventListener("click", (event) => {
      if (isOpen() && !header.contains(event.target)) setOpen(false);
    });
    header.addEventListener("focusout", (event) => {
      if (isOpen() && event.relatedTarget && !header.contains(event.relatedTarget)) setOpen(false);
    });
    document.getElementById("logout-button")?.addEventListener("click", () => setOpen(false));
    matchMedia("(min-width: 641px)").addEventListener("change", (query) => { if (query.matches) setOpen(false); });
  }

  // ---- Sign-up links come back --------------------------------------------------------------------------

  // Every link to the sign-up page carries `next`: the log-in or sign-up page's own `next`, else this page. The
  // server writes it where it renders the link; this covers the rest (the log-in prompts of every app).
  function carryNextToSignUp() {
    const form = document.querySelector("#login-form, #signup-form");
    const next = (form && form.dataset.next) || location.pathname + location.search;
    for (const link of document.querySelectorAll('a[href^="/account/signup"]')) {
      const url = new URL(link.getAttribute("href"), location.origin);
      if (url.searchParams.has("next")) continue;
      // Encoded as the server writes it: slashes stay readable.
      const query = url.search ? `${url.search}&` : "?";
      link.setAttribute("href", `${url.pathname}${query}next=${encodeURIComponent(next).replace(/%2F/g, "/")}`);
    }
  }

  window.Sprout = {
    api, ApiError, errorMessage, errorId, formatDate, flashNext, notify, clearNotice, watchForm, refreshForm, setBusy,
    showError, fieldError, onSubmit, endlessList, notFound, particle, sentences, accountKey, me,
  };

  setUpToast();
  setUpMenu();
  setUpLogout();
  carryNextToSignUp();
  showFlash();
  for (const form of document.querySelectorAll("form[novalidate]")) {
    if (form.querySelector("[required]")) watchForm(form);
  }
})();
