// Sprout web: the not-found panel a page script draws for an item the API does not have.

// For a page whose address is well formed but whose item the API does not have (a post deleted meanwhile):
// the main area becomes the site's not-found panel, as the server's 404 page draws it. The status is the page's
// (200): the server could not know. `text` says what is missing.
export function notFound(text = "찾는 내용이 없어요. 주소가 잘못되었거나 삭제되었을 수 있어요.") {
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
