"""The Folder check tab: its controller (runs the batch and the exports in the background),
the view, the setup panel and the similarity heatmap."""
