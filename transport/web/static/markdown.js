// A small, safe Markdown renderer. The text is HTML-escaped first; the
// only markup in the result is what the rules below add, and links are
// limited to http(s) and same-site paths. Enough for model answers:
// fenced code, inline code, headings, lists, tables, blockquotes, bold,
// italics, links, bare http(s) URLs (made links) and paragraphs.
"use strict";

(function (global) {
  function escapeHTML(s) {
    return String(s)
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#39;");
  }

  // inline applies span rules to already escaped text.
  function inline(s) {
    const codes = [];
    s = s.replace(/`([^`\n]+)`/g, function (_, c) {
      codes.push("<code>" + c + "</code>");
      return "\u0000" + (codes.length - 1) + "\u0000";
    });
    s = s.replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>");
    s = s.replace(/(^|[^*\w])\*([^*\n]+)\*(?!\w)/g, "$1<em>$2</em>");
    s = s.replace(/\[([^\]\n]+)\]\(((?:https?:\/\/|\/(?!\/))[^\s)"]*)\)/g, function (_, text, url) {
      codes.push('<a href="' + url + '" target="_blank" rel="noopener noreferrer">' + text + "</a>");
      return "\u0000" + (codes.length - 1) + "\u0000";
    });
    // A bare http(s) URL becomes a link. The text is escaped, so the URL
    // stops at a quote or angle bracket (&quot; &#39; &lt; &gt;), at
    // white space and at CJK punctuation; trailing punctuation is left out.
    s = s.replace(/https?:\/\/(?:[^\s&<>"'\u0000\u3000-\u303f\uff00-\uffef]|&amp;)+/g, function (url) {
      const tail = url.match(/[.,;:!?)\]]+$/);
      const t = tail ? tail[0] : "";
      const u = url.slice(0, url.length - t.length);
      if (!/^https?:\/\/[^/]/.test(u)) return url;
      codes.push('<a href="' + u + '" target="_blank" rel="noopener noreferrer">' + u + "</a>");
      return "\u0000" + (codes.length - 1) + "\u0000" + t;
    });
    s = s.replace(/\u0000(\d+)\u0000/g, function (_, i) { return codes[Number(i)]; });
    return s;
  }

  function isTableSep(line) {
    return /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);
  }

  function cells(line) {
    return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map(function (c) { return inline(c.trim()); });
  }

  function render(src) {
    const lines = escapeHTML(src).split("\n");
    const out = [];
    let para = [];
    let list = null; // "ul" or "ol"
    function flushPara() {
      if (para.length) { out.push("<p>" + para.map(inline).join("<br>") + "</p>"); para = []; }
    }
    function closeList() {
      if (list) { out.push("</" + list + ">"); list = null; }
    }
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const fence = line.match(/^\s*```\s*([\w+-]*)\s*$/);
      if (fence) {
        flushPara(); closeList();
        const code = [];
        i++;
        while (i < lines.length && !/^\s*```\s*$/.test(lines[i])) { code.push(lines[i]); i++; }
        out.push('<pre><code class="lang-' + fence[1] + '">' + code.join("\n") + "</code></pre>");
        continue;
      }
      if (/^\s*$/.test(line)) { flushPara(); closeList(); continue; }
      if (/^\s*&gt;/.test(line)) { // a blockquote: its lines, inline rules only
        flushPara(); closeList();
        const q = [];
        while (i < lines.length && /^\s*&gt;/.test(lines[i])) { q.push(lines[i].replace(/^\s*&gt;\s?/, "")); i++; }
        i--;
        out.push("<blockquote><p>" + q.map(inline).join("<br>") + "</p></blockquote>");
        continue;
      }
      const h = line.match(/^(#{1,4})\s+(.*)$/);
      if (h) {
        flushPara(); closeList();
        const n = h[1].length + 1;
        out.push("<h" + n + ">" + inline(h[2]) + "</h" + n + ">");
        continue;
      }
      if (line.indexOf("|") >= 0 && i + 1 < lines.length && isTableSep(lines[i + 1])) {
        flushPara(); closeList();
        let t = "<table><thead><tr>" + cells(line).map(function (c) { return "<th>" + c + "</th>"; }).join("") + "</tr></thead><tbody>";
        i += 2;
        while (i < lines.length && lines[i].indexOf("|") >= 0 && !/^\s*$/.test(lines[i])) {
          t += "<tr>" + cells(lines[i]).map(function (c) { return "<td>" + c + "</td>"; }).join("") + "</tr>";
          i++;
        }
        i--;
        out.push(t + "</tbody></table>");
        continue;
      }
      const ul = line.match(/^\s*[-*+]\s+(.*)$/);
      const ol = line.match(/^\s*(\d{1,9})[.)]\s+(.*)$/);
      if (ul || ol) {
        flushPara();
        const kind = ul ? "ul" : "ol";
        if (list !== kind) { closeList(); out.push("<" + kind + ">"); list = kind; }
        // An item keeps its own number: a list quoted from the middle
        // (a search snippet starting at "3.") is not renumbered from 1.
        out.push(ul ? "<li>" + inline(ul[1]) + "</li>" : '<li value="' + Number(ol[1]) + '">' + inline(ol[2]) + "</li>");
        continue;
      }
      closeList();
      para.push(line);
    }
    flushPara(); closeList();
    return out.join("");
  }

  global.OpsMarkdown = { render: render, escapeHTML: escapeHTML };
})(window);
