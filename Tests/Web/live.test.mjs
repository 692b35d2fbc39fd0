// The live updates' pure part (site-live-rules.js): reading the stream's data, applying events to a list, and the
// "새 글 N개" count, as docs/events.md describes the stream.
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyToRows, listChange, parseEvent, pendingLabel, PendingRows, streamWanted } from "sprout-web/site-live-rules.js";

const event = (action, id, extra = {}) =>
  parseEvent(JSON.stringify({ topic: "community", seq: 1, action, id, parentId: null, ...extra }));

test("an event's data: action split into kind and change, ids as strings, item only when an object", () => {
  const parsed = parseEvent('{"topic":"board:3","seq":13,"action":"board-post.created","id":"13","parentId":null,"item":{"postId":13}}');
  assert.deepEqual(parsed, {
    topic: "board:3", seq: 13, action: "board-post.created", kind: "board-post", change: "created", id: "13",
    parentId: null, item: { postId: 13 },
  });
  const comment = parseEvent('{"topic":"community","seq":2,"action":"comment.deleted","id":7,"parentId":"4"}');
  assert.equal(comment.id, "7", "a number id is read as a string");
  assert.equal(comment.parentId, "4");
  assert.equal(comment.item, null, "no item: ids only");
  assert.equal(parseEvent("not json"), null);
  assert.equal(parseEvent('{"topic":"todos"}'), null, "no action");
  assert.equal(parseEvent('{"topic":"todos","action":"created"}'), null, "an action without a kind");
});

test("what an event does to a list: deleted removes, created inserts, an update for a row not held inserts it if it belongs", () => {
  assert.equal(listChange(event("post.deleted", "1"), true), "remove");
  assert.equal(listChange(event("post.deleted", "1"), false), "ignore");
  assert.equal(listChange(event("post.created", "1"), false), "insert");
  assert.equal(listChange(event("post.created", "1"), true), "replace", "our own create, already shown");
  assert.equal(listChange(event("post.updated", "1"), true), "replace");
  assert.equal(listChange(event("post.updated", "1"), false, true), "insert", "restored by a moderator");
  assert.equal(listChange(event("post.updated", "1"), false, false), "ignore", "not in what is shown");
});

test("applied to rows, newest first", () => {
  const idOf = (row) => row.id;
  const rows = [{ id: 2, text: "둘" }, { id: 1, text: "하나" }];
  assert.deepEqual(applyToRows(rows, event("post.created", "3"), { id: 3, text: "셋" }, idOf).map(idOf), [3, 2, 1]);
  assert.deepEqual(applyToRows(rows, event("post.updated", "1"), { id: 1, text: "고침" }, idOf)[1].text, "고침");
  assert.deepEqual(applyToRows(rows, event("post.deleted", "2"), null, idOf).map(idOf), [1]);
  assert.equal(applyToRows(rows, event("post.created", "4"), null, idOf), rows, "no row to insert: unchanged");
});

test("the new-posts count: others' creates, once each, less what was deleted before the tap", () => {
  const pending = new PendingRows();
  assert.equal(pending.note(event("post.created", "5")), 1);
  assert.equal(pending.note(event("post.created", "5")), 1, "the same post twice (a reconnect) counts once");
  assert.equal(pending.note(event("post.created", "6"), { mine: true }), 1, "the visitor's own post is not counted");
  assert.equal(pending.note(event("post.created", "7"), { shown: true }), 1, "one the list shows already");
  assert.equal(pending.note(event("post.updated", "8")), 1, "an edit is not new");
  assert.equal(pending.note(event("post.created", "9")), 2);
  assert.equal(pending.note(event("post.deleted", "5")), 1);
  assert.deepEqual(pending.take(), ["9"]);
  assert.equal(pending.count, 0);
});

test("the button's words", () => {
  assert.equal(pendingLabel(0), "");
  assert.equal(pendingLabel(1), "새 글 1개");
  assert.equal(pendingLabel(1200, "상품"), "새 상품 1,200개");
});

test("a page holds its stream while it has topics, is online, and has not been hidden past the grace", () => {
  const page = { topics: ["todos"], online: true, hidden: false, graceMs: 10000 };
  assert.equal(streamWanted(page), true);
  assert.equal(streamWanted({ ...page, topics: [] }), false, "nothing to follow");
  assert.equal(streamWanted({ ...page, online: false }), false, "offline: EventSource would only fail again and again");
  assert.equal(streamWanted({ ...page, hidden: true, hiddenFor: 2000 }), true, "a glance at another tab keeps it");
  assert.equal(streamWanted({ ...page, hidden: true, hiddenFor: 10000 }), false, "a tab left in the background lets it go");
  assert.equal(streamWanted({ ...page, hidden: true, hiddenFor: 0, graceMs: 0 }), false);
});
