// A finished match's rematch (templates/jinja2/tables/play/games/_rematch.html): when the rematch's table is made,
// the board that says so (pushed over the socket, or the answer to the member's own click) carries the link of a
// member seated there with data-rematch-go, and the page goes there, once. A page opened later on the finished
// table shows the link and stays: only a board that arrives while the page is open moves it.
(function () {
  "use strict";

  var going = false;

  function follow() {
    if (going) return;
    var link = document.querySelector("#board [data-rematch-go]");
    if (!link || !link.getAttribute("href")) return;
    going = true;
    window.location.assign(link.getAttribute("href"));
  }

  document.addEventListener("htmx:afterSwap", follow);
  document.addEventListener("htmx:oobAfterSwap", follow);
})();
