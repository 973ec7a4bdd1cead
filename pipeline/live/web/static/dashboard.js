// leakline live dashboard. Plain JS, no dependencies. Every piece of event data goes into
// text nodes (textContent / createTextNode), never into HTML: visible text is hostile input.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const state = {
    window: params.get("window") || "5m",
    label: params.get("label") || "",
    version: params.get("version") || "",
    basis: params.get("basis") || "event",
    offset: 0,
    limit: 10,
  };
  const WINDOW_NAMES = { "5m": "last 5 min", "1h": "last hour", "24h": "last 24 h", "7d": "last 7 days", "30d": "last 30 days" };
  const WINDOW_OPTIONS = { "5m": "5 min", "1h": "1 hour", "24h": "24 hours", "7d": "7 days (store)", "30d": "30 days (store)" };
  const BASIS_NAMES = { event: "by event time", ingest: "by ingest time" };
  const tokenQuery = () => (token ? "?token=" + encodeURIComponent(token) : "");
  const eventHref = (id) => "/event/" + encodeURIComponent(id) + tokenQuery();
  const COLORS = ["#c2410c", "#2563eb", "#16a34a", "#9333ea", "#db2777", "#0891b2", "#ca8a04"];
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    return node;
  }
  const pct = (r) => (100 * r).toFixed(r > 0 && r < 0.001 ? 3 : 1) + "%";
  const num = (n) => Number(n).toLocaleString("en-US");
  // a rate with no events behind it is "no data", never 0 %; the title gives its 95 % interval
  const rateText = (r) => (r.total ? pct(r.rate) : "no data");
  const ciText = (r) =>
    r.total && r.rate_low !== null && r.rate_low !== undefined
      ? "95% CI " + (100 * r.rate_low).toFixed(1) + "–" + (100 * r.rate_high).toFixed(1) + "% of " + num(r.total) + " events"
      : "no events in this window";

  function query(extra) {
    const q = new URLSearchParams({ window: state.window, basis: state.basis, ...extra });
    if (state.label) q.set("label", state.label);
    if (state.version) q.set("version", state.version);
    return q.toString();
  }
  async function getJSON(path, extra) {
    const headers = token ? { Authorization: "Bearer " + token } : {};
    const res = await fetch(path + "?" + query(extra), { headers, cache: "no-store" });
    if (!res.ok) {
      let detail = "HTTP " + res.status;
      try { detail = (await res.json()).error || detail; } catch (e) { /* not JSON */ }
      throw new Error(detail);
    }
    return res.json();
  }
  function syncURL() {
    const q = new URLSearchParams();
    if (token) q.set("token", token);
    if (state.window !== "5m") q.set("window", state.window);
    if (state.basis !== "event") q.set("basis", state.basis);
    if (state.label) q.set("label", state.label);
    if (state.version) q.set("version", state.version);
    history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q : ""));
  }
  function versionText(key) {
    if (key === "other") return "other versions";
    const p = key.split("|");
    return p[0] + " " + p[1] + " · " + p[2] + " · " + p[3] + " · " + p[4] + "/" + p[5];
  }

  function setOptions(select, values, current, label) {
    const wanted = [""].concat(values);
    if (current && !wanted.includes(current)) wanted.push(current);
    const have = Array.from(select.options).map((o) => o.value);
    if (have.join("\n") !== wanted.join("\n")) {
      select.replaceChildren(...wanted.map((v) => el("option", { value: v, text: v ? label(v) : select.dataset.all })));
    }
    select.value = current;
  }

  function renderCards(ov) {
    const cards = $("cards");
    cards.replaceChildren(
      ...ov.windows.map((w) => {
        const t = ov.totals[w];
        return el(
          "div",
          { class: "card" + (w === ov.window ? " selected" : ""), "data-window": w },
          el("h3", { text: WINDOW_NAMES[w] || w }),
          el("div", { class: "big" + (t.total ? "" : " nodata") }, el("span", { id: "rate-" + w, text: rateText(t), title: ciText(t) })),
          el(
            "div",
            { class: "row" },
            el("span", {}, "events ", el("b", { id: "total-" + w, text: num(t.total) })),
            el("span", {}, (state.label ? state.label : "leaking") + " ", el("b", { id: "leaking-" + w, text: num(t.leaking) })),
            el("span", {}, "dead-lettered ", el("b", { id: "dead-" + w, text: num(t.dead_lettered) }))
          )
        );
      })
    );
  }

  function renderModel(ov) {
    const m = ov.model || {};
    $("model-version").textContent = m.known ? m.version || "none (no classifier loaded)" : "unknown (not reported yet)";
    $("model-failures").textContent = num(m.reload_failures || 0);
    $("model-panel").classList.toggle("warn", (m.reload_failures || 0) > 0);
  }

  function renderRegressions(ov) {
    const box = $("regressions");
    const found = ov.regressions || [];
    box.hidden = !found.length;
    box.replaceChildren(
      el("h2", { text: "Version regression" + (found.length > 1 ? "s" : "") }),
      ...found.map((r) =>
        el(
          "div",
          { class: "regression", "data-key": r.key },
          el("b", { text: r.model }),
          ": " + r.changed + " " + r.previous + " → " + r.version + " leaks " + pct(r.rate) + " of " + num(r.total) + " events, up from " + pct(r.previous_rate) + " of " + num(r.previous_total) + " (p = " + r.p_value.toExponential(1) + ", last 24 h by event time)"
        )
      )
    );
  }

  function renderVersions(ov) {
    const body = $("versions").tBodies[0];
    const regressed = new Map((ov.regressions || []).map((r) => [r.key, r]));
    const maxRate = Math.max(0.0001, ...ov.rows.map((r) => r.rate));
    const rows = ov.rows.map((r) => {
      const d = r.dims;
      const top = Object.entries(r.labels).sort((a, b) => b[1] - a[1]).slice(0, 3);
      const tr = el(
        "tr",
        { "data-key": r.key, class: r.key === "other" ? "other" : regressed.has(r.key) ? "regressed" : "" },
        ...(r.key === "other"
          ? [el("td", { colspan: "6", text: "other (" + (r.versions || 0) + " versions)" })]
          : [d.engine_name, d.engine_version, d.model_name, d.template_name, d.reasoning_parser, d.tool_call_parser].map((v) => el("td", { text: v }))),
        el("td", { class: "num c-total", text: num(r.total) }),
        el("td", { class: "num c-leaking", text: num(r.leaking) }),
        el("td", { class: "num c-rate", title: ciText(r) }, rateText(r), el("span", { class: "bar", style: "width:" + Math.round((60 * r.rate) / maxRate) + "px" })),
        el("td", { class: "labels" }, ...top.map(([l, n]) => el("span", { class: "chip", text: l + " " + num(n) })))
      );
      const flag = regressed.get(r.key);
      if (flag) tr.cells[0].prepend(el("span", { class: "badge", title: "leaks significantly more than " + flag.changed + " " + flag.previous + " did for " + flag.model, text: "regression" }), " ");
      if (r.key !== "other") {
        tr.title = "show only this version (drill down)";
        tr.addEventListener("click", () => setFilter("version", r.key));
      }
      return tr;
    });
    body.replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: "10", class: "empty", text: "no events in this window yet" }))]));
    $("versions-sub").textContent = "top " + ov.rows.filter((r) => r.key !== "other").length + " by volume, " + WINDOW_NAMES[ov.window] + " " + BASIS_NAMES[ov.basis] + " — click a row to drill down";
  }

  function renderChart(series) {
    const pts = series.points;
    const W = 900, H = 240, L = 44, R = 10, T = 10, B = 26;
    const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img", "aria-label": "leak rate over time" });
    const totals = {};
    for (const p of pts) for (const [l, n] of Object.entries(p.labels)) totals[l] = (totals[l] || 0) + n;
    const labels = Object.keys(totals).sort((a, b) => totals[b] - totals[a]).slice(0, 6);
    const lines = [{ name: state.label ? state.label : "any leak", get: (p) => p.rate, color: "#1d2430", width: 2.5 }];
    if (!state.label) labels.forEach((l, i) => lines.push({ name: l, get: (p) => (p.total ? (p.labels[l] || 0) / p.total : 0), color: COLORS[i % COLORS.length], width: 1.5 }));
    // a label selected: its trend per busiest version (dashed), on the same time steps
    const perVersion = state.label ? series.by_version || [] : [];
    perVersion.forEach((v, i) => lines.push({ name: versionText(v.key), version: v.key, pts: v.points, get: (p) => p.rate, color: COLORS[i % COLORS.length], width: 1.5, dash: "5 3" }));
    const maxY = Math.max(
      0.01,
      ...pts.map((p) => (p.total ? Math.max(p.rate, p.rate_high || 0) : 0)),
      ...(state.label ? series.by_version || [] : []).flatMap((v) => v.points.map((p) => (p.total ? p.rate : 0)))
    );
    const x = (i) => L + ((W - L - R) * i) / Math.max(1, pts.length - 1);
    const y = (v) => T + (H - T - B) * (1 - v / maxY);
    for (const f of [0, 0.5, 1]) {
      box.appendChild(svg("line", { class: "axis", x1: L, x2: W - R, y1: y(maxY * f), y2: y(maxY * f) }));
      const t = svg("text", { x: 4, y: y(maxY * f) + 4 });
      t.textContent = pct(maxY * f);
      box.appendChild(t);
    }
    [0, Math.floor(pts.length / 2), pts.length - 1].forEach((i) => {
      if (!pts[i]) return;
      const t = svg("text", { x: Math.min(x(i), W - 60), y: H - 6 });
      const when = new Date(pts[i].t * 1000);
      t.textContent = pts[i].step >= 3600 ? when.toLocaleDateString([], { month: "short", day: "numeric" }) + " " + when.toLocaleTimeString([], { hour: "2-digit" }) : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      box.appendChild(t);
    });
    // the main line's 95 % interval as a band, in runs of steps that have events
    const runs = [];
    pts.forEach((p, i) => {
      if (!p.total) return;
      if (!runs.length || runs[runs.length - 1].end !== i - 1) runs.push({ start: i, end: i });
      else runs[runs.length - 1].end = i;
    });
    for (const run of runs) {
      const idx = [];
      for (let i = run.start; i <= run.end; i++) idx.push(i);
      const upper = idx.map((i) => x(i).toFixed(1) + " " + y(Math.min(maxY, pts[i].rate_high)).toFixed(1));
      const lower = idx.reverse().map((i) => x(i).toFixed(1) + " " + y(pts[i].rate_low).toFixed(1));
      box.appendChild(svg("path", { class: "band", d: "M" + upper.concat(lower).join(" L") + " Z", "data-band": lines[0].name }));
    }
    // steps without events are gaps ("no data"), not 0 %
    for (const line of lines) {
      let d = "", pen = "M";
      (line.pts || pts).forEach((p, i) => {
        if (!p.total) { pen = "M"; return; }
        d += pen + x(i).toFixed(1) + " " + y(line.get(p)).toFixed(1) + " ";
        pen = "L";
      });
      const attrs = { d: d.trim(), fill: "none", stroke: line.color, "stroke-width": line.width, "data-series": line.name };
      if (line.dash) attrs["stroke-dasharray"] = line.dash;
      if (line.version) attrs["data-version"] = line.version;
      if (d) box.appendChild(svg("path", attrs));
      // a step with events between two without is a dot, not an invisible one-point line
      const own = line.pts || pts;
      own.forEach((p, i) => {
        if (p.total && !(own[i - 1] || {}).total && !(own[i + 1] || {}).total) {
          const dot = { cx: x(i).toFixed(1), cy: y(line.get(p)).toFixed(1), r: 1.5 + line.width, fill: line.color, "data-series": line.name };
          if (line.version) dot["data-version"] = line.version;
          box.appendChild(svg("circle", dot));
        }
      });
      for (const run of runs.filter((r) => r.start === r.end && line === lines[0])) {
        const i = run.start;
        box.appendChild(svg("line", { class: "whisker", x1: x(i), x2: x(i), y1: y(Math.min(maxY, pts[i].rate_high)), y2: y(pts[i].rate_low), stroke: line.color }));
      }
    }
    if (!runs.length) {
      const t = svg("text", { x: W / 2 - 60, y: H / 2, class: "nodata", "data-nodata": "1" });
      t.textContent = "no data in this window";
      box.appendChild(t);
    }
    $("chart").replaceChildren(box);
    $("legend").replaceChildren(...lines.map((l) => el("span", {}, el("i", { style: "background:" + l.color }), l.name)));
    const step = pts.length ? pts[0].step : 60;
    const stepText = step >= 3600 ? step / 3600 + "-hour" : step >= 60 ? step / 60 + "-min" : step + "-s";
    $("chart-sub").textContent = WINDOW_NAMES[series.window] + " " + BASIS_NAMES[series.basis] + ", " + stepText + " steps" + (state.version ? " · " + versionText(state.version) : "");
  }

  function renderSamples(page) {
    const box = $("samples");
    const items = page.items.map((s) => {
      const empty = s.segments.every((seg) => !seg.text);
      const text = empty
        ? el("pre", { class: "text none", text: "(no visible text)" })
        : el("pre", { class: "text" }, ...s.segments.map((seg) => (seg.mark ? el("mark", { text: seg.text }) : document.createTextNode(seg.text))));
      const findings = el(
        "table",
        { class: "findings" },
        el("tr", {}, ...["label", "layer", "remediation", "source", "evidence"].map((h) => el("th", { text: h }))),
        ...s.findings.map((f) => el("tr", {}, el("td", { text: f.label || "" }), el("td", { class: "layer", text: f.layer || "" }), el("td", { class: "remediation", text: f.remediation || "" }), el("td", { text: f.source || "" }), el("td", { class: "evidence", text: f.evidence || "" })))
      );
      const version = el("a", { href: "#", text: versionText(s.key) });
      version.addEventListener("click", (e) => { e.preventDefault(); setFilter("version", s.key); });
      return el(
        "article",
        { class: "sample", "data-event-id": s.event_id, "data-key": s.key },
        el("div", { class: "meta" }, el("a", { class: "event-link", href: eventHref(s.event_id), title: "the stored event: request, response, findings, diagnosis" }, el("b", { text: s.event_id })), " · " + (s.ts || "") + " · " + (s.api || "") + (s.stream ? " (stream)" : "") + " · ", version, " · ", ...s.labels.map((l) => el("span", { class: "chip", text: l }))),
        text,
        findings
      );
    });
    box.replaceChildren(...(items.length ? items : [el("div", { class: "empty", text: "no leak samples match yet" })]));
    const last = Math.min(page.total, page.offset + page.items.length);
    $("page").textContent = page.total ? page.offset + 1 + "–" + last + " of " + page.total : "0";
    $("prev").disabled = page.offset <= 0;
    $("next").disabled = last >= page.total;
    $("samples-sub").textContent = "newest first, up to " + page.capacity + " kept in memory";
  }

  // "new markers seen": the fleet learner's open suggestions; every field goes in as text
  function renderMarkers(m) {
    const panel = $("markers-panel");
    panel.hidden = !m.enabled;
    if (!m.enabled) return;
    const rows = m.suggestions.map((s) =>
      el(
        "tr",
        { "data-id": s.id },
        el("td", { class: "shape" }, el("code", { text: s.shape.join(" … ") })),
        el("td", { text: s.kind }),
        el("td", { text: s.where.join(", ") }),
        el("td", { text: s.group.model }),
        el("td", { text: s.group.engine + " " + s.group.engine_version }),
        el("td", { text: s.group.template_hash }),
        el("td", { class: "num", text: num(s.count) + " of " + num(s.events) }),
        el("td", { text: s.first_seen }),
        el("td", { class: "example" }, el("pre", { class: "text", text: s.example }))
      )
    );
    $("markers").tBodies[0].replaceChildren(
      ...(rows.length ? rows : [el("tr", {}, el("td", { class: "empty", colspan: "9", text: "no open suggestions" }))])
    );
    if (m.error) { $("markers-sub").textContent = m.error; return; }
    $("markers-sub").textContent = num(m.open) + " open, " + num(m.accepted) + " accepted" + (m.open > m.suggestions.length ? " · newest " + m.suggestions.length + " listed" : "");
  }

  let busy = false, again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const [ov, series, page, markers] = await Promise.all([
        getJSON("/dashboard/api/overview", {}),
        getJSON("/dashboard/api/series", {}),
        getJSON("/dashboard/api/samples", { offset: state.offset, limit: state.limit }),
        // the card must never take the rest of the page down with it
        getJSON("/dashboard/api/markers", {}).catch((err) => ({ enabled: true, error: String(err.message || err), suggestions: [], open: 0, accepted: 0 })),
      ]);
      $("worker").textContent = ov.worker_id;
      $("f-label").dataset.all = "all labels";
      $("f-version").dataset.all = "all versions";
      setOptions($("f-label"), ov.labels, state.label, (v) => v);
      setOptions($("f-version"), ov.versions, state.version, versionText);
      const windowSelect = $("f-window");
      const windows = ["5m", "1h", "24h"].concat(ov.history_windows || []);
      if (Array.from(windowSelect.options).map((o) => o.value).join() !== windows.join()) {
        windowSelect.replaceChildren(...windows.map((w) => el("option", { value: w, text: WINDOW_OPTIONS[w] || w })));
      }
      windowSelect.value = state.window;
      $("f-basis").value = state.basis;
      renderModel(ov);
      renderRegressions(ov);
      $("note").textContent = ov.stats_partitions.length ? "" : "this worker holds no leak.stats partition: its rates stay empty (another worker of the group shows them)";
      renderCards(ov);
      renderVersions(ov);
      renderChart(series);
      renderSamples(page);
      renderMarkers(markers);
      $("updated").textContent = new Date().toLocaleTimeString();
      document.body.dataset.stats = String(ov.stats_applied);
      document.body.dataset.samples = String(ov.samples_seen);
    } catch (err) {
      $("conn-text").textContent = String(err.message || err);
      $("note").textContent = String(err.message || err);
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  function setFilter(name, value) {
    state[name] = value;
    state.offset = 0;
    syncURL();
    refresh();
  }

  let timer = null;
  function connect() {
    const src = new EventSource("/dashboard/api/events" + (token ? "?token=" + encodeURIComponent(token) : ""));
    src.addEventListener("open", () => { $("conn").className = "dot on"; $("conn-text").textContent = "live"; });
    src.addEventListener("error", () => { $("conn").className = "dot off"; $("conn-text").textContent = "reconnecting…"; });
    src.addEventListener("update", () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250); // coalesce bursts of batches
    });
  }

  $("f-window").addEventListener("change", (e) => setFilter("window", e.target.value));
  $("f-label").addEventListener("change", (e) => setFilter("label", e.target.value));
  $("f-basis").addEventListener("change", (e) => setFilter("basis", e.target.value));
  $("search").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = $("search-id").value.trim();
    if (id) location.href = eventHref(id);
  });
  $("f-version").addEventListener("change", (e) => setFilter("version", e.target.value));
  $("f-clear").addEventListener("click", () => { state.label = ""; state.version = ""; setFilter("offset", 0); });
  $("prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - state.limit); refresh(); });
  $("next").addEventListener("click", () => { state.offset += state.limit; refresh(); });
  setInterval(refresh, 30000); // windows slide even when nothing arrives
  refresh();
  connect();
})();
