"""A generated class of essays for the folder check's tests: each student writes sentences of
their own (drawn with a fixed seed from a common English vocabulary, so no two students' text
agrees by chance), most of them may paste the same assignment prompt at the top, and one
student may copy a paragraph of another's. Written as .txt files; nothing is downloaded."""

from __future__ import annotations

import random
from pathlib import Path

PROMPT = (
    "Discuss the causes of the First World War. Explain how the alliances between the great "
    "powers turned a regional crisis into a general war. Use evidence from at least two of "
    "the sources provided in class."
)

_VOCABULARY = (
    "army border budget capital century coal colony conflict council crown debate diplomat "
    "empire factory farmer fleet frontier harbour industry journal kingdom labour leader market "
    "merchant minister monarch nation navy newspaper officer parliament peasant province "
    "railway rebellion reform region republic revolution rifle river senate settler soldier "
    "statesman steel strike tariff telegraph territory trade treaty union village voter warship "
    "worker alliance ambition anxiety balance caution courage crisis danger decision demand "
    "doubt duty fear glory honour hope loyalty mistrust panic pride promise rivalry rumour "
    "security suspicion tension threat victory warning ancient bitter brave careful distant "
    "eager fragile growing heavy hostile humble loyal modern narrow northern powerful proud "
    "quiet rapid restless rural secret sudden southern steady strong urban vast weary wealthy "
    "young accepted argued believed built carried claimed crossed decided defended demanded "
    "divided expanded feared followed founded gathered governed ignored increased joined "
    "marched opened ordered planned promised protected raised refused reported resisted seized "
    "signed supported threatened trusted warned"
)
_WORDS = tuple(_VOCABULARY.split())


def essay(student: int, sentences: int = 24, seed: int = 0) -> list[str]:
    """The sentences student `student` writes on their own."""
    rng = random.Random(f"{seed}-{student}")
    out = []
    for _ in range(sentences):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(9, 14))]
        out.append(" ".join(["The", *words]).rstrip() + ".")
    return out


def write_class(
    folder: Path,
    students: int = 12,
    *,
    pasted: int | None = None,
    copy: tuple[int, int] | None = (3, 7),
    seed: int = 0,
) -> Path:
    """Write `students` essays into `folder` (student01.txt, …). The first `pasted` of them
    (default: all but one; 0: nobody) open with PROMPT; with `copy` (a, b), student a's essay
    also holds student b's second paragraph, a few words changed (when there is a student b)."""
    folder.mkdir(parents=True, exist_ok=True)
    if pasted is None:
        pasted = students - 1
    own = [essay(k, seed=seed) for k in range(students)]
    for k in range(students):
        paragraphs = [" ".join(own[k][i : i + 6]) for i in range(0, len(own[k]), 6)]
        if copy is not None and k == copy[0] and copy[1] < students:
            borrowed = " ".join(own[copy[1]][6:12]).replace(" strong ", " mighty ")
            paragraphs.insert(2, borrowed)
        if k < pasted:
            paragraphs.insert(0, PROMPT)
        (folder / f"student{k + 1:02d}.txt").write_text("\n\n".join(paragraphs), "utf-8")
    return folder
