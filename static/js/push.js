// Notifications on this device (templates/accounts/email_notices.html, [data-push]): the member turns Web Push on or
// off for the browser they are using. On: the browser's permission, then a subscription from its push service under
// the club's key (data-key), sent to the club (data-subscribe) to keep; off: the club forgets it (data-unsubscribe)
// and the browser drops it. The words come from the page (data-said-*), in the member's language. A browser without
// service workers or push says so and offers nothing.
(function () {
  "use strict";

  var box = document.querySelector("[data-push]");
  if (!box) return;
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var state = box.querySelector("[data-push-state-text]");

  function say(what) {
    state.textContent = box.getAttribute("data-said-" + what) || "";
    box.setAttribute("data-push-state", what);
    on.hidden = what !== "off" && what !== "failed";
    off.hidden = what !== "on";
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    }).then(function (response) {
      if (!response.ok) throw new Error("the club answered " + response.status);
      return response;
    });
  }

  // The club's key as the bytes PushManager wants (it is sent base64url, as RFC 8292 writes it).
  function keyBytes() {
    var text = (box.getAttribute("data-key") || "").replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(text + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function current() {
    return navigator.serviceWorker.ready.then(function (registration) {
      return registration.pushManager.getSubscription().then(function (subscription) {
        return { registration: registration, subscription: subscription };
      });
    });
  }

  on.addEventListener("click", function () {
    say("asking");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        say("denied");
        return null;
      }
      return current().then(function (found) {
        return found.subscription || found.registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(),
        });
      }).then(function (subscription) {
        return post(box.getAttribute("data-subscribe"), subscription.toJSON());
      }).then(function () {
        say("on");
      });
    }).catch(function () {
      say("failed");
    });
  });

  off.addEventListener("click", function () {
    say("asking");
    current().then(function (found) {
      if (!found.subscription) return null;
      return post(box.getAttribute("data-unsubscribe"), { endpoint: found.subscription.endpoint })
        .then(function () { return found.subscription.unsubscribe(); });
    }).then(function () {
      say("off");
    }).catch(function () {
      say("failed");
    });
  });

  if (Notification.permission === "denied") {
    say("denied");
    return;
  }
  current().then(function (found) {
    say(found.subscription ? "on" : "off");
  }).catch(function () {
    say("off");
  });
})();
