// Package e2e holds the end-to-end tests: each starts a whole daemon (in
// process through the composition root, or the built opsassistd binary)
// and talks to it as a user would, over NPLT, RDT and HTTP with the real
// CLI client, or in headless Chromium through the web page (the browser
// tests skip when /usr/bin/chromium is missing; `make chromium` installs
// it). The package has no code of its own; only tests. They run in
// parallel, as they did when they sat in three packages: each has its own
// daemon, data directory and ports.
//
// Unit tests of the composition root (planner selection, TLS files,
// start-up's data lock and orphan quarantine) stay in package daemon.
package e2e
