// Package e2e holds the end-to-end tests: they drive the product as a
// user would. Most start a whole daemon (in process through the
// composition root, or the built opsassistd binary) and talk to it over
// NPLT, RDT and HTTP with the real CLI client; the browser tests drive
// the web page in headless Chromium (they skip when /usr/bin/chromium is
// missing; `make chromium` installs it), against a whole daemon or, for
// the login page, the HTTP API over a real chat core.
//
// The package has no code of its own; only tests. They run in parallel,
// as they did when they sat in three packages: each has its own daemon
// or server, data directory and ports. Unit tests of the composition
// root (planner selection, TLS files, start-up's data lock and orphan
// quarantine) stay in package daemon.
package e2e
