/* Napad Club's service worker (served at /sw.js, so its scope is the whole site).

   - Offline: a page that cannot be reached shows the offline page kept in the cache.
     Nothing else is ever cached: game pages carry a member's private cards and must be fresh,
     so every navigation goes to the network and only its failure is answered from here.
   - Web Push: a push (title, short text, the game's URL — nothing secret) becomes a
     notification; clicking it focuses the game's window, or opens it. */
"use strict";

const CONFIG = {{ config|safe }};
const CACHE = "napad-offline-" + CONFIG.version;
const KEPT = [CONFIG.offline].concat(CONFIG.assets);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("napad-") && name !== CACHE)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

function keptPath(request) {
  const url = new URL(request.url);
  return url.origin === self.location.origin && CONFIG.assets.includes(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
  } else if (keptPath(request)) {
    // The offline page's own style sheet and icon (static files with hashed names).
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});

function offlinePage() {
  return caches.open(CACHE)
    .then((cache) => cache.match(CONFIG.offline))
    .then((response) => response || Response.error());
}

// Pages say which language they speak: the offline page is kept in the member's language.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "language" && typeof data.language === "string") {
    event.waitUntil(offlineRefresh(data.language));
  }
});

async function offlineRefresh(language) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(CONFIG.offline);
  if (kept && kept.headers.get("Content-Language") === language) {
    return;
  }
  const response = await fetch(CONFIG.offline, { credentials: "same-origin" });
  if (response.ok) {
    await cache.put(CONFIG.offline, response);
  }
}

function siteUrl(url) {
  // Only ever opens a page of this site, whatever a payload says.
  try {
    const target = new URL(url || CONFIG.home, self.location.origin);
    if (target.origin === self.location.origin) {
      return target.href;
    }
  } catch (error) {
    // An unreadable URL opens the home page.
  }
  return new URL(CONFIG.home, self.location.origin).href;
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Napad Club";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    icon: CONFIG.icon,
    badge: CONFIG.badge,
    data: { url: siteUrl(data.url) },
  };
  if (typeof data.tag === "string" && data.tag) {
    // One notification per game on the lock screen: a newer one replaces it.
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

async function openOrFocus(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const target = new URL(url);
  const site = windows.filter((client) => new URL(client.url).origin === target.origin);
  // The game is open already: bring that window to the front.
  const same = site.find((client) => new URL(client.url).pathname === target.pathname);
  if (same) {
    return same.focus();
  }
  // Another page of the club is open: show the game there.
  for (const client of site) {
    let moved = null;
    try {
      moved = await client.navigate(url);
    } catch (error) {
      moved = null;  // a window this worker does not control cannot be sent elsewhere
    }
    if (moved) {
      return moved.focus();
    }
  }
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = siteUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(openOrFocus(url));
});
