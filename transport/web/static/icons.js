// opsassist web client: the page's icons — inline SVG (24×24 viewBox,
// stroked paths), so no emoji font is needed anywhere and a failed call
// looks failed. OpsIcons.icon(kind) returns a fresh <svg class="icon
// icon-KIND" aria-hidden="true">; an unknown kind gets the "other" dot.
"use strict";

window.OpsIcons = (function () {
  const paths = {
    thinking: "M12 3a6 6 0 0 0-3.5 10.9V17h7v-3.1A6 6 0 0 0 12 3zM9.5 20h5",
    tool_call: "M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.4-.6-.6-2.4z",
    tool_result: "M4 12.5l5 5L20 6.5",
    failed: "M6 6l12 12M18 6L6 18",
    generating: "M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4",
    other: "M12 11.5v1",
    warn: "M12 3l10 18H2zM12 10v4M12 17.5v.5",
    file: "M6 3h8l4 4v14H6zM14 3v4h4",
    download: "M12 4v11M7 10l5 5 5-5M5 20h14",
    copy: "M9 9h11v11H9zM5 15H4V4h11v1",
    clip: "M20 11.5l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.6 1.6 0 0 1-2.3-2.3l7.8-7.8",
    lock: "M6 11h12v9H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3",
    question: "M9 9a3 3 0 1 1 4 2.8c-.6.3-1 .9-1 1.6V15M12 18.5v.5",
    clock: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2",
    stop: "M7 7h10v10H7z",
    deny: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8",
    star: "M12 3l2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 16.8 6.6 19.7l1.1-6.1-4.5-4.2 6.1-.8z",
    pencil: "M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4",
    trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13",
    search: "M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5L20 20",
    check: "M4 12.5l5 5L20 6.5",
  };

  function icon(kind) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "icon icon-" + (paths[kind] ? kind : "other"));
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", paths[kind] || paths.other);
    svg.appendChild(path);
    return svg;
  }

  return { icon: icon, kinds: Object.keys(paths) };
})();
