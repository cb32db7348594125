// The create-a-table form lists every game's options; show only those of the chosen ruleset's
// game. Without JavaScript all stay visible and the server ignores the other game's options.
(function () {
  "use strict";
  function update(select) {
    var chosen = select.options[select.selectedIndex];
    var kind = chosen ? chosen.getAttribute("data-kind") : null;
    document.querySelectorAll("[data-options-for]").forEach(function (fieldset) {
      fieldset.hidden = Boolean(kind) && fieldset.getAttribute("data-options-for") !== kind;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("id_ruleset");
    if (!select) return;
    update(select);
    select.addEventListener("change", function () { update(select); });
  });
})();
