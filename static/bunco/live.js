// Live screens: websocket state, stale-message guard, an outbox for taps, the dice pad,
// the bell (sound + vibration) and keeping the screen awake. No framework beyond htmx.
(function () {
  "use strict";
  htmx.config.wsReconnectDelay = function (retry) {
    return Math.min(3000, 300 * Math.pow(2, retry)); // reconnect fast: capped at 3 s
  };

  // Every pushed fragment carries data-seq: the sequence number of the last event that changed
  // it. An older copy than the one shown is dropped, and so is an unchanged one, so a button
  // being tapped is not swapped out from under a finger because another table rolled.
  function keepNewer(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    Array.prototype.slice.call(tpl.content.children).forEach(function (el) {
      var old = el.id && document.getElementById(el.id);
      if (!old) return;
      var seqNew = Number(el.dataset.seq || 0), seqOld = Number(old.dataset.seq || 0);
      if (seqNew < seqOld || (old.innerHTML === el.innerHTML && old.className === el.className
          && seqNew === seqOld)) {
        el.remove();
      }
    });
    return tpl.innerHTML;
  }
  htmx.defineExtension("bunco-diff", {transformResponse: keepNewer});

  var socket = null;

  // What this screen shows: each live fragment's id and seq, for the periodic resync.
  function shows() {
    var out = {};
    document.querySelectorAll("[id][data-seq]").forEach(function (el) {
      out[el.id] = Number(el.dataset.seq || 0);
    });
    return out;
  }

  document.body.addEventListener("htmx:wsOpen", function (e) {
    socket = e.detail.socketWrapper;
    socketOpen = true;
    document.body.classList.remove("offline");
    flush();
  });
  var socketOpen = false;
  document.body.addEventListener("htmx:wsClose", function () {
    socketOpen = false;
    document.body.classList.add("offline");
    if (waitingAck) { clearTimeout(waitingAck.timer); waitingAck = null; flushing = false; }
  });
  document.body.addEventListener("htmx:wsBeforeMessage", function (e) {
    var text = e.detail.message;
    if (typeof text === "string" && text.charAt(0) === "{") {
      e.preventDefault(); // an answer, not HTML to swap
      try { var json = JSON.parse(text); } catch (err) { return; }
      if (json.type === "ack") ackArrived(json);
      return;
    }
    bellWatch.before();
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    bellWatch.after();
    refresh();
  });
  // Pushes are at most once: every 10 s the screen says what it shows; the server answers
  // with a fresh snapshot only if one of those fragments is behind.
  setInterval(function () {
    if (socket) socket.send(JSON.stringify({type: "sync", shows: shows()}));
  }, 10000);

  function refresh() {
    noteShown(); applyScorerToggle(); showChosen(); syncPad(); applyPhase(); drawWaiting(); drawRefused();
    pager.apply(); countdown();
  }

  // -- a break's countdown, on the server's clock (this device's may be off) ------------------
  var live = document.querySelector("[data-server-now]");
  var skew = live ? Number(live.dataset.serverNow) * 1000 - Date.now() : 0;
  function countdown() {
    document.querySelectorAll(".countdown[data-ends]").forEach(function (el) {
      var left = Math.max(0, Math.round((Number(el.dataset.ends) - Date.now() - skew) / 1000));
      var text = left ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : "time's up";
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("over", !left);
      if (!left && el.dataset.clock) clockDue(el);
    });
  }
  setInterval(countdown, 1000);

  // -- the clock: at zero a screen asks for the horn (or the next round) -----------------------
  // The server decides; the first screen to ask makes it happen and the rest are told it is
  // done. The TV and the host ask at once, a table's phone a moment later, a guest's phone
  // last, so a room of phones does not all ask at the same instant.
  var clockAsked = {};
  function clockDelay() {
    if (document.body.classList.contains("tv") || document.querySelector(".host-controls")) return 0;
    return (document.querySelector("[data-pad]") ? 1000 : 3000) + Math.random() * 2000;
  }
  function clockDue(el) {
    var id = el.dataset.clock + ":" + el.dataset.ends, now = Date.now();
    if (clockAsked[id] === undefined) clockAsked[id] = now + clockDelay();
    if (now < clockAsked[id] || !socket || !socketOpen) return;
    var b = document.getElementById("banner");
    if (!b || !b.dataset.round) return;
    socket.send(JSON.stringify({type: "clock", what: el.dataset.clock,
      set: b.dataset.set === "" ? null : Number(b.dataset.set), round: Number(b.dataset.round)}));
    clockAsked[id] = now + 5000; // still showing zero in 5 s (a table still playing): ask again
  }

  // -- the TV pages through what does not fit its screen ---------------------------------------
  // A list marked data-pages shows as many of its items as fit its box, a page at a time, and
  // turns the page every few seconds. Pushed fragments replace items (or the whole list) at
  // any time, so which items show is one style rule per list, by position, not a mark on the
  // items; a list is measured again when it is replaced, on resize and as each page turns.
  var PAGE_MS = 8000;
  var pager = {
    lists: {},  // id -> {el, page, per, pages}
    style: null,
    measure: function (el) {
      var items = el.children, n = items.length, st = this.lists[el.id], rowH = 0;
      this.rule(el.id, 1, n);  // everything shown while measuring: no paint happens meanwhile
      var per = Math.max(1, n);
      if (n) {
        // A table's body grows with its rows: its box is the section around it.
        var boxEl = el.closest("[data-pager-box]") || el, first = items[0].getBoundingClientRect();
        var bottom = boxEl.getBoundingClientRect().bottom
          - (parseFloat(getComputedStyle(boxEl).paddingBottom) || 0);
        // Laid out whole, the items that end above the box's bottom fit: as many whole
        // rows as that (a row as tall as its tallest item), and always one row.
        var cols = 0, fit = 0, fitting = true;
        rowH = 0;
        for (var i = 0; i < n; i++) {
          var r = items[i].getBoundingClientRect();
          if (Math.abs(r.top - first.top) < 2) cols++;
          else if (!fitting) break;  // the first row counted, and one item already did not fit
          if (fitting && r.bottom <= bottom + 1) {
            fit = i + 1;
            rowH = Math.max(rowH, r.height);
          } else {
            fitting = false;
          }
        }
        cols = Math.max(1, cols);
        per = fit < n ? Math.max(cols, fit - fit % cols) : n;
        if (!rowH) rowH = first.height;
      }
      var pages = Math.max(1, Math.ceil(n / per));
      st = this.lists[el.id] = {el: el, per: per, pages: pages, rowH: rowH,
                                page: st ? Math.min(st.page, pages - 1) : 0};
      return st;
    },
    rule: function (id, from, to) {
      if (!this.style) {
        this.style = document.createElement("style");
        document.head.appendChild(this.style);
      }
      this.rules = this.rules || {};
      this.rules[id] = "#" + id + " > :not(:nth-child(n+" + from + "):nth-child(-n+" + to + ")) { display: none !important; }";
      this.style.textContent = Object.keys(this.rules).map(function (k) { return this.rules[k]; }, this).join("\n");
    },
    apply: function (remeasure) {
      var self = this;
      document.querySelectorAll("[data-pages]").forEach(function (el) {
        // The id the page's rule names; fragments carry it as data so they stay plain lists.
        if (!el.id) el.id = el.dataset.pages;
        var st = self.lists[el.id];
        if (remeasure || !st || st.el !== el || self.grown(el, st)) st = self.fit(el);
        self.rule(el.id, st.page * st.per + 1, (st.page + 1) * st.per);
      });
    },
    // Measured without the "Tables 13-24 of 100" label first: when everything fits, there is
    // no label (and a list that fits once its label goes never stays paged); when it does
    // not, the label takes its space and the list is measured again with it.
    fit: function (el) {
      this.label(el, null);
      var st = this.measure(el);
      if (st.pages > 1) {
        this.label(el, st);
        st = this.measure(el);
      }
      this.label(el, st);
      return st;
    },
    label: function (el, st) {  // "Tables 13–24 of 100", or nothing (st null: measuring)
      var n = el.children.length, label = document.querySelector("[data-pager-of='" + el.id + "']");
      if (!label) return;
      var what = el.dataset.pagerLabel;
      label.textContent = !st || st.pages < 2 ? "" : (what ? what + " " : "")
        + (st.page * st.per + 1) + "–" + Math.min(n, (st.page + 1) * st.per) + " of " + n;
    },
    grown: function (el, st) {  // an item pushed since grew taller (a tie-break's note, say)
      for (var i = st.page * st.per; i < Math.min(el.children.length, (st.page + 1) * st.per); i++) {
        if (el.children[i].getBoundingClientRect().height > st.rowH + 1) return true;
      }
      return false;
    },
    turn: function () {
      var self = this;
      Object.keys(this.lists).forEach(function (id) {
        var st = self.lists[id];
        if (document.getElementById(id) !== st.el) return;
        st = self.fit(st.el);
        st.page = (st.page + 1) % st.pages;
        self.label(st.el, st);
      });
      this.apply();
    }
  };
  if (document.querySelector("[data-pages]")) {
    setInterval(function () { pager.turn(); }, PAGE_MS);
    window.addEventListener("resize", function () { pager.apply(true); });
  }

  // -- which position a tap names ----------------------------------------------------------
  // A tap names what the person saw: the round, the table and its position. A change on the
  // screen newer than a person can react to (another phone's tap of the same roll arriving a
  // moment before this thumb lands) does not count as seen; a second tap that quick is the
  // same tap (a double tap); and taps still waiting to be sent (offline) move the position on.
  var REACTION_MS = 600;
  var seen = [], lastTap = null;
  function shownClaim() {
    var t = document.querySelector(".table-live");
    if (!t) return null;
    var d = t.dataset;
    return {set: d.set, round: d.round, table: d.table, pos: Number(d.pos)};
  }
  function sameClaim(a, b) {
    return a.set === b.set && a.round === b.round && a.table === b.table && a.pos === b.pos;
  }
  function noteShown() {
    var c = shownClaim();
    if (!c) return;
    var last = seen[seen.length - 1];
    if (!last || !sameClaim(last.claim, c)) {
      seen.push({at: Date.now(), claim: c});
      if (seen.length > 20) seen.shift();
    }
  }
  function claimForTap() {
    var now = Date.now();
    if (lastTap && now - lastTap.at < REACTION_MS) return lastTap.claim;
    noteShown();
    var shown = shownClaim();
    if (!shown) return null;
    // Only a newer position in the same round is discounted: a new round brings a new pad.
    for (var i = seen.length - 1; i >= 0; i--) {
      var c = seen[i].claim;
      if (c.set !== shown.set || c.round !== shown.round || c.table !== shown.table) break;
      shown = c;
      if (seen[i].at <= now - REACTION_MS) break;
    }
    var claim = {set: shown.set, round: shown.round, table: shown.table, pos: shown.pos};
    load().forEach(function (item) {
      var f = item.fields;
      if (f.set === claim.set && f.round === claim.round && f.table === claim.table
          && Number(f.pos) >= claim.pos) claim.pos = Number(f.pos) + 1;
    });
    lastTap = {at: now, claim: claim};
    return claim;
  }

  // -- taps: kept in an outbox until the server has them, each with its own id ----------------
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
  function csrf() { var m = /csrftoken=([^;]+)/.exec(document.cookie); return m ? m[1] : ""; }
  var flushing = false;

  function toast(text) {
    var t = document.getElementById("toast");
    if (!t) return;
    t.textContent = text; t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.hidden = true; }, 4000);
  }
  function replaceById(html) {
    if (!html) return;
    var tpl = document.createElement("template");
    tpl.innerHTML = keepNewer(html.trim());
    var fresh = tpl.content.firstElementChild;
    var old = fresh && document.getElementById(fresh.id);
    if (old) { old.replaceWith(fresh); htmx.process(fresh); refresh(); }
  }

  // A tap's answer, over the websocket or HTTP alike: it leaves the outbox either way.
  var busyDelay = 0;
  function answered(item, json) {
    if (json.retry) {
      // "Slow down" or "busy": the tap stays in the outbox and is sent again, a little later
      // each time, in its turn (so taps keep their order and are never lost).
      busyDelay = Math.min(8000, busyDelay ? busyDelay * 2 : 500);
      if (busyDelay === 500) toast(json.error || "Busy: your tap is kept and will be sent again");
      flushing = false; setTimeout(flush, busyDelay);
      return;
    }
    busyDelay = 0;
    save(load().filter(function (x) { return x.fields.key !== item.fields.key; }));
    // A refusal stays on screen, next to the tally, until the scorekeeper dismisses it.
    if (!json.ok) addRefused(item, json.error || "That tap was not accepted");
    else if (json.duplicate || json.message) toast(json.message || "Already recorded");
    replaceById(json.html);
    // Refused or already recorded: the night moved on while this screen was not looking.
    // Ask for whatever else is behind (the banner, a new round) instead of waiting.
    if ((!json.ok || json.duplicate) && socket) {
      socket.send(JSON.stringify({type: "sync", shows: shows()}));
    }
    flushing = false; flush();
  }

  // Taps go over the screen's open websocket (no HTTP request per tap); while it is closed,
  // over HTTP; offline, they wait. Either way the same key and claim, so nothing counts twice.
  var waitingAck = null;
  function flush() {
    // Drawn on every call, also while an earlier tap is still on its way: a tap made then
    // shows as "waiting to send" at once, not when the one before it is answered.
    pendingShown();
    drawWaiting();
    if (flushing) return;
    var q = load();
    if (!q.length) { document.body.classList.remove("pending"); return; }
    flushing = true;
    document.body.classList.add("pending");
    var item = q[0];
    var action = item.url.replace(/\/$/, "").split("/").pop();
    if (socket && socketOpen) {
      waitingAck = {item: item, timer: setTimeout(function () {
        waitingAck = null; flushing = false; setTimeout(flush, 1000); // no answer yet: resend
      }, 5000)};
      socket.send(JSON.stringify({type: "tap", action: action, fields: item.fields}));
      return;
    }
    var body = new URLSearchParams(item.fields);
    fetch(item.url, {method: "POST", body: body, headers: {"X-CSRFToken": csrf()}, credentials: "same-origin"})
      .then(function (r) { return r.text().then(function (text) { return httpAnswer(r.status, text); }); })
      .then(function (json) { answered(item, json); },
        // Only a network failure (no answer at all) means offline: keep the tap, try later.
        function () { flushing = false; setTimeout(flush, 2000); });
  }
  // Any HTTP answer is an answer (403, 409, 500, with or without JSON): the tap leaves the
  // outbox and is shown. Only "slow down" (429, or "retry" in the body) keeps it for later.
  function httpAnswer(status, text) {
    var json = null;
    try { json = JSON.parse(text); } catch (e) { json = null; }
    if (!json || typeof json !== "object") {
      json = {ok: false, error: "The app could not take that tap (error " + status + "); it was not counted"};
    }
    if (status === 429) json.retry = true;
    if (status >= 400 && json.ok) json.ok = false;
    return json;
  }
  function ackArrived(json) {
    if (!waitingAck || waitingAck.item.fields.key !== json.key) return;
    clearTimeout(waitingAck.timer);
    var item = waitingAck.item;
    waitingAck = null;
    answered(item, json);
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute("data-outbox")) {
      // Fragments pushed over the websocket are rendered once for everyone, so they carry no
      // per-browser CSRF token: add this browser's from its cookie.
      if (form.method.toLowerCase() === "post" && !form.querySelector("[name=csrfmiddlewaretoken]")) {
        var input = document.createElement("input");
        input.type = "hidden"; input.name = "csrfmiddlewaretoken"; input.value = csrf();
        form.appendChild(input);
      }
      return;
    }
    e.preventDefault();
    var fields = {};
    new FormData(form, e.submitter).forEach(function (v, k) { fields[k] = v; });
    fields.key = uuid4();
    if (form.hasAttribute("data-claim")) {
      var claim = claimForTap();
      if (!claim) return;
      fields.set = claim.set; fields.round = claim.round;
      fields.table = claim.table; fields.pos = String(claim.pos);
    }
    var q = load();
    var turn = document.querySelector(".table-live .turn");
    q.push({url: new URL(form.getAttribute("action"), location.href).href, fields: fields,
            who: turn ? (turn.dataset.nowRoller || turn.dataset.roller || "") : ""});
    save(q);
    unlockAudio();
    flush();
  });
  window.addEventListener("online", flush);
  flush();

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

  // -- the host's controls follow the banner: which show, and the round they name -------------
  function applyPhase() {
    var b = document.getElementById("banner");
    if (!b) return;
    var d = b.dataset, flags = {"paused": d.paused === "1", "bell-rung": d.bellRung === "1",
      "can-unbell": d.canUnbell === "1", "can-reopen": d.canReopen === "1",
      "on-break": d.onBreak === "1"};
    document.querySelectorAll("[data-phases]").forEach(function (el) {
      el.hidden = el.dataset.phases.split(" ").indexOf(d.phase) < 0;
    });
    document.querySelectorAll("[data-when]").forEach(function (el) { el.hidden = !flags[el.dataset.when]; });
    document.querySelectorAll("[data-unless]").forEach(function (el) {
      if (el.dataset.phases && el.hidden) return;
      el.hidden = !!flags[el.dataset.unless];
    });
    document.querySelectorAll("[data-fill=next-round]").forEach(function (el) {
      // Name the set too when the night has more than one ("start set 2, round 1").
      el.textContent = (el.dataset.sets !== "1" && d.set ? "set " + d.set + ", " : "") + "round " + d.round;
    });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute("data-claim-round")) return;
    var b = document.getElementById("banner");
    if (!b) return;
    form.querySelector("[name=set]").value = b.dataset.set || "";
    form.querySelector("[name=round]").value = b.dataset.round || "";
  }, true);

  // -- the host takes back an entry: first see what it changes, then confirm ------------------
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-takeback]");
    var main = document.querySelector("[data-takeback-url]");
    if (!btn || !main) return;
    var dialog = document.getElementById("takeback");
    var what = btn.dataset.takeback;
    if (what === "entry") {  // the number typed next to the button
      var box = document.querySelector("[data-takeback-entry]");
      what = box ? box.value.trim() : "";
    }
    fetch(main.dataset.takebackUrl + "?what=" + encodeURIComponent(what), {credentials: "same-origin"})
      .then(function (r) { return r.text(); })
      .then(function (html) {
        dialog.querySelector("[data-takeback-body]").innerHTML = html;
        dialog.querySelectorAll("form[method=post]").forEach(function (f) {
          if (!f.querySelector("[name=csrfmiddlewaretoken]")) {
            var i = document.createElement("input");
            i.type = "hidden"; i.name = "csrfmiddlewaretoken"; i.value = csrf(); f.appendChild(i);
          }
        });
        dialog.showModal();
      })
      .catch(function () { toast("Could not reach the app; try again"); });
  });

  // -- who keeps score on this phone -----------------------------------------------------------
  var TOGGLE = "bunco-scorer:" + location.pathname;
  function applyScorerToggle() {
    var box = document.querySelector("[data-scorer-toggle]");
    if (!box) return;
    var stored = localStorage.getItem(TOGGLE);
    if (stored !== null) box.checked = stored === "1";
    document.body.classList.toggle("scorer", box.checked);
  }
  // -- taps waiting to send: drawn on the tally, and the turn moved on by itself --------------
  // Each waiting tap is a row in the table's roll list ("waiting to send"), and the turn line
  // shows who rolls after them, from the turn order and the rolls that keep the turn that the
  // table fragment carries (the engine's), so the scorekeeper keeps entering the right rolls.
  function actionOf(item) { return item.url.replace(/\/$/, "").split("/").pop(); }
  function describe(item) {
    var f = item.fields, action = actionOf(item);
    if (action === "undo") return "Undo last";
    if (action === "finish") return "Done (nobody was rolling)";
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
      return f.set === d.set && f.round === d.round && f.table === d.table && Number(f.pos) >= Number(d.pos);
    });
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
    if (!mine.length) { turn.innerHTML = turn.dataset.shownHtml; return; }
    turn.textContent = "";
    var waiting = mine.length === 1 ? "1 tap waiting to send" : mine.length + " taps waiting to send";
    if (known) {
      var next = order[at % order.length];
      turn.dataset.nowRoller = next;
      var strong = document.createElement("strong"), bdi = document.createElement("bdi");
      bdi.textContent = next; strong.appendChild(bdi); turn.appendChild(strong);
      turn.appendChild(document.createTextNode("'s turn "));
    } else {
      turn.appendChild(document.createTextNode("Next roller shows when your taps are sent "));
    }
    var small = document.createElement("small"); small.className = "after-waiting";
    small.textContent = "(after " + waiting + ")"; turn.appendChild(small);
  }

  // -- refused taps: kept on screen until dismissed --------------------------------------------
  var REFUSED = "bunco-refused:" + location.pathname;
  function loadRefused() { try { return JSON.parse(localStorage.getItem(REFUSED) || "[]"); } catch (e) { return []; } }
  function addRefused(item, error) {
    var list = loadRefused();
    var f = item.fields;
    list.push({key: f.key, what: describe(item), who: item.who || "", error: error,
               round: f.round || "", table: f.table || ""});
    localStorage.setItem(REFUSED, JSON.stringify(list.slice(-10)));
    drawRefused();
  }
  function drawRefused() {
    var box = document.querySelector("[data-refused]");
    if (!box) return;
    var list = loadRefused();
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
      var btn = document.createElement("button");
      btn.type = "button"; btn.className = "secondary dismiss"; btn.dataset.dismiss = r.key;
      btn.textContent = "Dismiss";
      li.appendChild(btn);
      ul.appendChild(li);
    });
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-dismiss]");
    if (!btn) return;
    localStorage.setItem(REFUSED, JSON.stringify(loadRefused().filter(function (r) {
      return r.key !== btn.dataset.dismiss;
    })));
    drawRefused();
  });

  function pendingShown() {
    var waiting = load().length;
    document.querySelectorAll(".pending-note").forEach(function (p) {
      p.textContent = waiting ? (waiting === 1 ? "Sending your tap…" : waiting + " taps waiting to send…") : "";
    });
  }
  document.addEventListener("change", function (e) {
    if (e.target.matches("[data-scorer-toggle]")) {
      localStorage.setItem(TOGGLE, e.target.checked ? "1" : "0");
      applyScorerToggle();
    }
  });
  refresh();

  // -- the bell: sound and vibration when it rings --------------------------------------------
  var audio = null;
  function unlockAudio() {
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    }
    if (audio && audio.state === "suspended") audio.resume();
  }
  document.addEventListener("pointerdown", unlockAudio, {once: true});
  function ding() {
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    if (!audio) return;
    [880, 1320].forEach(function (f, i) {
      var o = audio.createOscillator(), g = audio.createGain(), t = audio.currentTime + i * 0.18;
      o.frequency.value = f; o.type = "sine";
      g.gain.setValueAtTime(0.4, t); g.gain.exponentialRampToValueAtTime(0.001, t + 1.2);
      o.connect(g); g.connect(audio.destination); o.start(t); o.stop(t + 1.2);
    });
  }
  // A bell rings (and the phone dings) once for each bell it has not shown yet: the room's
  // (the banner's bell id) and, in pods, the bell of this table's pod (its table's bell duty).
  var bellWatch = {
    shown: null,
    read: function () {
      var out = [], b = document.getElementById("banner");
      if (b && b.dataset.bell) out.push(b.dataset.bell);
      var duty = document.querySelector(".table-live .bell-duty");
      var t = duty && duty.closest(".table-live");
      if (t) out.push("pod:" + t.dataset.set + "-" + t.dataset.round);
      return out;
    },
    before: function () {
      if (this.shown) return;
      this.shown = {};
      this.read().forEach(function (k) { this.shown[k] = true; }, this);
    },
    after: function () {
      var fresh = this.read().filter(function (k) { return !this.shown[k]; }, this);
      // The room's bell rings every pod: the table's bell duty that follows it is the same bell.
      fresh.forEach(function (k) {
        this.shown[k] = true;
        if (k.indexOf("pod:") !== 0) this.shown["pod:" + k] = true;
      }, this);
      if (fresh.length) { document.body.dataset.rang = fresh[0]; ding(); }
    }
  };

  // -- keep the screen awake while playing (where the browser allows it) ----------------------
  function wake() {
    if (navigator.wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").catch(function () {});
    }
  }
  document.addEventListener("visibilitychange", wake);
  wake();
})();
