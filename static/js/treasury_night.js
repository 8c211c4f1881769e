// The club night's score sheet (templates/tables/treasury/night_sheet.html): keyboard entry of hand after hand.
// Enter in any field of the row being entered adds (checks) it, whatever the field (a select or a checkbox does
// not submit a form by itself); once the server answers, the focus goes to the first field of the next row, or to
// the first field in error when the hand was refused.
(function () {
  "use strict";

  function firstField(entry) {
    return entry.querySelector(".cell.errors select, .cell.errors input") ||
      entry.querySelector(".row-fields select, .row-fields input:not([type=hidden])");
  }

  function focusEntry() {
    var entry = document.getElementById("entry");
    if (!entry) { return; }
    var field = firstField(entry);
    if (field) {
      field.focus();
      if (field.select && field.tagName === "INPUT" && field.type === "text") { field.select(); }
    }
    entry.scrollIntoView({block: "nearest"});
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.isComposing || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var target = event.target;
    var entry = target && target.closest ? target.closest("#entry") : null;
    if (!entry || target.tagName === "BUTTON") { return; }
    event.preventDefault();
    if (entry.dataset.sending === "1") { return; }  // one hand, one request: a held-down Enter adds it once
    entry.dataset.sending = "1";
    entry.requestSubmit();
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.elt && event.detail.elt.id === "entry") { focusEntry(); }
  });

  document.addEventListener("htmx:responseError", function () {
    var entry = document.getElementById("entry");
    if (entry) { delete entry.dataset.sending; }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (document.getElementById("entry")) { focusEntry(); }
  });

  // A second click while the first save is on its way would only be told "already saved"; spare the wait. The
  // save form is swapped after every hand (it carries the sheet's version), so its submit is listened for here.
  document.addEventListener("submit", function (event) {
    if (!event.target || event.target.id !== "save-form") { return; }
    var button = document.getElementById("save-night");
    window.setTimeout(function () { if (button) { button.disabled = true; } }, 0);
  });
})();
