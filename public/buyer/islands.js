// The buyer pages' only script (issue 23): small islands over server-rendered HTML that works
// without it. Each island is found by a data attribute the server components write:
//   [data-with-script]   what only script makes true ("checking for updates"), hidden until it runs (live-status.tsx)
//   [data-copy]          copy button, shown once script runs where the browser can copy (copy-button.tsx)
//   [data-print]         print button, shown once script runs (print-button.tsx)
//   [data-method-guard]  "choose a method first" in the page's language (method-guard.tsx)
//   [data-document]      the document field's hint and keyboard follow the method (document-field.tsx)
//   [data-installments-for] a card rail's installment choice, shown only while that rail is chosen (installments-field.tsx)
//   [data-live-status]   polls a payment's status; on a change reloads the page's content or moves on (live-status.tsx)
//   [data-qr-live]       the QR counter's countdown and polling (qr-live.tsx)
// "Refreshing" fetches the page (or the page to move on to) and swaps the body's content, as the
// framework's refresh and soft navigation did: the document is never reloaded.
(function () {
  "use strict";
  var generation = 0;

  // Renders `url` (by default this page) in place: fetches it, swaps the body's content and, when
  // it is another page, puts its address in the history entry. The document stays.
  function refresh(url) {
    var gen = ++generation;
    fetch(url || location.href, { cache: "no-store", headers: { accept: "text/html" } })
      .then(function (res) {
        return res.text().then(function (html) {
          if (gen !== generation) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          if (!res.ok || !doc.body) return void location.assign(url || location.href);
          if (res.url && res.url !== location.href) history.replaceState(null, "", res.url);
          document.body.innerHTML = doc.body.innerHTML;
          if (doc.title) document.title = doc.title;
          init(document.body);
        });
      })
      .catch(function () {
        if (gen === generation) setTimeout(function () { refresh(url); }, 2000);
      });
  }

  function clock(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600);
    var mm = String(Math.floor((s % 3600) / 60));
    if (h && mm.length < 2) mm = "0" + mm;
    var ss = String(s % 60);
    if (ss.length < 2) ss = "0" + ss;
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }

  function poll(url, every, changed, onChange) {
    var gen = generation;
    var tick = function () {
      if (gen !== generation) return;
      fetch(url, { cache: "no-store" })
        .then(function (res) { return res.ok ? res.json() : null; })
        .then(function (now) {
          if (gen !== generation) return;
          if (now && changed(now)) return onChange(now);
          setTimeout(tick, every());
        })
        .catch(function () {
          if (gen === generation) setTimeout(tick, every());
        });
    };
    setTimeout(tick, 2000);
  }

  // Shown only where the browser can copy (the Clipboard API): a button that cannot copy is not offered.
  function copy(button) {
    if (!navigator.clipboard) return;
    button.hidden = false;
    var label = button.querySelector("[aria-live]") || button;
    var idle = label.textContent;
    var timer;
    button.addEventListener("click", function () {
      var done = function () {
        label.textContent = button.getAttribute("data-copied");
        clearTimeout(timer);
        timer = setTimeout(function () { label.textContent = idle; }, 2000);
      };
      navigator.clipboard.writeText(button.getAttribute("data-copy")).then(done, function () {});
    });
  }

  function methodGuard(box) {
    var form = box.closest("form");
    if (!form) return;
    var radios = function () { return Array.prototype.slice.call(form.querySelectorAll('input[name="paymentMethodId"]')); };
    var show = function (on) {
      box.className = box.getAttribute(on ? "data-shown-class" : "data-hidden-class");
      box.textContent = on ? box.getAttribute("data-message") : "";
    };
    form.addEventListener("invalid", function (e) {
      var all = radios();
      if (all.some(function (r) { return r.checked; })) return;
      e.preventDefault();
      show(true);
      if (e.target === all[0]) all[0].focus();
    }, true);
    form.addEventListener("change", function (e) {
      if (e.target.name === "paymentMethodId") show(false);
    });
  }

  function documentField(box) {
    var form = box.closest("form");
    var input = box.querySelector("input");
    var data = JSON.parse(box.getAttribute("data-document"));
    if (!form || !input) return;
    form.addEventListener("change", function (e) {
      if (e.target.name !== "paymentMethodId") return;
      var rule = data.rules[e.target.value];
      var hintText = data.hints[e.target.value];
      if (!rule || !hintText) return;
      var hint = box.querySelector("#documentId-hint");
      var p = document.createElement("p");
      p.id = "documentId-hint";
      p.className = data.hintClass;
      p.setAttribute("data-testid", "document-format");
      p.textContent = hintText + ". " + data.help;
      if (hint) hint.replaceWith(p);
      input.setAttribute("inputmode", data.numeric.indexOf(rule) >= 0 ? "numeric" : "text");
      input.setAttribute("autocapitalize", rule === "rfc_curp" ? "characters" : "none");
    });
  }

  // Without script every card rail's choice stays on the page (each says it applies to its card);
  // with script only the chosen rail's, so the keyboard goes from the method to what it needs.
  function installmentsFor(box) {
    var form = box.closest("form");
    if (!form) return;
    var method = box.getAttribute("data-installments-for");
    var sync = function () {
      var chosen = form.querySelector('input[name="paymentMethodId"]:checked');
      box.hidden = !chosen || chosen.value !== method;
    };
    form.addEventListener("change", function (e) {
      if (e.target.name === "paymentMethodId") sync();
    });
    sync();
  }

  function liveStatus(p) {
    var status = p.getAttribute("data-status");
    var goTo = p.getAttribute("data-go-to");
    poll(p.getAttribute("data-status-url"), function () { return 2000; }, function (now) { return now.status !== status; }, function () { refresh(goTo || undefined); });
  }

  function qrLive(box) {
    var status = box.getAttribute("data-status");
    var live = box.getAttribute("data-live") === "true";
    var timer = box.querySelector("[role=timer]");
    var remaining = box.getAttribute("data-remaining-ms");
    var gen = generation;
    if (live) {
      poll(box.getAttribute("data-status-url"), function () { return status === "pending" ? 2000 : 4000; }, function (now) { return now.status !== status || now.live !== live; }, function () { refresh(); });
    }
    if (timer && remaining !== null && status === "pending") {
      // Counted from this device's clock: the server gave the time left, not its own clock.
      var deadline = Date.now() + Number(remaining);
      var tick = setInterval(function () {
        if (gen !== generation) return clearInterval(tick);
        var ms = deadline - Date.now();
        timer.textContent = clock(ms);
        if (ms <= 0) {
          clearInterval(tick);
          refresh();
        }
      }, 1000);
    }
  }

  function each(root, selector, fn) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), fn);
  }

  function init(root) {
    each(root, "[data-with-script]", function (el) { el.hidden = false; });
    each(root, "[data-copy]", copy);
    each(root, "[data-print]", function (b) {
      b.hidden = false;
      b.addEventListener("click", function () { window.print(); });
    });
    each(root, "[data-method-guard]", methodGuard);
    each(root, "[data-document]", documentField);
    each(root, "[data-installments-for]", installmentsFor);
    each(root, "[data-live-status]", liveStatus);
    each(root, "[data-qr-live]", qrLive);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { init(document); });
  else init(document);
})();
