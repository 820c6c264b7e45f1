// The phone as the night's second copy (taps the server recorded are kept until a later round
// and sent again to a server that lost them), a reload that keeps every tap, and the turn the
// page moves on by itself while taps wait to send.
"use strict";

const {test} = require("node:test");
const assert = require("node:assert/strict");
const {phone, outbox, settle} = require("./fakes.js");

// Two rolls recorded at positions 5 and 6; the screen shows the table at 7.
function twoRecorded() {
  const p = phone();
  p.connect();
  p.tap("hit1");
  p.ack({ok: true, recorded: 41});
  p.clock.advance(1000);
  p.tap("miss");
  p.ack({ok: true, recorded: 42});
  p.show({pos: 7});
  const keys = p.hub.taps().map((m) => m.fields.key);
  return {p, keys};
}

test("a recorded tap is kept, with its key, position and roller, until a later round shows", () => {
  const {p, keys} = twoRecorded();
  assert.deepEqual(p.box.kept().map((x) => [x.fields.key, x.fields.pos, x.who]),
                   [[keys[0], "5", "Ava"], [keys[1], "6", "Ava"]]);
  p.show({pos: 9});
  assert.equal(p.box.kept().length, 2, "the same round: still kept");
  p.show({round: "2", pos: 0});
  assert.deepEqual(p.box.kept(), []);
});

test("a server that lost recorded taps gets them again on reconnect, first and with their keys", () => {
  const {p, keys} = twoRecorded();
  p.drop();
  p.connect();
  // The socket's first snapshot: the night opened again from an older copy, table at 5.
  p.show({pos: 5});
  const again = p.hub.taps().slice(2);
  assert.deepEqual(again.map((m) => [m.fields.key, m.fields.pos]), [[keys[0], "5"]]);
  p.ack({ok: true, recorded: 41});
  assert.deepEqual(p.hub.taps().slice(3).map((m) => [m.fields.key, m.fields.pos]), [[keys[1], "6"]]);
  p.ack({ok: true, recorded: 42});
  assert.deepEqual(p.box.queued(), []);
  assert.equal(p.box.kept().length, 2, "recorded again: kept again");
});

test("a server that has the recorded taps gets nothing again on reconnect", () => {
  const {p} = twoRecorded();
  p.drop();
  p.connect();
  p.show({pos: 7});
  assert.equal(p.hub.taps().length, 2);
  // Only the snapshot that follows the opening is looked at: a later screen of a table behind
  // (a take-back by the host) sends nothing again.
  p.show({pos: 5});
  assert.equal(p.hub.taps().length, 2);
});

test("a tap refused because the table is behind the kept ones goes after them", () => {
  const {p, keys} = twoRecorded();
  p.clock.advance(1000);
  p.tap("hit2");
  const key = p.hub.taps()[2].fields.key;
  assert.equal(p.hub.taps()[2].fields.pos, "7");
  p.ack({status: 409, ok: false, refused: true, error: "this screen is ahead of the table",
         at: {set: 1, round: 1, table: 2, pos: 5}});
  assert.deepEqual(p.box.refused(), []);
  assert.deepEqual(p.box.queued().map((x) => [x.fields.key, x.fields.pos]),
                   [[keys[0], "5"], [keys[1], "6"], [key, "7"]]);
  p.ack({ok: true, recorded: 41});
  p.ack({ok: true, recorded: 42});
  p.ack({ok: true, recorded: 43});
  assert.deepEqual(p.hub.taps().slice(3).map((m) => m.fields.key), [keys[0], keys[1], key]);
  assert.deepEqual(p.box.queued(), []);
});

test("a reload keeps every waiting tap and sends it with the same key", async () => {
  const p = phone();
  p.tap("hit1");
  p.tap("miss");
  const keys = p.box.queued().map((x) => x.fields.key);
  // The battery dies before any answer; the page loads again on the same phone.
  const again = phone({storage: p.storage});
  assert.deepEqual(again.posts.map((x) => x.fields.key), [keys[0]]);
  again.posts[0].resolve({status: 200, text: JSON.stringify({ok: true, recorded: 41})});
  await settle();
  assert.deepEqual(again.posts.map((x) => [x.fields.key, x.fields.pos]), [[keys[0], "5"], [keys[1], "6"]]);
});

test("a page that loads showing a table behind its recorded taps sends them again", () => {
  const {p, keys} = twoRecorded();
  const again = phone({storage: p.storage, table: {set: "1", round: "1", table: "2", pos: 6}});
  assert.deepEqual(again.posts.map((x) => [x.fields.key, x.fields.pos]), [[keys[1], "6"]]);
});

test("the turn moves on by itself past the rolls waiting to send", () => {
  const p = phone();
  p.tap("miss");
  p.posts[0].reject(new TypeError("Failed to fetch"));  // offline: they wait
  p.tap("hit1");
  p.tap("hit3");
  const order = ["Ava", "Ben", "Cy", "Dee"];
  const waiting = p.box.waitingAt({set: "1", round: "1", table: "2", pos: "5"});
  const after = outbox.turnAfter(waiting, order, []);
  assert.deepEqual(after.rows.map((r) => [r.item.fields.quick, r.who]), [["miss", "Ava"], ["hit1", "Ben"], ["hit3", "Cy"]]);
  assert.deepEqual([after.known, after.next], [true, "Dee"]);
  // Once the first is recorded and drawn, only the others wait.
  assert.equal(p.box.waitingAt({set: "1", round: "1", table: "2", pos: "6"}).length, 2);
  assert.equal(p.box.waitingAt({set: "1", round: "2", table: "2", pos: "0"}).length, 0);
});

test("a roll that keeps the turn does not move it on; the order wraps round", () => {
  const roll = (fields) => ({url: "http://x/t/abc/roll/", fields});
  const after = outbox.turnAfter(
    [roll({quick: "hit1"}), roll({dice: "4,1,4"}), roll({quick: "miss"}), roll({quick: "miss"})],
    ["Ava", "Ben"], ["hit1", "144"]);
  assert.deepEqual(after.rows.map((r) => r.who), ["Ava", "Ava", "Ava", "Ben"]);
  assert.equal(after.next, "Ava");
});

test("past an undo or a finish waiting to send, nobody can say who rolls", () => {
  const tap = (action) => ({url: `http://x/t/abc/${action}/`, fields: {quick: "miss"}});
  const after = outbox.turnAfter([tap("roll"), tap("undo"), tap("roll")], ["Ava", "Ben"], []);
  assert.deepEqual(after.rows.map((r) => [r.action, r.who]), [["roll", "Ava"], ["undo", ""], ["roll", ""]]);
  assert.equal(after.known, false);
  assert.equal(outbox.turnAfter([tap("roll")], null, []).known, false, "no turn order: not known");
});

test("a recorded tap that is also still in line (two tabs of one page) is sent once", () => {
  const {p, keys} = twoRecorded();
  const path = "bunco-outbox:/t/abc/";
  const [first] = p.box.kept();
  p.storage.setItem(path, JSON.stringify([{url: first.url, fields: first.fields, who: "Ava"}]));
  const again = phone({storage: p.storage, table: {set: "1", round: "1", table: "2", pos: 5}});
  assert.deepEqual(again.box.queued().map((x) => x.fields.key).sort(), [...keys].sort());
});
