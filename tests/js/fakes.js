// What the outbox (static/bunco/outbox.js) is given in a browser, faked for Node: a clock the
// test moves by hand (bunco.now and the page's timers), localStorage, the live screen's hub
// (live.js: the socket, toasts, syncs) and the form post, and the table the screen shows.
"use strict";

const path = require("node:path");
const outbox = require(path.join(__dirname, "..", "..", "static", "bunco", "outbox.js"));

// Time stands still until the test moves it; timers fire in order as it passes them.
function fakeClock(start = 1_700_000_000_000) {
  let t = start, nextId = 1;
  const timers = new Map();
  const clock = {
    now: () => t,
    setTimeout(fn, ms) { const id = nextId++; timers.set(id, {at: t + (ms || 0), fn}); return id; },
    clearTimeout(id) { timers.delete(id); },
    pending: () => timers.size,
    // Moves time on by ``ms``, running each timer due on the way at its own time.
    advance(ms) {
      const end = t + ms;
      for (;;) {
        let due = null;
        for (const [id, timer] of timers) {
          if (timer.at <= end && (!due || timer.at < due[1].at)) due = [id, timer];
        }
        if (!due) break;
        timers.delete(due[0]);
        t = Math.max(t, due[1].at);
        due[1].fn();
      }
      t = end;
    },
  };
  return clock;
}

function fakeStorage() {
  const items = new Map();
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => { items.set(k, String(v)); },
    removeItem: (k) => { items.delete(k); },
  };
}

// The live screen's hub as live.js makes it, with its socket: what was sent, and the events
// (open, close, ack) the test fires as the server would.
function fakeHub(clock) {
  const hooks = {open: [], close: [], ack: [], refresh: []};
  const hub = {
    open: false, sent: [], toasts: [], syncs: 0, replaced: [], roundTrips: [],
    now: () => clock.now(),
    serverNow: () => clock.now(),
    on: (name, fn) => hooks[name].push(fn),
    send(message) { if (!hub.open) return false; hub.sent.push(message); return true; },
    sync() { hub.syncs += 1; },
    toast(text) { hub.toasts.push(text); },
    replaceById(html) { if (html) hub.replaced.push(html); },
    unlockAudio() {},
    roundTrip(ms) { hub.roundTrips.push(ms); },
    csrf: () => "token",
    fire(name, arg) { hooks[name].forEach((fn) => fn(arg)); },
    taps: () => hub.sent.filter((m) => m.type === "tap"),
  };
  return hub;
}

// A phone's page: the table it shows (set, round, table, pos, the roller), its form posts
// (each answered by the test: resolve with {status, text} or reject for no network).
// ``storage``: another page's, to load this one as a reload of it.
function phone({table = {set: "1", round: "1", table: "2", pos: 5}, storage = fakeStorage()} = {}) {
  const here = "/t/abc/";
  const clock = fakeClock();
  const hub = fakeHub(clock);
  const screen = {table: table && {...table}, roller: "Ava", drawn: 0};
  const posts = [];
  const page = {
    storage, path: here,
    here: () => "http://laptop.local:8000" + here,
    shown: () => (screen.table ? {...screen.table} : null),
    roller: () => screen.roller,
    describe: (item) => item.fields.quick || item.fields.dice || "a tap",
    drawPending() { screen.drawn += 1; },
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    post(url, fields) {
      return new Promise((resolve, reject) => {
        posts.push({url, fields: {...fields}, resolve, reject});
      });
    },
  };
  const box = outbox.create(hub, page);
  box.start();  // as the page does once it is drawn
  const me = {
    clock, hub, storage, screen, posts, box, page,
    // A tap on the pad: the button's form (its action and fields), naming a position.
    tap(quick, action = "roll") {
      return box.intend(`/t/abc/${action}/`, {quick, claim: true});
    },
    connect() { hub.open = true; hub.fire("open"); },
    drop() { hub.open = false; hub.fire("close"); },
    // The server's answer to the tap sent last over the socket.
    ack(answer, message = hub.taps().at(-1)) {
      hub.fire("ack", {type: "ack", key: message.fields.key, status: 200, ...answer});
    },
    // A later screen of the same table: another screen's entry moved it on.
    show(changes) { screen.table = {...screen.table, ...changes}; box.refreshed(); },
  };
  return me;
}

// Lets the promise callbacks of a form post's answer run.
const settle = () => new Promise((resolve) => setImmediate(resolve));

module.exports = {outbox, fakeClock, fakeStorage, fakeHub, phone, settle};
