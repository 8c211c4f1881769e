// Club sockets (htmx's WebSocket extension), on every page that opens one: come back after the server's
// "come back" close, stay closed (and say why) after one that means stop, show the state in #live, and send a
// table's moves over its socket while it is open, by POST while it is not.
(function () {
  "use strict";

  // tables/play/sockets.py CLOSE_TRY_AGAIN. htmx reconnects by itself only after 1006, 1011, 1012 and 1013, and
  // Daphne cannot send those on purpose (only 1000 and 3000-4999): the server closes with this code instead
  // (an old socket, a board it could not render) and the fresh socket sends the whole page again.
  var COME_BACK = 4012;
  var RETRIED_BY_HTMX = [1006, 1011, 1012, 1013];
  // Closes that mean stop (tables/play/sockets.py): coming back would be refused again.
  // Each with the name of the page's word for it (said() below) and the English.
  var STOPPED = {
    4401: ["signed-out", "signed out: reload the page"],
    4403: ["private", "a private table: ask its creator for an invitation"],
    4404: ["not-found", "not found: reload the page"],
    4429: ["too-many-tabs", "too many open tabs: close one and reload"],
    4420: ["too-fast", "too many messages at once: reload the page"]
  };
  // The words shown: the page's, in the member's language (data-said-* on the socket's element, rendered by
  // templates/tables/socket_words.html); the English when the page carries none.
  function said(name, english) {
    var owner = document.querySelector("[ws-connect]");
    return (owner && owner.getAttribute("data-said-" + name)) || english;
  }
  var QUICK_CLOSE_MS = 3000; // a socket closed sooner than this after opening: wait longer before the next
  var opened = new WeakMap(); // socket element -> {at: time of the latest open, quick: closes in a row soon after}

  function state(elt) {
    if (!opened.has(elt)) opened.set(elt, { at: 0, quick: 0 });
    return opened.get(elt);
  }

  // 0.5 to 2 s, so the sockets of a whole club do not all come back in the same instant; doubling (up to 64
  // times) while each socket is closed again right after it opened, so a server that keeps failing is not
  // asked again every second.
  function comeBackDelay(quick) {
    return (500 + Math.random() * 1500) * Math.pow(2, Math.min(quick, 6));
  }

  // Moves over the socket. The board's move and "ready" buttons carry `ws-send` and `hx-post` side by side, with
  // the same fields (hx-vals: kind, table, version, move). htmx runs one handler per element for a click, and the
  // ws extension wires its `ws-send` handler first (it does so in htmx:beforeProcessNode, before htmx wires
  // `hx-post`), so the click reaches the extension, which asks here (htmx:wsConfigSend) before it sends:
  // - The socket is open: the fields go over it at once (the extension sends at once on an open socket, and this
  //   is the same check). The server reads them as it reads the POST (tables/play/member_actions.py), answers a
  //   refusal into #table-error, and the new board comes to the mover's page as to every page of the table, by the
  //   push after the move.
  // - The socket is not open (connecting, coming back, stopped, or no WebSocket at all): the extension would queue
  //   the message and send it whenever a socket next opens, perhaps minutes later, a move the member may have given
  //   up on. So it is cancelled, and the same element is POSTed now instead (htmx.ajax with the element as the
  //   source: its hx-post, hx-vals, hx-target and hx-swap, and the page's CSRF header): its answer is the new board
  //   or the refusal, as before moves went over the socket. Nothing is ever sent twice, and a late move would be
  //   refused anyway: every move carries the version its board showed.
  // - That POST cannot reach the server either (the server is away: the socket is "reconnecting…" for the same
  //   reason): the move is refused at once, in #table-error ("Not connected: your move was not sent..."), and the
  //   card stays playable. Not kept to be sent when the socket is back: that may be minutes later, when the member
  //   has given up on it or looked away, and one click on a live table does it. Before, htmx's promise for the POST
  //   was rejected with nobody to handle it (an uncaught error), and the click vanished without a word.
  // A socket that died without the browser noticing yet still reads as open: a move sent on it is lost, the board
  // stays as it was (table.js frees it when the socket closes) and the member clicks again.
  // Elements with `ws-send` and no `hx-post` (the chat's form) keep the extension's own way.
  var sockets = new WeakMap(); // socket element (ws-connect) -> its latest WebSocket

  function socketOpen(elt) {
    var owner = elt.closest("[ws-connect]");
    var socket = owner ? sockets.get(owner) : null;
    return !!socket && socket.readyState === WebSocket.OPEN;
  }

  // A move's POST is the page's way only while the socket is down, when the server may be away as well: a POST
  // that hangs (a connection that died without a word) ends after this long and is said, rather than leaving the
  // board busy for minutes.
  var POST_TIMEOUT_MS = 20000;
  var timedOut = new WeakSet(); // move buttons whose POST ran out of time (htmx:timeout), to say which words
  function isMove(elt) {
    return !!elt && elt.hasAttribute && elt.hasAttribute("ws-send") && elt.hasAttribute("hx-post");
  }
  document.addEventListener("htmx:configRequest", function (evt) {
    if (isMove(evt.target) && !evt.detail.timeout) evt.detail.timeout = POST_TIMEOUT_MS;
  });
  document.addEventListener("htmx:timeout", function (evt) {
    if (isMove(evt.target)) timedOut.add(evt.target);
  });
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    var elt = evt.target;
    var path = elt.getAttribute("hx-post");
    if (!path) return;
    clearNotSent(); // a new try: what was said about the last one is over
    if (socketOpen(elt)) return;
    evt.preventDefault();
    window.htmx.ajax("POST", path, { source: elt }).catch(function () {
      // Rejected: no answer came (the server could not be reached, or the request was cut off or timed out).
      notSent(timedOut.has(elt) ? "no-answer" : "not-sent");
      timedOut.delete(elt);
    });
  });

  // A proxy in front of the server answers for it while it is away (502, 503): that move was not sent either.
  // In the capture phase, ahead of table.js's "Something went wrong" and django-htmx's DEBUG helper.
  var AWAY = [502, 503];
  document.addEventListener("htmx:beforeOnLoad", function (evt) {
    var xhr = evt.detail.xhr;
    if (!xhr || AWAY.indexOf(xhr.status) < 0 || !isMove(evt.target)) return;
    evt.stopImmediatePropagation();
    evt.preventDefault(); // htmx stops here: nothing is swapped
    notSent("not-sent");
  }, true);

  var NOT_SENT = {
    "not-sent": "Not connected: your move was not sent. Play it again when the table is live.",
    "no-answer": "No answer from the server: your move may not have been made. Reload the page to see."
  };
  // Into the table's refusals box (role="alert": read out at once), marked as this script's, so that the next try
  // clears it and nothing else's.
  function notSent(which) {
    var box = document.getElementById("table-error");
    if (!box) return;
    box.textContent = said(which, NOT_SENT[which]);
    box.classList.add("error");
    box.setAttribute("data-not-sent", which);
  }
  function clearNotSent() {
    var box = document.getElementById("table-error");
    if (!box || !box.hasAttribute("data-not-sent")) return;
    box.textContent = "";
    box.removeAttribute("data-not-sent");
  }

  var opens = 0;
  document.addEventListener("htmx:wsOpen", function (evt) {
    sockets.set(evt.target, evt.detail.event.target);
    state(evt.target).at = Date.now();
    opens += 1;
    var el = document.getElementById("live");
    if (el) el.setAttribute("data-opens", String(opens));
    showState(said("live", "live"), true);
  });

  document.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail.event.code;
    var elt = evt.target;
    // Beside the opens: how the latest socket ended, for whoever must tell later why a page stopped coming back.
    var live = document.getElementById("live");
    if (live) live.setAttribute("data-last-close", String(code));
    if (code === COME_BACK) {
      var s = state(elt);
      s.quick = Date.now() - s.at < QUICK_CLOSE_MS ? s.quick + 1 : 0;
      var wrapper = evt.detail.socketWrapper;
      setTimeout(function () {
        if (document.body.contains(elt)) wrapper.reconnect();
      }, comeBackDelay(s.quick));
      showState(said("reconnecting", "reconnecting…"), false);
    } else if (RETRIED_BY_HTMX.indexOf(code) >= 0) {
      showState(said("reconnecting", "reconnecting…"), false);
    } else if (Object.prototype.hasOwnProperty.call(STOPPED, code)) {
      showStop(said(STOPPED[code][0], STOPPED[code][1]));
    } else {
      showStop(said("disconnected", "disconnected: reload the page"));
    }
  });

  function showState(text, live) {
    var el = document.getElementById("live");
    if (el) {
      el.textContent = text;
      el.classList.toggle("live", live);
    }
  }

  // The table page says it in its live indicator; the lobby, which has none, in its socket error box.
  function showStop(text) {
    var el = document.getElementById("live");
    if (el) {
      showState(text, false);
      return;
    }
    el = document.getElementById("socket-error");
    if (el) {
      el.textContent = text.charAt(0).toUpperCase() + text.slice(1) + ".";
      el.classList.add("error");
    }
  }
})();
