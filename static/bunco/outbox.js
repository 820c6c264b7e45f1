// The phones' tap outbox: the queue of taps and the rules that move a tap through it, with no
// page in it. The pad and the scorekeeper's screen (pad.js) feed it taps and draw it; in a
// browser it is window.bunco.outbox, in Node (tests/js/) it is this module's exports.
//
// A tap is an intent. It gets its key (a UUID) and the position it names the moment it is
// tapped, waits in the outbox (localStorage, so a reload or a dead battery keeps it) and is
// sent in order, one at a time, over the websocket or as a form post. Only a decision of the
// game takes it out: recorded, already recorded (this key is in the log), or refused for a
// reason a person can read (then it is listed under "Not counted" with a way to enter it
// again). A busy server, an error, no answer, no network, a laptop that cannot save and one
// that does not know the night yet keep it and send it again with the same key, forever while
// the page is open, shown as "waiting to send".
//
// The phone is the night's second copy: a tap the server recorded stays kept (with its key,
// round, table, roller and position) until a later round starts. A server whose log lacks
// them (a night opened again from a copy after the laptop died) gets them again, first in
// line, and each is recorded once: the key makes a repeat harmless.
//
// Every time reading and timer goes through what create() is given (bunco.now, the page's
// setTimeout), so a test holds the clock.
(function (root) {
  "use strict";

  // A tap names the position the person saw, and a tap made after this phone's own earlier
  // taps names the position those will produce (chained: three rolls tapped in a row are three
  // rolls, answered or not). A position another screen's entry brought less than REACTION_MS
  // before the thumb landed was not seen yet: the tap names the one before, and if that was
  // taken the server refuses it by name instead of guessing. The same button tapped again
  // within DOUBLE_TAP_MS, at the same table in the same round, is one tap, whatever the
  // first one's answer (a bounce must not enter a roll the first tap was refused for).
  // A tap sent over the socket and not answered within ACK_MS is sent again.
  var REACTION_MS = 600, DOUBLE_TAP_MS = 400, ACK_MS = 5000;

  function sameTable(a, b) {
    return !!a && !!b && String(a.set) === String(b.set) && String(a.round) === String(b.round)
      && String(a.table) === String(b.table);
  }
  function actionOf(item) { return item.url.replace(/\/$/, "").split("/").pop(); }
  function roundOf(c) { return [Number(c.set), Number(c.round)]; }
  function laterRound(a, b) {
    var x = roundOf(a), y = roundOf(b);
    return x[0] > y[0] || (x[0] === y[0] && x[1] > y[1]);
  }
  function uuid4() {
    var b = new Uint8Array(16);
    crypto.getRandomValues(b); // works on plain http, unlike crypto.randomUUID
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  // Final or not: only a decision of the game ends a tap. 2xx is one (recorded, or already
  // recorded under this key), and so is a 4xx (refused: the night, the round, the table or
  // the input says no, and sending it again would change nothing). "Slow down", a server
  // error, a proxy's error page, no answer and no network keep the tap.
  function isFinal(status, json) {
    if (json.retry) return false;
    return status >= 200 && status < 500 && status !== 408 && status !== 429;
  }
  // A form post's answer as the outbox reads it (a proxy's error page is not JSON).
  function httpAnswer(status, text) {
    var json = null;
    try { json = JSON.parse(text); } catch (e) { json = null; }
    if (!json || typeof json !== "object") {
      json = {ok: false, error: status >= 500 || status === 429
        ? "The app had a problem (error " + status + "); your tap is kept and will be sent again"
        : "The app could not take that tap (error " + status + "); it was not counted"};
    }
    if (status >= 400 && json.ok) json.ok = false;
    return json;
  }
  // A tap as a form post (while the socket is closed): its status and body, or a rejection
  // when there is no network.
  function httpPost(url, fields, csrf) {
    return fetch(url, {method: "POST", body: new URLSearchParams(fields),
                       headers: {"X-CSRFToken": csrf}, credentials: "same-origin"})
      .then(function (r) { return r.text().then(function (text) { return {status: r.status, text: text}; }); });
  }

  // The turn moved on by the taps still waiting to send: who rolls each waiting roll and who
  // rolls after them, from the turn order (``order``, who rolls from now; null when unknown)
  // and the rolls that keep the turn (``keeps``: quick buttons and sorted dice, like "144").
  // Past a tap that is not a roll (an undo, a finish) nobody can say.
  function turnAfter(items, order, keeps) {
    var at = 0, known = !!order, rows = [];
    items.forEach(function (item) {
      var action = actionOf(item);
      rows.push({item: item, action: action, who: known && action === "roll" ? order[at % order.length] : ""});
      if (action !== "roll") { known = false; return; }
      var f = item.fields;
      var key = f.quick || (f.dice || "").split(",").sort().join("");
      if (keeps.indexOf(key) < 0) at += 1;
    });
    return {rows: rows, known: known, next: known ? order[at % order.length] : null};
  }

  // One page's outbox. ``bunco``: the live screen's hub (live.js: now, open, send, on, sync,
  // toast, replaceById, serverNow, unlockAudio, roundTrip, csrf). ``page``: what the page
  // gives it: storage, path (its storage keys), here() (its address), shown() (the table as
  // the screen shows it: set, round, table, pos; or null), roller(), describe(item), the
  // drawing hooks drawPending, drawWaiting, drawRefused and busy(on), and optionally
  // setTimeout, clearTimeout, post and uuid.
  function create(bunco, page) {
    var later = page.setTimeout || function (fn, ms) { return setTimeout(fn, ms); };
    var cancel = page.clearTimeout || function (t) { clearTimeout(t); };
    var post = page.post || httpPost, newKey = page.uuid || uuid4, store = page.storage;
    function now() { return bunco.now(); }
    function draw(name, arg) { if (page[name]) page[name](arg); }
    function read(name) { try { return JSON.parse(store.getItem(name) || "[]"); } catch (e) { return []; } }
    function write(name, list) { store.setItem(name, JSON.stringify(list)); }

    var OUTBOX = "bunco-outbox:" + page.path, KEPT = "bunco-kept:" + page.path;
    var REFUSED = "bunco-refused:" + page.path;
    function load() { return read(OUTBOX); }
    function save(q) { write(OUTBOX, q); }
    function loadKept() { return read(KEPT); }
    function saveKept(list) { write(KEPT, list.slice(-200)); }
    function loadRefused() { return read(REFUSED); }
    function saveRefused(list) { write(REFUSED, list.slice(-10)); }

    // -- which position a tap names ----------------------------------------------------------
    var seen = [], produced = null, lastTap = null;
    function noteShown() {
      var c = page.shown();
      if (!c) return;
      var last = seen[seen.length - 1];
      if (!last || !sameTable(last.claim, c) || last.claim.pos !== c.pos) {
        seen.push({at: now(), claim: c});
        if (seen.length > 20) seen.shift();
      }
    }
    function claimFor(t, deliberate) {
      noteShown();
      var shown = page.shown();
      if (!shown) return null;
      // "Enter again" is pressed after reading the table as it is now: all of it was seen.
      for (var i = seen.length - 1; i >= 0 && !deliberate; i--) {
        var c = seen[i].claim;
        if (!sameTable(c, shown)) break;
        shown = c;
        if (seen[i].at <= t - REACTION_MS) break;
      }
      var claim = {set: shown.set, round: shown.round, table: shown.table, pos: shown.pos};
      // This phone's own entries are always seen: the last one recorded, and those still queued.
      if (sameTable(produced, claim) && produced.pos > claim.pos) claim.pos = produced.pos;
      load().forEach(function (item) {
        var f = item.fields;
        if (sameTable(f, claim) && Number(f.pos) >= claim.pos) claim.pos = Number(f.pos) + 1;
      });
      return claim;
    }

    // -- the taps this round that the server recorded --------------------------------------------
    function keepRecorded(item) {
      if (item.fields.pos === undefined) return;
      saveKept(loadKept().filter(function (x) { return x.fields.key !== item.fields.key; })
        .concat([{url: item.url, fields: item.fields, who: item.who || ""}]));
    }
    // A round has started after the one a kept tap was for: that round is in the log for good.
    function forgetOldRounds() {
      var t = page.shown();
      if (!t || !t.set || !t.round) return;
      var kept = loadKept(), left = kept.filter(function (x) { return !laterRound(t, x.fields); });
      if (left.length !== kept.length) saveKept(left);
    }
    // The table ``at`` (where the server says it is) has not reached taps this phone had
    // recorded there: the server lost them (its night came from an older copy). They go first
    // in line again, in the order they were made. How many.
    function sendKeptAgain(at) {
      if (!at) return 0;
      var q = load(), queued = {};
      q.forEach(function (x) { queued[x.fields.key] = true; });
      var kept = loadKept(), lost = kept.filter(function (x) {
        return sameTable(x.fields, at) && Number(x.fields.pos) >= Number(at.pos) && !queued[x.fields.key];
      });
      if (!lost.length) return 0;
      lost.sort(function (a, b) { return Number(a.fields.pos) - Number(b.fields.pos); });
      saveKept(kept.filter(function (x) { return lost.indexOf(x) < 0; }));
      save(lost.map(function (x) { return {url: x.url, fields: x.fields, who: x.who, again: true}; })
        .concat(q));
      return lost.length;
    }

    // A new intent, from the pad or from "Enter again". False when it is the same tap again.
    function intend(url, fields, deliberate) {
      var t = now();
      var item = {url: new URL(url, page.here()).href, fields: fields};
      var button = actionOf(item) + ":" + (fields.quick || fields.dice || "");
      var claim = null;
      if (fields.claim) {
        delete fields.claim;
        claim = claimFor(t, deliberate);
        if (!claim) return false;
        if (lastTap && lastTap.button === button && t - lastTap.at < DOUBLE_TAP_MS
            && sameTable(lastTap.claim, claim)) {
          bunco.toast("Tapped twice: counted once");
          return false;
        }
        fields.set = claim.set; fields.round = claim.round;
        fields.table = claim.table; fields.pos = String(claim.pos);
      }
      fields.key = newKey();
      fields.tapped = String(Math.round(bunco.serverNow()));  // kept through any wait offline
      item.who = page.roller();
      var q = load();
      q.push(item);
      save(q);
      lastTap = {at: t, button: button, claim: claim};
      bunco.unlockAudio();
      flush();
      return true;
    }

    var flushing = false, waitingAck = null, backoff = 0, retryTimer = null, lookAtKept = false;

    function answered(item, status, json) {
      if (json && json.gone) { gone(json.error); return; }
      if (!isFinal(status, json)) { keep(item, json); return; }
      backoff = 0;
      var f = item.fields;
      // Refused because the table is behind taps this phone had recorded there: those go
      // again first (maybe already in line), and this one after them.
      if (!json.ok && json.at && f.pos !== undefined && sameTable(json.at, f)
          && Number(json.at.pos) < Number(f.pos)
          && (sendKeptAgain(json.at) || load().some(function (x) {
            return x.again && sameTable(x.fields, f) && Number(x.fields.pos) < Number(f.pos);
          }))) {
        flushing = false;
        flush();
        return;
      }
      save(load().filter(function (x) { return x.fields.key !== item.fields.key; }));
      if (json.ok) {
        keepRecorded(item);
        if (f.pos !== undefined) produced = {set: f.set, round: f.round, table: f.table, pos: Number(f.pos) + 1};
        // Recorded before (its answer was lost): a push this screen missed is asked for. An
        // answer over the socket is the decision only; a form post's brings the table too.
        if (json.message && !json.html) bunco.sync();
      } else {
        addRefused(item, json.error || "That tap was not accepted", json.at, json.same);
        renumberAfter(item, json.at);
        bunco.sync(); // the night moved on while this screen was not looking: catch up now
      }
      bunco.replaceById(json.html);
      flushing = false;
      flush();
    }
    // The host deleted this screen's night on the laptop (not a night it does not know yet):
    // nothing here can be counted any more. Every tap is let go, and the page says so.
    function gone(text) {
      save([]); saveKept([]); saveRefused([]);
      flushing = false;
      cancel(retryTimer);
      draw("drawPending");
      draw("drawRefused");
      draw("drawGone", text);
      bunco.toast(text);
    }
    // A refused tap whose position the table never reached took no position: the taps queued
    // behind it (chained to it) each name one less. Taken by another entry: they stay as named.
    function renumberAfter(item, at) {
      var f = item.fields;
      if (f.pos === undefined || !sameTable(at, f) || Number(at.pos) > Number(f.pos)) return;
      save(load().map(function (x) {
        if (sameTable(x.fields, f) && Number(x.fields.pos) > Number(f.pos)) {
          x.fields.pos = String(Number(x.fields.pos) - 1);
        }
        return x;
      }));
    }
    // Not a decision: the tap stays first in line and goes again with the same key, a little
    // later each time (0.5 s doubling to 8 s), and the page says why it is waiting.
    function keep(item, json) {
      var why = json && json.error ? json.error : "No answer from the app yet";
      backoff = Math.min(8000, backoff ? backoff * 2 : 500);
      if (backoff === 500 && json && json.error) bunco.toast(json.error);
      save(load().map(function (x) {
        if (x.fields.key === item.fields.key) { x.why = why; x.tries = (x.tries || 0) + 1; }
        return x;
      }));
      flushing = false;
      cancel(retryTimer);
      retryTimer = later(flush, backoff);
      draw("drawPending");
    }

    // Taps go over the screen's open websocket (no HTTP request per tap); while it is closed, as
    // form posts; with no network, they wait. Always the same key and claim.
    function flush() {
      // Drawn on every call, also while an earlier tap is on its way: a tap made then shows as
      // "waiting to send" at once, not when the one before it is answered.
      draw("drawPending");
      draw("drawWaiting");
      if (flushing) return;
      var q = load();
      if (!q.length) { draw("busy", false); return; }
      flushing = true;
      draw("busy", true);
      var item = q[0];
      if (bunco.open) {
        waitingAck = {item: item, sent: now(), timer: later(function () {
          waitingAck = null;
          keep(item, {error: "No answer from the app yet: sending it again"});
        }, ACK_MS)};
        bunco.send({type: "tap", action: actionOf(item), fields: item.fields});
        return;
      }
      post(item.url, item.fields, bunco.csrf()).then(function (r) {
        answered(item, r.status, httpAnswer(r.status, r.text));
      }, function () { keep(item, {error: "Not connected: your tap is kept and will be sent"}); });
    }
    bunco.on("ack", function (json) {
      if (!waitingAck || waitingAck.item.fields.key !== json.key) return;
      cancel(waitingAck.timer);
      var item = waitingAck.item;
      bunco.roundTrip(now() - waitingAck.sent);
      waitingAck = null;
      answered(item, Number(json.status) || 200, json);
    });
    // The first thing a socket that opens brings is the night as the server has it: a table
    // behind this phone's recorded taps there (the push of its last tap never came before the
    // laptop died) gets them again. (A page ahead of the server drops that snapshot and is
    // told to reload; the check then runs as the page loads.)
    bunco.on("open", function () { backoff = 0; lookAtKept = true; flush(); });
    bunco.on("close", function () {
      // The socket dropped with a tap unanswered: it goes again (as a form post if the socket
      // stays down), with the same key, so nothing counts twice.
      if (waitingAck) {
        var item = waitingAck.item;
        cancel(waitingAck.timer);
        waitingAck = null;
        keep(item, {error: "Reconnecting: your tap is kept and will be sent"});
      }
    });

    // -- refused taps: kept on screen until dismissed or entered again --------------------------
    // ``at``: where the table's next tap went when this one was refused (the answer says).
    // ``same``: another phone entered that very roll first: counted once, not to enter again.
    function addRefused(item, error, at, same) {
      var list = loadRefused(), f = item.fields;
      var again = {};  // what was tapped, without where it was tapped: entered again, it is new
      ["quick", "dice"].forEach(function (k) { if (f[k]) again[k] = f[k]; });
      list.push({key: f.key, what: page.describe(item), who: item.who || "", error: error,
                 set: f.set || "", round: f.round || "", table: f.table || "",
                 url: item.url, again: again, claim: f.pos !== undefined,
                 at: sameTable(at, f) ? Number(at.pos) : null, same: !!same});
      saveRefused(list);
      draw("drawRefused");
    }
    // A refused tap dismissed, or entered again (a new intent, a new key, where the table is now).
    function takeRefused(key, again) {
      var list = loadRefused(), r = list.filter(function (x) { return x.key === key; })[0];
      saveRefused(list.filter(function (x) { return x.key !== key; }));
      if (r && again) {
        var fields = {};
        Object.keys(r.again || {}).forEach(function (k) { fields[k] = r.again[k]; });
        if (r.claim) fields.claim = true;
        lastTap = null;  // entered again on purpose: never a double tap
        intend(r.url, fields, true);
      }
    }

    return {
      intend: intend,
      flush: flush,
      takeRefused: takeRefused,
      queued: load,
      kept: loadKept,
      refused: loadRefused,
      // The taps waiting to send at the table ``d`` shows (its set, round, table and pos).
      waitingAt: function (d) {
        return load().filter(function (item) {
          var f = item.fields;
          return sameTable(f, d) && Number(f.pos) >= Number(d.pos);
        });
      },
      // The browser is online again: the kept tap goes now.
      online: function () { backoff = 0; flush(); },
      // The page as the server drew it now: a table behind this phone's recorded taps lost them.
      start: function () { noteShown(); forgetOldRounds(); sendKeptAgain(page.shown()); flush(); },
      // Something on the screen changed (a push, an answer's fragment).
      refreshed: function () {
        noteShown(); forgetOldRounds();
        if (lookAtKept) {
          lookAtKept = false;
          if (sendKeptAgain(page.shown())) flush();
        }
      }
    };
  }

  var api = {create: create, isFinal: isFinal, httpAnswer: httpAnswer, turnAfter: turnAfter,
             sameTable: sameTable, actionOf: actionOf};
  if (typeof module === "object" && module.exports) module.exports = api;
  if (root && root.bunco) root.bunco.outbox = api;
})(typeof window === "object" ? window : null);
