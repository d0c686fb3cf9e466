// Small progressive enhancements; every page works without JavaScript.
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("language-form");
  var select = document.getElementById("language-select");
  var button = document.getElementById("language-submit");
  if (form && select && button) {
    button.hidden = true;
    select.addEventListener("change", function () { form.submit(); });
  }
});
