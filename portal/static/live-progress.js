/* A job's progress without reloading the page (templates/macros/live_progress.html): every few
   seconds the page is fetched again and the [data-live-region] element replaced by the new
   one; its short status (data-live-announce) is put in the polite live region when it changes;
   the button pauses and resumes. Focus stays where the person left it. A page whose work is
   done may answer with a redirect to what it made: the browser then goes there. */
(function () {
  "use strict";
  var region = document.querySelector("[data-live-region]");
  var controls = document.querySelector("[data-live-controls]");
  if (!region || !controls || !window.fetch || !window.DOMParser) { return; }
  var status = document.getElementById("live-status");
  var button = controls.querySelector("[data-live-pause]");
  var pauseLabel = button.textContent;
  var resumeLabel = controls.getAttribute("data-resume-label") || pauseLabel;
  var said = region.getAttribute("data-live-announce");
  var paused = false;
  var timer = null;
  var INTERVAL = 3000;

  controls.querySelector("[data-live-without-script]").hidden = true;
  controls.querySelector("[data-live-with-script]").hidden = false;

  function active() { return region.getAttribute("data-live-active") === "true"; }

  function schedule() {
    window.clearTimeout(timer);
    if (!paused && active()) { timer = window.setTimeout(poll, INTERVAL); }
  }

  function replace(fresh) {
    region.innerHTML = fresh.innerHTML;
    region.setAttribute("data-live-active", fresh.getAttribute("data-live-active"));
    var say = fresh.getAttribute("data-live-announce");
    if (say && say !== said) { status.textContent = say; said = say; }
    if (!active()) { controls.hidden = true; }
  }

  function poll() {
    window.fetch(window.location.href, { credentials: "same-origin" })
      .then(function (r) {
        // The work is done and the page now answers with its result: go there.
        if (r.redirected) { window.location.assign(r.url); return null; }
        return r.ok ? r.text() : null;
      })
      .then(function (html) {
        if (html === null) { return; }
        var doc = new window.DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-live-region]");
        if (fresh) { replace(fresh); }
      })
      .catch(function () { return null; })
      .then(schedule);
  }

  button.addEventListener("click", function () {
    paused = !paused;
    button.textContent = paused ? resumeLabel : pauseLabel;
    if (paused) { window.clearTimeout(timer); } else { poll(); }
  });
  schedule();
}());
