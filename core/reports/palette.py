"""The colours copied passages take on every surface (the window, the HTML reports, the PDF
evidence report), so a passage is the same colour wherever a teacher meets it.

Kept blocks take Paul Tol's colour-blind-safe "light" set in order along A (pale grey left out:
grey is the neutral style of discarded blocks); reworded (edited) passages are violet, a hue
the set does not hold. `app.gui.compare.colours` derives its theme-aware shades from these."""

from __future__ import annotations

from collections.abc import Sequence

from core.detection.verification import BlockOutcome, BlockState

#: Paul Tol's "light" qualitative scheme (pale grey left out), in his recommended order
BLOCK_PALETTE: tuple[str, ...] = (
    "#77AADD",  # light blue
    "#EE8866",  # orange
    "#EEDD88",  # light yellow
    "#FFAABB",  # pink
    "#99DDFF",  # light cyan
    "#44BB99",  # mint
    "#BBCC33",  # pear
    "#AAAA00",  # olive
)

#: reworded passages: the hue (swatches, legends) and the darker line drawn under them on paper
REWORDED_HUE = "#8E63C7"
REWORDED_LINE = "#5E3A94"


def mix(colour: str, amount: float, background: str = "#FFFFFF") -> str:
    """`colour` laid over `background` at `amount` (0..1) opacity, as "#RRGGBB"."""
    fore = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    back = [int(background[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(f * amount + b * (1 - amount)) for f, b in zip(fore, back, strict=True)]
    return "#" + "".join(f"{v:02X}" for v in mixed)


def colour_slots(blocks: Sequence[BlockOutcome]) -> list[int | None]:
    """Each block's place in `BLOCK_PALETTE`: kept blocks take it in turn along A (a split
    block's pieces share their block's), discarded blocks get None (they are grey)."""
    slots: list[int | None] = []
    kept = 0
    for block in blocks:
        if block.state is BlockState.DISCARDED:
            slots.append(None)
        else:
            slots.append(kept % len(BLOCK_PALETTE))
            kept += 1
    return slots
