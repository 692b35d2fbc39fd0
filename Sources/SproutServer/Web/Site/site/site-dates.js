// Sprout web: dates as the pages show them. Pure (Tests/Web checks it with `node --test`).

const dateFormat = new Intl.DateTimeFormat("ko-KR", {
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: true,
});

export function formatDate(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return "";
  const parts = Object.fromEntries(dateFormat.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}/${parts.month}/${parts.day} ${parts.dayPeriod} ${parts.hour}:${parts.minute}`;
}
