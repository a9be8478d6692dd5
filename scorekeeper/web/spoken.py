"""Words said in a language other than the one of the moment: the server's own terminal lines
(in the terminal's language, whichever request or thread made them) and a refusal worded again
in the language of the phone that asked, from the template it remembers (:class:`lang.Said`).
No starlette here.
"""

from __future__ import annotations

from typing import Any

from .. import lang


def spoken(text: Any) -> str:
    """``text`` in the language spoken now: a message (:class:`lang.Said`) worded again from its
    template and arguments; any other text as it is."""
    return str(lang.worded(text)) if isinstance(text, lang.Said) else str(text)


def line_of(error: BaseException) -> str:
    """An error's one line in the language spoken now: worded again when it was made of a
    message (a :class:`lang.Said` that is the whole of its text), else as it says itself."""
    text = str(error)
    said = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], lang.Said) else None
    if said is not None and text == str(said):
        return spoken(said)
    message = getattr(error, "message", None)  # an HttpError
    if isinstance(message, lang.Said) and text == str(message):
        return spoken(message)
    return text


def with_said(value: Any) -> Any:
    """``value`` (a view's JSON) with every message that is text (a :class:`lang.Said`: a problem's
    line, the header) also carried as its template and arguments, under the same key and
    ``_m`` (``message`` and ``message_m``), so that each phone words it in its own language."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out[k] = with_said(v)
            if isinstance(v, lang.Said) and isinstance(k, str) and f"{k}_m" not in value:
                out[f"{k}_m"] = v.to_json()
        return out
    if isinstance(value, list):
        return [with_said(v) for v in value]
    return value
