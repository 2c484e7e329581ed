// Turnpost's one script: the game page follows its game live (server-sent events) and lets a
// click on the picture pick out the choices about that square. Everything works without it.
(function () {
  "use strict";

  function gameRoot() { return document.getElementById("game"); }

  // Clicking a shape with data-target highlights the choices about it and focuses the first.
  function onPictureClick(event) {
    var shape = event.target.closest ? event.target.closest("[data-target]") : null;
    var root = gameRoot();
    if (!shape || !root || !root.querySelector(".picture") || !root.querySelector(".picture").contains(shape)) { return; }
    var target = shape.getAttribute("data-target");
    var picked = root.querySelectorAll(".picked");
    for (var i = 0; i < picked.length; i++) { picked[i].classList.remove("picked"); }
    shape.classList.add("picked");
    var buttons = root.querySelectorAll("button.choice[data-target]");
    var first = null;
    for (var j = 0; j < buttons.length; j++) {
      if (buttons[j].getAttribute("data-target") === target) {
        buttons[j].classList.add("picked");
        if (!first) { first = buttons[j]; }
      }
    }
    if (first) { first.focus(); first.scrollIntoView({ block: "nearest" }); }
  }

  // Fetch the page again and put the new game in place of the old, without a reload.
  var refreshing = false;
  function refresh() {
    if (refreshing) { return; }
    refreshing = true;
    fetch(window.location.pathname, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (!text) { return; }
        var doc = new DOMParser().parseFromString(text, "text/html");
        var fresh = doc.getElementById("game");
        var old = gameRoot();
        if (fresh && old) {
          old.replaceWith(document.importNode(fresh, true));
          document.title = doc.title;
        }
      })
      .catch(function () {})
      .then(function () { refreshing = false; });
  }

  function follow() {
    var root = gameRoot();
    if (!root || !window.EventSource) { return; }
    var source = new EventSource(root.getAttribute("data-live"));
    source.addEventListener("version", function (e) {
      var now = gameRoot();
      var shown = now ? parseInt(now.getAttribute("data-version"), 10) : -1;
      var version = parseInt(e.data, 10);
      if (version < 0 || version > shown) { refresh(); }
    });
  }

  document.addEventListener("click", onPictureClick);
  document.addEventListener("DOMContentLoaded", follow);
})();
