"""Root exception of the pipeline package; the CLI turns these into clear messages."""

from __future__ import annotations


class LeaklineError(Exception):
    """An error the user can act on. ``hint`` says what to do instead."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class BrokerError(LeaklineError):
    pass


class StoreError(LeaklineError):
    pass


def install_hint(extra: str) -> str:
    """The command that installs leakline's optional ``extra`` where leakline is installed.

    From an editable checkout (``pip install -e .``, the README's install) the registry form
    ``pip install 'leakline[gate]'`` would fetch another leakline, so the hint names the
    checkout; a non-editable install from a local directory names that directory. ``pip``
    is spelled as this interpreter's ``-m pip`` when the ``pip`` on PATH belongs elsewhere.
    """
    import shlex

    source, editable = _install_source()
    target = shlex.quote(f"{source or 'leakline'}[{extra}]")
    return f"{_pip()} install {'-e ' if editable else ''}{target}"


def _install_source() -> tuple[str | None, bool]:
    """(local directory leakline was installed from, editable?) from its PEP 610
    ``direct_url.json``; (None, False) for a registry install or unknown metadata."""
    import json
    from importlib import metadata
    from urllib.parse import unquote, urlsplit

    for dist in metadata.distributions(name="leakline"):
        try:
            raw = dist.read_text("direct_url.json")
            info = json.loads(raw) if raw else None
        except (OSError, ValueError):
            continue
        url = info.get("url") if isinstance(info, dict) else None
        dir_info = info.get("dir_info") if isinstance(info, dict) else None
        if not isinstance(url, str) or not isinstance(dir_info, dict):
            continue  # a wheel or sdist from a registry or an archive: the registry form
        parts = urlsplit(url)
        if parts.scheme == "file":
            return unquote(parts.path), dir_info.get("editable") is True
    return None, False


def _pip() -> str:
    """``pip`` when the one on PATH sits beside this interpreter (an activated venv)."""
    import os
    import shlex
    import shutil
    import sys

    on_path = shutil.which("pip")
    here = os.path.realpath(os.path.dirname(sys.executable))
    if on_path and os.path.realpath(os.path.dirname(on_path)) == here:
        return "pip"
    return f"{shlex.quote(sys.executable)} -m pip"
