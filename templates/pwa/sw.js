// The club's service worker, served at /sw.js by config/pwa.py, which fills in NAMES: the cache's name (a digest
// of what it holds), the URLs it precaches (the shell's static files and the offline page), the offline page's
// URL and the static files' prefix.
//
// It keeps those and nothing else. Static files come from the cache first; a page the member opens comes from the
// network, and only when the network fails is the offline page shown in its place. Every other request (a
// table's POST, htmx's fragments, a board, the admin, the manifest) is left alone: the browser sends it as if no
// worker were here, and nothing of it is stored.
"use strict";

const NAMES = {{ names|safe }};

self.addEventListener("install", (event) => {
  // "reload": the files as the server has them now, not a copy from the browser's HTTP cache.
  const requests = NAMES.precache.map((url) => new Request(url, { cache: "reload" }));
  // A new worker takes over at once: it serves only static files and the offline page, and a page of the old
  // shell that asks for an old file the new cache lacks simply gets it from the network.
  event.waitUntil(caches.open(NAMES.cache).then((cache) => cache.addAll(requests)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // The origin's caches are the club's alone: every one but this worker's is an older worker's, and goes.
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== NAMES.cache).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

function fromTheShell(request) {
  return caches.open(NAMES.cache).then((cache) => cache.match(request, { ignoreVary: true }).then((kept) => {
    if (kept) return kept;
    return fetch(request).then((response) => {
      if (NAMES.keep_fetched && response.ok && response.type === "basic") {
        cache.put(request, response.clone()).catch(() => {});  // a full disk: served all the same, kept another time
      }
      return response;
    });
  }));
}

function pageOrOffline(request) {
  // Whatever the server answers (an error page too) is shown; the offline page only when no answer came.
  return fetch(request).catch(() => caches.open(NAMES.cache)
    .then((cache) => cache.match(NAMES.offline, { ignoreVary: true }))
    .then((page) => page || Response.error()));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("range")) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(NAMES.static)) {
    event.respondWith(fromTheShell(request));
  } else if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  }
});

// Web Push (accounts/webpush.py): a message is {title, body, url, tag}, already only what a lock screen may show (a
// table's name, never a card). One notification per tag: a newer "your turn" at a table replaces the older one.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = {};
  }
  event.waitUntil(self.registration.showNotification(message.title || NAMES.club, {
    body: message.body || "",
    tag: message.tag || undefined,
    icon: NAMES.icon,
    data: { url: message.url || "/" },
  }));
});

// A notification clicked: the club's page it names, in a window already open on it if there is one. Only a path of
// the club's own (a message cannot send the member elsewhere).
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = (event.notification.data && event.notification.data.url) || "/";
  const path = wanted.startsWith("/") && !wanted.startsWith("//") ? wanted : "/";
  const url = new URL(path, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => client.url === url && "focus" in client);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
