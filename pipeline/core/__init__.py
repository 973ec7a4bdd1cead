"""The plumbing every subsystem shares, and nothing of the event itself.

Owns: ``config`` (the one frozen configuration object) and ``http_limits`` (its limits
section for every HTTP server), ``errors`` (``LeaklineError`` with a hint), ``command``
(CLI helpers), ``progress``, ``term`` (untrusted text on a terminal), ``failpoints``,
``gc_pause``, ``procinfo``.

May import: ``leakline.client`` (the Kafka settings it shares with gateways). Nothing else of
leakline: every other package builds on this one.
"""
