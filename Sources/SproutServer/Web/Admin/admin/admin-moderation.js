// The console's moderation pages work as plain forms; this module only adds what needs script: "select all on this
// page" (hidden without script) with a count of the chosen items, and, while a form's POST runs, its buttons
// disabled and the pressed one saying "처리 중…" (a bulk action of many items takes a moment, and a second press
// would only ask again).

const bulk = document.getElementById('moderation-bulk');
const boxes = () => [...document.querySelectorAll('input[name="id"][form="moderation-bulk"]')];
const all = document.getElementById('select-all');
const count = document.getElementById('selected-count');

function showCount() {
  const chosen = boxes().filter((box) => box.checked).length;
  if (count) count.textContent = chosen > 0 ? `${chosen}개 고름` : '';
  if (all) all.checked = chosen > 0 && chosen === boxes().length;
}

if (bulk && all) {
  all.closest('label').hidden = false;
  all.addEventListener('change', () => {
    for (const box of boxes()) box.checked = all.checked;
    showCount();
  });
  for (const box of boxes()) box.addEventListener('change', showCount);
  showCount();
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-moderation-form')) return;
  if (form.getAttribute('aria-busy') === 'true') {
    event.preventDefault();
    return;
  }
  form.setAttribute('aria-busy', 'true');
  const pressed = event.submitter;
  // After this task: the browser has taken the pressed button's formaction by then.
  setTimeout(() => {
    for (const button of form.querySelectorAll('button')) button.disabled = true;
    if (pressed) {
      pressed.dataset.label = pressed.textContent;
      pressed.textContent = '처리 중…';
    }
  });
});

// Coming back with the browser's back button shows the page as it was left: usable again.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const form of document.querySelectorAll('form[aria-busy="true"]')) {
    form.removeAttribute('aria-busy');
    for (const button of form.querySelectorAll('button')) {
      button.disabled = false;
      if (button.dataset.label) button.textContent = button.dataset.label;
    }
  }
});
