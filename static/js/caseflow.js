// caseflow: the privacy screen, staying signed in while working, drafts kept on the server,
// confirmations and form-error summaries.
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

  // --- The script's own words, translated on the server: a JSON block the page carries
  // (<script type="application/json" id="caseflow-strings">, data only, allowed by the CSP).
  var STRINGS = {};
  try {
    var stringsEl = document.getElementById("caseflow-strings");
    if (stringsEl) STRINGS = JSON.parse(stringsEl.textContent);
  } catch (e) { STRINGS = {}; }
  function t(key, fallback, values) {
    var text = STRINGS[key] || fallback;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("%(" + name + ")s").join(String(values[name]));
    });
    return text;
  }

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
      ? t("problemOne", "There is a problem with one answer:")
      : t("problemMany", "There is a problem with %(count)s answers:", { count: invalid.length });
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

  // --- Staying signed in while working. ----------------------------------------------------
  // The server ends a session after <body data-idle-seconds> without a request. Typing, clicks
  // and scrolling count as activity: while the person works, the page tells the server so
  // (POST data-keep-alive-url). Before the limit a warning counts down with "Stay signed in";
  // long forms keep their unsaved text on the server first (drafts, below), so the sign-out
  // that follows loses nothing.
  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function post(url, params) {
    var body = new URLSearchParams(params || []);
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "X-CSRFToken": csrfToken() }
    });
  }

  var savers = [];

  function idleWarning() {
    var body = document.body;
    if (!body.dataset.authenticated) return;
    var idle = parseInt(body.dataset.idleSeconds || "900", 10) * 1000;
    var keepAlive = body.dataset.keepAliveUrl;
    var warnBefore = Math.min(120000, idle / 2);
    var pingEvery = Math.min(60000, idle / 3);
    var lastPing = Date.now();
    var lastActivity = 0;
    var warning = null;
    var countdown = null;

    function ping() {
      lastPing = Date.now();
      if (keepAlive) post(keepAlive);
    }
    function hideWarning() {
      if (warning) { warning.remove(); warning = null; }
    }
    function showWarning(left) {
      if (!warning) {
        savers.forEach(function (save) { save(); });
        warning = document.createElement("div");
        warning.id = "idle-warning";
        warning.className = "alert alert-warning idle-warning m-3";
        warning.setAttribute("role", "alert");
        countdown = document.createElement("p");
        countdown.className = "mb-2";
        var button = document.createElement("button");
        button.type = "button";
        button.className = "btn btn-sm btn-primary";
        button.textContent = t("staySignedIn", "Stay signed in");
        button.addEventListener("click", function () { ping(); hideWarning(); });
        warning.appendChild(countdown);
        warning.appendChild(button);
        document.body.appendChild(warning);
      }
      var seconds = Math.max(0, Math.ceil(left / 1000));
      countdown.textContent = t("signOutIn", "You will be signed out in %(count)s seconds.", {
        count: seconds
      }) + " " + t("unsavedKept", "Unsaved text is kept for you.");
    }
    ["keydown", "input", "pointerdown", "scroll", "wheel", "touchstart"].forEach(function (name) {
      window.addEventListener(name, function () { lastActivity = Date.now(); },
        { passive: true, capture: true });
    });
    setInterval(function () {
      var now = Date.now();
      if (lastActivity > lastPing && now - lastPing >= pingEvery) {
        ping();
        hideWarning();
        return;
      }
      var left = idle - (now - lastPing);
      if (left <= 0) {
        window.location.reload();
      } else if (left <= warnBefore) {
        showWarning(left);
      }
    }, Math.min(1000, pingEvery / 2));
  }

  // --- Drafts: forms with data-draft-url keep unsaved text on the server as it is typed, --
  // encrypted with the case key and visible only to their author, and offer it back when the
  // form is opened again. Nothing is kept in the browser.
  function fillForm(form, fields) {
    Object.keys(fields).forEach(function (name) {
      var values = fields[name];
      Array.prototype.forEach.call(form.elements, function (el) {
        // Hidden fields come back too: a version number restored with the text lets the
        // server refuse a draft written before someone else saved a newer version.
        if (el.name !== name || el.type === "file" || name === "_draft") return;
        if (name === "csrfmiddlewaretoken") return;
        if (el.type === "checkbox" || el.type === "radio") {
          el.checked = values.indexOf(el.value) !== -1;
        } else if (el.tagName === "SELECT") {
          Array.prototype.forEach.call(el.options, function (o) {
            o.selected = values.indexOf(o.value) !== -1;
          });
        } else {
          el.value = values[0] || "";
        }
      });
    });
  }

  function drafts() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-draft-url]"), function (form) {
      var url = form.dataset.draftUrl;
      var marker = document.createElement("input");
      marker.type = "hidden";
      marker.name = "_draft";
      marker.value = form.dataset.draftKey || "";
      form.appendChild(marker);
      var dirty = false;
      var timer = null;
      function save() {
        if (!dirty) return;
        dirty = false;
        var params = [];
        new FormData(form).forEach(function (value, name) {
          if (typeof value === "string") params.push([name, value]);
        });
        post(url, params);
      }
      savers.push(save);
      form.addEventListener("input", function () {
        dirty = true;
        clearTimeout(timer);
        timer = setTimeout(save, 3000);
      });
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "hidden") save();
      });
      // A form the server sent back with errors already holds what was typed.
      if (form.querySelector(".is-invalid")) return;
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.status === 200 ? response.json() : null; })
        .then(function (kept) {
          if (!kept) return;
          var box = document.createElement("div");
          box.className = "alert alert-info draft-offer";
          box.setAttribute("role", "status");
          var text = document.createElement("p");
          text.className = "mb-2";
          text.textContent = t("unsavedFrom", "You have unsaved text in this form from %(saved)s.", {
            saved: kept.saved
          });
          var restore = document.createElement("button");
          restore.type = "button";
          restore.className = "btn btn-sm btn-primary me-2";
          restore.textContent = t("putBack", "Put it back");
          var discard = document.createElement("button");
          discard.type = "button";
          discard.className = "btn btn-sm btn-outline-dark";
          discard.textContent = t("discard", "Discard it");
          restore.addEventListener("click", function () {
            fillForm(form, kept.fields);
            box.remove();
          });
          discard.addEventListener("click", function () {
            post(url, [["discard", "1"]]);
            box.remove();
          });
          box.appendChild(text);
          box.appendChild(restore);
          box.appendChild(discard);
          form.parentNode.insertBefore(box, form);
        });
    });
  }

  // --- Print that names nothing: [data-print-clean="#area"] opens the area on its own blank
  // page (same origin, the same styles, the same neutral title) and prints it there, so the
  // browser's own header and footer have no web address to print.
  function printClean(button) {
    var area = document.querySelector(button.dataset.printClean);
    var paper = area ? window.open("", "_blank") : null;
    if (!paper) { window.print(); return; }
    var doc = paper.document;
    doc.open();
    doc.write("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title></title></head>" +
      "<body class=\"safe-print\"><main></main></body></html>");
    doc.close();
    doc.title = document.title;
    var pending = 0;
    function ready() { if (--pending <= 0) { paper.focus(); paper.print(); } }
    Array.prototype.forEach.call(document.querySelectorAll("link[rel=stylesheet]"), function (link) {
      var copy = doc.createElement("link");
      copy.rel = "stylesheet";
      copy.href = link.href;
      pending += 1;
      copy.addEventListener("load", ready);
      copy.addEventListener("error", ready);
      doc.head.appendChild(copy);
    });
    doc.querySelector("main").innerHTML = area.innerHTML;
    if (pending === 0) { pending = 1; ready(); }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print-clean]");
    if (button) printClean(button);
  });
  // Ctrl+P (Cmd+P) on such a page prints the same clean paper, never the page with its address.
  document.addEventListener("keydown", function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    if (event.key !== "p" && event.key !== "P") return;
    var button = document.querySelector("[data-print-clean]");
    if (!button) return;
    event.preventDefault();
    printClean(button);
  });

  // --- Wide tables scroll inside their own box on a phone: that box can take the keyboard's
  // focus, so arrow keys scroll it (the table inside keeps its own caption as its name).
  function scrollableTables() {
    Array.prototype.forEach.call(document.querySelectorAll(".table-responsive"), function (box) {
      if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
    });
  }

  // --- On a phone a table becomes stacked cards (design.css): each cell is labelled with its
  // column's header, and explicit roles keep it a table for screen readers once restyled.
  function stackedTables() {
    Array.prototype.forEach.call(document.querySelectorAll(".table-responsive > table.table"), function (table) {
      if (table.hasAttribute("data-no-stack")) return;
      var headers = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.textContent.trim();
      });
      if (!headers.length) return;
      table.classList.add("table-stack");
      table.setAttribute("role", "table");
      Array.prototype.forEach.call(table.querySelectorAll("thead, tbody"), function (group) { group.setAttribute("role", "rowgroup"); });
      Array.prototype.forEach.call(table.querySelectorAll("tr"), function (row) { row.setAttribute("role", "row"); });
      Array.prototype.forEach.call(table.querySelectorAll("thead th"), function (th) { th.setAttribute("role", "columnheader"); });
      Array.prototype.forEach.call(table.querySelectorAll("tbody > tr"), function (row) {
        var column = 0;
        Array.prototype.forEach.call(row.children, function (cell) {
          cell.setAttribute("role", cell.tagName === "TH" ? "rowheader" : "cell");
          var span = parseInt(cell.getAttribute("colspan") || "1", 10);
          if (span === 1 && headers[column] !== undefined) cell.setAttribute("data-label", headers[column]);
          column += span;
        });
      });
    });
  }

  // --- A check-in's repeat in words, kept current as the date, the repeat or the days change
  // (the sentences come from the page: <script type="application/json" id="repeat-words-data">).
  function repeatWords() {
    var out = document.getElementById("repeat-words");
    var source = document.getElementById("repeat-words-data");
    var form = out && out.closest("form");
    if (!out || !source || !form) return;
    var data = JSON.parse(source.textContent);
    var codes = data.days.map(function (d) { return d[0]; });
    function fill(text, values) {
      return text.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
    }
    function update() {
      var repeat = form.elements.repeat ? form.elements.repeat.value : "";
      var words = data.words;
      if (repeat === "" || repeat === "daily" || repeat === "weekdays") { out.textContent = words[repeat]; return; }
      if (repeat === "days") {
        var chosen = Array.prototype.filter.call(form.querySelectorAll("input[name=days]"), function (box) { return box.checked; })
          .map(function (box) { return data.days[codes.indexOf(box.value)][1]; });
        out.textContent = chosen.length ? fill(words.days, { days: chosen.join(", ") }) : words.days_none;
        return;
      }
      var value = form.elements.date ? form.elements.date.value : "";
      var match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!match) { out.textContent = words.no_date; return; }
      var first = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
      var dayOfMonth = first.getUTCDate();
      var day = data.days[(first.getUTCDay() + 6) % 7][1];
      if (repeat === "monthly") {
        out.textContent = dayOfMonth > 28 ? words.monthly_last : fill(words.monthly, { n: dayOfMonth });
        return;
      }
      var nth = data.nth[Math.min(Math.floor((dayOfMonth - 1) / 7), 4)];
      out.textContent = fill(words[repeat] || "", { day: day, nth: nth });
    }
    form.addEventListener("change", update);
    form.addEventListener("input", update);
  }

  // --- Optional sub-forms: a field marked data-reveal-when="name" is shown only while the
  // checkbox "name" of its form is ticked (GOV.UK's conditional reveal), so its Tab stops are
  // not in the way. What is typed in it stays; the server asks for it only when ticked.
  function conditionalReveal() {
    var groups = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-reveal-when]"), function (field) {
      var form = field.form;
      var name = field.dataset.revealWhen;
      var box = form && form.elements[name];
      if (!box || box.type !== "checkbox") return;
      var wrapper = field.closest("[id^=div_id_]") || field.parentNode;
      var key = form.id + "|" + name;
      if (!groups[key]) groups[key] = { box: box, wrappers: [] };
      groups[key].wrappers.push(wrapper);
    });
    Object.keys(groups).forEach(function (key) {
      var group = groups[key];
      var ids = group.wrappers.map(function (w, i) {
        if (!w.id) w.id = group.box.id + "-reveal-" + i;
        return w.id;
      });
      group.box.setAttribute("aria-controls", ids.join(" "));
      function update() {
        group.box.setAttribute("aria-expanded", group.box.checked ? "true" : "false");
        group.wrappers.forEach(function (w) { w.hidden = !group.box.checked; });
      }
      group.box.addEventListener("change", update);
      update();
    });
  }

  // --- Long language lists: a select marked data-language-filter="label" gets a search box
  // above it that hides the languages whose names (data-search on each option: the reader's
  // name, the English one, the language's own) do not contain what is typed. Chosen languages
  // always stay in view; how many match is announced politely.
  function languageFilters() {
    Array.prototype.forEach.call(document.querySelectorAll("select[data-language-filter]"), function (select, n) {
      var box = document.createElement("div");
      box.className = "mb-2";
      var input = document.createElement("input");
      input.type = "search";
      input.className = "form-control form-control-sm";
      input.id = select.id + "-find";
      input.setAttribute("autocomplete", "off");
      input.setAttribute("aria-controls", select.id);
      var label = document.createElement("label");
      label.className = "form-label small";
      label.htmlFor = input.id;
      // Named after its list too, when a form has two ("Find a language: Interpreter").
      var own = document.querySelector('label[for="' + select.id + '"]');
      var listName = own ? own.textContent.replace("*", "").trim() : "";
      label.textContent = select.dataset.languageFilter + (listName ? ": " + listName : "");
      var help = document.createElement("div");
      help.className = "form-text";
      help.id = input.id + "-help";
      help.setAttribute("aria-live", "polite");
      help.textContent = select.dataset.languageFilterHelp || "";
      input.setAttribute("aria-describedby", help.id);
      box.appendChild(label);
      box.appendChild(input);
      box.appendChild(help);
      select.parentNode.insertBefore(box, select);
      input.addEventListener("input", function () {
        var wanted = input.value.trim().toLowerCase();
        var shown = 0;
        Array.prototype.forEach.call(select.options, function (option) {
          var words = (option.dataset.search || "") + " " + option.textContent.toLowerCase();
          var keep = !wanted || option.selected || option.value === "" || option.value === "mis" ||
            words.indexOf(wanted) !== -1;
          option.hidden = !keep;
          if (keep && option.value) shown += 1;
        });
        help.textContent = wanted ? t("languagesMatch", "%(count)s languages match", { count: shown }) : (select.dataset.languageFilterHelp || "");
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    languageFilters();
    conditionalReveal();
    repeatWords();
    scrollableTables();
    stackedTables();
    // Rows htmx swaps in (a recorded outcome) are labelled like the rest.
    document.body.addEventListener("htmx:afterSettle", stackedTables);
    errorSummary();
    drafts();
    idleWarning();
  });
})();
