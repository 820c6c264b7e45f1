// The TV's own (after live.js, which it hooks into): the lists that page through what does not
// fit the screen.
(function () {
  "use strict";
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
      var items = el.children, n = items.length, st = this.lists[el.id], rowH = 0, short = 0;
      this.rule(el.id, 1, n);  // everything shown while measuring: no paint happens meanwhile
      var per = Math.max(1, n);
      if (n) {
        // A table's body grows with its rows: its box is the section around it.
        var boxEl = el.closest("[data-pager-box]") || el, first = items[0].getBoundingClientRect();
        var bottom = boxEl.getBoundingClientRect().bottom
          - (parseFloat(getComputedStyle(boxEl).paddingBottom) || 0);
        // Laid out whole, the items that end above the box's bottom fit: as many whole
        // rows as that (a row as tall as its tallest item), and always one row.
        var cols = 0, fit = 0, fitting = true, rowBottom = 0;
        rowH = 0;
        for (var i = 0; i < n; i++) {
          var r = items[i].getBoundingClientRect();
          if (Math.abs(r.top - first.top) < 2) {
            cols++;
            rowBottom = Math.max(rowBottom, r.bottom);
          } else if (!fitting) break;  // the first row counted, and one item already did not fit
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
        // Not even the first row fits (a big room's cards between rounds, over the next
        // seats): the box grows to hold it whole, and the panels beside it give way.
        if (fit < cols) short = boxEl.getBoundingClientRect().height + rowBottom - bottom;
      }
      var pages = Math.max(1, Math.ceil(n / per));
      st = this.lists[el.id] = {el: el, per: per, pages: pages, rowH: rowH, short: short,
                                page: st ? Math.min(st.page, pages - 1) : 0};
      return st;
    },
    rule: function (id, from, to) {
      if (!this.style) {  // a constructed sheet: the Content-Security-Policy allows no inline <style>
        this.style = document.adoptedStyleSheets ? new CSSStyleSheet() : document.createElement("style");
        if (this.style.replaceSync) document.adoptedStyleSheets = document.adoptedStyleSheets.concat(this.style);
        else document.head.appendChild(this.style);
      }
      this.rules = this.rules || {};
      this.rules[id] = "#" + id + " > :not(:nth-child(n+" + from + "):nth-child(-n+" + to + ")) { display: none !important; }";
      var text = Object.keys(this.rules).map(function (k) { return this.rules[k]; }, this).join("\n");
      if (this.style.replaceSync) this.style.replaceSync(text);
      else this.style.textContent = text;
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
      var box = el.closest("[data-pager-box]") || el;
      this.label(el, null);
      box.style.minHeight = "";
      var st = this.measure(el);
      if (st.short) {
        box.style.minHeight = Math.ceil(st.short) + "px";
        st = this.measure(el);
      }
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
    window.bunco.on("refresh", function () { pager.apply(); });
    pager.apply();
  }
})();
