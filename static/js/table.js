// Table page helpers (our own, small): never show an older board over a newer one, keep error answers out
// of the board, and count down turns. The socket's state (#live) is static/js/sockets.js's.
(function () {
  "use strict";

  // Words shown by this script: the page's, in the member's language (data-said-* on .table-page, rendered by
  // templates/tables/play/table.html); the English when the page carries none.
  function said(name, english) {
    var page = document.querySelector(".table-page");
    return (page && page.getAttribute("data-said-" + name)) || english;
  }

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
    button.textContent = said("reload", "Reload");
    button.addEventListener("click", function () { window.location.reload(); });
    box.replaceChildren(said("went-wrong", "Something went wrong: please reload the page.") + " ", button);
    box.classList.add("error");
  }

  // A click sends one move: disable the board's buttons until the answer comes.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var board = document.getElementById("board");
    if (board && board.contains(evt.target)) board.classList.add("busy");
  });
  document.addEventListener("htmx:afterRequest", notBusy);
  // A move sent over the socket (static/js/sockets.js) has no answer of its own: the board is busy until the socket
  // brings something (the new board, which replaces this one, or a refusal), or closes.
  document.addEventListener("htmx:wsAfterSend", function (evt) {
    var board = document.getElementById("board");
    if (board && board.contains(evt.target)) board.classList.add("busy");
  });
  document.addEventListener("htmx:wsAfterMessage", notBusy);
  document.addEventListener("htmx:wsClose", notBusy);

  function notBusy() {
    var board = document.getElementById("board");
    if (board) board.classList.remove("busy");
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

  // Keyboard and screen readers. The board is swapped whole (the answer to a move, the socket's pushes), and the
  // element that had the focus goes with it: the browser would start again at the top of the page. So where the
  // member was in the board is remembered, and the focus goes back into the new board: to the same move if it is
  // still there, else to the first card they may play (or move button), else to their hand or the prompt.
  var focusInBoard = null; // the element focused in the board, described ({move, tag, text}); null: elsewhere
  var byKeyboard = false; // the member's latest input was a key (then a focus moved out of sight is scrolled to)
  var PLAYABLE = "[data-move]:not([disabled])";

  function describe(el) {
    return { move: el.getAttribute("data-move"), tag: el.tagName, text: (el.textContent || "").trim() };
  }

  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);

  document.addEventListener("focusin", function (evt) {
    var board = document.getElementById("board");
    focusInBoard = board && board.contains(evt.target) ? describe(evt.target) : null;
  });

  // Nothing focused afterwards while the element is still in the page: the member clicked somewhere else, and a
  // later board leaves the focus alone. (An element swapped away is no longer in the page: that is ours to mend.)
  document.addEventListener("focusout", function (evt) {
    if (evt.relatedTarget) return; // focusin has the new place
    var left = evt.target;
    setTimeout(function () {
      var now = document.activeElement;
      if (left.isConnected && (!now || now === document.body)) focusInBoard = null;
    }, 0);
  });

  function sameAs(board, was) {
    if (was.move) {
      var moves = board.querySelectorAll(PLAYABLE);
      for (var i = 0; i < moves.length; i++) if (moves[i].getAttribute("data-move") === was.move) return moves[i];
      return null;
    }
    if (!/^(BUTTON|A|SUMMARY)$/.test(was.tag)) return null;
    var candidates = board.querySelectorAll(was.tag);
    for (var j = 0; j < candidates.length; j++) {
      if (!candidates[j].disabled && (candidates[j].textContent || "").trim() === was.text) return candidates[j];
    }
    return null;
  }

  function focusTarget(board, was) {
    var el = sameAs(board, was) || board.querySelector(".hand " + PLAYABLE) || board.querySelector(".moves " + PLAYABLE);
    if (el) return el;
    el = board.querySelector(".hand") || board.querySelector(".prompt") || board;
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1"); // focusable by script, not a Tab stop
    return el;
  }

  function restoreFocus(board) {
    var was = focusInBoard;
    if (!was) return;
    var active = document.activeElement;
    if (active && active !== document.body) return; // still (or already) somewhere: leave it there
    var el = focusTarget(board, was);
    el.focus({ preventScroll: true });
    if (byKeyboard && el.getBoundingClientRect) {
      var box = el.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) el.scrollIntoView({ block: "nearest" });
    }
  }

  // The one live region (#announcer, outside the board): what is new since the board before, in a line or two:
  // the move log's new lines, then "Your turn" with the prompt when it has just become the member's turn, a
  // timeout, the round's result, a table that closed. Never the whole board, and nothing at page load (the page
  // itself says all that).
  var heard = null; // what the board said when the announcer last looked

  function textOf(board, selector) {
    var el = board.querySelector(selector);
    return el ? (el.textContent || "").replace(/\s+/g, " ").trim() : "";
  }

  function heardFrom(board) {
    var items = board.querySelectorAll(".move-log .log-lines li");
    var lines = [];
    for (var i = 0; i < items.length; i++) lines.push((items[i].textContent || "").replace(/\s+/g, " ").trim());
    return {
      lines: lines,
      myTurn: board.classList.contains("my-turn"),
      prompt: textOf(board, ".prompt"),
      timeout: textOf(board, ".timeout"),
      result: textOf(board, ".result h2"),
      closed: [textOf(board, ".closed-notice h2"), textOf(board, ".closed-notice p")].filter(Boolean).join(". ")
    };
  }

  function newLines(before, after) {
    var same = before.length <= after.length;
    for (var i = 0; same && i < before.length; i++) same = before[i] === after[i];
    if (same) return after.slice(before.length).slice(-3); // a few at most: the newest matter
    return after.length ? after.slice(-1) : []; // another round's log
  }

  function announce(board) {
    var was = heard;
    var now = heardFrom(board);
    heard = now;
    if (!was) return;
    var say = newLines(was.lines, now.lines).map(function (text) { return ["log", text]; });
    if (now.timeout && now.timeout !== was.timeout) say.push(["timeout", now.timeout]);
    if (now.result && now.result !== was.result) say.push(["result", now.result + "."]);
    if (now.closed && now.closed !== was.closed) say.push(["closed", now.closed]);
    if (now.myTurn && !was.myTurn) {
      var yourTurn = said("your-turn", "Your turn");
      var told = now.prompt.toLowerCase().indexOf(yourTurn.toLowerCase()) === 0;
      say.push(["turn", told ? now.prompt : yourTurn + ": " + now.prompt]);
    }
    var box = document.getElementById("announcer");
    if (!box || !say.length) return;
    var line = document.createElement("p"); // a new node each time: the same words twice are read twice
    say.forEach(function (part, i) {
      var span = document.createElement("span");
      span.setAttribute("data-said", part[0]); // what kind of news (browser tests read them one by one)
      span.textContent = part[1];
      if (i) line.appendChild(document.createTextNode(" "));
      line.appendChild(span);
    });
    box.replaceChildren(line);
  }

  // A new board has come in (the page's own, a move's answer, a push) and its buttons are enabled (the listener
  // above ran first): say what changed and put the focus back.
  document.addEventListener("htmx:load", function (evt) {
    var board = document.getElementById("board");
    var root = evt.target;
    if (!board || !root || !(root === board || (root.contains && root.contains(board)))) return;
    reopenDetails(board);
    announce(board);
    restoreFocus(board);
  });

  // What the member unfolded (the score sheet, the card order, the house rules) stays unfolded when the next
  // board replaces this one: each fold is known by its class, and its state is the member's last toggle of it
  // (read from the toggle itself, not from the board being replaced, which may be one that was never opened).
  var unfolded = {};
  document.addEventListener("toggle", function (evt) {
    var fold = evt.target;
    if (fold && fold.tagName === "DETAILS" && fold.closest("#board")) unfolded[fold.className] = fold.open;
  }, true);
  function reopenDetails(board) {
    board.querySelectorAll("details").forEach(function (fold) {
      if (Object.prototype.hasOwnProperty.call(unfolded, fold.className)) fold.open = unfolded[fold.className];
    });
  }
})();
