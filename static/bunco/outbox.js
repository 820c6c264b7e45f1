// The phones' scorekeeping: the dice pad and the tap outbox. Uses window.bunco (live.js).
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
(function () {
  "use strict";
  var bunco = window.bunco;
  if (!bunco) return;

  // -- which position a tap names ----------------------------------------------------------
  // A tap names the position the person saw, and a tap made after this phone's own earlier
  // taps names the position those will produce (chained: three rolls tapped in a row are three
  // rolls, answered or not). A position another screen's entry brought less than REACTION_MS
  // before the thumb landed was not seen yet: the tap names the one before, and if that was
  // taken the server refuses it by name instead of guessing. The same button tapped again
  // within DOUBLE_TAP_MS, at the same table in the same round, is one tap, whatever the
  // first one's answer (a bounce must not enter a roll the first tap was refused for).
  var REACTION_MS = 600, DOUBLE_TAP_MS = 400;
  var seen = [], produced = null, lastTap = null;
  function shownClaim() {
    var t = document.querySelector(".table-live");
    if (!t) return null;
    var d = t.dataset;
    return {set: d.set, round: d.round, table: d.table, pos: Number(d.pos)};
  }
  function sameTable(a, b) {
    return !!a && !!b && String(a.set) === String(b.set) && String(a.round) === String(b.round)
      && String(a.table) === String(b.table);
  }
  function noteShown() {
    var c = shownClaim();
    if (!c) return;
    var last = seen[seen.length - 1];
    if (!last || !sameTable(last.claim, c) || last.claim.pos !== c.pos) {
      seen.push({at: Date.now(), claim: c});
      if (seen.length > 20) seen.shift();
    }
  }
  function claimFor(now, deliberate) {
    noteShown();
    var shown = shownClaim();
    if (!shown) return null;
    // "Enter again" is pressed after reading the table as it is now: all of it was seen.
    for (var i = seen.length - 1; i >= 0 && !deliberate; i--) {
      var c = seen[i].claim;
      if (!sameTable(c, shown)) break;
      shown = c;
      if (seen[i].at <= now - REACTION_MS) break;
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

  // -- the outbox ------------------------------------------------------------------------------
  function uuid4() {
    var b = new Uint8Array(16);
    crypto.getRandomValues(b); // works on plain http, unlike crypto.randomUUID
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }
  var OUTBOX = "bunco-outbox:" + location.pathname;
  function load() { try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; } }
  function save(q) { localStorage.setItem(OUTBOX, JSON.stringify(q)); }
  function actionOf(item) { return item.url.replace(/\/$/, "").split("/").pop(); }

  // -- the taps this round that the server recorded --------------------------------------------
  var KEPT = "bunco-kept:" + location.pathname;
  function loadKept() { try { return JSON.parse(localStorage.getItem(KEPT) || "[]"); } catch (e) { return []; } }
  function saveKept(list) { localStorage.setItem(KEPT, JSON.stringify(list.slice(-200))); }
  function keepRecorded(item) {
    if (item.fields.pos === undefined) return;
    saveKept(loadKept().filter(function (x) { return x.fields.key !== item.fields.key; })
      .concat([{url: item.url, fields: item.fields, who: item.who || ""}]));
  }
  function roundOf(c) { return [Number(c.set), Number(c.round)]; }
  function laterRound(a, b) {
    var x = roundOf(a), y = roundOf(b);
    return x[0] > y[0] || (x[0] === y[0] && x[1] > y[1]);
  }
  // A round has started after the one a kept tap was for: that round is in the log for good.
  function forgetOldRounds() {
    var t = document.querySelector(".table-live");
    if (!t || !t.dataset.set || !t.dataset.round) return;
    var kept = loadKept(), now = kept.filter(function (x) { return !laterRound(t.dataset, x.fields); });
    if (now.length !== kept.length) saveKept(now);
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
  // Who rolls next as the screen shows it (past the taps still waiting to send).
  function rollerNow() {
    var turn = document.querySelector(".table-live .turn");
    return turn ? (turn.dataset.nowRoller || turn.dataset.roller || "") : "";
  }

  // A new intent, from the pad or from "Enter again". False when it is the same tap again.
  function intend(url, fields, deliberate) {
    var now = Date.now();
    var item = {url: new URL(url, location.href).href, fields: fields};
    var button = actionOf(item) + ":" + (fields.quick || fields.dice || "");
    var claim = null;
    if (fields.claim) {
      delete fields.claim;
      claim = claimFor(now, deliberate);
      if (!claim) return false;
      if (lastTap && lastTap.button === button && now - lastTap.at < DOUBLE_TAP_MS
          && sameTable(lastTap.claim, claim)) {
        bunco.toast("Tapped twice: counted once");
        return false;
      }
      fields.set = claim.set; fields.round = claim.round;
      fields.table = claim.table; fields.pos = String(claim.pos);
    }
    fields.key = uuid4();
    fields.tapped = String(Math.round(bunco.serverNow()));  // kept through any wait offline
    item.who = rollerNow();
    var q = load();
    q.push(item);
    save(q);
    lastTap = {at: now, button: button, claim: claim};
    bunco.unlockAudio();
    flush();
    return true;
  }

  // Final or not: only a decision of the game ends a tap. 2xx is one (recorded, or already
  // recorded under this key), and so is a 4xx (refused: the night, the round, the table or
  // the input says no, and sending it again would change nothing). "Slow down", a server
  // error, a proxy's error page, no answer and no network keep the tap.
  function isFinal(status, json) {
    if (json.retry) return false;
    return status >= 200 && status < 500 && status !== 408 && status !== 429;
  }
  var flushing = false, waitingAck = null, backoff = 0, retryTimer = null;

  function answered(item, status, json) {
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
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, backoff);
    drawPending();
  }

  // Taps go over the screen's open websocket (no HTTP request per tap); while it is closed, as
  // form posts; with no network, they wait. Always the same key and claim.
  function flush() {
    // Drawn on every call, also while an earlier tap is on its way: a tap made then shows as
    // "waiting to send" at once, not when the one before it is answered.
    drawPending();
    drawWaiting();
    if (flushing) return;
    var q = load();
    if (!q.length) { document.body.classList.remove("pending"); return; }
    flushing = true;
    document.body.classList.add("pending");
    var item = q[0];
    if (bunco.open) {
      waitingAck = {item: item, sent: performance.now(), timer: setTimeout(function () {
        waitingAck = null;
        keep(item, {error: "No answer from the app yet: sending it again"});
      }, 5000)};
      bunco.send({type: "tap", action: actionOf(item), fields: item.fields});
      return;
    }
    fetch(item.url, {method: "POST", body: new URLSearchParams(item.fields),
                     headers: {"X-CSRFToken": bunco.csrf()}, credentials: "same-origin"})
      .then(function (r) {
        return r.text().then(function (text) { answered(item, r.status, httpAnswer(r.status, text)); });
      }, function () { keep(item, {error: "Not connected: your tap is kept and will be sent"}); });
  }
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
  bunco.on("ack", function (json) {
    if (!waitingAck || waitingAck.item.fields.key !== json.key) return;
    clearTimeout(waitingAck.timer);
    var item = waitingAck.item;
    bunco.roundTrip(performance.now() - waitingAck.sent);
    waitingAck = null;
    answered(item, Number(json.status) || 200, json);
  });
  // The first thing a socket that opens brings is the night as the server has it: a table
  // behind this phone's recorded taps there (the push of its last tap never came before the
  // laptop died) gets them again. (A page ahead of the server drops that snapshot and is
  // told to reload; the check then runs as the page loads.)
  var lookAtKept = false;
  bunco.on("open", function () { backoff = 0; lookAtKept = true; flush(); });
  bunco.on("close", function () {
    // The socket dropped with a tap unanswered: it goes again (as a form post if the socket
    // stays down), with the same key, so nothing counts twice.
    if (waitingAck) {
      var item = waitingAck.item;
      clearTimeout(waitingAck.timer);
      waitingAck = null;
      keep(item, {error: "Reconnecting: your tap is kept and will be sent"});
    }
  });
  window.addEventListener("online", function () { backoff = 0; flush(); });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute("data-outbox")) return;
    e.preventDefault();
    var fields = {};
    new FormData(form, e.submitter).forEach(function (v, k) { fields[k] = v; });
    if (form.hasAttribute("data-claim")) fields.claim = true;
    intend(form.getAttribute("action"), fields);
  });

  // -- dice pad: tap three faces ---------------------------------------------------------------
  // The faces tapped so far live here, not in the page, so a push that redraws the table in
  // the middle of a roll does not lose them.
  var chosen = [];
  function showChosen() {
    document.querySelectorAll("[data-dicepad] .chosen").forEach(function (p) {
      // The faces are drawn from the page's icon sprite (no emoji or dice font needed).
      p.innerHTML = chosen.length
        ? chosen.map(function (d) {
            return '<svg class="die" role="img" aria-label="' + Number(d) + '"><use href="#d' + Number(d) + '"></use></svg>';
          }).join(" ") + " …"
        : "Or tap the three dice";
    });
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-face]");
    if (!btn) return;
    chosen.push(btn.dataset.face);
    if (chosen.length < 3) { showChosen(); return; }
    var form = document.querySelector("[data-dicepad]");
    form.querySelector("input[name=dice]").value = chosen.join(",");
    chosen = [];
    showChosen();
    form.requestSubmit();
  });

  // -- the scorekeeper's pad follows the table fragment the screen shows ----------------------
  function syncPad() {
    var pad = document.querySelector("[data-pad]");
    if (!pad) return;
    var t = document.querySelector(".table-live");
    var d = t ? t.dataset : {};
    var canRoll = d.canRoll === "1", oneDie = d.oneDie === "1";
    var quick = (d.quick || "").split(" ");
    pad.hidden = !(canRoll || d.canUndo === "1");
    pad.querySelectorAll("[data-quick-kind]").forEach(function (b) {
      b.hidden = !canRoll || oneDie || quick.indexOf(b.dataset.quickKind) < 0;
    });
    pad.querySelectorAll("[data-one-die]").forEach(function (b) { b.hidden = !(canRoll && oneDie); });
    var dicepad = pad.querySelector("[data-dicepad]");
    if (dicepad) dicepad.hidden = !canRoll || oneDie;
    pad.querySelectorAll("[data-needs=undo]").forEach(function (f) { f.hidden = d.canUndo !== "1"; });
    pad.querySelectorAll("[data-needs=finish]").forEach(function (f) { f.hidden = d.canFinish !== "1"; });
  }

  // -- who keeps score on this phone -----------------------------------------------------------
  var TOGGLE = "bunco-scorer:" + location.pathname;
  function applyScorerToggle() {
    var box = document.querySelector("[data-scorer-toggle]");
    if (!box) return;
    var stored = localStorage.getItem(TOGGLE);
    if (stored !== null) box.checked = stored === "1";
    document.body.classList.toggle("scorer", box.checked);
  }
  document.addEventListener("change", function (e) {
    if (e.target.matches("[data-scorer-toggle]")) {
      localStorage.setItem(TOGGLE, e.target.checked ? "1" : "0");
      applyScorerToggle();
    }
  });

  // -- taps waiting to send: drawn on the tally, and the turn moved on by itself --------------
  // Each waiting tap is a row in the table's roll list ("waiting to send"), and the turn line
  // shows who rolls after them, from the turn order and the rolls that keep the turn that the
  // table fragment carries (the engine's), so the scorekeeper keeps entering the right rolls.
  function describe(item) {
    var f = item.fields, action = actionOf(item);
    if (action === "undo") return "Undo last";
    if (action === "finish") return "Done: this table stopped";
    if (f.quick) {
      var b = document.querySelector("[data-quick-kind='" + f.quick + "']");
      if (b) return b.textContent.trim();
      if (/^die[1-6]$/.test(f.quick)) return "one die: " + f.quick.slice(3);
      return f.quick;
    }
    return f.dice ? "dice " + f.dice.split(",").join(" ") : "a tap";
  }
  function waitingFor(t) {
    var d = t.dataset;
    return load().filter(function (item) {
      var f = item.fields;
      return sameTable(f, d) && Number(f.pos) >= Number(d.pos);
    });
  }
  // A player's own phone says "Your turn" where a table's screen names whose roll it is: the
  // table's fragment is rendered once for every screen, so this page puts it in its own words.
  function ownName() {
    var me = document.getElementById("me");
    return me ? me.dataset.name || "" : "";
  }
  function sayYou(turn) {
    var who = turn.querySelector(".turn-who"), me = ownName();
    if (!who || !me || turn.dataset.rolls !== me) return;
    who.textContent = turn.dataset.roller === me ? "Your turn" : "You roll";
  }
  function drawWaiting() {
    document.querySelectorAll(".rolls li.waiting").forEach(function (li) { li.remove(); });
    var t = document.querySelector(".table-live");
    if (!t) return;
    var mine = waitingFor(t);
    var turn = t.querySelector(".turn");
    var order = null, keeps = [];
    try { order = t.dataset.turns ? JSON.parse(t.dataset.turns) : null; } catch (e) { order = null; }
    if (t.dataset.keeps) keeps = t.dataset.keeps.split(" ");
    var at = 0, known = !!order;
    var list = t.querySelector("ol.rolls");
    if (mine.length && !list) {
      list = document.createElement("ol"); list.className = "rolls"; t.appendChild(list);
    }
    mine.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "waiting"; li.setAttribute("data-testid", "waiting");
      var what = document.createElement("span"); what.textContent = describe(item);
      li.appendChild(what);
      var action = actionOf(item), who = known && action === "roll" ? order[at % order.length] : "";
      if (who) {
        li.appendChild(document.createTextNode(" "));
        var b = document.createElement("bdi"); b.className = "roller"; b.textContent = who; li.appendChild(b);
      }
      var note = document.createElement("small"); note.textContent = " waiting to send";
      li.appendChild(note);
      list.insertBefore(li, list.firstChild);
      if (action !== "roll") { known = false; return; }
      var f = item.fields;
      var key = f.quick || (f.dice || "").split(",").sort().join("");
      if (keeps.indexOf(key) < 0) at += 1;
    });
    if (!turn) return;
    if (turn.dataset.shownHtml === undefined) turn.dataset.shownHtml = turn.innerHTML;
    delete turn.dataset.nowRoller;
    if (!mine.length) { turn.innerHTML = turn.dataset.shownHtml; sayYou(turn); return; }
    turn.textContent = "";
    var waiting = mine.length === 1 ? "1 tap waiting to send" : mine.length + " taps waiting to send";
    if (known) {
      var next = order[at % order.length];
      turn.dataset.nowRoller = next;
      if (next === ownName()) {
        turn.appendChild(document.createTextNode("Your turn "));
      } else {
        var strong = document.createElement("strong"), bdi = document.createElement("bdi");
        bdi.textContent = next; strong.appendChild(bdi); turn.appendChild(strong);
        turn.appendChild(document.createTextNode("'s turn "));
      }
    } else {
      turn.appendChild(document.createTextNode("Next roller shows when your taps are sent "));
    }
    var small = document.createElement("small"); small.className = "after-waiting";
    small.textContent = "(after " + waiting + ")"; turn.appendChild(small);
  }
  function drawPending() {
    var q = load();
    var text = !q.length ? "" : q.length === 1 ? "Sending your tap…" : q.length + " taps waiting to send…";
    if (q.length && q[0].why) {  // not "sending" while it cannot: say why it waits instead
      text = (q.length === 1 ? "1 tap waiting. " : q.length + " taps waiting. ") + q[0].why;
    }
    document.querySelectorAll(".pending-note").forEach(function (p) {
      if (p.textContent !== text) p.textContent = text;
    });
  }

  // -- refused taps: kept on screen until dismissed or entered again --------------------------
  var REFUSED = "bunco-refused:" + location.pathname;
  function loadRefused() { try { return JSON.parse(localStorage.getItem(REFUSED) || "[]"); } catch (e) { return []; } }
  function saveRefused(list) { localStorage.setItem(REFUSED, JSON.stringify(list.slice(-10))); }
  // ``at``: where the table's next tap went when this one was refused (the answer says).
  // ``same``: another phone entered that very roll first: counted once, not to enter again.
  function addRefused(item, error, at, same) {
    var list = loadRefused(), f = item.fields;
    var again = {};  // what was tapped, without where it was tapped: entered again, it is new
    ["quick", "dice"].forEach(function (k) { if (f[k]) again[k] = f[k]; });
    list.push({key: f.key, what: describe(item), who: item.who || "", error: error,
               set: f.set || "", round: f.round || "", table: f.table || "",
               url: item.url, again: again, claim: f.pos !== undefined,
               at: sameTable(at, f) ? Number(at.pos) : null, same: !!same});
    saveRefused(list);
    drawRefused();
  }
  function button(text, cls, data, value) {
    var btn = document.createElement("button");
    btn.type = "button"; btn.className = cls; btn.dataset[data] = value; btn.textContent = text;
    return btn;
  }
  function drawRefused() {
    var box = document.querySelector("[data-refused]");
    if (!box) return;
    var list = loadRefused(), shown = shownClaim(), t = document.querySelector(".table-live");
    box.hidden = !list.length;
    var ul = box.querySelector("ul");
    ul.textContent = "";
    list.forEach(function (r) {
      var li = document.createElement("li");
      li.setAttribute("data-testid", "refused");
      var what = document.createElement("b");
      what.textContent = r.what;
      li.appendChild(what);
      if (r.who) {
        li.appendChild(document.createTextNode(" for "));
        var bdi = document.createElement("bdi"); bdi.textContent = r.who; li.appendChild(bdi);
      }
      if (r.round) li.appendChild(document.createTextNode(" (round " + r.round + ", table " + r.table + ")"));
      li.appendChild(document.createTextNode(": "));
      var why = document.createElement("span"); why.className = "why"; why.textContent = r.error;
      li.appendChild(why);
      // Entered again only where it could still count: this round, at this table.
      var action = r.url ? actionOf(r) : "";
      var open = t && (action === "roll" ? t.dataset.canRoll === "1"
        : action === "undo" ? t.dataset.canUndo === "1" : t.dataset.canFinish === "1");
      var actions = document.createElement("div");
      actions.className = "actions";
      if (r.url && open && !r.same && (!r.claim || sameTable(r, shown))) {
        // Entered now, a roll is the roll of whoever's turn it is now: the button says whose.
        // Until the table on the screen has caught up with the entry that beat this one, it
        // would name the wrong roller (and be refused again): it waits for the table.
        var now = rollerNow(), behind = r.claim && r.at !== null && r.at !== undefined
          && shown.pos < r.at;
        var again = button(behind ? "Enter again (catching up…)"
          : action === "roll" && now ? "Enter again: " + now : "Enter again",
          "again", "again", r.key);
        again.disabled = behind;
        actions.appendChild(again);
      }
      actions.appendChild(button("Dismiss", "secondary dismiss", "dismiss", r.key));
      li.appendChild(actions);
      ul.appendChild(li);
    });
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-dismiss], [data-again]");
    if (!btn) return;
    var key = btn.dataset.dismiss || btn.dataset.again;
    var list = loadRefused(), r = list.filter(function (x) { return x.key === key; })[0];
    saveRefused(list.filter(function (x) { return x.key !== key; }));
    if (r && btn.dataset.again) {
      var fields = {};
      Object.keys(r.again || {}).forEach(function (k) { fields[k] = r.again[k]; });
      if (r.claim) fields.claim = true;
      lastTap = null;  // entered again on purpose: never a double tap
      intend(r.url, fields, true);
    }
    drawRefused();
  });

  // The host took back one of this table's entries: the tally changed under the table, so say
  // so once (the table's line keeps saying it until the next round).
  var takenBack = null;
  function noteTakenBack() {
    var el = document.querySelector(".table-live .taken-back[data-taken-back]");
    var seq = el ? Number(el.dataset.takenBack) : 0;
    if (takenBack !== null && seq > takenBack) bunco.toast(el.textContent);
    takenBack = Math.max(takenBack || 0, seq);
  }

  bunco.on("refresh", function () {
    noteTakenBack(); noteShown(); forgetOldRounds(); applyScorerToggle(); showChosen(); syncPad(); drawWaiting();
    drawRefused();
    if (lookAtKept) {
      lookAtKept = false;
      if (sendKeptAgain(shownClaim())) flush();
    }
  });
  noteTakenBack(); noteShown(); forgetOldRounds(); applyScorerToggle(); showChosen(); syncPad();
  drawRefused();
  // The page as the server drew it now: a table behind this phone's recorded taps lost them.
  sendKeptAgain(shownClaim());
  flush();
})();

// The head table's bell that starts a round: it names the round the banner shows now (a press
// for a round that has started, or been played, starts nothing) and stays on the page; the
// push brings the round. Without this script the form posts and the page comes back.
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var form = e.target.closest("[data-head-start]");
    if (!form || !window.fetch) return;
    e.preventDefault();
    var b = document.getElementById("banner");
    if (b) {
      form.querySelector("[name=set]").value = b.dataset.set || "";
      form.querySelector("[name=round]").value = b.dataset.round || "";
    }
    var button = form.querySelector("button");
    button.disabled = true;
    fetch(form.action, {method: "POST", body: new FormData(form), credentials: "same-origin",
                        headers: {"Accept": "application/json", "X-CSRFToken": bunco.csrf()}})
      .then(function (r) { return r.json(); })
      .then(function (json) { if (!json.ok) bunco.toast(json.error); })
      .catch(function () { bunco.toast("The laptop did not answer: ring again"); })
      .then(function () { button.disabled = false; });
  });
})();
