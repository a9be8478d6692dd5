"""Issue 33's siblings in the Japanese catalog: a round is 回 where the entry speaks of the way it
was played (最後まで打った回, as the entry's questions say), never ラウンド beside it."""

from __future__ import annotations

from test_words_catalog import entries


def test_a_round_played_out_is_said_one_way():
    said = [ja for _en, ja in entries() if "打ったラウンド" in ja]
    assert not said, said
    assert any("最後まで打った回" in ja for _en, ja in entries())


def test_a_draft_typed_meanwhile_blames_no_terminal_when_a_phone_may_have_typed_it(tmp_path):
    """A draft moved on since this writer read it: a phone (serve) writes drafts as a terminal
    does, so the line names both, not "another terminal" alone."""
    import pytest

    from scorekeeper import lang
    from scorekeeper.drafts import Draft, Drafts
    from scorekeeper.errors import DraftConflict

    drafts = Drafts(tmp_path / "book.json")
    draft = Draft("s1")
    drafts.save(draft, 0)
    drafts.save(draft, 1)  # another writer's save: revision 2 on disk
    with pytest.raises(DraftConflict) as caught:
        drafts.save(draft, 1)  # this writer had seen 1
    line = lang.english(lang.message_of(caught.value))
    assert "on a phone or at another terminal" in line, line
    ja = lang.in_language("ja", lambda: str(lang.worded(lang.message_of(caught.value))))
    assert "スマホか別の端末" in ja, ja
