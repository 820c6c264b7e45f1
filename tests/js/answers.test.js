// Which answers end a tap and which keep it to send again with the same key (docs/protocol.md,
// "Answers: which ones end a tap"): the outbox on its own, with a fake socket, form post and
// clock.
"use strict";

const {test} = require("node:test");
const assert = require("node:assert/strict");
const {phone, outbox, settle} = require("./fakes.js");

const MOVED_ON = "table 2 had moved on: another entry was made there first";

// The tap is still first in line, says why it waits, and is not sent again before its wait.
function assertKept(p, key, why) {
  const [first] = p.box.queued();
  assert.equal(first.fields.key, key);
  assert.equal(first.why, why);
  assert.deepEqual(p.box.refused(), []);
}

const KEEPING = [
  ["a busy laptop (503, cannot save)", {status: 503, ok: false, retry: true, disk: true,
    error: "The laptop cannot save right now: your rolls are kept"}],
  ["slow down (429)", {status: 429, ok: false, retry: true, error: "Slow down: one tap at a time"}],
  ["a server error (500)", {status: 500, ok: false, error: "Server error"}],
  ["a laptop that does not know the night yet (404, unknown)", {status: 404, ok: false,
    retry: true, unknown: true, error: "The laptop does not know this night yet: your rolls are kept"}],
];
for (const [name, answer] of KEEPING) {
  test(`${name} keeps the tap and sends it again with the same key`, () => {
    const p = phone();
    p.connect();
    p.tap("hit1");
    const key = p.hub.taps()[0].fields.key;
    p.ack(answer);
    assertKept(p, key, answer.error);
    assert.deepEqual(p.hub.toasts, [answer.error]);
    p.clock.advance(499);
    assert.equal(p.hub.taps().length, 1);
    p.clock.advance(1);
    assert.deepEqual(p.hub.taps().map((m) => [m.fields.key, m.fields.pos]), [[key, "5"], [key, "5"]]);
    p.ack({ok: true, recorded: 41});
    assert.deepEqual(p.box.queued(), []);
  });
}

test("a kept tap waits a little longer each time, 0.5 s doubling to 8 s", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  const waits = [];
  for (let i = 0; i < 7; i++) {
    p.ack({status: 503, ok: false, retry: true, error: "busy"});
    const sent = p.hub.taps().length;
    let waited = 0;
    while (p.hub.taps().length === sent && waited < 60000) { p.clock.advance(100); waited += 100; }
    waits.push(waited);
  }
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
  assert.equal(p.box.queued()[0].tries, 7);
  assert.equal(p.hub.toasts.length, 1, "the reason is said once, not at every try");
});

test("no answer in 5 s sends the tap again with the same key", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  const key = p.hub.taps()[0].fields.key;
  p.clock.advance(4999);
  assert.deepEqual(p.box.queued()[0].why, undefined);
  p.clock.advance(1);
  assertKept(p, key, "No answer from the app yet: sending it again");
  p.clock.advance(500);
  assert.deepEqual(p.hub.taps().map((m) => m.fields.key), [key, key]);
  // Its answer (to either sending: the key is the same) ends it, and nothing is left to send.
  p.ack({ok: true, recorded: 41});
  assert.deepEqual(p.box.queued(), []);
  assert.equal(p.clock.pending(), 0, "no timer left to send it again");
});

test("a dropped socket keeps the tap; it goes as a form post with the same key", async () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  const key = p.hub.taps()[0].fields.key;
  p.drop();
  assertKept(p, key, "Reconnecting: your tap is kept and will be sent");
  p.clock.advance(500);
  assert.equal(p.posts.length, 1);
  assert.equal(p.posts[0].url, "http://laptop.local:8000/t/abc/roll/");
  assert.deepEqual([p.posts[0].fields.key, p.posts[0].fields.pos], [key, "5"]);
  p.posts[0].resolve({status: 200, text: JSON.stringify({ok: true, recorded: 41, html: "<div id=t></div>"})});
  await settle();
  assert.deepEqual(p.box.queued(), []);
  assert.deepEqual(p.hub.replaced, ["<div id=t></div>"]);
});

test("no network and a proxy's error page keep the tap for the next form post", async () => {
  const p = phone();
  p.tap("hit1");
  const key = p.posts[0].fields.key;
  p.posts[0].reject(new TypeError("Failed to fetch"));
  await settle();
  assertKept(p, key, "Not connected: your tap is kept and will be sent");
  p.clock.advance(500);
  p.posts[1].resolve({status: 502, text: "<html><h1>502 Bad Gateway</h1></html>"});
  await settle();
  assertKept(p, key, "The app had a problem (error 502); your tap is kept and will be sent again");
  p.clock.advance(1000);
  assert.deepEqual(p.posts.map((x) => x.fields.key), [key, key, key]);
});

test("a socket that opens sends a kept tap at once", () => {
  const p = phone();
  p.tap("hit1");
  const key = p.posts[0].fields.key;
  p.posts[0].reject(new TypeError("Failed to fetch"));
  return settle().then(() => {
    p.connect();
    assert.deepEqual(p.hub.taps().map((m) => m.fields.key), [key]);
  });
});

