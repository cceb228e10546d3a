"""The words an evidence report uses to explain itself to a reader who has never seen Doppel:
how to read it, and what the method does not detect, with the measured numbers of
docs/evaluation.md (`make evaluate`; tests/core/test_evidence_report.py holds `EVALUATION` to
that page, so a new evaluation run that changes a number fails until the report says it too).

The report states findings, never accusations: it says what text the two documents share and
how it was found, and leaves the judgement (who copied from whom, whether it was allowed, cited,
or common to a class) to the reader."""

from __future__ import annotations

from dataclasses import dataclass

from core.reports.wording import percent


@dataclass(frozen=True, slots=True)
class Measured:
    """Caught of tried, in one test of docs/evaluation.md."""

    caught: int
    tried: int

    @property
    def text(self) -> str:
        return f"{self.caught:,} of {self.tried:,} ({percent(self.caught / self.tried)})"


#: docs/evaluation.md, "For teachers" (run of 2026-12-01)
EVALUATION = {
    "verbatim": Measured(85, 85),
    "light": Measured(78, 78),
    "heavy": Measured(81, 82),
    "people": Measured(285, 856),
    "false_alarms": Measured(0, 15_115),
}


def jaccard_line(jaccard: float) -> str:
    """The paper's measure in one line."""
    return (
        f"The SL+ST paper's own measure, the Jaccard score of the matched sentences, is "
        f"{jaccard:.3f}: the sentences inside verified blocks over all the sentences of both "
        f"documents (0: none, 1: every sentence of each is matched in the other)."
    )


HOW_TO_READ: tuple[str, ...] = (
    "This report compares two documents, A and B, and shows the text they share. It states "
    "what was found and how; it does not say who wrote what first, whether sharing was "
    "allowed, or whether the shared text is cited. Those judgements belong to the reader.",
    'Doppel looks for shared text in two ways. A verified block ("word for word") is a run of '
    "at least two sentences in a row whose lengths (counted without common words such as "
    '"the" and "of") agree in both documents and whose first words are the same: text '
    'copied word for word, or nearly. An edited passage ("edited") is a stretch of '
    "neighbouring sentences that share many of their less common words even though words "
    "were changed, added or left out and sentences reordered, merged or split.",
    "Each passage is shown with A on the left and B on the right, sentence beside sentence, "
    "in the colour the app gives it. Words both sides share are set in bold on a stronger "
    "shade; the words in plain type differ between the two sides. The page map shows where "
    "in each document the passages lie.",
    'A share such as "41% of A\'s sentences are found in B" counts the sentences of A that '
    "lie inside a passage found in B. Text left out of the scores on request (quotations, "
    "references, templates, text common to a class) is listed on the first page and not "
    "counted.",
    "Each document is identified by its SHA-256 fingerprint: a file with the same fingerprint "
    "has exactly the same content as the file that was checked.",
)


def _limits() -> tuple[str, ...]:
    e = EVALUATION
    return (
        "Doppel compares only the two documents in this report; it does not search the "
        "internet or other documents, so text both took from a third source looks the same as "
        "text one took from the other.",
        f"In Doppel's own evaluation (passages planted into other texts), pairs with a "
        f"passage copied word for word were found in {e['verbatim'].text} of cases, lightly "
        f"edited in {e['light'].text}, and heavily reworded in {e['heavy'].text}. Passages "
        f"rewritten by people in their own words (the P4P corpus) were found in only "
        f"{e['people'].text}: a thorough paraphrase, a translation, or copied ideas without "
        f"shared words are not detected.",
        f"Of {e['false_alarms'].tried:,} pairs of unrelated texts, {e['false_alarms'].caught} "
        f"were flagged. Texts on one topic, quoting the same sources or answering the same "
        f"prompt share more than those test texts do; what such a passage holds is for the "
        f"reader to weigh.",
        "A single sentence in common is shown only when it shares many words; a short phrase "
        "in common is not a finding here. Tables, images, formulas and program code are not "
        "compared; scanned pages without a text layer cannot be read.",
    )


LIMITS: tuple[str, ...] = _limits()
