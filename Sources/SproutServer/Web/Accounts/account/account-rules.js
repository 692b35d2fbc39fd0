// Sprout web, Accounts: the server's rules for sign-up and the password change (Accounts/AccountInput.swift), in
// the page. Each rule takes a field (anything with a `value`) and gives its message, or "" when it passes. Pure
// (Tests/Web checks them with `node --test`); account.js runs them as fields are left and on submit.

const graphemes = (text) => [...new Intl.Segmenter("ko", { granularity: "grapheme" }).segment(text)].length;
const utf8Length = (text) => new TextEncoder().encode(text).length;
// A field's text without the spaces around it, as the server trims it.
export const trimmed = (field) => field.value.replace(/^\s+|\s+$/gu, "");

// AccountInput.isEmailAddress: one @; dot-separated non-empty local parts without spaces or <>()[]\,;:"@; a domain
// of two or more labels of ASCII letters, digits and hyphens, ending in two or more letters.
export function isEmailAddress(text) {
  const parts = text.split("@");
  if (parts.length !== 2) return false;
  const atoms = parts[0].split(".");
  if (!atoms.every((atom) => atom.length > 0 && !/[<>()[\]\\,;:"@\s]/u.test(atom))) return false;
  const labels = parts[1].split(".");
  const top = labels[labels.length - 1];
  return labels.length >= 2 && /^[A-Za-z]{2,}$/.test(top) && labels.every((label) => /^[A-Za-z0-9-]+$/.test(label));
}

export const rules = {
  username(field) {
    const value = trimmed(field);
    if (!value) return "아이디를 입력해 주세요.";
    const length = graphemes(value);
    if (length < 3 || length > 50) return `아이디는 3자 이상 50자 이하로 정해 주세요. 지금 ${length}자예요.`;
    if (/\p{Cc}/u.test(value)) return "아이디에 쓸 수 없는 문자가 들어 있어요.";
    if (isEmailAddress(value)) return "아이디는 이메일 주소 모양일 수 없어요. 이메일은 아래 칸에 적어 주세요.";
    return "";
  },
  email(field) {
    const value = trimmed(field);
    if (!value) return "이메일을 입력해 주세요.";
    if (graphemes(value) > 254 || !isEmailAddress(value)) return "이메일 주소 형식이 올바르지 않아요. 예: name@example.com";
    return "";
  },
  newPassword(field) {
    const value = field.value;
    if (!value) return "비밀번호를 입력해 주세요.";
    const bytes = utf8Length(value);
    if (bytes < 6) return "비밀번호는 6자 이상이어야 해요.";
    if (bytes > 72) return "비밀번호가 너무 길어요. 영문은 72자, 한글은 24자까지 쓸 수 있어요.";
    if ((value.match(/\$/g) || []).length > 3) return "비밀번호에 $ 기호는 세 번까지만 쓸 수 있어요.";
    return "";
  },
  currentPassword(field) {
    return field.value ? "" : "현재 비밀번호를 입력해 주세요.";
  },
  confirmation(password) {
    return (field) => {
      if (!field.value) return "비밀번호를 한 번 더 입력해 주세요.";
      return field.value === password.value ? "" : "비밀번호가 일치하지 않습니다.";
    };
  },
};
