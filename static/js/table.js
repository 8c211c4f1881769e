// Table page helpers (our own, small): never show an older board over a newer one, and count down turns.
(function () {
  "use strict";

  function versionOf(node) {
    if (!node) return null;
    var el = node.matches && node.matches("[data-version]") ? node : node.querySelector && node.querySelector("[data-version]");
    return el ? parseInt(el.getAttribute("data-version"), 10) : null;
  }

  function currentVersion() {
    return versionOf(document.getElementById("board"));
  }

  // Pushed over the socket (out-of-band swaps).
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var incoming = versionOf(evt.detail.fragment);
    var current = currentVersion();
    if (incoming !== null && current !== null && incoming < current) {
      evt.detail.shouldSwap = false;
    }
  });

  // Replies to our own POSTs.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var text = evt.detail.serverResponse || "";
    var match = /data-version="(\d+)"/.exec(text);
    var current = currentVersion();
    if (match && current !== null && parseInt(match[1], 10) < current) {
      evt.detail.shouldSwap = false;
    }
    // Refusals (4xx) carry a readable message for #table-error: show them.
    if (evt.detail.xhr && evt.detail.xhr.status >= 400 && evt.detail.xhr.status < 500) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });

  // A click sends one move: disable the board's buttons until the answer comes.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var board = document.getElementById("board");
    if (board && board.contains(evt.target)) board.classList.add("busy");
  });
  document.addEventListener("htmx:afterRequest", function () {
    var board = document.getElementById("board");
    if (board) board.classList.remove("busy");
  });

  // Show the socket's state so a member knows the table is live.
  var opens = 0;
  document.addEventListener("htmx:wsOpen", function () {
    opens += 1;
    var el = document.getElementById("live");
    if (el) el.setAttribute("data-opens", String(opens));
    setLive(true);
  });
  document.addEventListener("htmx:wsClose", function () { setLive(false); });
  function setLive(on) {
    var el = document.getElementById("live");
    if (el) {
      el.textContent = on ? "live" : "reconnecting…";
      el.classList.toggle("live", on);
    }
  }

  function tick() {
    var nodes = document.querySelectorAll("[data-deadline]");
    var now = Date.now();
    for (var i = 0; i < nodes.length; i++) {
      var left = Math.max(0, Math.ceil((Date.parse(nodes[i].getAttribute("data-deadline")) - now) / 1000));
      var text = left + " s";
      if (nodes[i].textContent !== text) nodes[i].textContent = text;
    }
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSettle", tick);
})();
