// Sprout web: the rules of a report's reason, as the server checks them (ReportsController.swift), and what the
// report dialog says about them. Pure (Tests/Web checks them with `node --test`); site-report.js draws the dialog.

// At most this many characters (Reports.reasonLength).
export const REASON_MAX = 1000;

// The server trims white space and newlines (Unicode White_Space, not quite JavaScript's \s) and counts what is
// left as Swift counts a String: grapheme clusters, what a reader sees as one character ("👩‍👩‍👧‍👦" is one).
const graphemes = typeof Intl.Segmenter === "function" ? new Intl.Segmenter("ko", { granularity: "grapheme" }) : null;
const trimmed = (text) => String(text).replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");

export function reasonLength(text) {
  const reason = trimmed(text);
  if (!graphemes) return [...reason].length;
  let count = 0;
  for (const _ of graphemes.segment(reason)) count += 1;
  return count;
}

// What the dialog shows for a reason as typed: the counter ("12/1,000"), a message when it is too long (an empty
// reason says nothing: the button just waits), and whether it may be sent.
export function reasonState(text) {
  const length = reasonLength(text);
  const format = (n) => n.toLocaleString("ko-KR");
  const over = length > REASON_MAX;
  return {
    length,
    counter: `${format(length)}/${format(REASON_MAX)}`,
    over,
    message: over ? `${format(REASON_MAX)}자까지 쓸 수 있어요. ${format(length - REASON_MAX)}자를 줄여 주세요.` : "",
    sendable: length > 0 && !over,
  };
}

// The body of `POST /api/reports` for an item: the kinds the server knows, and the reason trimmed as it keeps it.
export const REPORT_KINDS = ["post", "comment", "product", "board-post"];
export function reportBody(kind, id, text) {
  if (!REPORT_KINDS.includes(kind)) throw new TypeError(`no such report kind: ${kind}`);
  return { kind, id: Number(id), reason: trimmed(text) };
}

// What the dialog's heading names, by kind.
export const REPORT_TITLES = {
  post: "게시물 신고", comment: "댓글 신고", product: "상품 신고", "board-post": "게시글 신고",
};
