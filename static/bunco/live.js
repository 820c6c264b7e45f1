// What every live screen shares (phones, the TV, the host): the websocket's state and capped
// reconnect, the stale-fragment guard, the periodic resync, countdowns and the clock, the bell
// (sound + vibration), keeping the screen awake and waking. Each face adds its own on its own
// pages, through window.bunco: the phones' pad (pad.js) and tap outbox (outbox.js), the TV's pager
// (tv.js), the host's controls and take-backs (host.js).
(function () {
  "use strict";
  htmx.config.wsReconnectDelay = function (retry) {
    return Math.min(3000, 300 * Math.pow(2, retry)); // reconnect fast: capped at 3 s
  };

  // Every pushed fragment carries data-seq: the sequence number of the last event that changed
  // it. An older copy than the one shown is dropped, and so is an unchanged one, so a button
  // being tapped is not swapped out from under a finger because another table rolled. A part
  // this page does not show (a table on another page of the host's) is dropped too.
  function keepNewer(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    Array.prototype.slice.call(tpl.content.children).forEach(function (el) {
      var old = el.id && document.getElementById(el.id);
      if (!old) { if (el.id) el.remove(); return; }
      // Only a live fragment (it has a data-seq) can be older or the same as what is shown; a
      // form's answer (a field's new value, a message) always goes in.
      if (!el.hasAttribute("data-seq")) return;
      var seqNew = Number(el.dataset.seq || 0), seqOld = Number(old.dataset.seq || 0);
      if (seqNew < seqOld || (old.innerHTML === el.innerHTML && old.className === el.className
          && seqNew === seqOld)) {
        el.remove();
      }
    });
    return tpl.innerHTML;
  }
  htmx.defineExtension("bunco-diff", {
    transformResponse: keepNewer,
    init: function (api) {
      // A websocket that fails to connect is no error to report: the page says
      // "Reconnecting…" and tries again. (htmx would print each failure as "[object Event]".)
      var raise = api.triggerErrorEvent;
      api.triggerErrorEvent = function (elt, name, detail) {
        if (name === "htmx:wsError" && detail && detail.error instanceof Event) {
          detail = Object.assign({}, detail, {error: undefined});
        }
        return raise.call(this, elt, name, detail);
      };
    }
  });

  // What the other scripts of a page hook into: "open" and "close" of the websocket, "ack" (a
  // tap's answer frame), "refresh" (after anything on the screen changed).
  var hooks = {open: [], close: [], ack: [], refresh: []};
  var bunco = window.bunco = {
    socket: null,
    open: false,
    on: function (name, fn) { hooks[name].push(fn); },
    send: function (message) {
      if (!bunco.socket || !bunco.open) return false;
      bunco.socket.send(JSON.stringify(message));
      return true;
    },
    sync: function () { bunco.send(syncMessage()); },
    toast: toast,
    replaceById: replaceById,
    csrf: csrf,
    // The clock every time reading and deadline of the live scripts goes by (ms; a test
    // replaces it to hold time), and now on the server's clock (this device's may be off).
    now: function () { return Date.now(); },
    serverNow: function () { return bunco.now() + skew; },
    unlockAudio: function () { unlockAudio(); }
  };
  function fire(name, arg) { hooks[name].forEach(function (fn) { fn(arg); }); }

  // What this screen shows, for the periodic resync: each live fragment's id and seq, and
  // its tables in compact form (tables[n - 1]: the seq of table n shown, 0 where none), so a
  // TV of 500 tables says it in a few KB.
  function syncMessage() {
    var out = {type: "sync", shows: {}, tables: []};
    document.querySelectorAll("[id][data-seq]").forEach(function (el) {
      var seq = Number(el.dataset.seq || 0), m = /^table-(\d+)$/.exec(el.id);
      if (!m) { out.shows[el.id] = seq; return; }
      var n = Number(m[1]);
      if (n > 2000) { out.shows[el.id] = seq; return; }
      while (out.tables.length < n) out.tables.push(0);
      out.tables[n - 1] = seq;
    });
    return out;
  }

  // A socket replaced on waking (below) that closes later is not news.
  var current = null;
  document.body.addEventListener("htmx:wsOpen", function (e) {
    current = e.detail.event.target;
    heard = bunco.now();
    bunco.socket = e.detail.socketWrapper;
    bunco.open = true;
    document.body.classList.remove("offline");
    fire("open");
    // What it shows, at every (re)connect: a server opened again from an older copy finds
    // the page ahead of its log (and has it reload), which its snapshot alone cannot say.
    // A phone says too how its connection fares (net, below).
    net.opens++;
    var hello = syncMessage();
    if (net.phone) hello.net = net.report();
    bunco.send(hello);
    if (net.phone) setTimeout(net.ping, 3000);
  });
  document.body.addEventListener("htmx:wsClose", function (e) {
    if (current && e.detail.event.target !== current) return;
    bunco.open = false;
    document.body.classList.add("offline");
    fire("close");
  });
  // The phone lost its network (Wi-Fi dropped) while its socket has not noticed yet: say so
  // at once. Anything heard on an open socket afterwards means it is back.
  window.addEventListener("offline", function () { document.body.classList.add("offline"); });
  document.body.addEventListener("htmx:wsBeforeMessage", function (e) {
    var text = e.detail.message;
    heard = bunco.now();
    if (bunco.open && navigator.onLine !== false) document.body.classList.remove("offline");
    if (typeof text === "string" && text.charAt(0) === "{") {
      e.preventDefault(); // an answer, not HTML to swap
      try { var json = JSON.parse(text); } catch (err) { return; }
      if (json.type === "ack") fire("ack", json);
      if (json.type === "pong") net.pong();
      // The server asks what this screen shows (another process wrote to the night, or a
      // push may have failed): it answers with what is behind, if anything.
      if (json.type === "sync") bunco.sync();
      // The night was opened again from an older copy (a laptop that died): this page shows
      // entries the log does not have, so it is drawn anew (waiting taps stay in the outbox).
      if (json.type === "reload") location.reload();
      return;
    }
    bellWatch.before();
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    bellWatch.after();
    refresh();
  });
  // Pushes are at most once. With several workers, every so often (the server says:
  // data-sync-every, seconds; 0 on one process, whose server asks instead) the screen says
  // what it shows; the server answers with a fresh snapshot only if one of those fragments is
  // behind. It says so too on waking and on every reconnect (a snapshot).
  var live = document.querySelector("[data-sync-every]");
  var syncEvery = live ? Number(live.dataset.syncEvery) : 10;
  if (syncEvery > 0) setInterval(function () { bunco.sync(); }, syncEvery * 1000);
  // The server says something at least every 25 s: a socket silent for longer than
  // data-silent-after (seconds) died without closing (Wi-Fi that blipped) and is replaced.
  var silentAfter = (Number(live && live.dataset.silentAfter) || 60) * 1000;
  setInterval(function () {
    var s = socketNow();
    if (document.hidden || !s || s.ws.readyState !== 1
        || bunco.now() - Math.max(heard, woke) < silentAfter) return;
    heard = bunco.now();  // once per silence: the new socket's snapshot is heard next
    replace(s.conn, s.ws);
  }, 5000);

  // -- how a phone's connection fares: the host sees a table whose phones struggle ----------
  // Its reconnects since the page loaded and a measured round trip go with the sync sent at
  // every (re)connect, and a ping measures the round trip 3 s after it (docs/roomcheck.md).
  // Afterwards nothing goes on a timer (400 phones pinging every 30 s cost the server as much
  // as a third of its taps): a tap's answer is the round trip measured, and the server hears
  // of it only when it is news, a slow one (at most every 30 s) or the first fast one after.
  var SLOW_MS = 1000, SLOW_EVERY = 30000;
  var net = {
    opens: 0, rtt: null, sent: 0, slowTold: false, toldAt: 0,
    phone: document.body.classList.contains("phone"),
    report: function () { return {re: Math.max(0, net.opens - 1), rtt: net.rtt}; },
    ping: function () {
      if (!bunco.open || document.hidden) return;
      net.sent = bunco.now();
      bunco.send({type: "ping", net: net.report()});
    },
    pong: function () {
      if (net.sent) net.measured(bunco.now() - net.sent, false);
      net.sent = 0;
    },
    measured: function (ms, tell) {
      net.rtt = Math.round(ms);
      var slow = net.rtt > SLOW_MS, now = bunco.now();
      if (net.phone && tell && (slow ? now - net.toldAt >= SLOW_EVERY : net.slowTold)
          && bunco.send({type: "ping", net: net.report()})) {
        net.slowTold = slow;
        net.toldAt = now;
      }
    }
  };
  // A tap's round trip over the socket (outbox.js): told to the server only when it is news.
  bunco.roundTrip = function (ms) { net.measured(ms, true); };

  function refresh() {
    countdown();
    fire("refresh");  // the TV's pager (tv.js) and the host's controls (host.js) follow
  }

  function csrf() { var m = /csrftoken=([^;]+)/.exec(document.cookie); return m ? m[1] : ""; }
  function toast(text) {
    var t = document.getElementById("toast");
    if (!t) return;
    t.textContent = text; t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.hidden = true; }, Math.max(4000, text.length * 60));
  }
  // A toast sits over the bottom of the screen (a phone's pad): a tap on it puts it away, and
  // never reaches the button it hides.
  document.addEventListener("click", function (e) {
    var t = document.getElementById("toast");
    if (t && !t.hidden && t.contains(e.target)) { t.hidden = true; clearTimeout(toast.timer); }
  });
  // A fragment from an answer (not a push): swapped in by id unless the screen has a newer one.
  function replaceById(html) {
    if (!html) return;
    var tpl = document.createElement("template");
    tpl.innerHTML = keepNewer(html.trim());
    var fresh = tpl.content.firstElementChild;
    var old = fresh && document.getElementById(fresh.id);
    if (old) { old.replaceWith(fresh); htmx.process(fresh); refresh(); }
  }

  // Fragments pushed over the websocket are rendered once for everyone, so they carry no
  // per-browser CSRF token: page.js gives a post form this browser's as it is sent.

  // -- a break's countdown, on the server's clock (this device's may be off) ------------------
  var live = document.querySelector("[data-server-now]");
  var skew = live ? Number(live.dataset.serverNow) * 1000 - bunco.now() : 0;
  function countdown() {
    document.querySelectorAll(".countdown[data-ends]").forEach(function (el) {
      var left = Math.max(0, Math.round((Number(el.dataset.ends) - bunco.now() - skew) / 1000));
      var text = left ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : "time's up";
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("over", !left);
      if (!left && el.dataset.clock) clockDue(el);
      // the host's break is over when its time is: the head table's bell comes back
      var banner = el.closest("#banner");
      if (banner && !el.dataset.clock) banner.dataset.breakOver = left ? "" : "1";
    });
    // a note that holds only for a while ("The host is on the way"): gone when its time is up
    document.querySelectorAll("[data-hide-at]").forEach(function (el) {
      if (!el.hidden && bunco.now() + skew >= Number(el.dataset.hideAt)) el.hidden = true;
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
    var id = el.dataset.clock + ":" + el.dataset.ends, now = bunco.now();
    if (clockAsked[id] === undefined) clockAsked[id] = now + clockDelay();
    if (now < clockAsked[id] || !bunco.open) return;
    var b = document.getElementById("banner");
    if (!b || !b.dataset.round) return;
    bunco.send({type: "clock", what: el.dataset.clock,
      set: b.dataset.set === "" ? null : Number(b.dataset.set), round: Number(b.dataset.round)});
    clockAsked[id] = now + 5000; // still showing zero in 5 s (a table still playing): ask again
  }

  // -- the bell: sound and vibration when it rings --------------------------------------------
  var audio = null;
  function unlockAudio() {
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    }
    if (audio && audio.state !== "running") audio.resume();
  }
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

  refresh();

  // -- awake: a wake lock (https only), else NoSleep.js's muted looping inline video, on a tap --
  // A wake lock refused (no permission, a battery saver) falls back to the video too.
  var lock, noLock = !navigator.wakeLock, video, media = document.currentScript.src.replace(/bunco\/live\..*/, "vendor/nosleep-0.12.0.");
  function keepAwake(tapped) {
    if (document.hidden) return;
    if (!noLock) {
      if (!lock || lock.released) navigator.wakeLock.request("screen").then(function (l) { lock = bunco.awakeLock = l; }, function () { noLock = true; if (tapped) keepAwake(true); });
    } else if (video || tapped) {
      if (!video) {
        video = bunco.awakeVideo = document.createElement("video");
        video.muted = video.loop = video.playsInline = true;
        video.src = media + (video.canPlayType("video/webm") ? "webm" : "mp4");
      }
      if (video.paused) video.play().catch(function () {});
    }
  }
  ["touchend", "click", "keydown"].forEach(function (type) {  // a tap (its end, not its start)
    document.addEventListener(type, function () { keepAwake(true); unlockAudio(); }, true);
  });

  // -- woken: a socket silent for 0.5 s after a ping, or closed, is replaced at once ----------
  var heard = 0, woke = 0, probing = null;
  function socketNow() {  // htmx's connection and its current socket
    var el = document.querySelector("[ws-connect]"), data = el && el["htmx-internal-data"];
    var conn = data && data.webSocket;
    return conn && conn.socket ? {conn: conn, ws: conn.socket} : null;
  }
  function replace(conn, ws) {
    if (!conn.init.once) {  // htmx's retry, set while asleep, opens no second socket
      var init = conn.init;
      conn.init = function () { if (this.socket.readyState > 1) init.call(this); };
      conn.init.once = true;
    }
    ws.close();
    conn.init();
  }
  function woken() {
    keepAwake();
    var s = socketNow(), asked = bunco.now();
    if (document.hidden || !s || probing) return;
    var conn = s.conn, ws = s.ws;
    woke = asked;
    unlockAudio();
    if (ws.readyState === 1) { ws.send('{"type":"ping"}'); bunco.sync(); }
    probing = setTimeout(function () {
      probing = null;
      if (conn.socket !== ws || !ws.readyState || heard > asked) return;
      replace(conn, ws);
    }, ws.readyState === 1 ? 500 : 0);
  }
  document.addEventListener("visibilitychange", woken);
  ["pageshow", "online", "focus"].forEach(function (type) { window.addEventListener(type, woken); });
  keepAwake();
})();
