// Which position a tap names, and one tap from a double tap: the outbox on its own, with the
// clock held by the test (bunco.now).
"use strict";

const {test} = require("node:test");
const assert = require("node:assert/strict");
const {phone, outbox} = require("./fakes.js");

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("a tap gets its key and the position the screen shows, and goes over the open socket", () => {
  const p = phone();
  p.connect();
  assert.equal(p.tap("hit1"), true);
  const [sent] = p.hub.taps();
  assert.equal(sent.action, "roll");
  assert.match(sent.fields.key, UUID4);
  assert.deepEqual({set: sent.fields.set, round: sent.fields.round, table: sent.fields.table,
                    pos: sent.fields.pos, quick: sent.fields.quick},
                   {set: "1", round: "1", table: "2", pos: "5", quick: "hit1"});
  assert.equal(sent.fields.tapped, String(p.clock.now()));
  assert.equal("claim" in sent.fields, false);
  // Kept on the phone until the game decides, with who was rolling as the screen said.
  assert.deepEqual(p.box.queued().map((x) => [x.fields.key, x.who]), [[sent.fields.key, "Ava"]]);
});

test("the same button twice within 400 ms is one tap; after that it is a second roll", () => {
  const p = phone();
  p.connect();
  p.tap("hit1");
  p.clock.advance(399);
  assert.equal(p.tap("hit1"), false);
  assert.deepEqual(p.hub.toasts, ["Tapped twice: counted once"]);
  assert.equal(p.box.queued().length, 1);
  p.clock.advance(1);
  assert.equal(p.tap("hit1"), true);
  assert.deepEqual(p.box.queued().map((x) => x.fields.pos), ["5", "6"]);
  assert.notEqual(p.box.queued()[0].fields.key, p.box.queued()[1].fields.key);
});

test("a different button within 400 ms is a second roll, not a double tap", () => {
  const p = phone();
  p.tap("hit1");
  p.clock.advance(100);
  assert.equal(p.tap("miss"), true);
  assert.equal(p.box.queued().length, 2);
  assert.deepEqual(p.hub.toasts, []);
});

test("quick rolls chain: each names the position the ones before it will produce", () => {
  const p = phone();
  p.connect();
  ["hit1", "miss", "hit2"].forEach((b) => { p.tap(b); p.clock.advance(50); });
  assert.deepEqual(p.box.queued().map((x) => [x.fields.quick, x.fields.pos]),
                   [["hit1", "5"], ["miss", "6"], ["hit2", "7"]]);
  // One at a time, in order: the second goes when the first is answered.
  assert.equal(p.hub.taps().length, 1);
  p.ack({ok: true, recorded: 41});
  assert.deepEqual(p.hub.taps().map((m) => m.fields.pos), ["5", "6"]);
  // The push of the first has not come: a tap now still follows this phone's own entries.
  p.ack({ok: true, recorded: 42});
  p.ack({ok: true, recorded: 43});
  p.clock.advance(1000);
  p.tap("miss");
  assert.equal(p.hub.taps().at(-1).fields.pos, "8");
});

test("an entry from another screen under 600 ms before the tap was not seen yet", () => {
  const p = phone();
  p.clock.advance(5000);
  p.show({pos: 6});  // another phone's roll arrives
  p.clock.advance(599);
  p.tap("hit1");
  assert.equal(p.box.queued()[0].fields.pos, "5");
  const q = phone();
  q.clock.advance(5000);
  q.show({pos: 6});
  q.clock.advance(600);
  q.tap("hit1");
  assert.equal(q.box.queued()[0].fields.pos, "6");
});

test("a screen that shows no table makes no tap", () => {
  const p = phone({table: null});
  assert.equal(p.tap("hit1"), false);
  assert.deepEqual(p.box.queued(), []);
});
