/* The error summary (templates/macros/ui.html, the GOV.UK pattern). A browser skips the
   summary's autofocus when the URL has a fragment (the skip link's #main-content stays in the
   URL of a form posted back), so the summary is focused here whatever the fragment. A link in
   the summary to a fieldset (a radio or checkbox group) focuses the group's first control and
   scrolls its legend into view, as a link to a field's input does. */
(function () {
  "use strict";
  var summary = document.getElementById("error-summary");
  if (!summary) { return; }

  function focusSummary() {
    if (document.activeElement !== summary) { summary.focus(); }
  }

  focusSummary();
  /* The browser may move to the fragment's target as the document loads: take the focus back
     once, unless the person has already moved it somewhere of their own. */
  window.addEventListener("load", function () {
    var at = document.activeElement;
    if (!at || at === document.body || at.id === "main-content") { focusSummary(); }
  }, { once: true });

  summary.addEventListener("click", function (event) {
    var link = event.target.closest("a[href^='#']");
    if (!link) { return; }
    var target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) { return; }
    var control = target;
    if (target.tagName === "FIELDSET") {
      control = target.querySelector("input:not([type=hidden]), select, textarea, button");
    }
    if (!control) { return; }
    event.preventDefault();
    var group = control.closest("fieldset");
    var legend = group && group.querySelector("legend");
    var label = document.querySelector("label[for='" + control.id + "']");
    (legend || label || control).scrollIntoView();
    control.focus({ preventScroll: true });
  });
}());
