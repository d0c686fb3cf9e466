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
});
