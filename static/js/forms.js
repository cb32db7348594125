// Form behaviour that would otherwise need inline script (the Content-Security-Policy allows
// none): a form marked data-reset-after-send is cleared once htmx has sent it successfully,
// unless the answer shows an error (the selector in data-reset-unless-found, e.g. the chat's
// "#chat-log .chat__error").
(function () {
  "use strict";
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-reset-after-send")) return;
    if (!event.detail.successful) return;
    var error = form.getAttribute("data-reset-unless-found");
    if (error && document.querySelector(error)) return;
    form.reset();
  });
})();
