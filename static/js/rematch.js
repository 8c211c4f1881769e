// A finished match's rematch (templates/jinja2/tables/play/games/_rematch.html): when the rematch's table is made,
// the board that says so (pushed over the socket, or the answer to the member's own click) carries the link of a
// member seated there with data-rematch-go, and the page goes there, once. A page that already showed the link when
// it opened (the finished table looked at again later) shows it and stays: only a link that arrives while the page
// is open moves it. Any swap may be the one (the board's, or another part's after it), so each looks again.
(function () {
  "use strict";

  var LINK = "#board [data-rematch-go]";
  var shownAtLoad = !!document.querySelector(LINK);
  var going = false;

  function follow() {
    if (going || shownAtLoad) return;
    var link = document.querySelector(LINK);
    if (!link || !link.getAttribute("href")) return;
    going = true;
    document.documentElement.dataset.rematchGoing = "1"; // said before the page goes (the browser tests read it)
    window.location.assign(link.getAttribute("href"));
  }

  document.addEventListener("htmx:afterSwap", follow);
  document.addEventListener("htmx:oobAfterSwap", follow);
})();
