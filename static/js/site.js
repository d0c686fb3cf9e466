// Small progressive enhancements; every page works without JavaScript. No inline handlers
// anywhere (the Content-Security-Policy forbids them): pages mark elements with data-*.
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("language-form");
  var select = document.getElementById("language-select");
  var button = document.getElementById("language-submit");
  if (form && select && button) {
    button.hidden = true;
    select.addEventListener("change", function () { form.submit(); });
  }
  // The header's menu on a phone: one button shows and hides the links, its aria-expanded
  // saying which; Escape closes it and gives the focus back to the button. The CSS folds the
  // links only once this has run (.js-menu), so without JavaScript they are simply shown.
  var header = document.querySelector(".site-header");
  var menuButton = document.getElementById("menu-button");
  var menu = document.getElementById("site-menu");
  if (header && menuButton && menu) {
    var setOpen = function (open) {
      menu.classList.toggle("open", open);
      menuButton.setAttribute("aria-expanded", open ? "true" : "false");
    };
    header.classList.add("js-menu");
    menuButton.hidden = false;
    menuButton.addEventListener("click", function () {
      setOpen(menuButton.getAttribute("aria-expanded") !== "true");
    });
    header.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.classList.contains("open")) {
        setOpen(false);
        menuButton.focus();
      }
    });
  }
  // <form data-confirm="question">: ask before sending (delegated: a page may redraw its forms)
  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (f.matches && f.matches("form[data-confirm]") && !window.confirm(f.dataset.confirm)) {
      event.preventDefault();
    }
  });
  // <button data-print>: the browser's print dialogue
  document.querySelectorAll("[data-print]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { window.print(); });
  });
  // A wide table scrolls inside its .scroll box; a keyboard user scrolls it only when the box
  // can take focus, and a screen reader announces it by name: the box becomes a named region
  // (its table's caption, else the heading above it) while it is wider than the screen.
  function headingBefore(box) {
    var caption = box.querySelector("caption");
    if (caption) return caption.textContent.trim();
    var found = "";
    document.querySelectorAll("h1, h2, h3, h4").forEach(function (h) {
      if (h.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING) found = h.textContent.trim();
    });
    return found || document.title;
  }
  function scrollBoxes() {
    document.querySelectorAll(".scroll").forEach(function (box) {
      var wide = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
      if (wide && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", headingBefore(box));
      }
    });
  }
  scrollBoxes();
  window.addEventListener("resize", scrollBoxes);
  // a table that grows later (live updates, the hall's slides) may make its box scroll
  if (window.ResizeObserver) {
    var watch = new ResizeObserver(scrollBoxes);
    document.querySelectorAll(".scroll, .scroll > *").forEach(function (e) { watch.observe(e); });
  }
  window.scrollBoxes = scrollBoxes;  // for pages that fill a box later (the hall's slides)
});
