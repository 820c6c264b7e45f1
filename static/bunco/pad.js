// The phones' scorekeeping on the page: the dice pad, who keeps score on this phone, the taps
// waiting to send drawn on the tally (and the turn moved on by them), and the "Not counted"
// list. The taps themselves go through the outbox (outbox.js, window.bunco.outbox), which this
// page feeds and draws. Uses window.bunco (live.js).
(function () {
  "use strict";
  var bunco = window.bunco;
  if (!bunco || !bunco.outbox) return;
  var sameTable = bunco.outbox.sameTable, actionOf = bunco.outbox.actionOf;

  // The table as the screen shows it: the position a tap names starts here.
  function shownClaim() {
    var t = document.querySelector(".table-live");
    if (!t) return null;
    var d = t.dataset;
    return {set: d.set, round: d.round, table: d.table, pos: Number(d.pos)};
  }
  // Who rolls next as the screen shows it (past the taps still waiting to send).
  function rollerNow() {
    var turn = document.querySelector(".table-live .turn");
    return turn ? (turn.dataset.nowRoller || turn.dataset.roller || "") : "";
  }
  function drawPending() {
    var q = outbox.queued();
    var text = !q.length ? "" : q.length === 1 ? "Sending your tap…" : q.length + " taps waiting to send…";
    if (q.length && q[0].why) {  // not "sending" while it cannot: say why it waits instead
      text = (q.length === 1 ? "1 tap waiting. " : q.length + " taps waiting. ") + q[0].why;
    }
    document.querySelectorAll(".pending-note").forEach(function (p) {
      if (p.textContent !== text) p.textContent = text;
    });
  }

  // The night was deleted on the laptop: said at the top of the page, for good.
  function drawGone(text) {
    var main = document.querySelector("main") || document.body;
    var note = document.querySelector("[data-night-gone]");
    if (!note) {
      note = document.createElement("p");
      note.className = "error-box";
      note.setAttribute("role", "alert");
      note.setAttribute("data-night-gone", "");
      note.setAttribute("data-testid", "night-gone");
      main.insertBefore(note, main.firstChild);
    }
    note.textContent = text;
  }

  var outbox = bunco.outbox.create(bunco, {
    storage: localStorage,
    path: location.pathname,
    here: function () { return location.href; },
    shown: shownClaim,
    roller: rollerNow,
    describe: describe,
    drawPending: drawPending,
    drawWaiting: drawWaiting,
    drawRefused: drawRefused,
    drawGone: drawGone,
    busy: function (on) { document.body.classList.toggle("pending", on); }
  });
  window.addEventListener("online", function () { outbox.online(); });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute("data-outbox")) return;
    e.preventDefault();
    var fields = {};
    new FormData(form, e.submitter).forEach(function (v, k) { fields[k] = v; });
    if (form.hasAttribute("data-claim")) fields.claim = true;
    outbox.intend(form.getAttribute("action"), fields);
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
  // "Faye: miss, waiting to send", as a logged roll reads
  function waitingRow(row) {
    var li = document.createElement("li"), said = describe(row.item);
    li.className = "waiting"; li.setAttribute("data-testid", "waiting");
    if (row.who) {
      var b = document.createElement("bdi"); b.className = "roller"; b.textContent = row.who;
      li.append(b, ": ");
    }
    li.append(/^[A-Z][a-z]/.test(said) ? said[0].toLowerCase() + said.slice(1) : said, ", waiting to send");
    return li;
  }
  function drawWaiting() {
    document.querySelectorAll(".rolls li.waiting").forEach(function (li) { li.remove(); });
    var t = document.querySelector(".table-live");
    if (!t) return;
    var mine = outbox.waitingAt(t.dataset);
    var turn = t.querySelector(".turn");
    var order = null;
    try { order = t.dataset.turns ? JSON.parse(t.dataset.turns) : null; } catch (e) { order = null; }
    var after = bunco.outbox.turnAfter(mine, order, t.dataset.keeps ? t.dataset.keeps.split(" ") : []);
    var list = t.querySelector("ol.rolls");
    if (mine.length && !list) {
      list = document.createElement("ol"); list.className = "rolls"; t.appendChild(list);
    }
    after.rows.forEach(function (row) { list.insertBefore(waitingRow(row), list.firstChild); });
    if (!turn) return;
    if (turn.dataset.shownHtml === undefined) turn.dataset.shownHtml = turn.innerHTML;
    delete turn.dataset.nowRoller;
    if (!mine.length) { turn.innerHTML = turn.dataset.shownHtml; sayYou(turn); return; }
    turn.textContent = "";
    var waiting = mine.length === 1 ? "1 tap waiting to send" : mine.length + " taps waiting to send";
    if (after.known) {
      var next = after.next;
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

  // -- refused taps: kept on screen until dismissed or entered again --------------------------
  function button(text, cls, data, value) {
    var btn = document.createElement("button");
    btn.type = "button"; btn.className = cls; btn.dataset[data] = value; btn.textContent = text;
    return btn;
  }
  function refusedRow(r, shown, t) {
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
    return li;
  }
  function drawRefused() {
    var box = document.querySelector("[data-refused]");
    if (!box) return;
    var list = outbox.refused(), shown = shownClaim(), t = document.querySelector(".table-live");
    box.hidden = !list.length;
    var ul = box.querySelector("ul");
    ul.textContent = "";
    list.forEach(function (r) { ul.appendChild(refusedRow(r, shown, t)); });
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-dismiss], [data-again]");
    if (!btn) return;
    outbox.takeRefused(btn.dataset.dismiss || btn.dataset.again, !!btn.dataset.again);
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
    noteTakenBack(); outbox.refreshed(); applyScorerToggle(); showChosen(); syncPad(); drawWaiting();
    drawRefused();
  });
  noteTakenBack(); applyScorerToggle(); showChosen(); syncPad();
  drawRefused();
  outbox.start();
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
