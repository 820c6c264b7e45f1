// A guest's results page: "Share" hands the page's link to the phone's own share sheet (or
// copies it where there is none). The page works without it: the link is the page's address.
(function () {
  "use strict";
  var button = document.querySelector("[data-share]");
  if (!button) return;
  if (navigator.share) {
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.share({ title: button.dataset.title, url: location.href }).catch(function () {});
    });
  } else if (navigator.clipboard && window.isSecureContext) {
    button.hidden = false;
    button.textContent = "Copy the link";
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(location.href).then(function () {
        button.textContent = "Link copied";
      });
    });
  }
})();
