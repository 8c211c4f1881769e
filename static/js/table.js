// Table page helpers (our own, small): never show an older board over a newer one, keep error answers out
// of the board, and count down turns. The socket's state (#live) is static/js/sockets.js's.
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

  // The board's buttons come disabled (data-needs-htmx) and are enabled once htmx has wired them up: at page
  // load that is after its deferred script has run, for a swapped-in board after its settle delay. A click
  // before then would do nothing and be lost (seen on loaded machines: "Take a seat" right after the page).
  document.addEventListener("htmx:load", function (evt) {
    var root = evt.target;
    if (!root || !root.querySelectorAll) return;
    var waiting = root.querySelectorAll("[data-needs-htmx][disabled]");
    for (var i = 0; i < waiting.length; i++) waiting[i].removeAttribute("disabled");
    if (root.matches && root.matches("[data-needs-htmx][disabled]")) root.removeAttribute("disabled");
  });

  // Pushed over the socket (out-of-band swaps). A board of the version already shown is the same board (every
  // change bumps the version): swapping it in anyway, as the socket's first message after the page would, puts
  // new buttons under the member's finger that htmx has not wired up yet (it does so ~20 ms later), and the
  // click is lost.
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var incoming = versionOf(evt.detail.fragment);
    var current = currentVersion();
    if (incoming !== null && current !== null && incoming <= current) {
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
  });

  // The site's refusals (#table-error) are static/js/refusals.js's. Any other error answer (a CSRF failure after
  // logging in again in another tab, a 404, a 500) is no board: the board stays as it is, so the socket's
  // updates still have somewhere to go, and the member is asked to reload. In the capture phase, ahead of
  // django-htmx's DEBUG helper (a listener on document for this event), which would put Django's error page in
  // place of the whole page.
  document.addEventListener("htmx:beforeOnLoad", function (evt) {
    var xhr = evt.detail.xhr;
    if (!xhr || xhr.status < 400 || (window.clubRefusals && window.clubRefusals.isRefusal(xhr))) return;
    evt.stopPropagation();
    evt.preventDefault(); // htmx stops here: nothing is swapped
    askToReload();
  }, true);

  function askToReload() {
    var box = document.getElementById("table-error");
    if (!box) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "linklike";
    button.textContent = "Reload";
    button.addEventListener("click", function () { window.location.reload(); });
    box.replaceChildren("Something went wrong: please reload the page. ", button);
    box.classList.add("error");
  }

  // A click sends one move: disable the board's buttons until the answer comes.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var board = document.getElementById("board");
    if (board && board.contains(evt.target)) board.classList.add("busy");
  });
  document.addEventListener("htmx:afterRequest", function () {
    var board = document.getElementById("board");
    if (board) board.classList.remove("busy");
  });

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
