/* Installs the site's service worker (templates/push/service_worker.js, served at /sw.js):
   the offline page, and Web Push notifications for members who turned them on. Never asks
   for any permission: that happens on the profile, when the member asks (static/js/push.js). */
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-service-worker");
  if (!url || !("serviceWorker" in navigator)) {
    return;
  }
  navigator.serviceWorker
    .register(url, { scope: "/" })
    .then(function () {
      return navigator.serviceWorker.ready;
    })
    .then(function (registration) {
      // The worker keeps its offline page in the language this page speaks.
      if (registration.active) {
        registration.active.postMessage({
          type: "language",
          language: document.documentElement.lang || "en",
        });
      }
    })
    .catch(function () {
      // No service worker (a private window, an old browser): the site works without it.
    });
})();
