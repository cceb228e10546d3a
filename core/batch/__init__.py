"""The folder check's engine (a *batch*): loading a class's submissions through the document
cache, finding the candidate pairs without comparing every pair, ranking them, common text,
and clusters. Its result is plain frozen data (`core.batch.result`)."""
