// Turnpost's one script: the game page follows its game live (server-sent events), a click on
// the picture picks out the choices about that square, and a choice in focus outlines its
// square on the picture. Everything works without it.
(function () {
  "use strict";

  function gameRoot() { return document.getElementById("game"); }

  function unpick(root) {
    var picked = root.querySelectorAll(".picked");
    for (var i = 0; i < picked.length; i++) { picked[i].classList.remove("picked"); }
  }

  // The shapes of the picture about `target`, outlined.
  function outline(root, target) {
    var picture = root.querySelector(".picture");
    if (!picture) { return; }
    var shapes = picture.querySelectorAll("[data-target]");
    for (var i = 0; i < shapes.length; i++) {
      if (shapes[i].getAttribute("data-target") === target) { shapes[i].classList.add("picked"); }
    }
  }

  // Clicking a shape with data-target highlights the choices about it and focuses the first.
  // (The picture is an image to assistive technology: every choice is also a button, which
  // keyboards reach with Tab.)
  function onPictureClick(event) {
    var shape = event.target.closest ? event.target.closest("[data-target]") : null;
    var root = gameRoot();
    if (!shape || !root || !root.querySelector(".picture") || !root.querySelector(".picture").contains(shape)) { return; }
    var target = shape.getAttribute("data-target");
    unpick(root);
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

  // A choice that comes into focus (Tab, or a click) outlines the square it is about.
  function onFocus(event) {
    var button = event.target;
    var root = gameRoot();
    if (!root || !button.matches || !button.matches("button.choice") || !root.contains(button)) { return; }
    var target = button.getAttribute("data-target");
    var picked = root.querySelectorAll(".picture .picked");
    for (var i = 0; i < picked.length; i++) { picked[i].classList.remove("picked"); }
    if (target) { outline(root, target); }
  }

  // Fetch the page again and put the new game in place of the old, without a reload. Focus
  // inside the old game is not lost to the page's top: it goes to the new choices' heading
  // (or the game's title), so a keyboard or screen-reader user carries on from there.
  var refreshing = false;
  function refresh() {
    if (refreshing) { return; }
    refreshing = true;
    fetch(window.location.pathname + window.location.search, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (!text) { return; }
        var doc = new DOMParser().parseFromString(text, "text/html");
        var fresh = doc.getElementById("game");
        var old = gameRoot();
        if (fresh && old) {
          var hadFocus = old.contains(document.activeElement);
          old.replaceWith(document.importNode(fresh, true));
          document.title = doc.title;
          var talk = doc.getElementById("talk-messages");
          var oldTalk = document.getElementById("talk-messages");
          if (talk && oldTalk) { oldTalk.replaceWith(document.importNode(talk, true)); }
          if (hadFocus) {
            var root = gameRoot();
            var landing = root.querySelector("#choices-title") || root.querySelector("h1");
            if (landing) { landing.focus(); }
          }
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
  document.addEventListener("focusin", onFocus);
  document.addEventListener("DOMContentLoaded", follow);
})();
