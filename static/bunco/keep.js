// The host's page keeps the night's latest file in this browser (IndexedDB), so a laptop that
// dies mid-night does not take the night with it: when the app stops answering, the page
// offers "Save the night file" from what it kept, to open on another laptop.
//
// It asks for the file when the page opens (after each of the host's own commands), when a
// round ends, and every minute; the answer is a bare 304 when the log has not moved since the
// copy kept (its ETag is the log's last entry). Only the host's page keeps it: the file holds
// every link of the night, the TV's page is not the host's.
(function () {
  "use strict";
  var panel = document.getElementById("kept-file");
  if (!panel || !window.indexedDB || !window.fetch) return;
  var url = panel.dataset.nightFile, KEY = "night:" + url, EVERY_MS = 60000, DOWN_MS = 3000;
  var kept = null, asking = false, lastPhase = null;

  function db() {
    return new Promise(function (resolve, reject) {
      var open = indexedDB.open("bunco-kept", 1);
      open.onupgradeneeded = function () { open.result.createObjectStore("files"); };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { reject(open.error); };
    });
  }
  function store(mode, fn) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction("files", mode), req = fn(tx.objectStore("files"));
        tx.oncomplete = function () { d.close(); resolve(req.result); };
        tx.onerror = function () { d.close(); reject(tx.error); };
      });
    });
  }
  function read() { return store("readonly", function (s) { return s.get(KEY); }); }
  function write(item) { return store("readwrite", function (s) { return s.put(item, KEY); }); }

  function fileName(response) {
    var m = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    return m ? m[1] : "bunco-night.json";
  }

  // Ask for the file; keep it if it changed. Resolves true when the app answered.
  function ask() {
    if (asking) return Promise.resolve(true);
    asking = true;
    var headers = kept && kept.etag ? {"If-None-Match": kept.etag} : {};
    return fetch(url, {headers: headers, cache: "no-store", credentials: "same-origin"})
      .then(function (r) {
        if (r.status === 304) return true;
        if (!r.ok) return true; // the app answered (signed out, say): nothing to keep
        var name = fileName(r), etag = r.headers.get("ETag");
        return r.text().then(function (text) {
          var data = JSON.parse(text);
          kept = {etag: etag, name: name, text: text, entries: (data.events || []).length,
                  taken: data.saved_at || new Date().toISOString()};
          return write(kept).catch(function () {}).then(function () { return true; });
        });
      })
      .catch(function () { return false; })
      .then(function (answered) { asking = false; show(!answered); return answered; });
  }

  function show(down) {
    panel.hidden = !down;
    if (!down) return;
    var has = !!kept;
    panel.querySelector("[data-kept-some]").hidden = !has;
    panel.querySelector("[data-kept-none]").hidden = has;
    if (!has) return;
    var when = new Date(kept.taken);
    panel.querySelector("[data-kept-at]").textContent =
      when.toLocaleTimeString([], {hour: "numeric", minute: "2-digit"});
    panel.querySelector("[data-kept-entries]").textContent = String(kept.entries);
  }

  panel.addEventListener("click", function (e) {
    if (!e.target.closest("[data-kept-save]") || !kept) return;
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([kept.text], {type: "application/json"}));
    link.download = kept.name;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  });

  // A round that ends (or the night) is kept at once; anything else within the minute.
  function phaseNow() {
    var b = document.getElementById("banner");
    return b ? b.dataset.phase : null;
  }
  if (window.bunco) {
    window.bunco.on("refresh", function () {
      var phase = phaseNow();
      if (phase !== lastPhase && lastPhase !== null && phase !== "playing") ask();
      lastPhase = phase;
    });
    // The websocket closed: the app may be gone. Ask (after a moment: a reload, a blip).
    window.bunco.on("close", function () { setTimeout(ask, DOWN_MS); });
    window.bunco.on("open", function () { ask(); });
  }
  setInterval(ask, EVERY_MS);
  read().then(function (item) { if (item && !kept) kept = item; })
    .catch(function () {})
    .then(function () { lastPhase = phaseNow(); ask(); });
})();
