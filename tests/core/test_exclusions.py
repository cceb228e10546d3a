"""Exclusions: quotations (marks and block quotes), references sections and templates, found in
the engine (core.exclusions) and applied to the scores; the documents themselves never change."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from docmakers import SAMPLE_PROSE, make_docx, make_html, make_md, make_odt
from hypothesis import given, settings
from hypothesis import strategies as st

from core.comparison import compare_documents
from core.documents.document import Document, document_from_text, load_document, with_exclusions
from core.documents.excluded_spans import ExcludedSpan, ExclusionKind, SpanSet
from core.documents.language import available_languages
from core.documents.normalize import normalize_text
from core.exclusions.apply import apply_exclusions, document_exclusions
from core.exclusions.quotations import BLOCK_QUOTE, find_quotations
from core.exclusions.references import REFERENCE_HEADINGS, find_references
from core.exclusions.templates import template_exclusions
from core.options import ExclusionOptions, SignatureOptions
from core.reports.comparison_json import comparison_to_json
from core.reports.wording import exclusion_summary
from core.resources import resource_path

EN = SignatureOptions(language="en")
QUOTES = ExclusionOptions(quotations=True)
REFERENCES = ExclusionOptions(references=True)

HONEYBEES = resource_path("samples", "unrelated-essay.txt").read_text(encoding="utf-8")
PASSAGE = (
    "Libraries are the memory of a town and the classroom of those who left school early. "
    "They ask nothing of their visitors but curiosity and a little quiet. "
    "Every closed branch is a door shut on a child who had nowhere else to read."
)


def doc(text: str, name: str = "doc.txt", options: SignatureOptions = EN) -> Document:
    return document_from_text(text, name, options)


def quoted(text: str, language: str | None = None) -> list[str]:
    return [text[s.start : s.end] for s in find_quotations(text, language)]


# --- quotation marks -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('He said "hello there" and left.', ['"hello there"']),
        ("She wrote “the end is near” in her diary.", ["“the end is near”"]),
        ("Er sagte „Guten Tag“ und ging.", ["„Guten Tag“"]),
        ("Powiedział „dzień dobry” i wyszedł.", ["„dzień dobry”"]),
        ("Il a dit « non merci » poliment.", ["« non merci »"]),
        ("Han sagde »nej tak« og gik.", ["»nej tak«"]),
        ("Hon sa ”nej tak” och gick.", ["”nej tak”"]),
        ("Er sagte ‹hallo› leise.", ["‹hallo›"]),
        ("彼は「こんにちは」と言った。", ["「こんにちは」"]),
        ("He called it ‘madness’ and left.", ["‘madness’"]),
        ("He called it 'madness' and left.", ["'madness'"]),
        ("Sie sagte ‚nein‘ und ging.", ["‚nein‘"]),
        # French spacing inside guillemets, once normalised to straight marks
        ('Il a dit : " non , merci " .', ['" non , merci "']),
    ],
)
def test_every_kind_of_quotation_mark(text: str, expected: list[str]) -> None:
    assert quoted(text) == expected


def test_marks_are_included_and_the_detail_names_them() -> None:
    (span,) = find_quotations('He said "hello" twice.')
    assert (span.start, span.end, span.kind, span.detail) == (8, 15, ExclusionKind.QUOTATION, '"…"')


@pytest.mark.parametrize(
    "text",
    [
        "I don’t know about the students’ work.",
        "I don't know about the students' work.",
        "'Tis the season, 'twas said, and they sang to 'em.",
        "Rock 'n' roll in the '90s was loud.",
        "Dutch: 's avonds is 't stil.",
        "I'm goin' home, she said.",
        "Italian: un po' di pane e l'acqua.",
        'A 12" ruler and a 3" nail.',
        '""',
    ],
)
def test_apostrophes_and_stray_marks_are_not_quotations(text: str) -> None:
    assert find_quotations(text) == ()


def test_single_quotes_are_told_from_apostrophes_inside_them() -> None:
    assert quoted("'The students' work,' she said, 'is good.'") == [
        "'The students' work,'",
        "'is good.'",
    ]
    # a closing mark after an s that is followed by a word is only taken when nothing better
    # closes the quotation
    assert quoted("He called them 'the lost boys' and left; later the girls' team won.") == [
        "'the lost boys'"
    ]
    assert quoted("'I am here,' she said.") == ["'I am here,'"]


def test_an_unclosed_mark_excludes_nothing_and_no_quote_crosses_a_paragraph() -> None:
    assert find_quotations('An unclosed "quote that runs on.') == ()
    assert find_quotations('It starts "here.\n\nAnd ends" there.') == ()
    text = 'First "one" here.\n\nThen "two\nlines" there.'
    assert quoted(text) == ['"one"', '"two\nlines"']


def test_a_stray_mark_does_not_swallow_the_next_quotation() -> None:
    assert quoted('The "stray mark and then "a real one" here.') == ['"a real one"']
    assert quoted('A 12" ruler. She said "hi".') == ['"hi"']


def test_nested_quotations_count_once_the_outer_wins() -> None:
    assert quoted("\"Outer 'inner' text\" end.") == ["\"Outer 'inner' text\""]
    assert quoted("'Outer \"inner\" text' end.") == ["'Outer \"inner\" text'"]
    assert quoted("“He said ‘no’ twice”.") == ["“He said ‘no’ twice”"]
    # the outer mark never closes: the inner quotation still counts
    assert quoted("“Unclosed outer with ‘inner words’ in it.") == ["‘inner words’"]


def test_normalised_text_gives_the_same_quotations() -> None:
    raw = "„Guten Tag“, sagte er. «Bonjour», dit-elle. ‘Hello,’ he said."
    text = normalize_text(raw)
    assert len(find_quotations(raw)) == len(find_quotations(text)) == 3


def test_quoted_words_leave_the_signature_and_a_wholly_quoted_sentence_leaves_it() -> None:
    text = (
        'Critics called the novel "a triumph of careful observation" in their reviews. '
        '"Nothing in it rings false." Readers agreed.'
    )
    d = doc(text)
    excluded = apply_exclusions(d, QUOTES)
    assert d.signature.symbols == (7, 3, 2)
    assert excluded.signature.excluded == (1,)  # the sentence that is all quotation
    # the first sentence keeps its own words: critics called novel reviews
    assert excluded.signature.symbols == (4, 2)
    assert excluded.signature.keys[0] == ("critics", "called")
    assert excluded.text == d.text and excluded.sentences == d.sentences


# --- block quotes --------------------------------------------------------------------------

BLOCKS = [
    "The essay begins with the writer's own opening words about rivers and floods.",
    "This whole paragraph is a block quote taken from a famous book about rivers.",
    "The essay ends with the writer's own closing words about the village.",
]


@pytest.mark.parametrize(
    "make",
    [
        lambda p: make_docx(p / "q.docx", BLOCKS, quotes={1}),
        lambda p: make_docx(p / "q.docx", BLOCKS, quotes={1}, quote_style="Intense Quote"),
        lambda p: make_docx(p / "q.docx", BLOCKS, quotes={1}, quote_style="Block Text"),
        lambda p: make_odt(p / "q.odt", BLOCKS, quotes={1}),
        lambda p: make_html(p / "q.html", BLOCKS, quotes={1}),
        lambda p: make_md(p / "q.md", BLOCKS, quotes={1}),
    ],
    ids=["docx-quote", "docx-intense-quote", "docx-block-text", "odt", "html", "md"],
)
def test_block_quotes_of_each_format_are_excluded_end_to_end(tmp_path: Path, make) -> None:
    loaded = load_document(make(tmp_path), EN)
    (start, end) = loaded.block_quotes[0]
    assert loaded.text[start:end].endswith(BLOCKS[1])
    assert len(loaded.block_quotes) == 1
    excluded = apply_exclusions(loaded, QUOTES)
    quote_sentence = next(s.index for s in loaded.sentences if s.start >= start)
    assert excluded.signature.excluded == (quote_sentence,)
    assert [s.detail for s in excluded.excluded] == [BLOCK_QUOTE]
    assert exclusion_summary(excluded) == ["1 block quote (1 sentence left out, 14 words)"]
    # off by default: block quotes are only facts about the file
    assert apply_exclusions(loaded, ExclusionOptions()).signature == loaded.signature


def test_a_docx_style_based_on_quote_is_a_quote_style(tmp_path: Path) -> None:
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    document = docx.Document()
    style = document.styles.add_style("Long Citation", WD_STYLE_TYPE.PARAGRAPH)
    style.base_style = document.styles["Quote"]
    document.add_paragraph("Own words before the quotation.")
    document.add_paragraph("Quoted words in a custom style.", style="Long Citation")
    document.add_paragraph("Own words after it.")
    path = tmp_path / "custom.docx"
    document.save(str(path))
    loaded = load_document(path, EN)
    assert [loaded.text[a:b] for a, b in loaded.block_quotes] == ["Quoted words in a custom style."]


# --- references ----------------------------------------------------------------------------

BODY = normalize_text("\n\n".join(SAMPLE_PROSE[:6]))
ENTRIES = (
    "Smith, J. (2010). Rivers and floods. London: River Press.\n\n"
    "Jones, K. (2012). Valleys of the north. Oxford: Northern Books."
)


def references_of(text: str, language: str = "en") -> list[tuple[str, str]]:
    d = doc(text, options=SignatureOptions(language=language))
    return [(s.detail, d.text[s.start : s.end]) for s in find_references(d)]


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "References"),
        ("en", "Works Cited"),
        ("en", "7. Bibliography:"),
        ("en", "VII. REFERENCE LIST"),
        ("en", "## Works Consulted"),
        ("en", "**Literature Cited**"),
        ("de", "Literaturverzeichnis"),
        ("de", "Quellen- und Literaturverzeichnis"),
        ("fr", "Références bibliographiques"),
        ("fr", "REFERENCES BIBLIOGRAPHIQUES"),  # accents dropped in capitals
        ("es", "Bibliografía"),
        ("es", "Obras citadas"),
        ("it", "Riferimenti bibliografici"),
        ("pt", "Referências"),
        ("nl", "Literatuurlijst"),
        ("ru", "Список литературы"),
        ("pl", "Bibliografia"),
        ("cs", "Seznam použité literatury"),
        ("sl", "Viri in literatura"),
        ("da", "Litteraturliste"),
        ("no", "Kilder"),
        ("sv", "Källförteckning"),
        ("fi", "Lähteet"),
        ("et", "Kasutatud kirjandus"),
        ("el", "Βιβλιογραφία"),
        ("tr", "KAYNAKÇA"),
        ("tr", "Yararlanılan Kaynaklar"),
    ],
)
def test_a_trailing_references_section_is_found_in_every_language(
    language: str, heading: str
) -> None:
    text = f"{BODY}\n\n{heading}\n\n{ENTRIES}"
    [(detail, excluded)] = references_of(text, language)
    assert excluded == f"{heading}\n\n{ENTRIES}"
    assert detail == heading.strip("#* ").rstrip(":")


def test_every_supported_language_has_references_headings() -> None:
    assert {info.code for info in available_languages()} <= set(REFERENCE_HEADINGS)


def test_another_languages_heading_is_not_taken() -> None:
    # "Literatura" heads a references list in Polish, but a Spanish essay may end on a section
    # about literature: only the document's language and English count
    text = f"{BODY}\n\nLiteratura\n\n{ENTRIES}"
    assert references_of(text, "es") == []
    assert len(references_of(text, "pl")) == 1
    assert len(references_of(f"{BODY}\n\nReferences\n\n{ENTRIES}", "de")) == 1


def test_a_heading_near_the_start_is_not_a_references_section() -> None:
    assert references_of(f"Contents\n\nIntroduction\n\nReferences\n\n{BODY}") == []
    # an essay about bibliographies: its section heading comes before the middle
    assert references_of(f"{SAMPLE_PROSE[0]}\n\nBibliography\n\n{BODY}") == []


def test_the_last_heading_wins_and_an_appendix_ends_the_section() -> None:
    text = f"{BODY}\n\nSources\n\n{SAMPLE_PROSE[6]}\n\nReferences\n\n{ENTRIES}"
    [(detail, excluded)] = references_of(text)
    assert detail == "References" and excluded.startswith("References\n\nSmith")
    text = f"{BODY}\n\nReferences\n\n{ENTRIES}\n\nAppendix A: Survey questions\n\nWhy rivers?"
    [(_, excluded)] = references_of(text)
    assert excluded == f"References\n\n{ENTRIES}\n\n"


def test_a_heading_glued_to_the_first_entry_is_found() -> None:
    text = f"{BODY}\n\nReferences Smith, J. (2010). Rivers and floods. London: River Press."
    [(detail, _)] = references_of(text)
    assert detail == "References"
    # an ordinary sentence that starts with the word is not a heading
    assert references_of(f"{BODY}\n\nReferences to the flood appear in 1921 letters.") == []
    assert references_of(f"{BODY}\n\nSources Close To The Mayor said so in 2019.") == []


def test_no_heading_no_references() -> None:
    assert references_of(BODY) == []


def test_references_leave_out_whole_sentences_from_the_heading_on() -> None:
    d = doc(f"{BODY}\n\nWorks Cited\n\n{ENTRIES}")
    excluded = apply_exclusions(d, REFERENCES)
    heading = next(s.index for s in d.sentences if d.text[s.start : s.end] == "Works Cited")
    assert excluded.signature.excluded == tuple(range(heading, len(d.sentences)))
    assert exclusion_summary(excluded) == [
        f"references section from 'Works Cited' ({len(d.sentences) - heading} sentences left out)"
    ]


# --- templates -----------------------------------------------------------------------------

PROMPT = (
    "Public libraries face new challenges in the digital age. Many people now read on screens "
    "rather than on paper. Councils must decide how to spend limited budgets on books and "
    "computers.\n\nWrite an essay of about one thousand words discussing whether public "
    "libraries still matter today."
)
OWN_A = (
    "My grandmother took me to the library every Saturday morning. The librarian knew every "
    "child in the village by name. I still remember the smell of old paper and floor polish."
)
OWN_B = (
    "Our town closed its library last winter after a long campaign. Volunteers tried to keep "
    "the doors open with donations. The building is now a gym with loud music."
)
COPIED = (
    "Libraries also offer warm rooms to people without homes. Job seekers print their "
    "applications at the front desk. Children attend story hours after school."
)


def test_submissions_sharing_only_the_prompt_score_zero_with_the_template() -> None:
    a = doc(f"{PROMPT}\n\n{OWN_A}", "a.txt")
    b = doc(f"{PROMPT}\n\n{OWN_B}", "b.txt")
    prompt = doc(PROMPT, "prompt.txt")
    assert compare_documents(a, b).jaccard > 0
    comparison = compare_documents(a, b, templates=[prompt])
    assert comparison.jaccard == 0 and comparison.matched_sentences == 0
    assert comparison.templates == ("prompt.txt",)
    assert exclusion_summary(comparison.a) == ["template prompt.txt (4 sentences left out)"]
    # what is scored is what the students wrote themselves
    assert len(comparison.a.signature) == len(comparison.b.signature) == 3


def test_copying_beyond_the_prompt_still_shows() -> None:
    a = doc(f"{PROMPT}\n\n{OWN_A}\n\n{COPIED}", "a.txt")
    b = doc(f"{PROMPT}\n\n{OWN_B}\n\n{COPIED}", "b.txt")
    comparison = compare_documents(a, b, templates=[doc(PROMPT, "prompt.txt")])
    assert comparison.matched_sentences == 3  # the copied paragraph, not the prompt
    assert comparison.jaccard == pytest.approx(3 / (6 + 6 - 3))


def test_a_sentence_holding_a_template_phrase_is_excluded_whole() -> None:
    prompt = doc(PROMPT, "prompt.txt")
    text = (
        "In this essay I am discussing whether public libraries still matter today, and why. "
        "My grandmother took me to the library every Saturday."
    )
    spans = template_exclusions(
        doc(text), [prompt]
    )  # "whether public libraries still matter today"
    assert [(text[s.start : s.end], s.kind, s.detail) for s in spans] == [
        (text[: text.index(" My")], ExclusionKind.TEMPLATE, "prompt.txt")
    ]
    five = "The question is whether public libraries still matter. I think so."
    assert template_exclusions(doc(five), [prompt]) == ()
    assert len(template_exclusions(doc(five), [prompt], phrase_words=5)) == 1
    with pytest.raises(ValueError):
        template_exclusions(doc(five), [prompt], phrase_words=1)


def test_a_template_read_with_other_options_is_read_again_with_the_documents() -> None:
    a = doc(f"{PROMPT}\n\n{OWN_A}", "a.txt")
    prompt = document_from_text(PROMPT, "prompt.txt", SignatureOptions(language="en", key_size=3))
    spans = template_exclusions(a, [prompt])
    # the prompt's four sentences, a span each
    assert [(s.start, s.end) for s in spans] == [(s.start, s.end) for s in a.sentences[:4]]
    assert {(s.kind, s.detail) for s in spans} == {(ExclusionKind.TEMPLATE, "prompt.txt")}
    assert with_exclusions(a, spans).signature.excluded == (0, 1, 2, 3)


def test_several_templates_each_named() -> None:
    handout = doc(COPIED, "handout.txt")
    prompt = doc(PROMPT, "prompt.txt")
    a = apply_exclusions(
        doc(f"{PROMPT}\n\n{OWN_A}\n\n{COPIED}"), ExclusionOptions(), [prompt, handout]
    )
    assert exclusion_summary(a) == [
        "template handout.txt (3 sentences left out)",
        "template prompt.txt (4 sentences left out)",
    ]


# --- scores recompute; documents never change ----------------------------------------------


def test_essays_sharing_only_a_quoted_passage_score_zero_with_quotations_excluded() -> None:
    a = doc(f"{SAMPLE_PROSE[0]}\n\n“{PASSAGE}”\n\n{SAMPLE_PROSE[1]}", "a.txt")
    b = doc(f'{HONEYBEES}\n\n"{PASSAGE}"', "b.txt")
    plain = compare_documents(a, b)
    assert plain.matched_sentences == 3 and plain.jaccard > 0
    comparison = compare_documents(a, b, exclusions=QUOTES)
    assert comparison.jaccard == 0 and comparison.matched_sentences == 0
    assert comparison.exclusions == QUOTES
    assert exclusion_summary(comparison.b) == ["1 quotation (3 sentences left out, 44 words)"]
    # A's second paragraph has dialogue in it: two more quotations, one whole sentence
    assert exclusion_summary(comparison.a) == ["3 quotations (4 sentences left out, 61 words)"]
    data = json.loads(json.dumps(comparison_to_json(comparison)))
    assert data["exclusions"] == {
        "quotations": True,
        "references": False,
        "templates": [],
        "template_phrase_words": 6,
    }
    assert data["a"]["excluded"] == [
        {"start": s.start, "end": s.end, "kind": "quotation", "detail": '"…"'}
        for s in comparison.a.excluded
    ]
    assert data["a"]["excluded_sentences"] == list(comparison.a.signature.excluded)
    assert data["b"]["signature_length"] == len(b.signature) - 3


def test_without_exclusions_the_json_says_so() -> None:
    data = comparison_to_json(compare_documents(doc(PASSAGE), doc(PASSAGE)))
    assert data["exclusions"]["quotations"] is False and data["exclusions"]["templates"] == []
    assert data["a"]["excluded"] == [] and data["a"]["excluded_sentences"] == []


def test_exclusions_never_change_the_document_text_or_sentences() -> None:
    a = doc(f"{PROMPT}\n\n“{PASSAGE}”\n\n{OWN_A}\n\nReferences\n\n{ENTRIES}")
    everything = ExclusionOptions(quotations=True, references=True)
    excluded = apply_exclusions(a, everything, [doc(PROMPT, "prompt.txt")])
    assert {s.kind for s in excluded.excluded} == {
        ExclusionKind.QUOTATION,
        ExclusionKind.REFERENCES,
        ExclusionKind.TEMPLATE,
    }
    assert excluded.text == a.text and excluded.sentences == a.sentences
    assert excluded.content_hash == a.content_hash and excluded.block_quotes == a.block_quotes
    assert len(excluded.signature) < len(a.signature)
    # applying again, or with everything off, starts from the document's own text
    assert apply_exclusions(excluded, everything, [doc(PROMPT, "prompt.txt")]) == excluded
    assert apply_exclusions(excluded, ExclusionOptions()).signature == a.signature


def test_apply_keeps_the_batchs_common_text_and_replaces_its_own_kinds() -> None:
    a = doc(f"{OWN_A}\n\n“{PASSAGE}”")
    common = ExcludedSpan(0, 10, ExclusionKind.COMMON, "in 31 of 40 documents")
    stale = ExcludedSpan(20, 30, ExclusionKind.TEMPLATE, "old.txt")
    a = with_exclusions(a, [common, stale])
    after = apply_exclusions(a, QUOTES)
    assert common in after.excluded and stale not in after.excluded
    assert {s.kind for s in after.excluded} == {ExclusionKind.COMMON, ExclusionKind.QUOTATION}
    assert document_exclusions(a, QUOTES) == find_quotations(a.text, "en")


def test_the_summary_names_each_reason() -> None:
    d = doc(f"{OWN_A} He called it 'a quiet place' once.\n\n“{PASSAGE}”")
    assert exclusion_summary(d) == []
    assert exclusion_summary(apply_exclusions(d, QUOTES)) == [
        "2 quotations (3 sentences left out, 47 words)"
    ]


# --- properties ----------------------------------------------------------------------------

PROPERTY_DOC = doc(f"{PROMPT}\n\n{OWN_A}\n\n“{PASSAGE}” she said.\n\n{COPIED}")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(PROPERTY_DOC.text)), st.integers(0, len(PROPERTY_DOC.text))
        ).map(sorted),
        max_size=6,
    )
)
def test_excluded_words_never_reach_the_signature(pairs: list[list[int]]) -> None:
    spans = [ExcludedSpan(a, b, ExclusionKind.QUOTATION) for a, b in pairs]
    d = with_exclusions(PROPERTY_DOC, spans)
    covered = SpanSet(spans)
    assert d.text == PROPERTY_DOC.text and d.sentences == PROPERTY_DOC.sentences
    key_size = d.signature.key_size
    for position, index in enumerate(d.signature.sentence_indices):
        terms = [t for t in d.sentences[index].terms if not covered.covers(t.start, t.end)]
        assert d.signature.symbols[position] == len(terms)
        assert d.signature.keys[position] == tuple(t.text for t in terms[:key_size])
    for index in d.signature.excluded:
        sentence = d.sentences[index]
        assert not any(
            not covered.covers(t.start, t.end) for t in sentence.terms
        )  # nothing of it is left
    kept = set(d.signature.sentence_indices) | set(d.signature.excluded)
    assert kept | set(d.signature.too_long) == set(range(len(d.sentences)))


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab .\"'“”«»\n"), max_size=60))
def test_quotations_are_disjoint_closed_spans_inside_one_paragraph(text: str) -> None:
    spans = find_quotations(text)
    for first, second in itertools.pairwise(spans):
        assert first.end <= second.start
    for span in spans:
        inside = text[span.start : span.end]
        assert not re.search(r"\n\s*\n", inside)
        assert any(ch.isalnum() for ch in inside)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(PROPERTY_DOC.text)), st.integers(0, len(PROPERTY_DOC.text))
        ).map(sorted),
        max_size=4,
    )
)
def test_no_exclusion_gives_the_same_signature(pairs: list[list[int]]) -> None:
    spans = [ExcludedSpan(a, b, ExclusionKind.TEMPLATE, "t") for a, b in pairs]
    excluded = with_exclusions(PROPERTY_DOC, spans)
    assert with_exclusions(excluded, ()).signature == PROPERTY_DOC.signature
    # spans holding no word (spaces, punctuation) change nothing either
    gaps = [
        ExcludedSpan(s.end, s.end + 1, ExclusionKind.QUOTATION)
        for s in PROPERTY_DOC.sentences
        if s.end < len(PROPERTY_DOC.text)
    ]
    assert with_exclusions(PROPERTY_DOC, gaps).signature == PROPERTY_DOC.signature
    assert apply_exclusions(PROPERTY_DOC, ExclusionOptions()) == PROPERTY_DOC
