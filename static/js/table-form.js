// The create-a-table form (templates/games/game_create.html):
// - it lists every game's options; show only those of the chosen ruleset's game, and set them
//   as that ruleset version's config says (data-options on each ruleset's <option>), so a
//   "+ Time Machine" version starts with the Time Machine on;
// - the number of seats stays within what the game takes, and only that many seat selectors
//   show (a hidden one is cleared, so it never posts a bot for a seat that is not there).
// Without JavaScript all stay visible, the options start from the first ruleset, and the
// server ignores the other game's options and refuses a bot on a seat beyond the table.
(function () {
  "use strict";
  function chosen(select) { return select.options[select.selectedIndex] || null; }

  function showOptions(select, reset) {
    var option = chosen(select);
    var kind = option ? option.getAttribute("data-kind") : null;
    document.querySelectorAll("[data-options-for]").forEach(function (fieldset) {
      fieldset.hidden = Boolean(kind) && fieldset.getAttribute("data-options-for") !== kind;
    });
    if (!reset || !option) return;
    var values = {};
    try { values = JSON.parse(option.getAttribute("data-options") || "{}"); } catch (e) { return; }
    Object.keys(values).forEach(function (key) {
      var field = document.getElementById("id_option_" + kind + "_" + key);
      if (!field) return;
      if (field.type === "checkbox") field.checked = Boolean(values[key]);
      else field.value = values[key] === null || values[key] === undefined ? "" : String(values[key]);
    });
  }

  function followSeats(select, seatsInput) {
    var option = chosen(select);
    if (option) {
      var low = option.getAttribute("data-min-seats"), high = option.getAttribute("data-max-seats");
      if (low) seatsInput.min = low;
      if (high) seatsInput.max = high;
    }
    var seats = parseInt(seatsInput.value, 10);
    if (isNaN(seats)) return;
    if (seatsInput.max && seats > parseInt(seatsInput.max, 10)) {
      seats = parseInt(seatsInput.max, 10);
      seatsInput.value = seats;
    }
    document.querySelectorAll("select[id^='id_bot_']").forEach(function (bot) {
      var position = parseInt(bot.id.slice("id_bot_".length), 10);
      var field = bot.closest(".field") || bot;
      var shown = position < seats;
      field.hidden = !shown;
      if (!shown) bot.value = "";
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("id_ruleset");
    var seats = document.getElementById("id_seats");
    if (!select) return;
    showOptions(select, false);
    if (seats) followSeats(select, seats);
    select.addEventListener("change", function () {
      showOptions(select, true);
      if (seats) followSeats(select, seats);
    });
    if (seats) seats.addEventListener("input", function () { followSeats(select, seats); });
  });
})();
