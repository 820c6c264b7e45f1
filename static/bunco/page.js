// What a page's buttons do without inline script (the Content-Security-Policy allows none):
// a [data-print] button prints the page; a form with data-confirm asks before it is sent.
document.addEventListener("click", function (e) {
  if (e.target.closest && e.target.closest("[data-print]")) {
    e.preventDefault();
    window.print();
  }
});
document.addEventListener("submit", function (e) {
  var form = e.target;
  if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    e.preventDefault();
    return;
  }
  // A form pushed to the page over its socket was drawn without the page's CSRF token: it gets
  // this browser's from its cookie as it is sent. Not a tap's (outbox.js sends those itself,
  // with the token as it is when the tap goes, not as it was when it was made).
  if ((form.method || "").toLowerCase() === "post" && !form.elements.csrfmiddlewaretoken
      && !form.hasAttribute("data-outbox")) {
    var m = /csrftoken=([^;]+)/.exec(document.cookie), input = document.createElement("input");
    input.type = "hidden"; input.name = "csrfmiddlewaretoken"; input.value = m ? m[1] : "";
    form.appendChild(input);
  }
});
