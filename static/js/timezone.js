// Sign-up: fill the hidden time zone field from the browser, so deadlines show in local time.
(function () {
  "use strict";
  var field = document.querySelector('input[name="time_zone"]');
  if (!field || field.value) return;
  try {
    field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    field.value = "";
  }
})();
