// caseflow: the privacy screen, the idle-logout warning, confirmations and form-error summaries.
// No inline script anywhere (CSP): behaviour hangs off data-* attributes.
(function () {
  "use strict";

  // --- Privacy screen: Escape twice quickly, or the "Hide screen" button. -------------------
  var savedTitle = null;
  var savedFocus = null;
  function privacy(on) {
    var screen = document.getElementById("privacy-screen");
    if (!screen) return;
    screen.hidden = !on;
    document.body.classList.toggle("privacy-on", on);
    if (on) {
      // The tab title names the case: hide it too.
      if (savedTitle === null) {
        savedTitle = document.title;
        savedFocus = document.activeElement;
      }
      document.title = "caseflow";
      var back = screen.querySelector("[data-privacy-return]");
      if (back) back.focus();
    } else if (savedTitle !== null) {
      document.title = savedTitle;
      savedTitle = null;
      if (savedFocus && savedFocus !== document.body) savedFocus.focus();
      savedFocus = null;
    }
  }
  var lastEsc = 0;
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var now = Date.now();
    if (now - lastEsc < 600) {
      privacy(true);
      lastEsc = 0;
    } else {
      lastEsc = now;
    }
  });
  document.addEventListener("click", function (e) {
    if (e.target.closest("[data-privacy-screen]")) privacy(true);
    if (e.target.closest("[data-privacy-return]")) privacy(false);
  });

  // --- Confirmation before destructive actions: <form data-confirm="..."> or a button with it.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var source = (e.submitter && e.submitter.closest("[data-confirm]")) || form.closest("[data-confirm]");
    if (!source) return;
    if (!window.confirm(source.getAttribute("data-confirm"))) e.preventDefault();
  });

  // --- Form errors: a summary announced as an alert, linking to each field in error. --------
  function errorSummary() {
    var main = document.getElementById("main");
    if (!main) return;
    var invalid = main.querySelectorAll("form [aria-invalid='true']");
    var general = main.querySelectorAll("form .alert-danger");
    general.forEach(function (el) { el.setAttribute("role", "alert"); });
    if (!invalid.length) return;
    var form = invalid[0].closest("form");
    var box = document.createElement("div");
    box.id = "error-summary";
    box.className = "alert alert-danger";
    box.setAttribute("role", "alert");
    box.setAttribute("tabindex", "-1");
    var heading = document.createElement("p");
    heading.className = "fw-semibold mb-1";
    heading.textContent = invalid.length === 1
      ? "There is a problem with one answer:"
      : "There is a problem with " + invalid.length + " answers:";
    box.appendChild(heading);
    var list = document.createElement("ul");
    list.className = "mb-0";
    invalid.forEach(function (field) {
      var label = field.labels && field.labels.length ? field.labels[0].textContent : field.name;
      var error = document.getElementById(field.id + "_error");
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.className = "alert-link";
      link.href = "#" + field.id;
      link.textContent = label.replace(/\*\s*$/, "").trim() + ": " +
        (error ? error.textContent.trim() : "check this answer");
      link.addEventListener("click", function (ev) { ev.preventDefault(); field.focus(); });
      item.appendChild(link);
      list.appendChild(item);
    });
    box.appendChild(list);
    form.parentNode.insertBefore(box, form);
    box.focus();
  }

  // --- Idle-logout warning, timed from <body data-idle-seconds>. ----------------------------
  function idleWarning() {
    var body = document.body;
    if (!body.dataset.authenticated) return;
    var idle = parseInt(body.dataset.idleSeconds || "900", 10) * 1000;
    var warnAt = Math.max(idle - 120000, idle / 2);
    setTimeout(function () {
      var div = document.createElement("div");
      div.id = "idle-warning";
      div.className = "alert alert-warning idle-warning m-3";
      div.setAttribute("role", "alert");
      div.textContent = "You will be signed out soon because of inactivity. " +
        "Save your work, then reload the page to stay signed in.";
      document.body.appendChild(div);
    }, warnAt);
    setTimeout(function () { window.location.reload(); }, idle + 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    errorSummary();
    idleWarning();
  });
})();
