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
    // The room check folds away once the first round starts (the tables come first then).
    var fold = document.querySelector("[data-roomcheck-fold]");
    if (fold && fold.dataset.phase !== d.phase) {
      if (fold.dataset.phase === "ready") fold.open = false;
      fold.dataset.phase = d.phase;
    }
    document.querySelectorAll("[data-when]").forEach(function (el) { el.hidden = !flags[el.dataset.when]; });
    document.querySelectorAll("[data-unless]").forEach(function (el) {
      if (el.dataset.phases && el.hidden) return;
      el.hidden = !!flags[el.dataset.unless];
    });
    // Ending early says how much of the night would go unplayed.
    var left = Number(d.left || 0);
    document.querySelectorAll("[data-end-night]").forEach(function (f) {
      f.dataset.confirm = left ? "End the night now? " + left + (left === 1 ? " round is" : " rounds are")
        + " still to play; a round in play will not count." : "End the night now? A round in play will not count.";
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
  // -- what the host typed elsewhere survives a command's answer -----------------------------
  // A command's answer redraws the parts of the page it changed (hx-swap-oob). A field she had
  // filled in another form there (or in the same form since sending it, or in a form whose
  // command was refused) comes back as she left it, and so does the caret.
  var sent = {};  // each form's values as it was last sent, until its answer is in
  var refused = false;  // the answer being drawn refused its command: keep every field
  function formKey(form) {  // a form's action and what it is for (a prize's category, say)
    var key = form.getAttribute("action") || "";
    Array.prototype.forEach.call(form.querySelectorAll("input[type=hidden]"), function (h) {
      if (h.name && h.name !== "csrfmiddlewaretoken" && h.name !== "key") key += "|" + h.name + "=" + h.value;
    });
    return key;
  }
  document.addEventListener("submit", function (e) { sent[formKey(e.target)] = values(e.target); }, true);
  // An answer's parts are drawn right after this, in the same task: then its form's values
  // are forgotten (the form itself may be gone from the page by then).
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr, elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    var form = elt && elt.closest && elt.closest("form"), key = form ? formKey(form) : null;
    refused = !!xhr && xhr.getResponseHeader("X-Bunco-Refused") === "1";
    setTimeout(function () { refused = false; if (key !== null) delete sent[key]; }, 0);
  });
  function fields(form) {
    var seen = {}, out = [];
    Array.prototype.forEach.call(form.elements, function (c) {
      if (!c.name || c.type === "hidden" || c.type === "submit") return;
      var key = c.name + "#" + (seen[c.name] = (seen[c.name] || 0) + 1);
      out.push([key, c]);
    });
    return out;
  }
  function valueOf(c) { return c.type === "checkbox" || c.type === "radio" ? c.checked : c.value; }
  function changed(c) {
    if (c.type === "checkbox" || c.type === "radio") return c.checked !== c.defaultChecked;
    if (c.tagName === "SELECT") {  // against what it shows untouched: its selected option, or its first
      var picked = Array.prototype.filter.call(c.options, function (o) { return o.defaultSelected; });
      var untouched = picked.length ? picked[picked.length - 1] : c.options[0];
      return !!untouched && c.value !== untouched.value;
    }
    return c.value !== c.defaultValue;
  }
  function values(form) {
    var out = {};
    fields(form).forEach(function (kc) { out[kc[0]] = valueOf(kc[1]); });
    return out;
  }
  // [form, field, value (null: keep the new one), focused, caret] of each field typed in (or
  // holding the caret)
  function typed(root) {
    var out = [];
    root.querySelectorAll("form").forEach(function (form) {
      var key = formKey(form), was = refused ? {} : sent[key] || {};
      fields(form).forEach(function (kc) {
        var c = kc[1], v = valueOf(c), focused = c === document.activeElement;
        var keep = changed(c) && !(kc[0] in was && was[kc[0]] === v);
        if (!keep && !focused) return;
        var caret = null;
        try { caret = focused ? [c.selectionStart, c.selectionEnd] : null; } catch (err) { caret = null; }
        out.push([key, kc[0], keep ? v : null, focused, caret]);
      });
    });
    return out;
  }
  function control(root, key, field) {
    var hit = null;
    root.querySelectorAll("form").forEach(function (form) {
      if (hit || formKey(form) !== key) return;
      fields(form).forEach(function (kc) { if (kc[0] === field) hit = kc[1]; });
    });
    return hit;
  }
  var refocus = null;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var kept = typed(e.detail.target), into = e.detail.fragment;
    refocus = null;
    kept.forEach(function (k) {
      var c = control(into, k[0], k[1]);
      if (!c) return;  // gone from the page
      if (k[3]) refocus = k;
      if (k[2] === null || (c.tagName === "SELECT" && !Array.prototype.some.call(c.options,
        function (o) { return o.value === k[2]; }))) return;  // no longer one of its choices
      if (c.type === "checkbox" || c.type === "radio") c.checked = k[2]; else c.value = k[2];
    });
  });
  var told = null;  // the messages last repeated in the toast
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    // The answer's messages are at the top of the page: scrolled away from them, she is told
    // where she is (a refusal must not look like a button that does nothing). Once: htmx
    // fires this again on every part swapped so far as each later part of the answer lands.
    var box = document.getElementById("host-messages");
    if (box && e.target === box && box !== told && box.textContent.trim()) {
      told = box;
      var r = box.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) bunco.toast(box.innerText.trim());
    }
    var k = refocus, c = k && control(document, k[0], k[1]);
    refocus = null;
    if (!c) return;
    c.focus();
    if (k[4]) { try { c.setSelectionRange(k[4][0], k[4][1]); } catch (err) { /* not a text box */ } }
  });

  bunco.on("refresh", applyPhase);
  applyPhase();
})();
