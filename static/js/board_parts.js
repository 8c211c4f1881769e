// The board from its parts (issue 43): after the whole board, the table socket sends only the parts of it a new version
// changed (tables/play/board_parts.py): a <template id="board-delta" data-base="V"> holding the board's opening tag
// and each changed part whole (an element marked data-part). This htmx extension ("board-parts", on the socket's
// element) keeps the board the socket sent last, apart from the page, and turns each such message back into the whole
// board before htmx reads it: everything after (table.js dropping an older board, motion.js holding and replaying
// boards) sees whole boards, as it always did. A message that builds on a board this page does not hold (it holds
// another version, or a part it names is not there) is not shown: the page asks the socket for the whole board.
(function () {
  "use strict";

  var held = null; // the board the socket sent last, rebuilt (a detached <section id="board">)
  var socket = null; // the socket wrapper of the latest message (htmx's ws extension), to ask for the whole board

  function versionOf(el) {
    var value = el && el.getAttribute("data-version");
    return value === null || value === undefined ? null : parseInt(value, 10);
  }

  function parsed(text) {
    var template = document.createElement("template");
    template.innerHTML = text;
    return template.content;
  }

  function askForTheWholeBoard() {
    held = null;
    if (socket) socket.send(JSON.stringify({ kind: "board" }));
  }

  // The board `delta` makes of the one held, as HTML; "" when it cannot be made here (then the whole one is asked for).
  function rebuilt(delta) {
    if (!held || String(versionOf(held)) !== delta.getAttribute("data-base")) return "";
    var content = delta.content;
    var opening = content.firstElementChild;
    if (!opening || opening.id !== "board") return "";
    var next = held.cloneNode(true);
    Array.prototype.slice.call(next.attributes).forEach(function (attr) { next.removeAttribute(attr.name); });
    Array.prototype.forEach.call(opening.attributes, function (attr) { next.setAttribute(attr.name, attr.value); });
    var parts = Array.prototype.slice.call(content.children, 1);
    for (var i = 0; i < parts.length; i++) {
      var name = parts[i].getAttribute("data-part");
      var old = name && next.querySelector('[data-part="' + name + '"]');
      if (!old) return "";
      old.replaceWith(parts[i]);
    }
    held = next;
    return next.outerHTML;
  }

  function define() {
    window.htmx.defineExtension("board-parts", {
      transformResponse: function (text, xhr) {
        if (xhr) return text; // an answer to a request (a POST's board) is whole, and not what the socket sent
        var content = parsed(text);
        var delta = content.querySelector("template#board-delta");
        if (delta) {
          var html = rebuilt(delta);
          if (!html) askForTheWholeBoard();
          return html;
        }
        var board = content.querySelector("#board[data-version]");
        if (board) held = board;
        return text;
      }
    });
  }

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    socket = evt.detail.socketWrapper;
  });
  // A fresh socket starts with the whole board: nothing held from the one before is built on.
  document.addEventListener("htmx:wsOpen", function () {
    held = null;
  });

  // Deferred, after htmx's own deferred script (templates/tables/play/table.html): htmx is here, and has not yet
  // opened the socket (it does so once the document is parsed).
  if (window.htmx) define();
})();
