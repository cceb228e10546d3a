"""Documents: a file's text extracted and normalised, its language, its sentences and their
terms, its sentence-length signature, the spans left out of scoring, and the `Document` that
holds them all. The lowest layer of the engine: it imports only the foundation modules
(`core.errors`, `core.options`, `core.resources`)."""
