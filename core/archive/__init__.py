"""The archive of earlier years' submissions at institution scale: a persistent index
(`core.archive.index`, one SQLite file in the platform's data folder) that a check reads only
where its new documents' keys point (`core.archive.keys`), so a check costs what the new
documents share with the archive, not the archive's size. `add` files documents, `check`
checks new ones against it with exactly `doppel batch --against`'s result. docs/scale.md."""
