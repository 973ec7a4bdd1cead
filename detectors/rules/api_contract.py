"""``commentary_rendered`` and ``mixed_chunk``: API-contract facts the client gets wrong."""

from __future__ import annotations

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source


class ApiContract(DetectorBase):
    id = "api_contract"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        findings = []
        commentary = exchange.commentary_text
        if exchange.renders_phases is True and commentary and not commentary.isspace():
            text = exchange.visible_text
            at = text.find(commentary) if commentary else -1
            span = (at, at + len(commentary)) if at >= 0 else None
            findings.append(
                self.finding(
                    Label.COMMENTARY_RENDERED,
                    layer=Layer.CLIENT,
                    remediation=Remediation.STRIP,
                    confidence=1.0,
                    text=text,
                    span=span,
                    evidence=None if span else commentary[:160],
                    details={"commentary_chars": len(commentary)},
                )
            )
        mixed = exchange.stream_facts.mixed_chunks
        if exchange.stream and mixed:
            shown = list(mixed[:50])
            findings.append(
                self.finding(
                    Label.MIXED_CHUNK,
                    layer=Layer.CLIENT,
                    # Re-emit such a chunk as two deltas (reasoning, then content).
                    remediation=Remediation.RESCUE,
                    confidence=1.0,
                    evidence=f"{len(mixed)} chunk(s) carry both reasoning and content: {shown[:8]}",
                    details={"chunks": shown, "count": len(mixed)},
                )
            )
        return findings
