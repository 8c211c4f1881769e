// Registers the club's service worker (config/pwa.py), which keeps the site's shell and an offline page for when
// the network is gone, and lets a phone install the club as an app. Its URL comes from the script tag
// (data-worker: the site's root, so the worker's scope is the whole site). A browser without service workers, or
// a page outside a secure context (plain http to a host other than localhost), goes on without one.
(function () {
  "use strict";

  var script = document.currentScript;
  var worker = script && script.getAttribute("data-worker");
  if (!worker || !("serviceWorker" in navigator)) return;

  // After the page's own loads, so installing (which fetches the shell again) never slows the first page.
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker).catch(function () {
      // Offline at this moment, or the browser refused (some private windows do): the site works without it.
    });
  });
})();
