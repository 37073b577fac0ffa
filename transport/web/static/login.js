// opsassist web client: the login form. After a refused token the
// server sends the browser back to /login?failed=1; the form then says
// so, in the page's language (OpsI18n).
"use strict";

(function () {
  if (new URLSearchParams(location.search).get("failed") !== null) {
    document.getElementById("login-failed").hidden = false;
  }
})();
