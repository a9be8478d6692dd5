"""Issue 33's siblings in the Japanese catalog: a round is 回 where the entry speaks of the way it
was played (最後まで打った回, as the entry's questions say), never ラウンド beside it."""

from __future__ import annotations

from test_words_catalog import entries


def test_a_round_played_out_is_said_one_way():
    said = [ja for _en, ja in entries() if "打ったラウンド" in ja]
    assert not said, said
    assert any("最後まで打った回" in ja for _en, ja in entries())
