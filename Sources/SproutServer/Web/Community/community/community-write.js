// Sprout web, Community: writing and editing a post (one screen, as the app shared it).

import { api } from "./site-api.js";
import { onSubmit, setBusy, showError } from "./site-forms.js";
import { notFound } from "./site-not-found.js";
import { flashNext } from "./site-toast.js";
import { $, guardLength, isMine, logInAgain, POST_GONE, sendWithKeys, sessionEnded } from "./community-common.js";

export function setUpWrite() {
  const form = $("post-form");
  const text = $("post-text-input");
  const error = $("form-error");
  const editing = form.dataset.postId ? Number(form.dataset.postId) : null;
  const checkLength = guardLength(form, text);
  sendWithKeys(form, text, $("post-keys"));

  async function loadForEditing() {
    setBusy(form, true);
    try {
      const post = await api("GET", `/posts/${editing}`);
      if (!isMine(post)) {
        showError(error, "내 글만 고칠 수 있어요.");
        text.disabled = true;
        return;
      }
      text.value = post.text;
      setBusy(form, false);
      checkLength();
    } catch (failure) {
      if (sessionEnded(failure)) return logInAgain();
      if (failure.status === 404) return notFound(POST_GONE);
      showError(error, `게시물을 불러오지 못했어요. ${failure.message}`);
      text.disabled = true;
    }
  }

  onSubmit(form, error, async () => {
    const post = editing === null
      ? await api("POST", "/posts", { text: text.value })
      : await api("PUT", `/posts/${editing}`, { text: text.value });
    flashNext(editing === null ? "글을 올렸어요." : "글을 고쳤어요.");
    location.assign(`/community/posts/${post.id}`);
  }, `${editing === null ? "글을 올리지" : "글을 고치지"} 못했어요. `);

  if (editing !== null) loadForEditing();
}
