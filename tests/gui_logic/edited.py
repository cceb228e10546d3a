"""A passage copied and then edited, for the window's tests (Qt-free, so the headless lane can
import it): every sentence is rewritten around the same content words, so no two sentences have
the same length and first words (SL+ST finds nothing) while the reworded-passage detector finds
one passage. Put behind different filler (`tests.core.docmakers.FILLER_A`, `FILLER_B`)."""

MONASTERY = (
    "The medieval monastery preserved ancient manuscripts through careful copying by "
    "candlelight. Monks illuminated the margins with gold leaf, lapis blue and intricate "
    "knotwork patterns. Their scriptorium faced south to catch the winter sunlight for long "
    "working hours. Visiting scholars travelled from distant kingdoms to consult the rare "
    "volumes. "
)
MONASTERY_EDITED = (
    "Through careful copying by candlelight, the monastery of the middle ages preserved its "
    "ancient manuscripts. With gold leaf, lapis blue and intricate knotwork patterns the monks "
    "decorated every margin. To catch the winter sunlight during long working hours, their "
    "scriptorium was built facing south. Scholars from distant kingdoms travelled there to "
    "consult the rare volumes kept inside. "
)
