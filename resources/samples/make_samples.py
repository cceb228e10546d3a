"""Writes the .docx versions of the sample essays from their .txt originals.

    .venv/bin/python resources/samples/make_samples.py

The first paragraph of each essay becomes the document's title (a Word heading); the rest are
body paragraphs. The .txt files are the source of truth: edit them, then run this script."""

from __future__ import annotations

from pathlib import Path

from docx import Document

HERE = Path(__file__).resolve().parent


def write_docx(source: Path) -> Path:
    paragraphs = [p.strip() for p in source.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    document = Document()
    document.core_properties.title = paragraphs[0]
    document.core_properties.author = "Doppel sample"
    document.add_heading(paragraphs[0], level=1)
    for paragraph in paragraphs[1:]:
        document.add_paragraph(" ".join(paragraph.split()))
    target = source.with_suffix(".docx")
    document.save(str(target))
    return target


if __name__ == "__main__":
    for txt in sorted(HERE.glob("*.txt")):
        print(write_docx(txt))
