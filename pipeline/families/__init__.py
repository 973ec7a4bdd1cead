"""Where a model family lives besides the detectors' built-in table: imported families.

Owns: ``files`` (read a model's own files, write and read ``DATA_DIR/families.json``, and
activate them for the detectors), ``chat_template`` (what a template does with the reasoning
markers), ``marker_suggestions`` (markers the workers learned, on disk), and the
``families`` command (``commands``).

May import: ``pipeline.core``, ``pipeline.events`` (``families check`` runs one event),
``leakline.detectors``.
"""
