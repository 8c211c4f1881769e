// The chat pane (templates/tables/chat/chat.html). Lines arrive over the page's socket, appended to the chat's own
// live region (role="log"); this keeps the list tidy and readable: newest in sight, each line once (a line can come
// twice when a round ends just as it is sent), at most MAX_LINES kept; the table's fold opened on a wide screen
// (closed on a phone, so the hand stays on the first screen) and counting, while it is closed, the lines that came;
// the input emptied once the server took the line (kept, to be corrected, when it refused it).
(function () {
  "use strict";

  var WIDE = "(min-width: 901px)";
  var MAX_LINES = 200;
  var seen = {}; // room -> {line id: true}, the lines the member had in sight (fold open)

  function rooms() {
    return Array.prototype.slice.call(document.querySelectorAll(".chat-form[data-room]")).map(function (form) {
      return form.getAttribute("data-room");
    });
  }

  function nearBottom(list) {
    return list.scrollHeight - list.scrollTop - list.clientHeight < 48;
  }

  function tidy(room, wasNearBottom, allSeen) {
    var list = document.getElementById("chat-lines-" + room);
    if (!list) return;
    var ids = {};
    Array.prototype.slice.call(list.querySelectorAll("li[id]")).forEach(function (line) {
      if (ids[line.id]) line.remove(); else ids[line.id] = true;
    });
    var items = list.querySelectorAll("li");
    for (var i = 0; i < items.length - MAX_LINES; i++) items[i].remove();
    if (wasNearBottom) list.scrollTop = list.scrollHeight;
    var fold = document.getElementById("chat-fold-" + room);
    var badge = document.getElementById("chat-unread-" + room);
    if (!seen[room]) seen[room] = {};
    var unread = 0;
    Object.keys(ids).forEach(function (id) {
      if (allSeen || !fold || fold.open) seen[room][id] = true;
      else if (!seen[room][id]) unread += 1;
    });
    // The words in the member's language: the badge's data-new (templates/tables/chat/chat.html), "{count} new".
    var words = (badge && badge.getAttribute("data-new")) || "{count} new";
    if (badge) badge.textContent = unread ? words.replace("{count}", String(unread)) : "";
  }

  function lineTaken(room) {
    var answer = document.getElementById("chat-answer-" + room);
    if (!answer || answer.getAttribute("data-sent") !== "yes") return;
    answer.removeAttribute("data-sent");
    var input = document.getElementById("chat-input-" + room);
    if (input) input.value = "";
  }

  var bottoms = {};
  document.addEventListener("htmx:wsBeforeMessage", function () {
    rooms().forEach(function (room) {
      var list = document.getElementById("chat-lines-" + room);
      bottoms[room] = !list || nearBottom(list);
    });
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    rooms().forEach(function (room) {
      tidy(room, bottoms[room] !== false);
      lineTaken(room);
    });
  });
  document.addEventListener("htmx:afterSwap", function (evt) { // a mute's answer: the list again
    var target = evt.detail && evt.detail.target;
    if (target && target.id && target.id.indexOf("chat-body-") === 0) tidy(target.id.slice(10), true);
  });
  document.addEventListener("toggle", function (evt) {
    var fold = evt.target;
    if (fold && fold.classList && fold.classList.contains("chat-fold")) tidy(fold.id.slice(10), true);
  }, true);

  rooms().forEach(function (room) {
    var fold = document.getElementById("chat-fold-" + room);
    if (fold && window.matchMedia && window.matchMedia(WIDE).matches) fold.open = true;
    tidy(room, true, true); // the lines the page came with are not news
  });
})();
