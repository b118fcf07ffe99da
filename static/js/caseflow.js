// caseflow: the privacy screen and the idle-logout warning. No inline script anywhere (CSP).
(function () {
  "use strict";
  function privacy(on) {
    var screen = document.getElementById("privacy-screen");
    if (!screen) return;
    screen.hidden = !on;
    document.body.classList.toggle("privacy-on", on);
    if (on) {
      var back = screen.querySelector("[data-privacy-return]");
      if (back) back.focus();
    }
  }
  var lastEsc = 0;
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") {
      var now = Date.now();
      if (now - lastEsc < 600) privacy(true);
      lastEsc = now;
    }
  });
  document.addEventListener("click", function (e) {
    if (e.target.closest("[data-privacy-screen]")) privacy(true);
    if (e.target.closest("[data-privacy-return]")) privacy(false);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    if (!body.dataset.authenticated) return;
    var idle = parseInt(body.dataset.idleSeconds || "900", 10) * 1000;
    var warnAt = Math.max(idle - 120000, idle / 2);
    var timer, warnTimer;
    function reset() {
      clearTimeout(timer); clearTimeout(warnTimer);
      var banner = document.getElementById("idle-warning");
      if (banner) banner.remove();
      warnTimer = setTimeout(function () {
        var div = document.createElement("div");
        div.id = "idle-warning";
        div.className = "alert alert-warning position-fixed bottom-0 end-0 m-3";
        div.setAttribute("role", "alert");
        div.textContent = "You will be signed out soon because of inactivity. Reload the page to stay signed in.";
        document.body.appendChild(div);
      }, warnAt);
      timer = setTimeout(function () { window.location.reload(); }, idle + 1000);
    }
    reset();
  });
})();
