"""Human rewriting (bench/eval_p4p.py): the loader and detokeniser, the overlap and screening
rules, and a run on a tiny made-up sample written here (P4P itself is research-use data that
never enters the repository; the test reading it is skipped where it is absent)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import eval_methods  # noqa: E402
import eval_p4p as ep  # noqa: E402
from corpus import p4p_dir  # noqa: E402

#: made-up cases in P4P's tokenised form: (original, rewrite)
SAMPLE = [
    (
        "The old lighthouse keeper climbed the stairs every evening before dusk . "
        "He was careful with the lamp , and the oil had to be checked twice .",
        "The old lighthouse keeper climbed the stairs every evening before dusk . "
        "He was careful with the lamp , and the oil had to be checked twice .",
    ),
    (
        "Storms came often in the autumn , and the sea turned grey and wild . "
        "Ships passing the cape would see the light and steer away from the rocks . "
        "In the spring the keeper painted the railing a bright shade of red .",
        "In the autumn storms came often , and the sea turned wild and grey . "
        "Passing ships would see the light from the cape and steer away from the rocks . "
        "The keeper painted the railing a bright red shade in the spring .",
    ),
    (
        "Farmers harvest wheat in `` late '' summer ( usually ) ; bakers knead the dough .",
        "Bakers knead dough patiently while ovens warm quickly .",
    ),
    (
        "Merchants can't sell apples , pears and plums cheaply at the market 's edge !",
        "Children will sing songs about merchants and their fruit .",
    ),
    (
        "A quiet river ran past the mill where the miller 's daughter sang every morning .",
        "Near the mill a girl sang each day by the water .",
    ),
    (
        "Where the miller 's daughter sang every morning , swallows nested under the roof .",
        "Birds built nests beneath the mill roof .",
    ),
]


def write_sample(folder: Path, sample: list[tuple[str, str]] = SAMPLE) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "p4p_reference.txt").write_text("\n".join(o for o, _ in sample) + "\n")
    (folder / "p4p_source.txt").write_text("\n".join(r for _, r in sample) + "\n")
    return folder


@pytest.mark.parametrize(
    ("tokenised", "text"),
    [
        (
            "the term `` Gothic '' may be found , in its origin , quite distinct .",
            'the term "Gothic" may be found, in its origin, quite distinct.',
        ),
        ("`` Go home ! '' he said .", '"Go home!" he said.'),
        ("It is n't the Pointed Style 's fault ( p. 178 ) ...", None),
        ("He ca n't ; she did n't : they 've gone ?", "He can't; she didn't: they've gone?"),
        ("a [ note ] and -- a dash", "a [note] and -- a dash"),
    ],
)
def test_detokenise(tokenised: str, text: str | None) -> None:
    if text is None:
        text = "It isn't the Pointed Style's fault (p. 178)..."
        # "is n't" is tokenised from "isn't": the clitic joins the word before it
    assert ep.detokenise(tokenised) == text


def test_load_pairs_lines_and_detokenises(tmp_path: Path) -> None:
    data = ep.load_p4p(write_sample(tmp_path / "p4p"))
    assert len(data.originals) == len(data.rewrites) == len(SAMPLE)
    assert data.originals[2] == (
        'Farmers harvest wheat in "late" summer (usually); bakers knead the dough.'
    )
    assert data.tokenised_originals[2] == SAMPLE[2][0]


def test_load_refuses_files_of_different_lengths(tmp_path: Path) -> None:
    folder = write_sample(tmp_path / "p4p")
    (folder / "p4p_source.txt").write_text("only one line\n")
    with pytest.raises(ValueError, match="originals but"):
        ep.load_p4p(folder)


def test_overlapping_originals_share_five_words() -> None:
    originals = [o for o, _ in SAMPLE]
    # "the miller 's daughter sang every morning": \w+ words miller s daughter sang every
    assert ep.overlapping_pairs(originals) == {(4, 5), (5, 4)}
    assert ep.overlapping_pairs(originals, n=12) == set()


def test_screened_pairs_are_those_sharing_enough_features() -> None:
    rng = random.Random(5)
    features = [frozenset(rng.sample(range(12), 3)) for _ in range(9)]
    screens_a = [((f, 2),) for f in features[:4]]
    screens_b = [((f, 2),) for f in features[4:]]
    expected = {
        (i, j)
        for i, (a,) in enumerate(screens_a)
        for j, (b,) in enumerate(screens_b)
        if len(a[0] & b[0]) >= 2
    }
    assert ep.screened_pairs(screens_a, screens_b) == expected
    # two alternatives: either one lets a pair through
    both_a = [((f, 2), (frozenset({i}), 1)) for i, f in enumerate(features[:4])]
    both_b = [((f, 2), (frozenset({0}), 1)) for f in features[4:]]
    assert ep.screened_pairs(both_a, both_b) == expected | {(0, j) for j in range(5)}


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = write_sample(tmp_path_factory.mktemp("p4p") / "p4p")
    return ep.run_p4p(folder, eval_methods.all_methods(), progress=lambda _: None)


def test_a_run_counts_every_pair_but_the_overlapping_ones(sample_run: dict) -> None:
    n = len(SAMPLE)
    assert sample_run["cases"] == n
    assert sample_run["overlapping_pairs"] == 2
    assert sample_run["negatives"] == n * (n - 1) - 2
    assert sample_run["identical_pairs"] == 1
    names = [m.name for m in eval_methods.all_methods()]
    assert [row["method"] for row in sample_run["rows"]] == names
    for row in sample_run["rows"]:
        assert 0 <= row["recall_at_zero_fp"] <= 1 and 0 <= row["roc_auc"] <= 1
        assert row["compared_negatives"] <= sample_run["negatives"]


def test_doppel_flags_the_copy_and_the_rewording_and_nothing_else(sample_run: dict) -> None:
    rows = {row["method"]: row for row in sample_run["rows"]}
    doppel = rows["Doppel (SL+ST + reworded)"]
    assert doppel["tp"] >= 2 and doppel["fp"] == 0
    assert rows["SL+ST"]["tp"] == 1  # the verbatim copy only
    assert "tp" not in rows["Shingling w=4"]  # a baseline has no verdict
    assert sum(sample_run["by_sentences"][k][1] for k in ("both one", "one", "more")) == 6
    missed = {m["line"] for m in sample_run["misses"]}
    assert not missed & {1, 2}  # the copy and the rewording (lines 1, 2) are not misses


@pytest.mark.skipif(p4p_dir() is None, reason="P4P (../shared/corpus/p4p) is absent")
def test_the_real_data_has_856_cases_and_24_overlapping_pairs() -> None:
    folder = p4p_dir()
    assert folder is not None
    data = ep.load_p4p(folder)
    assert len(data.originals) == len(data.rewrites) == 856
    assert len(ep.overlapping_pairs(data.tokenised_originals)) == 24
    assert not any("``" in t or "''" in t for t in data.originals + data.rewrites)
