// Motion at the table (issue 41): a card played travels from its player's seat (the member's own from their hand)
// to its place in the trick, and a taken trick to its taker; a finished trick stays in sight for the member's pause
// (their `trick_pause`, data-trick-pause-ms on .table-page); moves that reached the page together (in one board, as an
// `instant` table's bots make them, or while the page held a finished trick) are shown one at a time, each for at least
// data-replay-step-ms, the finished trick between them for the member's pause. Under `prefers-reduced-motion: reduce`
// nothing travels (the same states are shown, each in turn, without movement).
//
// Boards come as the socket's out-of-band swaps and as the answers to the member's POSTs; table.js drops one not newer
// than the board shown. Here a newer one is held back (never dropped, never shown under an older one) while a finished
// trick is being read or a replay runs, and the held boards are shown in turn, each for at least a replayed move's
// time; the states between the board shown and the next (several moves in one board) are rebuilt from that board's
// own markup (the trick on the felt and, once the next is led, the trick just taken, kept inert in a <template>:
// templates/jinja2/tables/play/games/_trick.html). The member's own move ends any pause at once: their answer is never
// kept waiting by a pause, nor is a newer board while the board shown is their turn.
//
// Moves are set by classes (club.css: .travelling, .taking) and each card's start offset by CSSOM (element.style),
// which the site's CSP (style-src 'self') allows: no style attribute in any markup. A card played or a trick taken is
// announced as a "club:table-sound" event (static/js/sounds.js plays it if the member asked for card sounds).
(function () {
  "use strict";

  var page = document.querySelector(".table-page");
  if (!page) return; // htmx itself comes later (a deferred script): it is looked up when a board is swapped in

  function setting(name, fallback) {
    var value = parseInt(page.getAttribute(name), 10);
    return isNaN(value) ? fallback : value;
  }
  var PAUSE_MS = setting("data-trick-pause-ms", 2500);
  var STEP_MS = setting("data-replay-step-ms", 350);
  var TRAVEL_MS = 320; // club.css's .travelling and .taking transitions
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function still() {
    return !!(reduced && reduced.matches);
  }

  function versionOf(el) {
    var attr = el && el.getAttribute && el.getAttribute("data-version");
    return attr === null || attr === undefined ? null : parseInt(attr, 10);
  }

  function currentBoard() {
    return document.getElementById("board");
  }

  function sound(kind) {
    document.dispatchEvent(new CustomEvent("club:table-sound", { detail: { kind: kind } }));
  }

  // --- What the middle of the felt shows -------------------------------------------------------------------------

  function keysOf(container) {
    var ats = container.querySelectorAll(".at[data-card]");
    var keys = [];
    for (var i = 0; i < ats.length; i++) keys.push(ats[i].getAttribute("data-seat") + ":" + ats[i].getAttribute("data-card"));
    return keys;
  }

  // The state shown in a board (or the page): the trick's round, cards (seat:card, in the order played), finished.
  function stateOf(board) {
    var trick = board && board.querySelector(".middle .trick");
    if (!trick) return null;
    return {
      round: trick.getAttribute("data-round"),
      pile: trick.classList.contains("pile"),
      finished: trick.classList.contains("last-trick"),
      cards: keysOf(trick)
    };
  }

  function sameState(a, b) {
    return !!a && !!b && a.round === b.round && a.finished === b.finished && a.cards.join(" ") === b.cards.join(" ");
  }

  // The states a new board passes through, oldest first: the trick just taken card by card and then complete (when it
  // is in the board), then the trick in play card by card. Each frame can build its middle of the felt.
  function framesOf(board) {
    var middle = board.querySelector(".middle");
    var trick = middle && middle.querySelector(".trick");
    if (!trick || trick.classList.contains("pile")) return [];
    var round = trick.getAttribute("data-round");
    var playing = trick.classList.contains("last-trick") ? trick.getAttribute("data-playing-label") : trick.getAttribute("aria-label");
    var frames = [];
    var before = middle.querySelector("template.taken-before");
    if (before) addTrick(frames, before.content, round, before.getAttribute("data-taker"), before.getAttribute("data-label"), playing, true);
    var finished = trick.classList.contains("last-trick");
    addTrick(frames, trick, round, trick.getAttribute("data-taker"), trick.getAttribute("aria-label"), playing, finished);
    return frames;
  }

  function addTrick(frames, container, round, taker, label, playing, finished) {
    var ats = Array.prototype.slice.call(container.querySelectorAll(".at[data-card]"));
    var keys = keysOf(container);
    var partials = finished ? ats.length - 1 : ats.length;
    for (var i = 1; i <= partials; i++) frames.push(partial(ats.slice(0, i), keys.slice(0, i), round, playing));
    if (finished && ats.length) frames.push(complete(container, keys, round, taker, label));
  }

  function partial(ats, keys, round, label) {
    return {
      state: { round: round, pile: false, finished: false, cards: keys },
      build: function () {
        var div = document.createElement("div");
        div.className = "trick";
        div.setAttribute("role", "group");
        if (label) div.setAttribute("aria-label", label);
        div.setAttribute("data-round", round);
        ats.forEach(function (at) {
          var copy = at.cloneNode(true);
          copy.classList.remove("took");
          div.appendChild(copy);
        });
        return div;
      }
    };
  }

  function complete(container, keys, round, taker, label) {
    return {
      state: { round: round, pile: false, finished: true, cards: keys },
      build: function () {
        var div = document.createElement("div");
        div.className = "trick last-trick";
        div.setAttribute("role", "group");
        if (label) div.setAttribute("aria-label", label);
        div.setAttribute("data-round", round);
        if (taker !== null) div.setAttribute("data-taker", taker);
        Array.prototype.forEach.call(container.children, function (child) { div.appendChild(child.cloneNode(true)); });
        return div;
      }
    };
  }

  // The frames to show before `board` itself: those after the state the page shows now, up to the board's own (the
  // last frame). None when the board follows on directly, or when the page's state is not one of the board's (another
  // round, a reconnect after a while): then the board is shown as it is.
  function between(board) {
    var now = stateOf(currentBoard());
    var frames = framesOf(board);
    if (!now || now.pile || !frames.length) return [];
    if (now.round !== frames[0].state.round) return [];
    var start = -1; // not among them (an empty trick, the trick taken before, tricks missed): all of them, then
    for (var i = 0; i < frames.length && start === -1; i++) if (sameState(now, frames[i].state)) start = i;
    return frames.slice(start + 1, frames.length - 1);
  }

  // --- Moving cards -----------------------------------------------------------------------------------------------

  var fromHand = null; // {card, box}: the card the member last clicked in their hand, where it was

  function centre(box) {
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }

  function seatBox(seat) {
    var el = document.querySelector('#board .seat[data-seat="' + seat + '"]');
    return el ? el.getBoundingClientRect() : null;
  }

  function travelIn(at) {
    if (still()) return;
    var seat = at.getAttribute("data-seat");
    var me = document.querySelector("#board .seat.me");
    var mine = me && me.getAttribute("data-seat") === seat;
    var from = mine && fromHand && fromHand.card === at.getAttribute("data-card") ? fromHand.box : seat !== null ? seatBox(seat) : null;
    if (!from) return;
    var to = at.getBoundingClientRect();
    var a = centre(from), b = centre(to);
    at.classList.remove("travelling");
    at.style.transform = "translate(" + Math.round(a.x - b.x) + "px, " + Math.round(a.y - b.y) + "px) scale(0.6)";
    void at.offsetWidth; // the start is laid out before the transition begins
    at.classList.add("travelling");
    at.style.transform = "";
    settle(at, "travelling");
  }

  function settle(el, name) {
    var done = false;
    function end() {
      if (done) return;
      done = true;
      el.classList.remove(name);
    }
    el.addEventListener("transitionend", end, { once: true });
    setTimeout(end, TRAVEL_MS + 100);
  }

  // The finished trick on the felt goes to its taker; `then` once it is there (at once with reduced motion).
  function leaveFinished(then) {
    var trick = document.querySelector("#board .middle .trick.last-trick");
    if (!trick || still()) return then();
    var taker = seatBox(trick.getAttribute("data-taker"));
    if (!taker) return then();
    var goal = centre(taker);
    trick.querySelectorAll(".at").forEach(function (at) {
      var here = centre(at.getBoundingClientRect());
      at.classList.add("taking");
      at.style.transform = "translate(" + Math.round(goal.x - here.x) + "px, " + Math.round(goal.y - here.y) + "px) scale(0.4)";
    });
    setTimeout(then, TRAVEL_MS);
  }

  // What changed since the state shown before: new cards travel in and sound, a trick taken sounds.
  var shown = null;

  function arrived(board) {
    var was = shown;
    var now = stateOf(board);
    shown = now;
    if (!now || !was) return;
    var known = was.round === now.round && !(was.finished && !now.finished) ? was.cards : [];
    if (now.pile && was.pile && now.cards.join(" ") === was.cards.join(" ")) return;
    var fresh = 0;
    board.querySelectorAll(".middle .trick .at[data-card]").forEach(function (at) {
      var key = at.getAttribute("data-seat") + ":" + at.getAttribute("data-card");
      if (known.indexOf(key) >= 0 && !now.pile) return;
      fresh += 1;
      travelIn(at);
    });
    if (fresh) sound("card");
    if (now.finished && !sameState(was, now)) sound("trick");
  }

  // --- Holding boards back ----------------------------------------------------------------------------------------

  var holdUntil = 0; // performance.now() until which the board shown stays (a finished trick, a card just come)
  var pending = []; // [{version, html, board}]: boards not shown yet, oldest first (each is shown in its turn)
  var BACKLOG = 6; // more held than this (a page far behind): only the newest is kept, its moves replayed from it
  var running = false;
  var ownMove = false; // the member has just moved: their answer comes at once

  function later(fn, ms) {
    setTimeout(fn, Math.max(0, ms));
  }

  function replaying(on) {
    var board = currentBoard();
    if (board) board.classList.toggle("replaying", on);
  }

  // A board that may go in now as htmx swaps it; false: this script holds it (and shows it in its turn).
  function take(board) {
    var version = versionOf(board);
    var current = versionOf(currentBoard());
    if (version === null || current === null || version <= current) return false; // table.js's to drop
    var newest = pending.length ? pending[pending.length - 1].version : null;
    if (newest !== null && version <= newest) return true; // not newer than one already held: never shown
    // The member's turn on the board shown: nothing of ours keeps a newer board from them (a finished trick they took
    // stays until they lead anyway).
    var theirs = currentBoard().classList.contains("my-turn");
    var hold = running || pending.length > 0 || between(board).length > 0 ||
      (!theirs && performance.now() < holdUntil) || (!ownMove && takenAway(board));
    if (!hold) return false;
    board.removeAttribute("hx-swap-oob");
    pending.push({ version: version, html: board.outerHTML, board: board });
    if (pending.length > BACKLOG) pending = pending.slice(-1);
    if (!running) {
      running = true;
      replaying(true);
      later(step, 0);
    }
    return true;
  }

  // The board shown has a finished trick that `board` no longer shows: it goes to its taker first (not with reduced motion).
  function takenAway(board) {
    var now = stateOf(currentBoard());
    return !still() && !!now && now.finished && !sameState(now, stateOf(board));
  }

  function step() {
    var wait = holdUntil - performance.now();
    if (wait > 0) return later(step, wait);
    if (!pending.length) {
      running = false;
      replaying(false);
      return;
    }
    var next = pending.shift();
    var board = currentBoard();
    if (!board || versionOf(board) >= next.version) return step();
    replaying(true);
    play(between(next.board), 0, function () {
      var away = !sameState(stateOf(currentBoard()), stateOf(next.board));
      (away ? leaveFinished : function (then) { then(); })(function () {
        var was = stateOf(currentBoard());
        swapIn(next);
        // The board just swapped in is seen for its own time before the next held board's moves begin: htmx's
        // htmx:load (which sets the hold for a board that comes in) fires only once it settles, after this returns,
        // and the next board's first frame, built at once, would otherwise replace this board's trick in the same
        // task, unseen (a loaded machine holds two boards when a forced card is played a second after the turn).
        var now = stateOf(next.board);
        if (now && !sameState(was, now)) holdUntil = Math.max(holdUntil, performance.now() + (now.finished ? PAUSE_MS : STEP_MS));
        step();
      });
    });
  }

  function play(frames, i, done) {
    if (i >= frames.length) return done();
    leaveFinished(function () {
      var middle = document.querySelector("#board .middle");
      if (!middle) return done();
      var frame = frames[i];
      middle.replaceChildren(frame.build());
      hidePlayed(frame.state);
      arrived(currentBoard());
      holdUntil = performance.now() + (frame.state.finished ? PAUSE_MS : STEP_MS);
      later(function () { play(frames, i + 1, done); }, holdUntil - performance.now());
    });
  }

  // A card of the member's shown on the felt in a replay is no longer in their hand.
  function hidePlayed(state) {
    var me = document.querySelector("#board .seat.me");
    if (!me) return;
    var seat = me.getAttribute("data-seat");
    state.cards.forEach(function (key) {
      var parts = key.split(":");
      if (parts[0] !== seat) return;
      document.querySelectorAll("#board .hand [data-move]").forEach(function (button) {
        var move = (button.getAttribute("data-move") || "").split(" ");
        if (move.length === 2 && move[1] === parts[1]) button.closest("li").classList.add("played-away");
      });
    });
  }

  function swapIn(next) {
    var board = currentBoard();
    if (!board || versionOf(board) >= next.version) return;
    window.htmx.swap(board, next.html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 });
  }

  // Socket pushes (after table.js has dropped the stale ones) and the answers to the member's own POSTs.
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    if (!evt.detail.shouldSwap || !evt.detail.target || evt.detail.target.id !== "board") return;
    var fragment = evt.detail.fragment;
    var board = fragment && (fragment.id === "board" ? fragment : fragment.querySelector && fragment.querySelector("#board"));
    if (board && take(board.cloneNode(true))) evt.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!evt.detail.shouldSwap || !target || target.id !== "board" || evt.detail.isError) return;
    var parsed = document.createElement("template");
    parsed.innerHTML = evt.detail.serverResponse || "";
    var board = parsed.content.querySelector("#board");
    if (board && parsed.content.children.length === 1 && take(board)) evt.detail.shouldSwap = false;
  });

  // A new board is in the page: what is new moves in; a finished trick is held for the member's pause, any other
  // new card for a replayed move's time (boards that come close together are each seen).
  document.addEventListener("htmx:load", function (evt) {
    var board = currentBoard();
    var root = evt.target;
    if (!board || !root || !(root === board || (root.contains && root.contains(board)))) return;
    var was = shown;
    arrived(board);
    var now = shown;
    ownMove = false;
    if (!was || !now) return;
    if (now.finished && !sameState(was, now)) holdUntil = performance.now() + PAUSE_MS;
    else if (!sameState(was, now)) holdUntil = Math.max(holdUntil, performance.now() + STEP_MS);
  });

  // The member's own move: no pause holds its answer, and their card starts from where it was in the hand.
  function moved(evt) {
    var board = currentBoard();
    if (!board || !evt.target || !board.contains(evt.target)) return;
    ownMove = true;
    holdUntil = 0;
  }
  document.addEventListener("htmx:beforeRequest", moved);
  document.addEventListener("htmx:wsAfterSend", moved);
  document.addEventListener("pointerdown", function (evt) {
    var button = evt.target && evt.target.closest && evt.target.closest("#board .hand [data-move]");
    if (!button) return;
    var move = (button.getAttribute("data-move") || "").split(" ");
    fromHand = { card: move[move.length - 1], box: button.getBoundingClientRect() };
  }, true);

  shown = stateOf(currentBoard());
})();