test("recorded and already recorded each end the tap", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  p.clock.advance(1000);
  p.tap("miss");
  p.ack({ok: true, recorded: 41});
  assert.equal(p.hub.syncs, 0);
  p.ack({ok: true, recorded: 42, message: "Already recorded"});
  assert.deepEqual(p.box.queued(), []);
  assert.equal(p.hub.syncs, 1, "recorded before: the push this screen missed is asked for");
  assert.deepEqual(p.box.refused(), []);
  assert.equal(p.clock.pending(), 0);
});

test("a refusal of the game ends the tap under Not counted, with its reason", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  const key = p.hub.taps()[0].fields.key;
  p.ack({status: 409, ok: false, refused: true, error: MOVED_ON,
         at: {set: 1, round: 1, table: 2, pos: 6}});
  assert.deepEqual(p.box.queued(), []);
  const [r] = p.box.refused();
  assert.deepEqual([r.key, r.what, r.who, r.error, r.at, r.same], [key, "hit1", "Ava", MOVED_ON, 6, false]);
  assert.equal(p.hub.syncs, 1, "the night moved on: the screen catches up");
  p.clock.advance(60000);
  assert.equal(p.hub.taps().length, 1, "never sent again");
});

test("an error page the app could not take (a CSRF 403) is Not counted, with its status", async () => {
  const p = phone();
  p.tap("hit1");
  p.posts[0].resolve({status: 403, text: "<h1>Forbidden</h1>"});
  await settle();
  assert.deepEqual(p.box.queued(), []);
  assert.equal(p.box.refused()[0].error, "The app could not take that tap (error 403); it was not counted");
});

test("taps chained behind a refused one move up when it took no position", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  p.tap("miss");
  p.tap("hit2");
  p.ack({status: 409, ok: false, refused: true, error: "bad dice", at: {set: 1, round: 1, table: 2, pos: 5}});
  assert.deepEqual(p.box.queued().map((x) => [x.fields.quick, x.fields.pos]), [["miss", "5"], ["hit2", "6"]]);
  assert.equal(p.hub.taps().at(-1).fields.pos, "5");
});

test("taps chained behind one refused because another entry took its place stay as named", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  p.tap("miss");
  p.ack({status: 409, ok: false, refused: true, error: MOVED_ON, at: {set: 1, round: 1, table: 2, pos: 6}});
  assert.deepEqual(p.box.queued().map((x) => x.fields.pos), ["6"]);
});

test("entered again, a refused tap is a new tap with a new key where the table is now", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  const key = p.hub.taps()[0].fields.key;
  p.ack({status: 409, ok: false, refused: true, error: MOVED_ON, at: {set: 1, round: 1, table: 2, pos: 6}});
  p.show({pos: 6});
  p.box.takeRefused(key, true);  // within the double-tap time: on purpose, so it counts
  assert.deepEqual(p.box.refused(), []);
  const again = p.hub.taps().at(-1).fields;
  assert.notEqual(again.key, key);
  assert.deepEqual([again.quick, again.pos], ["hit1", "6"]);
});

test("a refused tap dismissed is gone and sends nothing", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  const key = p.hub.taps()[0].fields.key;
  p.ack({status: 409, ok: false, refused: true, error: MOVED_ON});
  p.box.takeRefused(key, false);
  assert.deepEqual(p.box.refused(), []);
  assert.equal(p.hub.taps().length, 1);
});

test("the round trip of a tap's answer is measured on the page's clock", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  p.clock.advance(120);
  p.ack({ok: true, recorded: 41});
  assert.deepEqual(p.hub.roundTrips, [120]);
});

test("isFinal: only a decision of the game ends a tap", () => {
  const final = (status, json = {}) => outbox.isFinal(status, json);
  assert.deepEqual([200, 201, 400, 403, 404, 409].map((s) => final(s)), [true, true, true, true, true, true]);
  assert.deepEqual([408, 429, 500, 502, 503, 0].map((s) => final(s)), [false, false, false, false, false, false]);
  assert.equal(final(404, {retry: true, unknown: true}), false);
});

test("a deleted night (410, gone) lets go of every tap and says so, where an unknown one keeps them", () => {
  const p = phone();
  const said = [];
  p.page.drawGone = (text) => said.push(text);
  p.connect();
  p.tap("hit1");
  p.tap("miss");
  const gone = "The host deleted this night on the laptop: rolls entered here can no longer be counted";
  p.ack({status: 410, ok: false, gone: true, error: gone}, p.hub.taps()[0]);
  assert.deepEqual(p.box.queued(), []);
  assert.deepEqual(p.box.refused(), []);
  assert.deepEqual(said, [gone]);
  assert.deepEqual(p.hub.toasts, [gone]);
  const sent = p.hub.taps().length;
  p.clock.advance(60_000);
  assert.equal(p.hub.taps().length, sent);  // nothing goes again
});
