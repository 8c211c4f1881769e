// The site's refusals stay in the page. A view that refuses an htmx request answers 4xx with HX-Retarget (the
// page's error region, role="alert") and a readable message; this puts that answer there and nothing else
// changes, with DEBUG on or off. htmx swaps no 4xx answer by itself; and with DEBUG, django-htmx's helper
// (django-htmx.js, a listener on document for htmx:beforeOnLoad) puts any 400, 403, 404 or 500 answer in place of
// the whole document, which turned a refusal into a page of bare, unstyled text. Other error answers (a real 404
// or 500) are left to the page and, with DEBUG, to that helper, which shows Django's error page.
(function () {
  "use strict";

  function isRefusal(xhr) {
    return !!xhr && xhr.status >= 400 && xhr.status < 500 && !!xhr.getResponseHeader("HX-Retarget");
  }

  // For the table page (static/js/table.js), which handles every other error answer itself.
  window.clubRefusals = { isRefusal: isRefusal };

  // In the capture phase on document, ahead of django-htmx's listener: stopping the event there keeps it from
  // that helper; htmx itself goes on with the answer (the event was not cancelled).
  document.addEventListener("htmx:beforeOnLoad", function (evt) {
    if (isRefusal(evt.detail.xhr)) evt.stopPropagation();
  }, true);

  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (!isRefusal(evt.detail.xhr)) return;
    evt.detail.shouldSwap = true;
    evt.detail.isError = false;
  });

  // An element that leaves the page while its request is out (a board pushed over the socket meanwhile) takes
  // htmx's events for the answer with it, and htmx, looking for the HX-Retarget from there, cannot find it: it
  // logs htmx:targetError and htmx:onLoadError, throws, and the refusal is lost. Such a refusal is put in its
  // region here instead, and htmx is not handed it (there is nothing of that element's left to update).
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var xhr = evt.detail.xhr;
    var elt = evt.detail.elt;
    if (!xhr || typeof xhr.onload !== "function") return;
    var handle = xhr.onload;
    xhr.onload = function () {
      if (!document.body.contains(elt) && isRefusal(xhr)) {
        showLost(xhr);
        return undefined;
      }
      return handle.apply(this, arguments);
    };
  });

  function showLost(xhr) {
    var target = document.querySelector(xhr.getResponseHeader("HX-Retarget"));
    if (target && window.htmx) {
      window.htmx.swap(target, xhr.responseText, { swapStyle: xhr.getResponseHeader("HX-Reswap") || "innerHTML" });
    }
  }
})();
