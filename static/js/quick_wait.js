// Quick play's clocks: "waiting 12 s" counts up and "bots take the empty seats in 18 s" counts down, every
// second, in the browser. The server writes the seconds as they were when it rendered the panel (data-waited,
// data-bots-in) and the words for a duration in the member's language (data-words-*: "%(seconds)s s",
// "%(minutes)s min %(seconds)s s"); counting from the moment the panel arrived keeps a wrong clock on the
// member's computer out of it. A panel pushed over the socket or sent back by a click brings fresh seconds.
(function () {
  "use strict";

  var arrived = new WeakMap(); // clock element -> Date.now() when it was first seen

  function words(clock, seconds) {
    var minutes = Math.floor(seconds / 60);
    var secs = seconds % 60;
    if (!minutes) return (clock.getAttribute("data-words-seconds") || "%(seconds)s s").replace("%(seconds)s", String(secs));
    return (clock.getAttribute("data-words-minutes") || "%(minutes)s min %(seconds)s s")
      .replace("%(minutes)s", String(minutes))
      .replace("%(seconds)s", (secs < 10 ? "0" : "") + secs);
  }

  function tick() {
    var now = Date.now();
    var clocks = document.querySelectorAll(".quick-clock[data-waited], .quick-clock[data-bots-in]");
    Array.prototype.forEach.call(clocks, function (clock) {
      if (!arrived.has(clock)) arrived.set(clock, now);
      var passed = Math.floor((now - arrived.get(clock)) / 1000);
      var text;
      if (clock.hasAttribute("data-waited")) {
        text = words(clock, (parseInt(clock.getAttribute("data-waited"), 10) || 0) + passed);
      } else {
        var left = (parseInt(clock.getAttribute("data-bots-in"), 10) || 0) - passed;
        text = left > 0 ? words(clock, left) : (clock.getAttribute("data-words-due") || clock.textContent);
      }
      if (clock.textContent !== text) clock.textContent = text;
    });
  }

  tick();
  window.setInterval(tick, 1000);
})();
