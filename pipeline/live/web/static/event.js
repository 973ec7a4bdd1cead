// leakline event page: one stored event. Every piece of event data goes into text nodes.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const $ = (id) => document.getElementById(id);
  const tokenQuery = () => (token ? "?token=" + encodeURIComponent(token) : "");
  const eventId = decodeURIComponent(location.pathname.replace(/^\/event\//, ""));

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
  const known = (v) => v !== null && v !== undefined && v !== "" && v !== "unknown";
  const pretty = (value) => (value === null || value === undefined ? "(not stored)" : JSON.stringify(value, null, 2));

  function render(ev) {
    $("title-id").textContent = ev.event_id;
    document.title = "leakline · " + ev.event_id;
    const v = ev.versions || {};
    const facts = [
      ["event_id", ev.event_id],
      ["time (event ts)", ev.ts],
      ["ingested", ev.ingested_at],
      ["api", (ev.api || "") + (ev.stream ? " (stream)" : "")],
      ["source", ev.source],
      ["finish reason", ev.finish_reason],
      ["labels", (ev.labels || []).join(", ") || "none (clean)"],
      ["engine", (v.engine_name || "unknown") + " " + (v.engine_version || "")],
      ["model", (v.model_name || "unknown") + (known(v.model_revision) ? " @ " + v.model_revision : "")],
      ["chat template", (v.template_name || "unknown") + (known(v.template_hash) ? " (" + v.template_hash + ")" : "")],
      ["parsers", "reasoning " + (v.reasoning_parser || "unknown") + " · tool call " + (v.tool_call_parser || "unknown")],
      ["gateway", known(v.gateway_name) ? v.gateway_name + (known(v.gateway_version) ? " " + v.gateway_version : "") : "unknown"],
      ["classifier", v.classifier_version || "none"],
      ["remediation", ev.remediation && ev.remediation.action ? ev.remediation.action + " → " + (ev.remediation.outcome || "?") : "none recorded"],
    ];
    $("facts").replaceChildren(...facts.flatMap(([k, val]) => [el("dt", { text: k }), el("dd", { "data-fact": k, text: String(val === null || val === undefined ? "" : val) })]));
    const segments = ev.segments || [];
    $("text").replaceChildren(
      ...(ev.text_stored
        ? segments.map((seg) => (seg.mark ? el("mark", { text: seg.text }) : document.createTextNode(seg.text)))
        : [document.createTextNode("(text not stored for this event: only labelled events and a sample of clean ones keep it)")])
    );
    $("reasoning-box").hidden = !ev.reasoning_text;
    $("reasoning").textContent = ev.reasoning_text || "";
    const head = el("tr", {}, ...["label", "detector", "layer", "remediation", "evidence", "diagnosis", "fix"].map((h) => el("th", { text: h })));
    $("findings").replaceChildren(
      head,
      ...(ev.findings || []).map((f) =>
        el(
          "tr",
          { class: "finding" },
          el("td", { text: f.label || "" }),
          el("td", { text: (f.detector_id || "") + " " + (f.detector_version || "") + " (" + (f.source || "") + ")" }),
          el("td", { class: "layer", text: f.layer || "" }),
          el("td", { class: "remediation", text: f.remediation || "" }),
          el("td", { class: "evidence", text: f.evidence || "" }),
          el("td", { class: "reason", text: f.diagnosis ? f.diagnosis.reason || "" : "no diagnosis rule matched" }),
          el("td", { class: "fix", text: f.diagnosis ? f.diagnosis.fix || "" : "" })
        )
      )
    );
    if (!(ev.findings || []).length) $("findings").appendChild(el("tr", {}, el("td", { colspan: "7", class: "empty", text: "no findings: a clean event" })));
    $("request").textContent = pretty(ev.request);
    $("response").textContent = pretty(ev.response);
    $("content").hidden = false;
    $("status").hidden = true;
  }

  async function load() {
    $("back").href = "/dashboard" + tokenQuery();
    $("search-id").value = eventId;
    const headers = token ? { Authorization: "Bearer " + token } : {};
    try {
      const res = await fetch("/dashboard/api/event?id=" + encodeURIComponent(eventId), { headers, cache: "no-store" });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error || "HTTP " + res.status);
      render(body);
    } catch (err) {
      $("status").textContent = String(err.message || err);
      $("status").dataset.error = "1";
    }
  }
  $("search").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = $("search-id").value.trim();
    if (id) location.href = "/event/" + encodeURIComponent(id) + tokenQuery();
  });
  load();
})();
