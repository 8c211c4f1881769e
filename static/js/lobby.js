// The lobby's quick-play panel. The lobby socket sends the member's panel when it connects and whenever their
// request changes; a member who is still choosing (the form, no request) keeps what they chose: the socket's
// idle form never replaces the form being filled in. A panel with a state (waiting, ready) always goes in.
(function () {
  "use strict";

  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "quick-mine") return;
    var fragment = evt.detail.fragment;
    var incomingState = fragment && fragment.querySelector ? fragment.querySelector("[data-state]") : null;
    var choosing = target.querySelector("#quick-form") !== null && target.querySelector("[data-state]") === null;
    if (choosing && incomingState === null) evt.detail.shouldSwap = false;
  });
})();
