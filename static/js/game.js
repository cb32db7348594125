// The game page's behaviour, small and framework-free (templates/games/game_detail.html):
// - deadlines count down in the page's language (<time data-countdown>, words from
//   data-relative-words, the same the server writes);
// - a pushed table older than the one on the page (a late WebSocket message after our own
//   move's answer) is dropped: each fragment carries the game version it shows;
// - motion: pieces with a data-flip key travel from where they were to where they are after
//   every swap (FLIP with the Web Animations API), none under prefers-reduced-motion;
// - hovering or focusing a choice (data-names) highlights the board's spots it names
//   (data-mark); "since your last visit" marks the changed ones (data-changed) until the
//   panel goes; "Watch it" plays the moves since then on the board itself;
// - after a move, focus goes to the next decision (or the status bar), not to <body>;
// - the chat's form empties after a message is sent.
(function () {
  "use strict";
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  function still() { return reduceMotion && reduceMotion.matches; }

  // --- countdown ----------------------------------------------------------------------------
  function words() {
    var holder = document.querySelector("[data-relative-words]");
    try { return holder ? JSON.parse(holder.getAttribute("data-relative-words")) : null; }
    catch (e) { return null; }
  }
  function fill(pattern, values) {
    return pattern.replace(/%\((\w+)\)s/g, function (_m, key) { return String(values[key]); });
  }
  function left(ms, w) {
    if (ms <= 0) return w.over;
    var minutes = Math.floor(ms / 60000);
    if (minutes < 1) return w.now;
    if (minutes < 60) return fill(w.min, { minutes: minutes });
    var hours = Math.floor(minutes / 60);
    if (hours >= 48) return null;
    if (hours < 10 && minutes % 60) return fill(w.hmin, { hours: hours, minutes: minutes % 60 });
    return fill(w.h, { hours: hours });
  }
  function tick() {
    var w = words();
    if (!w) return;
    var now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var target = Date.parse(el.getAttribute("datetime"));
      if (isNaN(target)) return;
      var text = left(target - now, w);
      if (text !== null && el.textContent !== text) el.textContent = text;
    });
  }

  // --- stale pushes -------------------------------------------------------------------------
  function versionIn(html) {
    var match = /id="game-live"[^>]*data-version="(\d+)"/.exec(html);
    return match ? parseInt(match[1], 10) : null;
  }

  // --- motion (FLIP) ------------------------------------------------------------------------
  function snapshot(root) {
    var rects = {};
    (root || document).querySelectorAll("[data-flip]").forEach(function (el) {
      rects[el.getAttribute("data-flip")] = el.getBoundingClientRect();
    });
    return rects;
  }
  function play(before, root) {
    if (!before || still() || !Element.prototype.animate) return;
    var known = Object.keys(before).length > 0;
    (root || document).querySelectorAll("[data-flip]").forEach(function (el) {
      var old = before[el.getAttribute("data-flip")];
      var now = el.getBoundingClientRect();
      if (old) {
        var dx = old.left - now.left, dy = old.top - now.top;
        if (Math.abs(dx) + Math.abs(dy) < 1) return;
        el.animate(
          [{ transform: "translate(" + dx + "px," + dy + "px)" }, { transform: "none" }],
          { duration: 500, easing: "ease-in-out" }
        );
      } else if (known) {
        el.animate(
          [{ opacity: 0, transform: "scale(0.6)" }, { opacity: 1, transform: "none" }],
          { duration: 350, easing: "ease-out" }
        );
      }
    });
  }

  // --- choices name spots; changes since the last visit are marked ----------------------------
  function marked(keys, scope) {
    var found = [];
    keys.forEach(function (key) {
      if (!key) return;
      var safe = key.replace(/"/g, "");
      (scope || document).querySelectorAll(
        '[data-mark~="' + safe + '"], [data-flip="' + safe + '"]'
      ).forEach(function (el) { found.push(el); });
    });
    return found;
  }
  function namedBy(el) { return (el.getAttribute("data-names") || "").split(" "); }
  function highlight(event, on) {
    var chooser = event.target.closest && event.target.closest("[data-names]");
    if (!chooser) return;
    marked(namedBy(chooser), document.getElementById("game-board")).forEach(function (el) {
      el.classList.toggle("is-named", on);
    });
  }
  function applyMarks() {
    var board = document.getElementById("game-board");
    if (!board) return;
    board.querySelectorAll(".is-changed").forEach(function (el) {
      el.classList.remove("is-changed");
    });
    var panel = document.querySelector("#since .since");
    if (!panel) return;
    marked((panel.getAttribute("data-changed") || "").split(" "), board).forEach(function (el) {
      el.classList.add("is-changed");
    });
  }

  // --- "Watch it" ---------------------------------------------------------------------------
  var watching = null;
  function watchControls(on) {
    var panel = document.querySelector("#since .since");
    if (panel) {
      panel.querySelectorAll("[data-watch]").forEach(function (b) { b.hidden = on; });
      panel.querySelectorAll("[data-watch-stop]").forEach(function (b) { b.hidden = !on; });
    }
    // The caption sits on top of the board, which scrolls into view while it plays.
    var caption = document.querySelector("[data-watch-caption]");
    if (caption) caption.hidden = !on;
    return caption;
  }
  function stopWatching(restore) {
    if (!watching) return;
    clearTimeout(watching.timer);
    var board = document.getElementById("board");
    if (restore && board && watching.board === board) {
      var before = snapshot(board);
      board.innerHTML = watching.original;
      play(before, board);
    }
    watching = null;
    watchControls(false);
    applyMarks();
  }
  function watch(container) {
    var steps = container.querySelectorAll("template[data-watch-step]");
    var board = document.getElementById("board");
    if (!steps.length || !board) return;
    stopWatching(false);
    var caption = watchControls(true);
    (caption || board).scrollIntoView({ block: "start", behavior: still() ? "auto" : "smooth" });
    watching = { board: board, original: board.innerHTML, index: 0, timer: null };
    var pause = still() ? 2600 : 1600;
    function show() {
      var step = steps[watching.index];
      var before = snapshot(board);
      board.innerHTML = "";
      board.appendChild(step.content.cloneNode(true));
      play(before, board);
      if (caption) {
        caption.textContent = (watching.index + 1) + "/" + steps.length + " · " +
          (step.getAttribute("data-caption") || "");
      }
      watching.index += 1;
      watching.timer = setTimeout(watching.index < steps.length ? show : function () {
        stopWatching(true);
      }, pause);
    }
    show();
  }

  // --- focus after a move -------------------------------------------------------------------
  // Only when focus was on a part the swap replaced (the button just pressed, a choice): it
  // goes to the next decision if there is one, else to the status bar. Focus elsewhere (the
  // chat) is never moved, nor is it on a page just opened.
  var focusWasLive = false;
  function focusIsLive() {
    var active = document.activeElement;
    return Boolean(active && active.closest &&
      active.closest("#game-live, #game-status, #game-board, #since"));
  }
  function refocus() {
    var active = document.activeElement;
    var lost = !active || active === document.body || !document.contains(active);
    if (!focusWasLive || !lost) return;
    var decision = document.getElementById("decision");
    var target = decision && decision.querySelector("button") ? decision
      : document.getElementById("game-status");
    if (target) target.focus({ preventScroll: false });
  }

  var before = null;
  // After any swap (an answer, a push): pieces travel, marks come back, focus is kept.
  function settled() {
    play(before, document);
    before = null;
    applyMarks();
    refocus();
    focusWasLive = false;
    tick();
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    // A push may have replaced the answer's target (#game-live) while the move was on its
    // way: swap into the element of that id on the page now, not the detached old one.
    var target = event.detail && event.detail.target;
    if (target && target.id && !document.contains(target)) {
      var current = document.getElementById(target.id);
      if (current) event.detail.target = current;
    }
    before = snapshot();
    focusWasLive = focusIsLive() || focusWasLive;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "watch-steps") {
      watch(event.detail.target);
      return;
    }
    settled();
  });
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var live = document.getElementById("game-live");
    var incoming = versionIn(event.detail.message || "");
    if (live && incoming !== null && incoming < parseInt(live.dataset.version, 10)) {
      event.preventDefault();
      return;
    }
    // The table moved on: what is on the board now is the live one.
    stopWatching(false);
    before = snapshot();
    focusWasLive = focusIsLive();
  });
  document.addEventListener("htmx:wsAfterMessage", settled);
  document.addEventListener("htmx:afterRequest", function (event) {
    // Whatever became of the swap, focus lost with it goes to the decision or the bar.
    if (focusWasLive) refocus();
    // (The chat form clears itself after sending: static/js/forms.js.)
  });
  document.addEventListener("click", function (event) {
    var stop = event.target.closest && event.target.closest("[data-watch-stop]");
    if (stop) stopWatching(true);
  });
  document.addEventListener("mouseover", function (event) { highlight(event, true); });
  document.addEventListener("mouseout", function (event) { highlight(event, false); });
  document.addEventListener("focusin", function (event) { highlight(event, true); });
  document.addEventListener("focusout", function (event) { highlight(event, false); });
  document.addEventListener("DOMContentLoaded", function () { applyMarks(); tick(); });
  setInterval(tick, 15000);
})();
