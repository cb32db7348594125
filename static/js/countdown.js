// Deadlines on game pages count down: every <time data-countdown datetime="..."> gets the time
// left written into its sibling [data-countdown-left]. Works on fragments swapped in later
// (HTMX responses and WebSocket pushes) because it looks the elements up on every tick.
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
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 1000);
})();
