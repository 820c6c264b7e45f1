// Live screens: websocket state, stale-message guard, an outbox for taps, the dice pad,
// the bell (sound + vibration) and keeping the screen awake. No framework beyond htmx.
(function () {
  "use strict";
  htmx.config.wsReconnectDelay = function (retry) {
    return Math.min(3000, 300 * Math.pow(2, retry)); // reconnect fast: capped at 3 s
  };

  // Leave alone what a push did not change: a button being tapped must not be swapped out from
  // under a finger just because another table rolled.
  htmx.defineExtension("bunco-diff", {
    transformResponse: function (text) {
      var tpl = document.createElement("template");
      tpl.innerHTML = text;
      Array.prototype.slice.call(tpl.content.children).forEach(function (el) {
        var old = el.id && document.getElementById(el.id);
        if (old && el.id !== "sync" && old.innerHTML === el.innerHTML && old.className === el.className) {
          el.remove();
        }
      });
      return tpl.innerHTML;
    }
  });

  var lastSeq = Number((document.getElementById("sync") || {dataset: {}}).dataset.seq || 0);
  var socket = null;

  function seqOf(html) {
    var m = /id="sync" data-seq="(\d+)"/.exec(html);
    return m ? Number(m[1]) : null;
  }

  document.body.addEventListener("htmx:wsOpen", function (e) {
    socket = e.detail.socketWrapper;
    document.body.classList.remove("offline");
    flush();
  });
  document.body.addEventListener("htmx:wsClose", function () {
    document.body.classList.add("offline");
  });
  document.body.addEventListener("htmx:wsBeforeMessage", function (e) {
    var seq = seqOf(e.detail.message);
    if (seq !== null && seq < lastSeq) { e.preventDefault(); return; } // an older push
    if (seq !== null) lastSeq = seq;
    bellWatch.before();
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    bellWatch.after();
    applyScorerToggle();
    showChosen();
  });
  // Pushes are at most once: every 15 s the screen says what it has; the server answers with a
  // fresh snapshot if the night has moved on.
  setInterval(function () {
    if (socket) socket.send(JSON.stringify({type: "sync", seq: lastSeq}));
  }, 15000);

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
  function replaceById(html, seq) {
    if (!html || (seq && seq < lastSeq)) return; // a push already brought something newer
    if (seq) lastSeq = seq;
    var tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    var fresh = tpl.content.firstElementChild;
    var old = fresh && document.getElementById(fresh.id);
    if (old && (old.innerHTML !== fresh.innerHTML || old.className !== fresh.className)) {
      old.replaceWith(fresh); htmx.process(fresh); applyScorerToggle(); showChosen();
    }
  }

  function flush() {
    if (flushing) return;
    var q = load();
    if (!q.length) { document.body.classList.remove("pending"); return; }
    flushing = true;
    document.body.classList.add("pending");
    var item = q[0];
    var body = new URLSearchParams(item.fields);
    fetch(item.url, {method: "POST", body: body, headers: {"X-CSRFToken": csrf()}, credentials: "same-origin"})
      .then(function (r) { return r.json().then(function (j) { return {status: r.status, json: j}; }); })
      .then(function (res) {
        save(load().filter(function (x) { return x.fields.key !== item.fields.key; }));
        if (!res.json.ok) toast(res.json.error || "That tap was not accepted");
        replaceById(res.json.html, res.json.seq);
        flushing = false; flush();
      })
      .catch(function () { flushing = false; setTimeout(flush, 2000); }); // offline: keep it
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
    var q = load();
    q.push({url: new URL(form.getAttribute("action"), location.href).href, fields: fields});
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
      p.textContent = chosen.length
        ? chosen.map(function (d) { return "⚀⚁⚂⚃⚄⚅"[d - 1]; }).join(" ") + " …"
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
  applyScorerToggle();

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
  var bellWatch = {
    state: null,
    read: function () {
      var b = document.getElementById("banner");
      return b ? b.dataset.bell : "";
    },
    before: function () { this.state = this.read(); },
    after: function () {
      var now = this.read();
      if (now && now !== this.state) { document.body.dataset.rang = now; ding(); }
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
