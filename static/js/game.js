// The game page's small helpers:
// - deadlines count down: every <time data-countdown datetime="..."> writes the time left into
//   its sibling [data-countdown-left]; elements are looked up on every tick, so fragments
//   swapped in later (HTMX responses, WebSocket pushes) count down too;
// - a pushed table older than the one on the page (a late WebSocket message after our own
//   move's answer) is dropped: each fragment carries the game version it shows.
(function () {
  "use strict";
  function format(ms) {
    if (ms <= 0) return "0:00";
    var minutes = Math.floor(ms / 60000);
    var days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60);
    var mins = minutes % 60;
    if (days > 0) return days + "d " + hours + "h";
    if (hours > 0) return hours + "h " + (mins < 10 ? "0" : "") + mins + "m";
    var secs = Math.floor((ms % 60000) / 1000);
    return mins + ":" + (secs < 10 ? "0" : "") + secs;
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var target = Date.parse(el.getAttribute("datetime"));
      var out = el.parentElement && el.parentElement.querySelector("[data-countdown-left]");
      if (!isNaN(target) && out) out.textContent = format(target - now);
    });
  }
  function versionIn(html) {
    var match = /id="game-live"[^>]*data-version="(\d+)"/.exec(html);
    return match ? parseInt(match[1], 10) : null;
  }
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var live = document.getElementById("game-live");
    var incoming = versionIn(event.detail.message || "");
    if (live && incoming !== null && incoming < parseInt(live.dataset.version, 10)) {
      event.preventDefault();
    }
  });
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 1000);
})();
