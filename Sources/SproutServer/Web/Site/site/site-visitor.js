// Sprout web: the signed-in account, as the layout writes it on <body>, and the localStorage kept per account.

const body = document.body;
// The layout writes the signed-in account on <body>: data-user-id and data-username.
export const me = body.dataset.userId ? { id: Number(body.dataset.userId), username: body.dataset.username } : null;

// A localStorage key kept per account: `${name}@${id}` ("sprout.board.history@42"). Signing out removes every
// key ending in "@" + the account's id, so the next person on this browser sees none of it. Null when signed out.
export function accountKey(name) {
  return me ? `${name}@${me.id}` : null;
}

export function forgetAccountData(id) {
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
