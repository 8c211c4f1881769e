// The lobby's quick-play panel. The lobby socket sends the member's panel when it connects and whenever their
// request changes; a member who is still choosing (the form, no request) keeps what they chose: the socket's
// idle form never replaces the form being filled in. A panel with a state (waiting, ready) always goes in.
(function () {
  "use strict";

  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "quick-mine") return;
    var fragment = evt.detail.fragment;
    var incomingState = fragment && fragment.querySelector ? fragment.querySelector("[data-state]") : null;
    var choosing = target.querySelector("#quick-form") !== null && target.querySelector("[data-state]") === null;
    if (choosing && incomingState === null) evt.detail.shouldSwap = false;
  });
})();

// The lobby on a phone: four tabs (Tables, Quick play, Chat, Start a table), so the open tables and quick play are on the
// first screen, not below the new-table form. The tab list is in the page, hidden; on a narrow screen it is shown and
// each panel becomes a tab panel (ARIA tabs: arrow keys, Home and End move between the tabs); on a wider screen the
// panels stand side by side and the tab list is hidden again. Without JavaScript all panels show, the tables first.
(function () {
  "use strict";

  var NARROW = "(max-width: 700px)"; // as the lobby's rules in static/css/club.css
  var list = document.querySelector(".lobby-tabs[role=tablist]");
  if (!list || !window.matchMedia) return;
  var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
  var panels = tabs.map(function (tab) { return document.getElementById(tab.getAttribute("aria-controls")); });
  if (panels.indexOf(null) !== -1) return;
  var narrow = window.matchMedia(NARROW);
  var chosen = 0;

  function select(index, moveFocus) {
    chosen = index;
    tabs.forEach(function (tab, i) {
      var on = i === index;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.setAttribute("tabindex", on ? "0" : "-1");
      panels[i].hidden = narrow.matches && !on;
    });
    if (moveFocus) tabs[index].focus();
  }

  // Tabs on a narrow screen; side by side otherwise. A panel keeps its own label (its heading) outside tab mode.
  function layout() {
    var tabbed = narrow.matches;
    list.hidden = !tabbed;
    list.parentNode.classList.toggle("tabbed", tabbed);
    panels.forEach(function (panel, i) {
      if (tabbed) {
        panel.setAttribute("role", "tabpanel");
        panel.setAttribute("aria-labelledby", tabs[i].id);
        panel.setAttribute("tabindex", "0");
      } else {
        panel.removeAttribute("role");
        panel.removeAttribute("tabindex");
        if (panel.hasAttribute("data-label")) panel.setAttribute("aria-labelledby", panel.getAttribute("data-label"));
        else panel.removeAttribute("aria-labelledby");
      }
    });
    select(chosen, false);
  }

  // The panel to open with: the one the address points into (quick play's answers come back to #quick-play), the
  // new-table form when it came back with errors, quick play while the member is waiting there, else the tables.
  function first() {
    var target = window.location.hash.length > 1 ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
    for (var i = 0; target && i < panels.length; i++) if (panels[i].contains(target)) return i;
    var form = document.getElementById("new-table");
    if (form && form.querySelector("[role=alert], .errorlist")) return panels.indexOf(document.getElementById("panel-new"));
    if (document.querySelector("#quick-mine [data-state]")) return panels.indexOf(document.getElementById("panel-quick"));
    return 0;
  }

  panels.forEach(function (panel) {
    if (panel.hasAttribute("aria-labelledby")) panel.setAttribute("data-label", panel.getAttribute("aria-labelledby"));
  });
  tabs.forEach(function (tab, i) {
    tab.addEventListener("click", function () { select(i, false); });
  });
  list.addEventListener("keydown", function (evt) {
    var at = tabs.indexOf(document.activeElement);
    if (at === -1) return;
    var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[evt.key];
    if (to === undefined) return;
    evt.preventDefault();
    select((to + tabs.length) % tabs.length, true);
  });
  window.addEventListener("hashchange", function () { select(first(), false); });
  if (narrow.addEventListener) narrow.addEventListener("change", layout);
  else if (narrow.addListener) narrow.addListener(layout);
  chosen = Math.max(0, first());
  layout();
})();

// Quick play asks little: the game (and its band: stakes, a short game). The rest (players, bots, house rules) is
// folded under "More choices", so the form's button is on the first screen of its tab on a phone and beside the
// tables on a desktop. The form comes from the server whole (and works so without JavaScript); it is folded here
// each time it arrives (htmx swaps in a new one when the game changes). Choices with an error are shown open.
(function () {
  "use strict";

  var KEEP = ["game", "band"]; // the fields that stay in sight

  function fold(form) {
    if (!form || form.querySelector(".quick-more")) return;
    var fields = Array.prototype.filter.call(form.querySelectorAll(":scope > .field"), function (field) {
      var input = field.querySelector("[name]");
      return input && KEEP.indexOf(input.getAttribute("name")) === -1;
    });
    if (!fields.length) return;
    var more = document.createElement("details");
    more.className = "quick-more";
    var summary = document.createElement("summary");
    // The words in the member's language: the form's data-more (templates/tables/quickplay/form.html).
    summary.textContent = form.getAttribute("data-more") || "More choices: players, bots, house rules";
    more.appendChild(summary);
    var button = form.querySelector("button[type=submit]");
    form.insertBefore(more, button && button.parentNode === form ? button : null); // after the fields in sight
    fields.forEach(function (field) { more.appendChild(field); });
    if (more.querySelector(".errorlist, [aria-invalid=true]")) more.open = true;
  }

  document.addEventListener("htmx:load", function (evt) {
    var root = evt.target;
    if (!root || !root.querySelector) return;
    fold(root.id === "quick-form" ? root : root.querySelector("#quick-form"));
  });
  fold(document.getElementById("quick-form"));
})();
