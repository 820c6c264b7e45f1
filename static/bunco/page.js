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
  }
});
