"""Detection: the sentence-length suffix tree (paper A) with its brute-force diagonal oracle,
verification of raw blocks by their sentences' first terms, scoring, the matching that ties
them together, and the repeated phrases of paper B. Imports `core.documents` only."""
