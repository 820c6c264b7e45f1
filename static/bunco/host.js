// The host's night page's own (after live.js, which it hooks into): the controls that follow
// the banner, and taking back an entry.
(function () {
  "use strict";
  var bunco = window.bunco;
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
            i.type = "hidden"; i.name = "csrfmiddlewaretoken"; i.value = bunco.csrf(); f.appendChild(i);
          }
        });
        dialog.showModal();
      })
      .catch(function () { bunco.toast("Could not reach the app; try again"); });
  });
  bunco.on("refresh", applyPhase);
  applyPhase();
})();
