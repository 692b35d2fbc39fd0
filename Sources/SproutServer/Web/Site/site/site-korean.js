// Sprout web: Korean particles fitted to the word before them (“장보기”를) and sentences joined without doubled
// punctuation. Pure functions: the page scripts use them, and Tests/Web checks them with `node --test`.

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
export function finalSound(word) {
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
export function particle(word, pair) {
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
export function sentences(...parts) {
  return parts
    .map((part) => String(part ?? "").trim())
    .filter(Boolean)
    .map((part) => (/[.?!…]$/.test(part) ? part : `${part}.`).replace(/([.?!])\1+$/u, "$1"))
    .join(" ");
}
