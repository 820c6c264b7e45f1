// The room check on the host's own phone: a few round trips to the laptop over the websocket
// the score pages use (over plain requests if it will not open), the middle one shown here and
// told to the laptop, whose host page shows it at once.
(function () {
  "use strict";
  var box = document.querySelector("[data-roomcheck]");
  if (!box) return;
  var out = box.querySelector("[data-rtt]"), TIMES = 5;

  function middle(times) {
    var sorted = times.slice().sort(function (a, b) { return a - b; });
    return Math.round(sorted[Math.floor(sorted.length / 2)]);
  }
  function overSocket() {
    return new Promise(function (ok, fail) {
      var ws = new WebSocket(location.origin.replace(/^http/, "ws") + "/ws/ping/");
      var times = [], sent = 0;
      var give = setTimeout(function () { ws.close(); fail(); }, 5000);
      function ping() { sent = performance.now(); ws.send('{"type":"ping"}'); }
      ws.onopen = ping;
      ws.onmessage = function () {
        times.push(performance.now() - sent);
        if (times.length < TIMES) { ping(); return; }
        clearTimeout(give); ws.close(); ok(times);
      };
      ws.onerror = function () { clearTimeout(give); fail(); };
    });
  }
  function overRequests() {
    var times = [];
    function one() {
      var sent = performance.now();
      return fetch(box.dataset.pingUrl, {cache: "no-store"}).then(function () {
        times.push(performance.now() - sent);
        return times.length < TIMES ? one() : times;
      });
    }
    return one();
  }
  function csrf() { var m = /csrftoken=([^;]+)/.exec(document.cookie); return m ? m[1] : ""; }

  overSocket().then(function (times) { return {ms: middle(times), live: true}; },
    function () { return overRequests().then(function (times) { return {ms: middle(times), live: false}; }); })
    .then(function (found) {
      out.textContent = "Round trip " + found.ms + " ms" + (found.live ? "."
        : ", but the live connection the score pages use did not open: a security program or proxy on the way may block it.");
      box.dataset.done = "1";
      var body = new FormData();
      body.append("rtt", String(found.ms));
      if (found.live) body.append("live", "on");
      return fetch(box.dataset.resultUrl, {method: "POST", body: body, credentials: "same-origin",
        headers: {"X-CSRFToken": csrf()}});
    })
    .catch(function () { out.textContent = "The round trip could not be measured: reload this page to try again."; });
})();
