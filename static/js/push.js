/* The profile's "Notifications on your phone" (templates/push/profile_devices.html).

   Shows whether this browser gets pushes, and turns them on or off. The browser's permission
   prompt appears only when the member presses "Turn on": Notification.requestPermission is
   called from that click and nowhere else. The subscription (the push service's endpoint and
   the browser's keys) is sent to the club, which lists it under "Your devices". */
(function () {
  "use strict";
  var section = document.getElementById("push-devices");
  if (!section) {
    return;
  }
  var status = section.querySelector("[data-push-status]");
  var onButton = section.querySelector("[data-push-on]");
  var offButton = section.querySelector("[data-push-off]");
  var csrf = section.querySelector("input[name=csrfmiddlewaretoken]").value;

  function say(name) {
    status.textContent = section.getAttribute("data-text-" + name) || "";
  }

  function show(on, off) {
    onButton.hidden = !on;
    offButton.hidden = !off;
  }

  function supported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+")
      .replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  function sameKey(subscription) {
    var key = subscription.options && subscription.options.applicationServerKey;
    if (!key) {
      return true;
    }
    var mine = keyBytes(section.getAttribute("data-vapid-key"));
    var theirs = new Uint8Array(key);
    return mine.length === theirs.length && mine.every(function (b, i) { return b === theirs[i]; });
  }

  // The site stores an endpoint as its sender requests it, with %-escapes in upper case
  // (Windows' push service writes them in lower case): the same form is hashed here.
  function fingerprint(endpoint) {
    var stored = endpoint.replace(/%[0-9a-f]{2}/gi, function (e) { return e.toUpperCase(); });
    return window.crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(stored))
      .then(function (digest) {
        return Array.from(new Uint8Array(digest))
          .map(function (b) { return b.toString(16).padStart(2, "0"); })
          .join("");
      });
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) {
          throw told(data.error || section.getAttribute("data-text-failed"));
        }
        return data;
      });
    });
  }

  // An error whose message is for the member (the club's answer, a refused permission);
  // anything else the browser throws gets the plain "That did not work".
  function told(message) {
    var error = new Error(message);
    error.forMember = true;
    return error;
  }

  function failed(error) {
    if (error && error.forMember) {
      status.textContent = error.message;
    } else {
      say("failed");
    }
  }

  function registration() {
    return navigator.serviceWorker.ready;
  }

  // What this browser has now: on (a subscription the club lists), or off. ``quiet``: leave
  // the status line alone (it says why the last attempt failed).
  function refresh(quiet) {
    return registration()
      .then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (subscription) {
        if (!subscription) {
          return false;
        }
        return fingerprint(subscription.endpoint).then(function (print) {
          var row = section.querySelector('[data-device="' + print + '"]');
          if (row) {
            row.querySelector(".push-device__this").hidden = false;
          }
          return Boolean(row) && sameKey(subscription);
        });
      })
      .then(function (on) {
        var denied = Notification.permission === "denied";
        if (!quiet) {
          say(denied ? "denied" : on ? "on" : "off");
        }
        show(!on && !denied, on);
      });
  }

  function turnOn() {
    say("working");
    show(false, false);
    // The member asked: now, and only now, the browser may ask for permission.
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          throw told(section.getAttribute("data-text-denied"));
        }
        return registration();
      })
      .then(function (reg) {
        return reg.pushManager.getSubscription().then(function (existing) {
          if (existing && !sameKey(existing)) {
            // Made for another key (the club's keys changed): make a new one.
            return existing.unsubscribe().then(function () { return null; });
          }
          return existing;
        }).then(function (existing) {
          return existing || reg.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(section.getAttribute("data-vapid-key")),
          });
        });
      })
      .then(function (subscription) {
        return post(section.getAttribute("data-subscribe-url"), subscription.toJSON());
      })
      .then(function () {
        window.location.reload();
      })
      .catch(function (error) {
        failed(error);
        refresh(true);
      });
  }

  function turnOff() {
    say("working");
    show(false, false);
    registration()
      .then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (subscription) {
        if (!subscription) {
          return null;
        }
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(section.getAttribute("data-forget-url"), { endpoint: endpoint });
        });
      })
      .then(function () {
        window.location.reload();
      })
      .catch(function (error) {
        failed(error);
        refresh(true);
      });
  }

  if (!supported()) {
    say("unsupported");
    return;
  }
  onButton.addEventListener("click", turnOn);
  offButton.addEventListener("click", turnOff);
  refresh().catch(function () {
    say("off");
    show(true, false);
  });
})();
