// Your turn: when it becomes the member's turn while this tab is in the background, the tab's title says so and,
// if the member asked for it (the toggle's data-turn-sound, templates/accounts/turn_sound_toggle.html), a short,
// quiet tone plays. The title comes back when the tab is looked at again or the turn has passed.
//
// The board (#board, class "my-turn" when it is the viewer's turn) arrives in the answers to the member's own
// POSTs and in the socket's out-of-band swaps; every path ends in one of the htmx events below. check() only
// compares the board now in the page with the one seen before, so running it several times for one swap does
// nothing more.
(function () {
  "use strict";

  // The title's prefix in the member's language (data-said-your-turn on .table-page, templates/tables/play/table.html).
  function prefix() {
    var page = document.querySelector(".table-page");
    return ((page && page.getAttribute("data-said-your-turn")) || "Your turn") + " · ";
  }
  var wasMyTurn = false;
  var originalTitle = null; // the page's own title while ours is shown; null otherwise
  var audio = null; // one AudioContext, made the first time it is needed

  function noop() {}

  function isMyTurn() {
    var board = document.getElementById("board");
    if (!board) return false;
    return board.classList.contains("my-turn") || !!board.querySelector(".seat.me.to-act, li.me.to-act");
  }

  function showTitle() {
    if (originalTitle === null) originalTitle = document.title;
    document.title = prefix() + originalTitle;
  }

  function restoreTitle() {
    if (originalTitle === null) return;
    document.title = originalTitle;
    originalTitle = null;
  }

  // Read each time: the toggle swapped in by htmx carries the member's latest choice.
  function soundWanted() {
    var toggle = document.querySelector("[data-turn-sound]");
    return !!toggle && toggle.getAttribute("data-turn-sound") === "on";
  }

  function context() {
    if (audio) return audio;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    try {
      audio = new Context();
    } catch (e) {
      audio = null;
    }
    return audio;
  }

  function resume(ctx) {
    var resumed = ctx.resume();
    if (resumed && typeof resumed.then === "function") return resumed;
    return Promise.resolve();
  }

  // Two soft notes, about a third of a second, well below full volume.
  function beep(ctx) {
    var now = ctx.currentTime;
    var tone = ctx.createOscillator();
    var volume = ctx.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(660, now);
    tone.frequency.setValueAtTime(880, now + 0.12);
    volume.gain.setValueAtTime(0.0001, now);
    volume.gain.exponentialRampToValueAtTime(0.08, now + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
    tone.connect(volume);
    volume.connect(ctx.destination);
    tone.start(now);
    tone.stop(now + 0.32);
  }

  // Browsers keep a page's audio suspended until the member has interacted with it, and may never let it start
  // otherwise: then there is no sound, the title still says it, and nothing is thrown. A resume that only
  // succeeds later (at the member's next click, back on the tab) plays nothing: the turn is no news by then.
  function playTone() {
    try {
      var ctx = context();
      if (!ctx) return;
      if (ctx.state === "running") {
        beep(ctx);
        return;
      }
      resume(ctx).then(function () {
        if (ctx.state === "running" && document.hidden && isMyTurn()) beep(ctx);
      }, noop).catch(noop);
    } catch (e) {
      // No sound, then.
    }
  }

  // A click or key on the page is the interaction browsers want before audio may start: ready the audio then,
  // while the member wants the sound, or is clicking the toggle that switches it on.
  function prime(evt) {
    var onToggle = evt.target && evt.target.closest && evt.target.closest("[data-turn-sound]");
    if (!onToggle && !soundWanted()) return;
    try {
      var ctx = context();
      if (ctx && ctx.state === "suspended") resume(ctx).catch(noop);
    } catch (e) {
      // Not ready, then: playTone tries again.
    }
  }

  // A notification, for a member who asked for one at live tables (their profile: data-turn-notice on .table-page)
  // and whose browser allows it: shown by the service worker's registration (static/js/sw.js opens this table when it
  // is clicked), one per table (its tag), with the table's name and nothing of the cards.
  function notify() {
    var page = document.querySelector(".table-page");
    if (!page || page.getAttribute("data-turn-notice") !== "on") return;
    if (!("Notification" in window) || Notification.permission !== "granted" || !navigator.serviceWorker) return;
    navigator.serviceWorker.getRegistration().then(function (registration) {
      if (!registration) return;
      var heading = document.querySelector("h1");
      return registration.showNotification(prefix().replace(/ · $/, ""), {
        body: heading ? heading.textContent.replace(/\s+/g, " ").trim() : document.title,
        tag: "turn-" + location.pathname,
        data: { url: location.pathname },
      });
    }).catch(noop);
  }

  // Asked when the member ticks the choice on their profile is not enough: the permission is the browser's, per
  // device. So the table page asks, on the member's first click there, while they want notifications and it was
  // never answered.
  function askOnce(evt) {
    var page = document.querySelector(".table-page");
    if (!page || page.getAttribute("data-turn-notice") !== "on") return;
    if (!("Notification" in window) || Notification.permission !== "default") return;
    try {
      var asked = Notification.requestPermission();
      if (asked && typeof asked.catch === "function") asked.catch(noop);
    } catch (e) {
      // An old browser: no notifications, then.
    }
  }

  function check() {
    var mine = isMyTurn();
    if (mine && !wasMyTurn && document.hidden) {
      showTitle();
      notify();
      if (soundWanted()) playTone();
    } else if (!mine) {
      restoreTitle();
    }
    wasMyTurn = mine;
  }

  ["htmx:load", "htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, check);
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) restoreTitle();
  });
  document.addEventListener("pointerdown", prime, true);
  document.addEventListener("pointerdown", askOnce, true);
  document.addEventListener("keydown", prime, true);
  check();
})();
