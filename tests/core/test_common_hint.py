"""The pasted prompt, noticed (`core.batch.common_hint`): a class where most students pasted the
assignment prompt is told so, with the passage; a class where nobody did, or where the text
everyone shares is not why the pairs were found, is not. And each submission's strongest
partner (`core.batch.partners.standings`), held to a brute-force oracle."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from core.batch.common_hint import HINT_SHARE, MIN_HOLDERS, CommonTextHint
from core.batch.common_text import CommonPassage
from core.batch.partners import standings, strongest_partners
from core.batch.run import BatchOptions, run_batch
from core.options import ExclusionOptions, SignatureOptions
from core.reports.wording import (
    NOTHING_FOUND_IN_ANOTHER,
    common_hint_text,
    most_found_in,
    quoted,
)
from tests.core.classmaker import PROMPT, write_class

EN = SignatureOptions(language="en")


def check(folder: Path, **options: object) -> object:
    return run_batch([folder], options=BatchOptions(signature=EN, workers=1, **options))  # type: ignore[arg-type]


def names(result, pair) -> set[str]:
    return {result.documents[k].path.stem for k in (pair.a, pair.b)}


def test_a_class_that_pasted_the_prompt_is_told_so_with_the_passage(tmp_path: Path) -> None:
    # 11 of 12 pasted it; the twelfth, who did not, copied from the fourth
    result = check(write_class(tmp_path / "class", 12, copy=(11, 3)))
    hint = result.common_hint
    assert hint is not None and hint.share == HINT_SHARE == 0.5
    assert hint.passage.text == PROMPT and hint.holding == 11 and hint.counted == 12
    assert hint.flagged == len(result.pairs) == 55 + 1  # the prompt's pairs and the real copy
    assert hint.pairs == 55  # every pair of two who pasted it; not the copy by student 12
    assert names(result, result.pairs[0]) == {"student12", "student04"}  # the copy, ranked first
    # nothing was left out: the check is as it was, the hint only says what to do
    assert result.common_text == () and all(not d.excluded for d in result.documents)


def test_a_class_where_nobody_pasted_it_is_told_nothing(tmp_path: Path) -> None:
    result = check(write_class(tmp_path / "class", 12, pasted=0))
    assert result.common_hint is None
    (pair,) = result.pairs  # the real copy is still found
    assert names(result, pair) == {"student04", "student08"}


def test_leaving_it_out_leaves_out_what_the_hint_showed(tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class", 12)
    hint = check(folder).common_hint
    assert hint is not None
    left_out = check(folder, exclusions=ExclusionOptions(common_share=hint.share))
    assert left_out.common_hint is None  # it is left out now: nothing more to suggest
    assert left_out.common_text == hint.passages
    (pair,) = left_out.pairs  # only the real copy is left
    assert names(left_out, pair) == {"student04", "student08"}


def test_text_everyone_shares_that_made_no_pair_is_not_a_prompt(tmp_path: Path) -> None:
    """Every essay opens with the same short heading (common text, but one sentence cannot
    make a pair): the one pair is the real copy, so the check says nothing."""
    folder = write_class(tmp_path / "class", 8, pasted=0)
    for path in folder.iterdir():
        path.write_text("History essay for the spring term.\n\n" + path.read_text("utf-8"))
    result = check(folder)
    (pair,) = result.pairs
    assert names(result, pair) == {"student04", "student08"}
    assert result.common_hint is None
    # the heading is common text all the same: the exclusion would find it
    left_out = check(folder, exclusions=ExclusionOptions(common_share=0.5))
    assert [p.text for p in left_out.common_text] == ["History essay for the spring term."]


def test_two_students_sharing_a_passage_are_not_a_class_pasting_a_prompt(tmp_path: Path) -> None:
    """Of three students, two share a long passage (more than half of them): a copy, not a
    prompt; the hint wants text in at least MIN_HOLDERS submissions."""
    assert MIN_HOLDERS == 3
    folder = write_class(tmp_path / "class", 3, pasted=2, copy=None)
    (folder / "student03.txt").write_text("\n\n".join(
        " ".join(f"Quiet words number {k} {j} stand apart here." for j in range(5))
        for k in range(4)
    ))  # fmt: skip
    result = check(folder)
    assert len(result.pairs) == 1 and result.common_hint is None


def test_the_hint_can_be_turned_off(tmp_path: Path) -> None:
    result = check(write_class(tmp_path / "class", 8), suggest_common=False)
    assert result.common_hint is None and len(result.pairs) > 1


def test_the_hint_in_words() -> None:
    passage = CommonPassage("Discuss the causes of the First World War. Explain how", 27, 10)
    hint = CommonTextHint(0.5, (passage,), 30, pairs=300, flagged=351)
    assert common_hint_text(hint, limit=30) == (
        "Most pairs share the same passage (in 27 of 30 submissions): 'Discuss the causes of "
        "the…' — probably a prompt everyone pasted."
    )
    everyone = CommonTextHint(0.5, (passage,), 30, pairs=351, flagged=351)
    assert common_hint_text(everyone).startswith("All pairs share the same passage")
    assert quoted("Short.") == "'Short.'"
    assert most_found_in(0.41, "essay-b.docx") == "41.0% in essay-b.docx"
    assert most_found_in(0.0, None) == NOTHING_FOUND_IN_ANOTHER


# -- each submission's strongest partner ---------------------------------------------------


class Shares:
    def __init__(self, a: int, b: int, copied_a: float, copied_b: float) -> None:
        self.a, self.b, self.copied_a, self.copied_b = a, b, copied_a, copied_b


shares = st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0])


@st.composite
def pair_lists(draw: st.DrawFn) -> tuple[int, list[Shares]]:
    count = draw(st.integers(2, 7))
    chosen = draw(
        st.lists(
            st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)).filter(
                lambda t: t[0] < t[1]
            ),
            unique=True,
            max_size=12,
        )
    )
    return count, [Shares(a, b, draw(shares), draw(shares)) for a, b in chosen]


@given(pair_lists())
def test_standings_agree_with_a_brute_force_over_every_pair(case) -> None:
    count, pairs = case
    rows = standings(count, pairs)
    assert sorted(r.document for r in rows) == list(range(count))
    assert [(-r.share, r.document) for r in rows] == sorted((-r.share, r.document) for r in rows)
    for row in rows:
        d = row.document
        mine = [
            (p.copied_a, p.b) if p.a == d else (p.copied_b, p.a) for p in pairs if d in (p.a, p.b)
        ]
        found = [(share, partner) for share, partner in mine if share > 0]
        best = max((share for share, _ in found), default=0.0)
        assert row.share == best
        # the partner of the first pair (in the pairs' order) with that share, or none
        assert row.partner == next((p for s, p in found if s == best), None)
        assert row.pairs == sum(1 for p in pairs if d in (p.a, p.b) and (p.copied_a or p.copied_b))
    assert {r.document for r in rows if r.partner is not None} == set(strongest_partners(pairs))
